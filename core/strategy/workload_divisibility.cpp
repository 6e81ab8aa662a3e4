// checkStrategyAgainstWorkload: kept apart from the parser (io/strategy_reader.h) because it is
// the one check of the strategy that needs the model.

#include "strategy/workload_divisibility.h"

#include "scenario/scenario_error.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace ws {
namespace {

std::string count(double value) {
    return std::to_string(static_cast<std::int64_t>(std::llround(value)));
}

// Whole-number divisibility of element counts (GEMM sizes are held as doubles; a size that is
// not whole is never divisible).
bool divides(std::int64_t divisor, double value) {
    const double rounded = std::round(value);
    if (rounded != value || rounded < 1.0 || rounded > 9.0e15)
        return false;
    return static_cast<std::int64_t>(rounded) % divisor == 0;
}

void require(bool ok, const char* key, const std::string& problem) {
    if (!ok)
        throw ScenarioError(std::string("strategy.") + key, problem);
}

void checkTransformer(const StrategySpec& s, const Workload& w) {
    const TransformerConfig& model = w.model;
    require(model.layers % s.pp == 0, "pp",
            std::to_string(s.pp) + " stages do not split the model's " +
                std::to_string(model.layers) + " layers evenly");
    const std::int64_t batch = w.globalBatch;
    require(batch % s.microBatches == 0, "micro_batches",
            std::to_string(s.microBatches) + " does not divide the global batch of " +
                std::to_string(batch) + " sequences");
    const std::int64_t perMicroBatch = batch / s.microBatches;
    require(perMicroBatch % s.dp == 0, "dp",
            std::to_string(s.dp) + " does not divide the " + std::to_string(perMicroBatch) +
                " sequences of a micro-batch (global_batch " + std::to_string(batch) +
                " / micro_batches " + std::to_string(s.microBatches) + ")");
    require(w.seqLen % s.sp == 0, "sp",
            std::to_string(s.sp) + " does not divide the sequence length of " +
                std::to_string(w.seqLen) + " tokens");
    require(model.heads % s.tp == 0, "tp",
            std::to_string(s.tp) + " does not divide the model's " + std::to_string(model.heads) +
                " attention heads");
    require(model.ffnHidden % s.tp == 0, "tp",
            std::to_string(s.tp) + " does not divide the model's ffn_hidden of " +
                std::to_string(model.ffnHidden));
    const std::int64_t rows = w.seqLen * (perMicroBatch / s.dp) / s.sp;
    require(rows % s.tatp == 0, "tatp",
            std::to_string(s.tatp) + " does not divide the " + std::to_string(rows) +
                " token rows of a die's SP chunk (seq_len " + std::to_string(w.seqLen) + " x " +
                std::to_string(perMicroBatch / s.dp) + " sequences per replica per micro-batch" +
                (s.sp > 1 ? " / sp " + std::to_string(s.sp) : std::string()) + ")");
    require(model.hidden % s.tatp == 0, "tatp",
            std::to_string(s.tatp) + " does not divide the model's hidden size of " +
                std::to_string(model.hidden));
}

void checkGemm(const StrategySpec& s, const Workload& w) {
    const GemmShape& g = w.gemm;
    require(s.pp == 1, "pp",
            "pipeline stages split a transformer's layers; a gemm workload is one layer");
    require(!s.sequenceParallel, "sequence_parallel",
            "applies to a transformer's norms, dropouts and residual adds; a gemm workload "
            "has none");
    require(divides(s.sp, g.m), "sp",
            std::to_string(s.sp) + " does not divide the GEMM's m = " + count(g.m) + " rows");
    require(divides(s.dp, g.m / s.sp), "dp",
            std::to_string(s.dp) + " does not divide the " + count(g.m / s.sp) +
                " rows of an SP chunk (m = " + count(g.m) + ")");
    const double rowsPerReplica = g.m / (s.dp * s.sp);
    require(divides(s.tatp, rowsPerReplica), "tatp",
            std::to_string(s.tatp) + " does not divide the " + count(rowsPerReplica) +
                " rows of a replica's chunk (m = " + count(g.m) +
                " / (dp*sp = " + std::to_string(s.dp * s.sp) + "))");
    require(divides(s.tp, g.n), "tp",
            std::to_string(s.tp) + " does not divide the GEMM's n = " + count(g.n) + " columns");
    require(divides(s.tatp, g.n / s.tp), "tatp",
            std::to_string(s.tatp) + " does not divide the " + count(g.n / s.tp) +
                " columns of a TP slice (n = " + count(g.n) + " / tp = " + std::to_string(s.tp) +
                ")");
}

} // namespace

void checkStrategyAgainstWorkload(const StrategySpec& strategy, const Workload& workload) {
    // The file reader's rule too (parseStrategy); here for strategies built in code.
    const std::string problem = sequenceParallelProblem(strategy);
    require(problem.empty(), "sequence_parallel", problem);
    const std::string overlap = tpOverlapProblem(strategy);
    require(overlap.empty(), "tp_overlap", overlap);
    if (workload.kind == WorkloadKind::Gemm)
        checkGemm(strategy, workload);
    else
        checkTransformer(strategy, workload);
}

} // namespace ws
