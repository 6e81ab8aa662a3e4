#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"

#include <string>

namespace ws {

// Per-die memory of one training step (docs/concepts.md section 5), in bytes.
//
// Parameters held by a die: P = (layers * parametersPerLayer + embedding) / (tp * tatp), and
// / dp more with FSDP (ZeRO-3: weights, gradients and optimizer state all sharded).
// weights = P * dtype, gradients = P * dtype, optimizer = P * optimizer_bytes_per_param.
// Activations kept for the backward pass follow Korthikanti et al. (MLSys'23, Table 2), per
// layer and micro-batch of b sequences of s tokens at 2-byte precision (scaled by dtype/2), all
// divided by sp*tatp (both split tokens, so a TATP die keeps only its own rows):
//   no checkpointing:           s*b*h*(10 + 24/tp + 5*heads*s/(h*tp)) (Megatron TP replicates
//                               the layer-norm and dropout inputs, the 10)
//   with sequence_parallel:     s*b*h*(34/tp + 5*heads*s/(h*tp)) (those split by tp too)
//   selective recomputation:    the same without 5*heads*s/(h*tp): s*b*h*(10 + 24/tp), or
//                               s*b*h*34/tp with sequence_parallel
//   full checkpointing:         each layer's input, 2*s*b*h (2*s*b*h/tp with
//                               sequence_parallel), plus one layer's activations as without
//                               checkpointing, while it is recomputed.
// Flash attention (workload.attention, the default) keeps no s x s scores: the
// 5*heads*s/(h*tp) term is dropped in every case, so there selective recomputation saves no
// memory. Worked example (s = 2048, b = 1, h = 12288, 96 heads, tp = 8, standard attention):
// 5*96*2048/(12288*8) = 10, so a layer keeps s*b*h*(10 + 3 + 10) = 23 s*b*h without
// checkpointing, 34/8 + 10 = 14.25 s*b*h with sequence_parallel, 4.25 s*b*h with both and
// selective recomputation.
// Pipeline stages (strategy.pp = p): a die holds its stage's layers / p layers (and the
// embedding, as the first and last stages do), and under 1F1B the first stage, the one
// reported, keeps the activations of min(p, micro_batches) micro-batches: with enough
// micro-batches as many layers' worth as the whole model's on one micro-batch.
// Stream buffers: TATP keeps the streamed block arriving from each neighbour, twice with double
// buffering: 2 * block * (double_buffering ? 2 : 1).
// The communication reserve is die.sram_reserve of SRAM (10% by default, the design note's
// advice), so usable SRAM = sram * (1 - sram_reserve).
// A gemm workload (the forward of one linear layer) holds its I, W and O blocks only.
struct MemoryBreakdown {
    double weights = 0.0;
    double gradients = 0.0;
    double optimizer = 0.0;
    double activations = 0.0;
    double streamBuffers = 0.0;
    double commReserve = 0.0;

    double sramCapacity = 0.0;
    double hbmCapacity = 0.0;

    double total() const {
        return weights + gradients + optimizer + activations + streamBuffers + commReserve;
    }
    bool fitsInSram() const { return total() <= sramCapacity; }
    bool outOfMemory() const { return total() > sramCapacity + hbmCapacity; }
    // "weights", "gradients", "optimizer", "activations", "stream buffers" or "comm reserve".
    std::string dominantTerm() const;
};

// `streamedBlockBytes`: the largest TATP block a die receives (0 without TATP).
MemoryBreakdown estimateMemory(const Workload& workload, const StrategySpec& strategy,
                               const DieSpec& die, double streamedBlockBytes);

} // namespace ws
