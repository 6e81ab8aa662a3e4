#include "step/memory_model.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ws {

std::string MemoryBreakdown::dominantTerm() const {
    const std::array<std::pair<double, const char*>, 6> terms = {{{weights, "weights"},
                                                                  {gradients, "gradients"},
                                                                  {optimizer, "optimizer"},
                                                                  {activations, "activations"},
                                                                  {streamBuffers, "stream buffers"},
                                                                  {commReserve, "comm reserve"}}};
    std::pair<double, const char*> largest = terms[0];
    for (const auto& term : terms)
        if (term.first > largest.first)
            largest = term;
    return largest.second;
}

MemoryBreakdown estimateMemory(const Workload& workload, const StrategySpec& strategy,
                               const DieSpec& die, double streamedBlockBytes) {
    MemoryBreakdown memory;
    memory.sramCapacity = die.sram.value;
    memory.hbmCapacity = die.hbm.value;
    memory.commReserve = die.sramReserve * die.sram.value;
    const int bufferCopies = strategy.doubleBuffering ? 2 : 1;
    // A die receives blocks from both neighbours of its stream's path (TATP's, or the TP
    // group's under tp_overlap); 0 when nothing streams.
    memory.streamBuffers = 2.0 * bufferCopies * streamedBlockBytes;
    const double dtype = workload.dtypeBytes;
    const double modelParallel = static_cast<double>(strategy.tp) * strategy.tatp;

    if (workload.kind == WorkloadKind::Gemm) {
        const GemmShape& g = workload.gemm;
        const double rows = g.m / (static_cast<double>(strategy.dp) * strategy.sp * strategy.tatp);
        const double fsdpShards = strategy.fsdp ? strategy.dp : 1.0;
        memory.weights = g.k * g.n / modelParallel * dtype / fsdpShards;
        // The die's input rows and the output rows it produces (all N of its TP slice).
        memory.activations = rows * g.k * dtype + rows * g.n / strategy.tp * dtype;
        if (strategy.fsdp && strategy.dp > 1) // the gathered copy in use
            memory.weights += g.k * g.n / modelParallel * dtype;
        return memory;
    }

    const TransformerConfig& model = workload.model;
    // Pipeline stages: a die holds its stage's layers; the first stage (the one reported: it
    // holds the most activations) also holds the embedding, as the last does (tied weights).
    const double stageLayers = static_cast<double>(model.layers) / strategy.pp;
    const double parameters =
        (stageLayers * model.parametersPerLayer() + model.embeddingParameters()) / modelParallel;
    const double shards = strategy.fsdp ? strategy.dp : 1.0;
    memory.weights = parameters * dtype / shards;
    memory.gradients = parameters * dtype / shards;
    memory.optimizer = parameters * workload.optimizerBytesPerParameter / shards;
    // FSDP holds the gathered weights of the layer running and of the next one, prefetched
    // while it runs (docs/training-model.md "How a step is simulated").
    if (strategy.fsdp && strategy.dp > 1)
        memory.weights += 2.0 * model.parametersPerLayer() / modelParallel * dtype;

    const double sequences = static_cast<double>(workload.globalBatch) /
                             (static_cast<double>(strategy.dp) * strategy.microBatches);
    const double s = static_cast<double>(workload.seqLen);
    const double h = model.hidden;
    const double precision = dtype / 2.0; // the formula counts 2-byte values
    const double tp = strategy.tp;
    const double tokenSplit = static_cast<double>(strategy.sp) * strategy.tatp;
    // Korthikanti et al., Table 2, per layer at 2-byte precision (t = tp, a = heads):
    //   no sequence parallelism:   s b h (10 + 24/t + 5 a s/(h t))
    //   sequence parallelism:      s b h (34/t + 5 a s/(h t))
    // Megatron TP replicates the layer norms' and dropouts' inputs (10 s b h of the 34) on every
    // die of its group; sequence parallelism splits them by t too. The 5 a s/(h t) of the s x s
    // scores is dropped by flash attention (the default) and by selective recomputation. SP and
    // TATP split every activation by tokens on top (/ (sp tatp)).
    const bool sequenceParallel = strategy.sequenceParallel && strategy.tp > 1;
    const double replicated = sequenceParallel ? 10.0 / tp : 10.0;
    const double scores =
        workload.attention == AttentionKind::Standard ? 5.0 * model.heads * s / (h * tp) : 0.0;
    // s b h x coefficient, at the workload's precision, on one die's share of the tokens.
    const auto perLayer = [&](double coefficient) {
        return s * sequences * h * coefficient * precision / tokenSplit;
    };
    const double whole = replicated + 24.0 / tp + scores;
    // 1F1B (step/pipeline_schedule.h): stage s holds the activations of min(pp - s, m)
    // micro-batches whose backward has not run yet, the first stage min(pp, m); without
    // stages, one micro-batch's.
    const double inFlight = std::min(strategy.pp, strategy.microBatches);
    const double layersHeld = stageLayers * inFlight;
    switch (strategy.activationCheckpointing) {
    case Checkpointing::None:
        memory.activations = layersHeld * perLayer(whole);
        break;
    case Checkpointing::Selective:
        memory.activations = layersHeld * perLayer(replicated + 24.0 / tp);
        break;
    case Checkpointing::Full: {
        // Each layer's input (2 s b h, split by t with sequence parallelism), plus one layer's
        // whole activations while it is recomputed.
        const double layerInput =
            2.0 * s * sequences * h * precision / tokenSplit / (sequenceParallel ? tp : 1.0);
        memory.activations = layersHeld * layerInput + perLayer(whole);
        break;
    }
    }
    return memory;
}

} // namespace ws
