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
// Activations kept for the backward pass follow Korthikanti et al. (MLSys'23), per layer and
// micro-batch of b sequences of s tokens at 2-byte precision (scaled by dtype/2):
// s*b*h*(10 + 24/tp + 5*heads*s/(h*tp)) bytes with Megatron tensor parallelism (which
// replicates the layer-norm and dropout inputs), divided by sp*tatp (both split tokens, so a
// TATP die keeps only its own rows: s*b*h*(34 + 5*heads*s/h)/tatp). Flash attention
// (workload.attention, the default) keeps no s x s scores: the 5*heads*s/(h*tp) term is dropped.
// With activation checkpointing only each layer's input (2*s*b*h / (sp*tatp)) is kept, plus one
// layer's full activations during recomputation.
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
