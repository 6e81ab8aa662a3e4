// waferPreset / waferPresetNames: hardware by name. Every value and its source, and what is
// assumed where nothing is published, is in docs/hardware.md; the comments here say only where
// each number comes from.

#include "scenario/wafer_presets.h"

#include "units/quantity.h"

#include <utility>

namespace ws {

std::vector<ProtocolSpec> defaultWaferProtocols() {
    ProtocolSpec d2d;
    d2d.name = "d2d";
    // Not published for these wafers: the order of a DMA descriptor set-up plus a handshake
    // with the receiver, as the compute model's task_overhead (docs/compute-model.md section 2).
    d2d.latency = writtenQuantity("1 us", Dimension::Seconds);
    // PCIe 6.0's flit mode, which UCIe carries die to die: 236 bytes of payload in every
    // 256-byte flit (the rest: data-link bytes, CRC and FEC).
    d2d.efficiency = 0.92;
    return {d2d};
}

namespace {

// The TEMP paper's wafer (Wang et al., arXiv 2512.14256, Table I, as DOMAIN.md reads it):
// 6 x 8 dies, 200 ns and 5 pJ/bit per D2D hop; per die 80 MB SRAM, 72 GB HBM at 1 TB/s and
// 6 pJ/bit; 2 TFLOP/s per watt. The paper's per-die peak is unclear (1800 TFLOP/s is reported,
// 312 matches its A100 comparison): 1000 TFLOP/s is the project's stated default.
WaferSpec paperWafer(std::string name, const std::string& linkBandwidth) {
    WaferSpec wafer;
    wafer.preset = std::move(name);
    wafer.rows = 6;
    wafer.cols = 8;
    wafer.topology = TopologyKind::Mesh;
    wafer.linkBandwidth = writtenQuantity(linkBandwidth, Dimension::BytesPerSecond);
    wafer.linkLatency = writtenQuantity("200 ns", Dimension::Seconds);
    wafer.die.peakFlops = writtenQuantity("1000 TFLOP/s", Dimension::FlopsPerSecond);
    wafer.die.sram = writtenQuantity("80 MB", Dimension::Bytes);
    wafer.die.hbm = writtenQuantity("72 GB", Dimension::Bytes);
    wafer.die.hbmBandwidth = writtenQuantity("1 TB/s", Dimension::BytesPerSecond);
    wafer.die.efficiency = 1.0;
    // Not in the paper: the compute model's defaults and their reasons (docs/compute-model.md
    // section 2).
    wafer.die.taskOverhead = writtenQuantity("1 us", Dimension::Seconds);
    wafer.die.gemmTile = 128;
    wafer.die.sramReserve = 0.10;
    wafer.energy.d2dPicojoulesPerBit = 5.0;
    wafer.energy.hbmPicojoulesPerBit = 6.0;
    wafer.energy.flopsPerJoule = 2e12;
    wafer.protocols = defaultWaferProtocols();
    return wafer;
}

// Tesla Dojo's training tile: 25 D1 dies, 5 x 5 on one InFO-SoW wafer (Hot Chips 34, 2022).
WaferSpec dojoTrainingTile() {
    WaferSpec wafer;
    wafer.preset = "tesla-dojo-tile";
    wafer.rows = 5;
    wafer.cols = 5;
    wafer.topology = TopologyKind::Mesh;
    // "4 TB/s per edge" (AI Day 2021) counted over both directions: 144 of the D1's 576
    // 112 Gb/s SerDes lanes per edge carry 2 TB/s each way, and 5 links across the tile's
    // middle at 2 TB/s give its published 10 TB/s bisection.
    wafer.linkBandwidth = writtenQuantity("2 TB/s", Dimension::BytesPerSecond);
    // Not published: the paper's per-hop latency.
    wafer.linkLatency = writtenQuantity("200 ns", Dimension::Seconds);
    // BF16/CFP8; 354 nodes of 1.25 MB SRAM each.
    wafer.die.peakFlops = writtenQuantity("362 TFLOP/s", Dimension::FlopsPerSecond);
    wafer.die.sram = writtenQuantity("440 MB", Dimension::Bytes);
    // No DRAM on the tile: five Dojo Interface Processors (32 GB of HBM at 800 GB/s each) at
    // its edge, shared evenly by the 25 dies (160 GB / 25, 4 TB/s / 25).
    wafer.die.hbm = writtenQuantity("6.4 GB", Dimension::Bytes);
    wafer.die.hbmBandwidth = writtenQuantity("160 GB/s", Dimension::BytesPerSecond);
    wafer.die.efficiency = 1.0;
    wafer.die.taskOverhead =
        writtenQuantity("1 us", Dimension::Seconds); // not published: the default
    wafer.die.gemmTile = 8;       // each node's matrix unit multiplies 8 x 8 blocks
    wafer.die.sramReserve = 0.10; // the design note's 10%, as on the paper's wafer
    // Not published: the paper's 5 and 6 pJ/bit. 362 TFLOP/s at the D1's 400 W TDP.
    wafer.energy.d2dPicojoulesPerBit = 5.0;
    wafer.energy.hbmPicojoulesPerBit = 6.0;
    wafer.energy.flopsPerJoule = 362e12 / 400.0;
    wafer.protocols = defaultWaferProtocols(); // not published for Dojo either
    return wafer;
}

// A Cloud TPU v5e pod (cloud.google.com/tpu/docs/v5e): 256 chips in a 16 x 16 2D torus; per
// chip 197 TFLOP/s BF16, 16 GB of HBM2 at 819 GB/s, 400 GB/s of ICI both ways over its four
// ports: 50 GB/s per direction per link (which gives the published 1.6 TB/s bisection: 32
// links across the cut).
WaferSpec tpuV5ePod() {
    WaferSpec wafer;
    wafer.preset = "tpu-v5e-pod";
    wafer.rows = 16;
    wafer.cols = 16;
    wafer.topology = TopologyKind::Torus;
    wafer.linkBandwidth = writtenQuantity("50 GB/s", Dimension::BytesPerSecond);
    wafer.linkLatency = writtenQuantity("1 us", Dimension::Seconds); // not published
    wafer.die.peakFlops = writtenQuantity("197 TFLOP/s", Dimension::FlopsPerSecond);
    wafer.die.sram = writtenQuantity("128 MB", Dimension::Bytes); // not published: TPU v4's CMEM
    wafer.die.hbm = writtenQuantity("16 GB", Dimension::Bytes);
    wafer.die.hbmBandwidth = writtenQuantity("819 GB/s", Dimension::BytesPerSecond);
    wafer.die.efficiency = 1.0;
    wafer.die.taskOverhead =
        writtenQuantity("1 us", Dimension::Seconds); // not published: the default
    wafer.die.gemmTile = 128;                        // each MXU is a 128 x 128 systolic array
    wafer.die.sramReserve = 0.10;
    // Not published: the chip's power; 1 TFLOP/s per watt assumed, and the wafer's pJ/bit.
    wafer.energy.d2dPicojoulesPerBit = 5.0;
    wafer.energy.hbmPicojoulesPerBit = 6.0;
    wafer.energy.flopsPerJoule = 1e12;
    wafer.protocols = defaultWaferProtocols(); // not published for ICI: the wafer's default
    return wafer;
}

std::vector<WaferSpec> waferPresetTable() {
    return {
        paperWafer("paper-wsc-per-link", "4 TB/s"),
        // 4 TB/s per die over its four edges: 1 TB/s per direction per link.
        paperWafer("paper-wsc-per-die", "1 TB/s"),
        dojoTrainingTile(),
        tpuV5ePod(),
    };
}

} // namespace

Quantity writtenQuantity(const std::string& text, Dimension dimension) {
    return Quantity{parseQuantity(text, dimension), text};
}

std::optional<WaferSpec> waferPreset(std::string_view name) {
    for (WaferSpec& wafer : waferPresetTable())
        if (wafer.preset == name)
            return std::move(wafer);
    return std::nullopt;
}

std::vector<std::string> waferPresetNames() {
    std::vector<std::string> names;
    for (const WaferSpec& wafer : waferPresetTable())
        names.push_back(*wafer.preset);
    return names;
}

} // namespace ws
