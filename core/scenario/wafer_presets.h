#pragma once

#include "scenario/scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

// Hardware by name, for `wafer.preset` (docs/file-format.md). docs/hardware.md gives every
// value's source and what is assumed where nothing is published:
// - paper-wsc-per-link: the TEMP paper's 6x8 wafer read as 4 TB/s per direction on every link
//   (the project's defaults, WaferSpec{});
// - paper-wsc-per-die: the same wafer read as 4 TB/s per die shared by its four edges, so
//   1 TB/s per direction per link;
// - tesla-dojo-tile: Tesla Dojo's training tile, 5x5 D1 dies on one InFO-SoW wafer, its DRAM
//   (the Dojo Interface Processors' HBM at the tile's edge) shared evenly by the 25 dies;
// - tpu-v5e-pod: a Cloud TPU v5e pod, 256 chips in a 16 x 16 torus (docs/hardware.md section 4: a
//   TPU pod is a wafer with topology torus and its chip's parameters).
// Each preset sets rows, cols, topology, link_bandwidth, link_latency, every `die` key and
// `energy`; it has no faults and no "x-..." keys, and its `preset` names it. Quantities carry
// the text a file would write ("2 TB/s"), so a saved preset reads back exactly.
// nullopt for any other name (names are exact, lower case).
std::optional<WaferSpec> waferPreset(std::string_view name);

// A quantity as a file would write it: `text` parsed, and kept, so that a saved preset (wafer or
// cluster, scenario/cluster_presets.h) reads back exactly. Throws UnitError as parseQuantity.
Quantity writtenQuantity(const std::string& text, Dimension dimension);
std::vector<std::string> waferPresetNames(); // in the order listed above

// The protocol die-to-die links run collectives and transfers with unless a file says otherwise
// (docs/network-model.md section 4.8, docs/hardware.md section 6.2): every wafer preset's, and a
// wafer's without a preset and without `protocols`. One protocol, "d2d": a per-message overhead
// of 1 us and 0.92 of the line rate (the payload share of a 256-byte flit).
std::vector<ProtocolSpec> defaultWaferProtocols();

} // namespace ws
