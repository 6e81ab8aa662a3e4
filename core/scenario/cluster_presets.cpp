// clusterPreset / clusterPresetNames: GPU clusters by name. Every value and its source, and what
// is assumed where nothing is published, is in docs/hardware.md; the comments here say only
// where each number comes from.

#include "scenario/cluster_presets.h"

#include "scenario/wafer_presets.h"

#include "units/quantity.h"

#include <utility>

namespace ws {
namespace {

ProtocolSpec protocol(std::string name, const std::string& latency, double efficiency) {
    ProtocolSpec spec;
    spec.name = std::move(name);
    spec.latency = writtenQuantity(latency, Dimension::Seconds);
    spec.efficiency = efficiency;
    return spec;
}

// The network between nodes (docs/hardware.md section 5.1): no multi-node nccl-tests curve of
// these networks is published, so NCCL's own cost model gives each protocol's latency (the
// ring's base latencies of src/graph/tuning.cc: LL 6.6, LL128 14.0, Simple 8.4 us) and its
// payload share (LL 50%, LL128 0.92), times the share of a NIC's line rate a large RDMA write
// reaches (23.94 of 25 GB/s on an HDR ConnectX-6: SuperBench on Azure NDm A100 v4).
std::vector<ProtocolSpec> networkProtocols() {
    const double nic = 23.94 / 25.0;
    return {protocol("LL", "6.6 us", 0.5 * nic), protocol("LL128", "14 us", 0.92 * nic),
            protocol("Simple", "8.4 us", nic)};
}

// The parts both DGX generations share: 8 GPUs per node, 4 nodes, a rail-optimised network
// (one leaf switch per rail, NVIDIA's DGX SuperPOD reference design), and the compute model's
// defaults where the GPU does not publish its own (docs/compute-model.md section 2).
ClusterPreset dgxNode(std::string name) {
    ClusterPreset preset;
    preset.cluster.preset = std::move(name);
    preset.cluster.network = ClusterNetwork::Rail;
    preset.gpus.rows = 4;
    preset.gpus.cols = 8;
    preset.gpus.topology = TopologyKind::Mesh;
    // Calibrated, the preset's one fitted value: the fraction of peak at which Megatron-LM's 22B
    // step on one DGX A100 node with full recomputation takes its measured 1.42 s
    // (`waferscope-cli validate-model resources/validation/suite.json --calibrate`: 0.77597;
    // docs/validation.md section 10). The H100 has no calibration point of its own and assumes it.
    preset.gpus.die.efficiency = 0.776;
    preset.gpus.die.gemmTile = 128; // a CUTLASS/cuBLAS thread-block tile edge
    preset.gpus.die.sramReserve = 0.10;
    // Not published: a CUDA kernel's launch and tail, a few microseconds.
    preset.gpus.die.taskOverhead = writtenQuantity("5 us", Dimension::Seconds);
    // Not published: one link of a switched path (GPU to switch), half a GPU-to-GPU hop.
    preset.gpus.linkLatency = writtenQuantity("1 us", Dimension::Seconds);
    preset.cluster.interLatency = writtenQuantity("2 us", Dimension::Seconds);
    return preset;
}

// NVIDIA A100 datasheet (SXM4 80 GB): 312 TFLOP/s dense BF16, 2,039 GB/s HBM2e, 40 MB L2,
// NVLink 3 at 600 GB/s per GPU (300 each way), 400 W. DGX A100: 8 ConnectX-6 HDR 200 Gb/s
// compute NICs, one per GPU (Selene: DGX SuperPOD, rail-optimised).
ClusterPreset dgxA100Selene() {
    ClusterPreset preset = dgxNode("dgx-a100-selene");
    preset.gpus.die.peakFlops = writtenQuantity("312 TFLOP/s", Dimension::FlopsPerSecond);
    preset.gpus.die.sram = writtenQuantity("40 MB", Dimension::Bytes);
    preset.gpus.die.hbm = writtenQuantity("80 GB", Dimension::Bytes);
    preset.gpus.die.hbmBandwidth = writtenQuantity("2039 GB/s", Dimension::BytesPerSecond);
    preset.gpus.linkBandwidth = writtenQuantity("300 GB/s", Dimension::BytesPerSecond);
    preset.cluster.nicBandwidth = writtenQuantity("25 GB/s", Dimension::BytesPerSecond);
    preset.gpus.energy.flopsPerJoule = 312e12 / 400.0;
    // Not published per bit: NVLink about 1.3 pJ/bit, HBM2e about 4 pJ/bit (docs/hardware.md).
    preset.gpus.energy.d2dPicojoulesPerBit = 1.3;
    preset.gpus.energy.hbmPicojoulesPerBit = 4.0;
    // Fitted to nccl-tests' all-reduce on 8 A100 (Azure ND A100 v4, NCCL 2.18.5) on every size
    // but the validation suite's, by scripts/fit_nccl_protocols.py (docs/hardware.md 5.1).
    preset.gpus.protocols = {protocol("LL", "16.7 us", 0.05), protocol("LL128", "14.1 us", 0.404),
                             protocol("Simple", "161.1 us", 0.773)};
    preset.cluster.interProtocols = networkProtocols();
    return preset;
}

// NVIDIA H100 datasheet (SXM5): 989 TFLOP/s dense BF16, 3.35 TB/s HBM3, 50 MB L2, NVLink 4 at
// 900 GB/s per GPU (450 each way), 700 W. DGX H100: 8 ConnectX-7 NDR 400 Gb/s compute NICs.
ClusterPreset dgxH100() {
    ClusterPreset preset = dgxNode("dgx-h100");
    preset.gpus.die.peakFlops = writtenQuantity("989 TFLOP/s", Dimension::FlopsPerSecond);
    preset.gpus.die.sram = writtenQuantity("50 MB", Dimension::Bytes);
    preset.gpus.die.hbm = writtenQuantity("80 GB", Dimension::Bytes);
    preset.gpus.die.hbmBandwidth = writtenQuantity("3.35 TB/s", Dimension::BytesPerSecond);
    preset.gpus.linkBandwidth = writtenQuantity("450 GB/s", Dimension::BytesPerSecond);
    preset.cluster.nicBandwidth = writtenQuantity("50 GB/s", Dimension::BytesPerSecond);
    preset.gpus.energy.flopsPerJoule = 989e12 / 700.0;
    preset.gpus.energy.d2dPicojoulesPerBit = 1.3;
    preset.gpus.energy.hbmPicojoulesPerBit = 4.0;
    // Fitted likewise to nccl-tests on 8 H100 (Azure ND H100 v5, NCCL 2.18.5, NVLink SHARP: its
    // bus bandwidth passes the line rate, hence an efficiency above 1).
    preset.gpus.protocols = {protocol("LL", "0 us", 0.05), protocol("LL128", "12.5 us", 0.825),
                             protocol("Simple", "50.4 us", 1.06)};
    // Not measured for NDR: the HDR NIC's share assumed.
    preset.cluster.interProtocols = networkProtocols();
    return preset;
}

std::vector<ClusterPreset> clusterPresetTable() {
    return {dgxA100Selene(), dgxH100()};
}

} // namespace

std::optional<ClusterPreset> clusterPreset(std::string_view name) {
    for (ClusterPreset& preset : clusterPresetTable())
        if (preset.cluster.preset == name)
            return std::move(preset);
    return std::nullopt;
}

std::vector<std::string> clusterPresetNames() {
    std::vector<std::string> names;
    for (const ClusterPreset& preset : clusterPresetTable())
        names.push_back(*preset.cluster.preset);
    return names;
}

} // namespace ws
