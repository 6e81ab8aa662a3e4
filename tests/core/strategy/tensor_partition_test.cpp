#include "strategy/tensor_partition.h"
#include "strategy_test_support.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

using test::mesh;

StrategySpec degrees(int dp, int sp, int tp, int tatp) {
    StrategySpec spec;
    spec.dp = dp;
    spec.sp = sp;
    spec.tp = tp;
    spec.tatp = tatp;
    return spec;
}

constexpr double kMiB = 1024.0 * 1024.0;

// B = 4 sequences, M = 2048 tokens, K = N = 4096, 2-byte values, dp 2 x tatp 4 placed
// sequentially on a 4x4 wafer: rank (d, a) on die 4d + a. Each die holds 2 sequences x 512
// tokens of I (2*512*4096*2 B = 8 MiB), a 4096 x 1024 column block of W (8 MiB) and, after the
// 4 rounds, 2 x 512 full rows of O (8 MiB).
TEST(TensorPartition, DataParallelTimesTatpByHand) {
    const StrategySpec strategy = degrees(2, 1, 1, 4);
    const Placement placement = placeStrategy(strategy, mesh(4, 4));
    const GemmPartition p =
        partitionGemm("mlp_up", 4, 2048, 4096, 4096, false, 2, strategy, placement);
    EXPECT_EQ(p.name, "mlp_up");
    EXPECT_EQ(p.input, (DimSplit{2, 4, 1, 1}));
    EXPECT_EQ(p.weight, (DimSplit{1, 1, 4, 1}));
    EXPECT_EQ(p.output, (DimSplit{2, 4, 1, 1}));
    ASSERT_EQ(p.dies.size(), 8u);

    const DieTensorBlock& first = p.dies[0];
    EXPECT_EQ(first.die, 0);
    EXPECT_EQ(first.input, "I[b0:2, m0:512, :]");
    EXPECT_EQ(first.weight, "W[:, n0:1024]");
    EXPECT_EQ(first.output, "O[b0:2, m0:512, :]");

    const DieTensorBlock& die5 = p.dies[5];
    EXPECT_EQ(die5.die, 5);
    EXPECT_EQ(die5.rank, (Rank{1, 0, 0, 1}));
    EXPECT_EQ(die5.input, "I[b2:4, m512:1024, :]");
    EXPECT_EQ(die5.weight, "W[:, n1024:2048]");
    EXPECT_EQ(die5.output, "O[b2:4, m512:1024, :]");
    EXPECT_EQ(die5.inputBytes, 8 * kMiB);
    EXPECT_EQ(die5.weightBytes, 8 * kMiB);
    EXPECT_EQ(die5.weightBytesAtRest, 8 * kMiB);
    EXPECT_EQ(die5.outputBytes, 8 * kMiB);

    EXPECT_EQ(p.dies[7].input, "I[b2:4, m1536:2048, :]");
    EXPECT_EQ(p.dies[7].weight, "W[:, n3072:4096]");

    // TATP stores W once per replica: the blocks of one replica add up to all of W.
    double replicaWeight = 0.0;
    for (int a = 0; a < 4; ++a)
        replicaWeight += p.dies[static_cast<std::size_t>(a)].weightBytes;
    EXPECT_EQ(replicaWeight, 4096.0 * 4096.0 * 2.0);
}

TEST(TensorPartition, FsdpShardsTheWeightAtRest) {
    StrategySpec strategy = degrees(2, 1, 1, 4);
    strategy.fsdp = true;
    const Placement placement = placeStrategy(strategy, mesh(4, 4));
    const GemmPartition p =
        partitionGemm("qkv", 4, 2048, 4096, 6144, false, 2, strategy, placement);
    EXPECT_EQ(p.dies[0].weight, "W[:, n0:1536] (FSDP shard 1/2 at rest)");
    EXPECT_EQ(p.dies[0].weightBytes, 4096.0 * 1536.0 * 2.0); // 12 MiB
    EXPECT_EQ(p.dies[0].weightBytesAtRest, 6 * kMiB);
}

