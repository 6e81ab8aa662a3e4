#pragma once

#include <cstdint>

// Every limit the scenario file's readers enforce (docs/file-format.md, docs/training-model.md),
// in one table. A value past a limit is a typo, not an experiment: no real system or model comes
// near, and rejecting it keeps every size the simulator derives far inside a double's exact range
// and every allocation bounded.
namespace ws::limits {

// The wafer and its traffic (io/scenario_reader.cpp).
// Dies per row or column of a wafer, and of a system's whole grid of wafers (so kMaxDies bounds
// a system too).
inline constexpr int kMaxWaferSide = 256;
inline constexpr std::int64_t kMaxDies = 256 * 256; // the largest grid: bounds every degree
inline constexpr double kMaxLinkBandwidth = 1e15;   // bytes/s: 1 PB/s, far beyond any link
inline constexpr double kMaxLinkLatency = 1.0;      // seconds per hop
inline constexpr double kMaxOpBytes = 1e15;         // bytes: 1 PB per op
inline constexpr double kMaxOpStart = 1e6;          // seconds: about 11.6 days
inline constexpr int kMaxOpSplit = 16;          // parts of a split op: more adds flows, not routes
inline constexpr int kMaxTcmeIterations = 1000; // tcme.max_iter and tcme.patience
inline constexpr double kMaxTaskOverhead = 1.0; // seconds per compute task
inline constexpr int kMaxGemmTile = 1 << 16;    // elements: real arrays are 8 to 256 wide
inline constexpr double kMinChunkBytes = 64;    // network.chunk: a flit, the smallest unit

// The workload (io/workload_reader.cpp).
inline constexpr std::int64_t kMaxSeqLen = std::int64_t{1} << 24;      // 16,777,216 tokens
inline constexpr std::int64_t kMaxGlobalBatch = std::int64_t{1} << 24; // sequences
// Tokens per step: real runs use a few million (Llama 3: 16M); 2^36 is 4096 times that.
inline constexpr double kMaxTokensPerStep = 68719476736.0; // 2^36
inline constexpr double kMaxOptimizerBytes = 64;           // per parameter; Adam in fp32 needs 12
inline constexpr std::int64_t kMaxGemmSide = std::int64_t{1} << 32;
inline constexpr double kMaxGemmOperand = 1099511627776.0; // 2^40 elements: 2 TB at 2 bytes each

// A transformer's shape (io/transformer_fields.cpp): the largest public models have about 128
// layers, width 25,600, a 256k vocabulary and 256 experts.
inline constexpr int kMaxLayers = 1000;
inline constexpr int kMaxHidden = 1 << 20;    // 1,048,576
inline constexpr int kMaxHeads = 1 << 14;     // 16,384
inline constexpr int kMaxFfnHidden = 1 << 22; // 4,194,304
inline constexpr int kMaxVocab = 1 << 24;     // 16,777,216
inline constexpr int kMaxExperts = 4096;
inline constexpr double kMaxParameters = 1e14; // 100 trillion: ~60x the largest public model

} // namespace ws::limits
