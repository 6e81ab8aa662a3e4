#include "step/memory_model.h"

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
    // A die receives blocks from both neighbours of its TATP path.
    memory.streamBuffers = strategy.tatp > 1 ? 2.0 * bufferCopies * streamedBlockBytes : 0.0;
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
    const double parameters =
        (model.layers * model.parametersPerLayer() + model.embeddingParameters()) / modelParallel;
    const double shards = strategy.fsdp ? strategy.dp : 1.0;
    memory.weights = parameters * dtype / shards;
    memory.gradients = parameters * dtype / shards;
    memory.optimizer = parameters * workload.optimizerBytesPerParameter / shards;
    // FSDP holds the gathered weights of the layer running and of the next one, prefetched
    // while it runs (SPEC section 5).
    if (strategy.fsdp && strategy.dp > 1)
        memory.weights += 2.0 * model.parametersPerLayer() / modelParallel * dtype;

    const double sequences = static_cast<double>(workload.globalBatch) /
                             (static_cast<double>(strategy.dp) * strategy.microBatches);
    const double s = static_cast<double>(workload.seqLen);
    const double h = model.hidden;
    const double precision = dtype / 2.0; // the formula counts 2-byte values
    const double tp = strategy.tp;
    const double tokenSplit = static_cast<double>(strategy.sp) * strategy.tatp;
    // Megatron TP replicates the layer norms' and dropouts' inputs (10 s b h of the 34) on
    // every die of its group; SP and TATP split every activation by tokens.
    const double scores =
        workload.attention == AttentionKind::Standard ? 5.0 * model.heads * s / (h * tp) : 0.0;
    const double perLayer =
        s * sequences * h * (10.0 + 24.0 / tp + scores) * precision / tokenSplit;
    if (strategy.activationCheckpointing) {
        const double layerInput = 2.0 * s * sequences * h * precision /
                                  (static_cast<double>(strategy.sp) * strategy.tatp);
        memory.activations = model.layers * layerInput + perLayer;
    } else {
        memory.activations = model.layers * perLayer;
    }
    return memory;
}

} // namespace ws
