#pragma once

#include "scenario/scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

// A cluster preset (`cluster.preset`, docs/file-format.md): its network, and the grid of GPUs
// that Scenario::wafer then holds (rows = nodes, cols = GPUs per node, die = the GPU, link
// bandwidth and latency = the node switch's, energy). docs/hardware.md gives every value's
// source and what is assumed where nothing is published:
// - dgx-a100-selene: Selene's DGX A100 nodes, 8 x A100-SXM4-80GB on NVSwitch (NVLink 3) and
//   8 x 200 Gb/s HDR InfiniBand rails, the system of Megatron-LM's published runs;
// - dgx-h100: DGX H100 nodes, 8 x H100-SXM5 on NVSwitch (NVLink 4), 8 x 400 Gb/s NDR rails.
// Both have 4 nodes by default (32 GPUs, the paper's comparison size); `nodes` overrides it.
struct ClusterPreset {
    ClusterSpec cluster;
    WaferSpec gpus;
};

// nullopt for any other name (names are exact, lower case).
std::optional<ClusterPreset> clusterPreset(std::string_view name);
std::vector<std::string> clusterPresetNames(); // in the order listed above

} // namespace ws
