#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "strategy/workload_divisibility.h"
#include "strategy_test_support.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

using test::expectScenarioError;

// GPT-3 175B's shape: 96 layers, hidden 12288, 96 heads, ffn 49152.
Workload gpt3(long long seqLen, long long globalBatch) {
    Workload w;
    w.kind = WorkloadKind::Transformer;
    w.model.name = "gpt3-175b";
    w.model.layers = 96;
    w.model.hidden = 12288;
    w.model.heads = 96;
    w.model.kvHeads = 96;
    w.model.ffnHidden = 49152;
    w.model.vocab = 50257;
    w.seqLen = seqLen;
    w.globalBatch = globalBatch;
    return w;
}

Workload gemm(double m, double k, double n) {
    Workload w;
    w.kind = WorkloadKind::Gemm;
    w.gemm = GemmShape{m, k, n};
    return w;
}

StrategySpec degrees(int dp, int sp, int tp, int tatp, int microBatches = 1) {
    StrategySpec spec;
    spec.dp = dp;
    spec.sp = sp;
    spec.tp = tp;
    spec.tatp = tatp;
    spec.microBatches = microBatches;
    return spec;
}

TEST(WorkloadDivisibility, AcceptsEvenSplits) {
    EXPECT_NO_THROW(checkStrategyAgainstWorkload(degrees(2, 1, 1, 8), gpt3(2048, 128)));
    EXPECT_NO_THROW(checkStrategyAgainstWorkload(degrees(4, 2, 8, 16, 4), gpt3(8192, 128)));
    EXPECT_NO_THROW(checkStrategyAgainstWorkload(degrees(2, 2, 4, 8), gemm(8192, 4096, 4096)));
}

TEST(WorkloadDivisibility, TransformerErrorsNameTheDegree) {
    const auto check = [](StrategySpec s, Workload w) {
        return [=] { checkStrategyAgainstWorkload(s, w); };
    };
    expectScenarioError(check(degrees(1, 1, 1, 1, 5), gpt3(2048, 128)), "strategy.micro_batches",
                        "5 does not divide the global batch of 128 sequences");
    expectScenarioError(check(degrees(3, 1, 1, 1, 4), gpt3(2048, 128)), "strategy.dp",
                        "3 does not divide the 32 sequences of a micro-batch (global_batch 128 / "
                        "micro_batches 4)");
    expectScenarioError(check(degrees(1, 3, 1, 1), gpt3(2048, 128)), "strategy.sp",
                        "3 does not divide the sequence length of 2048 tokens");
    const std::string message =
        expectScenarioError(check(degrees(1, 1, 5, 1), gpt3(2048, 128)), "strategy.tp",
                            "5 does not divide the model's 96 attention heads");
    EXPECT_EQ(message, "strategy.tp: 5 does not divide the model's 96 attention heads");
    Workload oddFfn = gpt3(2048, 128);
    oddFfn.model.ffnHidden = 1000;
    expectScenarioError(check(degrees(1, 1, 16, 1), oddFfn), "strategy.tp",
                        "16 does not divide the model's ffn_hidden of 1000");
    // 3 sequences of 16 tokens per replica: 48 token rows; sp 2 leaves 24, tatp 16 does not fit.
    expectScenarioError(check(degrees(1, 2, 1, 16), gpt3(16, 3)), "strategy.tatp",
                        "16 does not divide the 24 token rows of a die's SP chunk (seq_len 16 x "
                        "3 sequences per replica per micro-batch / sp 2)");
    expectScenarioError(check(degrees(1, 1, 1, 7), gpt3(7, 1)), "strategy.tatp",
                        "7 does not divide the model's hidden size of 12288");
}

TEST(WorkloadDivisibility, GemmErrorsNameTheDegree) {
    const auto check = [](StrategySpec s, Workload w) {
        return [=] { checkStrategyAgainstWorkload(s, w); };
    };
    expectScenarioError(check(degrees(1, 3, 1, 1), gemm(1000, 64, 64)), "strategy.sp",
                        "3 does not divide the GEMM's m = 1000 rows");
    expectScenarioError(check(degrees(3, 2, 1, 1), gemm(1000, 64, 64)), "strategy.dp",
                        "3 does not divide the 500 rows of an SP chunk (m = 1000)");
    expectScenarioError(check(degrees(2, 2, 1, 8), gemm(1000, 64, 64)), "strategy.tatp",
                        "8 does not divide the 250 rows of a replica's chunk (m = 1000 / (dp*sp "
                        "= 4))");
    expectScenarioError(check(degrees(1, 1, 3, 1), gemm(64, 64, 64)), "strategy.tp",
                        "3 does not divide the GEMM's n = 64 columns");
    expectScenarioError(check(degrees(1, 1, 4, 8), gemm(64, 64, 80)), "strategy.tatp",
                        "8 does not divide the 20 columns of a TP slice (n = 80 / tp = 4)");
}

// Pipeline stages split a transformer's layers evenly; a gemm workload is one layer.
TEST(WorkloadDivisibility, PipelineStagesSplitTheLayers) {
    const auto check = [](StrategySpec s, Workload w) {
        return [=] { checkStrategyAgainstWorkload(s, w); };
    };
    StrategySpec stages = degrees(2, 1, 1, 8);
    stages.pp = 4;
    EXPECT_NO_THROW(checkStrategyAgainstWorkload(stages, gpt3(2048, 128)));
    stages.pp = 5;
    expectScenarioError(check(stages, gpt3(2048, 128)), "strategy.pp",
                        "5 stages do not split the model's 96 layers evenly");
    stages.pp = 2;
    expectScenarioError(check(stages, gemm(8192, 4096, 4096)), "strategy.pp",
                        "a gemm workload is one layer");
}

// Megatron's sequence parallelism splits what a TP group replicates: it needs tp > 1, the
// file's own rule (the reader refuses it too), and a transformer, which has norms to split.
TEST(WorkloadDivisibility, SequenceParallelismNeedsTensorParallelismAndATransformer) {
    const auto check = [](StrategySpec s, Workload w) {
        return [=] { checkStrategyAgainstWorkload(s, w); };
    };
    StrategySpec alone = degrees(2, 1, 1, 8);
    alone.sequenceParallel = true;
    const std::string message = expectScenarioError(check(alone, gpt3(2048, 128)),
                                                    "strategy.sequence_parallel", "needs tp > 1");
    EXPECT_NE(message.find("tp is 1"), std::string::npos) << message;
    StrategySpec withTp = degrees(2, 1, 8, 1);
    withTp.sequenceParallel = true;
    EXPECT_NO_THROW(checkStrategyAgainstWorkload(withTp, gpt3(2048, 128)));
    expectScenarioError(check(withTp, gemm(8192, 4096, 4096)), "strategy.sequence_parallel",
                        "a gemm workload has none");
}

} // namespace
} // namespace ws