// tp 2 x tatp 2, B = 4, M = 2048, K = N = 4096: column-parallel W is cut in 4 column blocks
// t*2 + a; row-parallel W in K by TP and N by TATP, and O becomes a partial sum.
TEST(TensorPartition, ColumnAndRowParallelTensorParallelism) {
    const StrategySpec strategy = degrees(1, 1, 2, 2);
    const Placement placement = placeStrategy(strategy, mesh(4, 4));
    const GemmPartition column =
        partitionGemm("mlp_up", 4, 2048, 4096, 4096, false, 2, strategy, placement);
    EXPECT_EQ(column.input, (DimSplit{1, 2, 1, 1}));
    EXPECT_EQ(column.weight, (DimSplit{1, 1, 4, 1}));
    EXPECT_EQ(column.output, (DimSplit{1, 2, 2, 1}));
    const DieTensorBlock& c3 = column.dies[3]; // rank (0, 0, 1, 1) on die 3
    EXPECT_EQ(c3.input, "I[:, m1024:2048, :]");
    EXPECT_EQ(c3.weight, "W[:, n3072:4096]");
    EXPECT_EQ(c3.output, "O[:, m1024:2048, n2048:4096]");
    EXPECT_EQ(c3.inputBytes, 32 * kMiB);  // 4 * 1024 * 4096 * 2
    EXPECT_EQ(c3.weightBytes, 8 * kMiB);  // 4096 * 1024 * 2
    EXPECT_EQ(c3.outputBytes, 16 * kMiB); // 4 * 1024 * 2048 * 2

    const GemmPartition row =
        partitionGemm("mlp_down", 4, 2048, 4096, 4096, true, 2, strategy, placement);
    EXPECT_EQ(row.input, (DimSplit{1, 2, 1, 2}));
    EXPECT_EQ(row.weight, (DimSplit{1, 1, 2, 2}));
    EXPECT_EQ(row.output, (DimSplit{1, 2, 1, 1}));
    const DieTensorBlock& r3 = row.dies[3];
    EXPECT_EQ(r3.input, "I[:, m1024:2048, k2048:4096]");
    EXPECT_EQ(r3.weight, "W[k2048:4096, n2048:4096]");
    EXPECT_EQ(r3.output, "O[:, m1024:2048, :] (partial sum over K, reduced across TP)");
    EXPECT_EQ(r3.inputBytes, 16 * kMiB);  // 4 * 1024 * 2048 * 2
    EXPECT_EQ(r3.weightBytes, 8 * kMiB);  // 2048 * 2048 * 2
    EXPECT_EQ(r3.outputBytes, 32 * kMiB); // 4 * 1024 * 4096 * 2
}

TEST(TensorPartition, SequenceParallelChunksAreSplitAgainByTatp) {
    // sp 2 x tatp 2: token block s*2 + a of 4.
    const StrategySpec strategy = degrees(1, 2, 1, 2);
    const Placement placement = placeStrategy(strategy, mesh(4, 4));
    const GemmPartition p =
        partitionGemm("qkv", 1, 4096, 1024, 1024, false, 4, strategy, placement);
    EXPECT_EQ(p.dies[2].rank, (Rank{0, 1, 0, 0}));
    EXPECT_EQ(p.dies[2].input, "I[:, m2048:3072, :]");
    EXPECT_EQ(p.dies[2].weight, "W[:, n0:512]");
    EXPECT_EQ(p.dies[2].inputBytes, 1024.0 * 1024.0 * 4.0);
}

TEST(TensorPartition, UnevenSplitsUseFloorBoundaries) {
    const StrategySpec strategy = degrees(1, 1, 1, 4);
    const Placement placement = placeStrategy(strategy, mesh(2, 2));
    const GemmPartition p = partitionGemm("odd", 1, 10, 3, 6, false, 1, strategy, placement);
    EXPECT_EQ(p.dies[0].input, "I[:, m0:2, :]");
    EXPECT_EQ(p.dies[1].input, "I[:, m2:5, :]");
    EXPECT_EQ(p.dies[2].input, "I[:, m5:7, :]");
    EXPECT_EQ(p.dies[3].input, "I[:, m7:10, :]");
    EXPECT_EQ(p.dies[1].inputBytes, 9.0); // 3 rows x 3 columns x 1 byte
    EXPECT_EQ(p.dies[1].weight, "W[:, n1:3]");
}

TEST(TensorPartition, RejectsNonsense) {
    const StrategySpec strategy = degrees(1, 1, 1, 2);
    const Placement placement = placeStrategy(strategy, mesh(2, 2));
    EXPECT_THROW(partitionGemm("g", 1, 0, 4, 4, false, 2, strategy, placement),
                 std::invalid_argument);
    EXPECT_THROW(partitionGemm("g", 1, 8, 4, 4, false, 0, strategy, placement),
                 std::invalid_argument);
    EXPECT_THROW(partitionGemm("g", 1, 8, 4, 4, false, 2, degrees(2, 1, 1, 1), placement),
                 std::invalid_argument);
}

} // namespace
} // namespace ws
