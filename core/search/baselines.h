#pragma once

#include "search/search_space.h"

#include <functional>
#include <string>
#include <vector>

namespace ws {

// A baseline system of the paper's comparison, as the part of the search space it can reach.
// Each uses the sequential mapping (the paper's SMap), no TATP and no pipeline stages (pp = 1,
// as the paper compares them), and follows its published
// design; its best member under the analytical model (tuned over its degrees, micro-batches
// and, where the design leaves a choice, checkpointing) is simulated in full.
struct BaselineFamily {
    std::string name;   // "Megatron-1 (TP)"
    std::string family; // what it may vary, in words
    std::function<bool(const Genome&)> contains;
};

// Megatron-1 (Shoeybi et al. 2019: dp x tp, the norm and dropout activations replicated over
// the TP group, sp = 1, no or full checkpointing), Megatron-3 (Korthikanti et al. 2023: dp x tp
// with sequence parallelism whenever tp > 1 and selective recomputation, plus context
// parallelism, WaferScope's sp, as the paper's Megatron-3 baseline has it), FSDP (Zhao et al.
// 2023: ZeRO-3 data parallelism, ring all-gathers, no or full checkpointing).
std::vector<BaselineFamily> baselineFamilies();

} // namespace ws
