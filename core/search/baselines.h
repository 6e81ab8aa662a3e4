#pragma once

#include "search/search_space.h"

#include <functional>
#include <string>
#include <vector>

namespace ws {

// A baseline system of the paper's comparison, as the part of the search space it can reach.
// Each uses the sequential mapping (the paper's SMap) and no TATP; its best member under the
// analytical model (tuned over dp, micro-batches and checkpointing too) is simulated in full.
struct BaselineFamily {
    std::string name;   // "Megatron-1 (TP)"
    std::string family; // what it may vary, in words
    std::function<bool(const Genome&)> contains;
};

// Megatron-1 (TP only: activations replicated over the TP group, sp = 1), Megatron-3 (TP + SP),
// FSDP (ZeRO-3 data parallelism, ring all-gathers).
std::vector<BaselineFamily> baselineFamilies();

} // namespace ws
