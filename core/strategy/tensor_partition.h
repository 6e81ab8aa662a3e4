#pragma once

#include "scenario/strategy_spec.h"
#include "strategy/placement.h"

#include <string>
#include <vector>

namespace ws {

// The unified representation (docs/concepts.md section 2) of one GEMM O[B, M, N] = I[B, M, K] x
// W[K, N] (B sequences, M tokens per sequence, K input and N output features): a split factor per
// dimension of each tensor, plus the block each die holds.
//
// How the strategy cuts it, for rank (d, s, t, a):
// - DP splits B by dp: I and O rows of sequences block d.
// - SP splits M by sp, and TATP splits each SP chunk again by tatp: I and O hold token block
//   s*tatp + a of sp*tatp.
// - TP, column-parallel (rowParallel = false): W's N by tp, so O's N too, I replicated.
//   Row-parallel: W's K and I's K by tp; O is then a partial sum over K that TP reduces.
// - TATP splits W's N by tatp within the TP slice: the die at path position a holds W block
//   t*tatp + a (column-parallel) or a (row-parallel). Over tatp rounds it meets every W block
//   of its group and so produces its whole O row block: O is not split by TATP in N.
// Unsplit dimensions are written ":"; ranges are half-open [lo, hi) with lo = floor(i*X/p), so
// uneven splits differ by at most one row.
//
// Example: B = 4, M = 2048, K = N = 4096, dp = 2, tatp = 4, 2-byte values; rank (1, 0, 0, 1)
// holds I[b2:4, m512:1024, :] (8 MiB), W[:, n1024:2048] (8 MiB) and O[b2:4, m512:1024, :]
// (8 MiB).
struct DimSplit {
    int b = 1; // split factor of B (1: whole)
    int m = 1;
    int n = 1;
    int k = 1;
    friend bool operator==(const DimSplit&, const DimSplit&) = default;
};

// What one die holds of the GEMM.
struct DieTensorBlock {
    DieId die = 0;
    Rank rank;
    std::string input;  // "I[b0:2, m512:1024, :]"
    std::string weight; // "W[:, n0:1536]"; with FSDP "W[:, n0:1536] (FSDP shard 1/2 at rest)"
    std::string output; // "O[b0:2, m512:1024, n0:4096]"
    double inputBytes = 0.0;
    double weightBytes = 0.0;       // the W block it computes with
    double weightBytesAtRest = 0.0; // with FSDP (dp > 1) 1/dp of weightBytes, else the same
    double outputBytes = 0.0;
};

struct GemmPartition {
    std::string name;
    double b = 0.0; // sequences
    double m = 0.0; // tokens per sequence
    double k = 0.0; // input features
    double n = 0.0; // output features
    bool rowParallel = false;
    int dtypeBytes = 2;
    DimSplit input;                   // I[B, M, K]: n is always 1
    DimSplit weight;                  // W[K, N]: b and m are always 1
    DimSplit output;                  // O[B, M, N]: k is always 1
    std::vector<DieTensorBlock> dies; // in rank order (dies[i] is placement rank index i)
};

// Requires positive sizes (rounded to whole elements) and dtypeBytes; throws
// std::invalid_argument otherwise, or when the placement's degrees differ from the strategy's.
GemmPartition partitionGemm(const std::string& gemmName, double B, double M, double K, double N,
                            bool rowParallel, int dtypeBytes, const StrategySpec& strategy,
                            const Placement& placement);

} // namespace ws
