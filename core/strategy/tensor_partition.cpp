#include "strategy/tensor_partition.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace ws {
namespace {

// Half-open block i of p of a dimension of `size` elements: [floor(i*size/p),
// floor((i+1)*size/p)).
struct Range {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool whole = true;
    double length() const { return static_cast<double>(hi - lo); }
};

Range block(std::int64_t size, int index, int parts) {
    if (parts == 1)
        return {0, size, true};
    return {size * index / parts, size * (index + 1) / parts, false};
}

std::string text(char dim, const Range& range) {
    if (range.whole)
        return ":";
    return dim + std::to_string(range.lo) + ":" + std::to_string(range.hi);
}

std::int64_t elements(double value, const char* name) {
    const double rounded = std::round(value);
    if (!(rounded >= 1.0) || rounded > 9.0e15)
        throw std::invalid_argument(std::string("partitionGemm: ") + name +
                                    " must be a positive number of elements");
    return static_cast<std::int64_t>(rounded);
}

} // namespace

GemmPartition partitionGemm(const std::string& gemmName, double B, double M, double K, double N,
                            bool rowParallel, int dtypeBytes, const StrategySpec& strategy,
                            const Placement& placement) {
    if (dtypeBytes < 1)
        throw std::invalid_argument("partitionGemm: dtypeBytes must be positive");
    if (placement.dp() != strategy.dp || placement.sp() != strategy.sp ||
        placement.tp() != strategy.tp || placement.tatp() != strategy.tatp)
        throw std::invalid_argument("partitionGemm: the placement is of another strategy");
    const std::int64_t b = elements(B, "B");
    const std::int64_t m = elements(M, "M");
    const std::int64_t k = elements(K, "K");
    const std::int64_t n = elements(N, "N");
    const int dp = strategy.dp;
    const int sp = strategy.sp;
    const int tp = strategy.tp;
    const int tatp = strategy.tatp;

    GemmPartition out;
    out.name = gemmName;
    out.b = static_cast<double>(b);
    out.m = static_cast<double>(m);
    out.k = static_cast<double>(k);
    out.n = static_cast<double>(n);
    out.rowParallel = rowParallel;
    out.dtypeBytes = dtypeBytes;
    out.input = {dp, sp * tatp, 1, rowParallel ? tp : 1};
    out.weight = {1, 1, rowParallel ? tatp : tp * tatp, rowParallel ? tp : 1};
    out.output = {dp, sp * tatp, rowParallel ? 1 : tp, 1};

    const double bytes = dtypeBytes;
    const bool fsdpShard = strategy.fsdp && dp > 1;
    for (int index = 0; index < placement.rankCount(); ++index) {
        const Rank r = placement.rank(index);
        const Range rb = block(b, r.d, dp);
        const Range rm = block(m, r.s * tatp + r.a, sp * tatp);
        const Range rkIn = rowParallel ? block(k, r.t, tp) : Range{0, k, true};
        const Range rnW = rowParallel ? block(n, r.a, tatp) : block(n, r.t * tatp + r.a, tp * tatp);
        const Range rnOut = rowParallel ? Range{0, n, true} : block(n, r.t, tp);

        DieTensorBlock die;
        die.die = placement.usedDies()[static_cast<std::size_t>(index)];
        die.rank = r;
        die.input = "I[" + text('b', rb) + ", " + text('m', rm) + ", " + text('k', rkIn) + "]";
        die.weight = "W[" + text('k', rkIn) + ", " + text('n', rnW) + "]";
        if (fsdpShard)
            die.weight += " (FSDP shard 1/" + std::to_string(dp) + " at rest)";
        die.output = "O[" + text('b', rb) + ", " + text('m', rm) + ", " + text('n', rnOut) + "]";
        if (rowParallel && tp > 1)
            die.output += " (partial sum over K, reduced across TP)";
        die.inputBytes = rb.length() * rm.length() * rkIn.length() * bytes;
        die.weightBytes = rkIn.length() * rnW.length() * bytes;
        die.weightBytesAtRest = fsdpShard ? die.weightBytes / dp : die.weightBytes;
        die.outputBytes = rb.length() * rm.length() * rnOut.length() * bytes;
        out.dies.push_back(std::move(die));
    }
    return out;
}

} // namespace ws
