#include "search/rank_correlation.h"

#include "search/search_space.h"
#include "test_data_paths.h"

#include "io/scenario_io.h"
#include "io/workload_reader.h"
#include "scenario/workload.h"
#include "strategy/placement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <set>

namespace ws {
namespace {

using test::kTestData;

struct Fixture {
    Scenario scenario = loadScenario(kTestData / "small_transformer_4x4.json");
    WaferTopology topology{scenario.wafer.topologySpec()};
    Workload workload = *scenario.workload;
    SearchSpace space{workload, topology};
};

TEST(SearchSpace, DegreeValuesDivideWhatTheySplit) {
    const Fixture f;
    EXPECT_EQ(f.space.liveDies(), 16);
    EXPECT_EQ(f.space.dpValues(), (std::vector<int>{1, 2, 4, 8}));       // global batch 8
    EXPECT_EQ(f.space.spValues(), (std::vector<int>{1, 2, 4, 8, 16}));   // seq_len 256
    EXPECT_EQ(f.space.tpValues(), (std::vector<int>{1, 2, 4, 8}));       // 8 heads
    EXPECT_EQ(f.space.tatpValues(), (std::vector<int>{1, 2, 4, 8, 16})); // hidden 512
    EXPECT_EQ(f.space.microBatchValues(4), (std::vector<int>{1, 2}));    // 8 / m divisible by 4
}

TEST(SearchSpace, EnumerationListsEachStrategyOnceInNormalForm) {
    const Fixture f;
    const std::vector<Genome> all = f.space.enumerate();
    std::set<std::uint64_t> keys;
    for (const Genome& g : all) {
        EXPECT_TRUE(keys.insert(g.key()).second);
        Genome normal = g;
        normal.normalize();
        EXPECT_EQ(normal, g);
        EXPECT_LE(g.dieCount(), 16);
        if (g.placement == PlacementGene::WaferSnake) {
            EXPECT_EQ(g.sp, 1);
            EXPECT_EQ(g.tp, 1);
        }
    }
    EXPECT_GT(all.size(), 1000u);
}

TEST(SearchSpace, RandomMutatedAndCrossedGenomesFitTheWafer) {
    const Fixture f;
    std::mt19937_64 rng(7);
    Genome previous = f.space.random(rng);
    for (int i = 0; i < 500; ++i) {
        const Genome a = f.space.random(rng);
        const Genome b = f.space.mutate(a, rng);
        const Genome c = f.space.crossover(b, previous, rng);
        for (const Genome& g : {a, b, c}) {
            EXPECT_LE(g.dieCount(), 16);
            EXPECT_EQ(f.space.repair(g), g);
        }
        previous = c;
    }
}

// The search obeys the file's rule (sequenceParallelProblem): sequence parallelism only with
// tp > 1, and only for a transformer; checkpointing takes all three kinds.
TEST(SearchSpace, SequenceParallelismOnlyWithTensorParallelism) {
    const Fixture f;
    std::set<Checkpointing> kinds;
    bool sawSequenceParallel = false;
    for (const Genome& g : f.space.enumerate()) {
        kinds.insert(g.checkpointing);
        sawSequenceParallel = sawSequenceParallel || g.sequenceParallel;
        if (g.sequenceParallel) {
            EXPECT_GT(g.tp, 1);
        }
    }
    EXPECT_TRUE(sawSequenceParallel);
    EXPECT_EQ(kinds, (std::set<Checkpointing>{Checkpointing::None, Checkpointing::Selective,
                                              Checkpointing::Full}));
    Genome alone;
    alone.sequenceParallel = true;
    alone.normalize();
    EXPECT_FALSE(alone.sequenceParallel);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 300; ++i) {
        const Genome g = f.space.mutate(f.space.random(rng), rng);
        EXPECT_TRUE(sequenceParallelProblem(f.space.toStrategy(g)).empty());
    }

    const Scenario gemm = loadScenario(kTestData / "gemm_4x4.json");
    const WaferTopology topology(gemm.wafer.topologySpec());
    const SearchSpace gemmSpace(*gemm.workload, topology);
    for (const Genome& g : gemmSpace.enumerate()) {
        EXPECT_FALSE(g.sequenceParallel);
        EXPECT_EQ(g.checkpointing, Checkpointing::None);
    }

    Genome megatron3;
    megatron3.tp = 4;
    megatron3.sequenceParallel = true;
    megatron3.checkpointing = Checkpointing::Selective;
    EXPECT_EQ(strategyLabel(f.space.toStrategy(megatron3)),
              "tp 4, sequence parallel, selective recomputation, sequential");
}

TEST(SearchSpace, WaferSnakeGroupsAreAdjacentAndPlace) {
    const Fixture f;
    Genome g;
    g.dp = 2;
    g.tatp = 8;
    g.placement = PlacementGene::WaferSnake;
    const StrategySpec strategy = f.space.toStrategy(g);
    ASSERT_EQ(strategy.mapping, StrategySpec::Explicit);
    // Rows 0 and 1 walked 0 1 2 3 7 6 5 4, then rows 2 and 3.
    EXPECT_EQ(strategy.tatpGroups[0], (std::vector<DieId>{0, 1, 2, 3, 7, 6, 5, 4}));
    EXPECT_EQ(strategy.tatpGroups[1], (std::vector<DieId>{8, 9, 10, 11, 15, 14, 13, 12}));
    EXPECT_EQ(strategy.dpGroups[4], (std::vector<DieId>{7, 15}));
    const Placement placement = placeStrategy(strategy, f.topology);
    EXPECT_EQ(placement.tatpGroup(1, 0, 0), strategy.tatpGroups[1]);
    EXPECT_EQ(strategyLabel(strategy), "dp 2 x tatp 8, wafer snake groups");
}

TEST(SearchSpace, NeighboursAreOneMoveAway) {
    const Fixture f;
    Genome g;
    g.dp = 2;
    g.tatp = 8;
    const std::vector<Genome> around = f.space.neighbours(g);
    EXPECT_GT(around.size(), 20u);
    bool foundTp = false;
    for (const Genome& n : around) {
        EXPECT_NE(n, g);
        foundTp = foundTp || (n.dp == 2 && n.tp == 2 && n.tatp == 4);
    }
    EXPECT_TRUE(foundTp); // tp 2 taken from tatp: a factor moved between degrees
}

TEST(SpearmanCorrelation, MatchesHandComputedValues) {
    EXPECT_DOUBLE_EQ(spearmanCorrelation({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    EXPECT_DOUBLE_EQ(spearmanCorrelation({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    // Ranks (1, 2, 3, 4, 5) against (2, 1, 4, 3, 5): d^2 sums to 4, so 1 - 6*4/(5*24) = 0.8.
    EXPECT_NEAR(spearmanCorrelation({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
    // Ties get average ranks: (1.5, 1.5, 3) against (1, 2, 3): r = 0.866...
    EXPECT_NEAR(spearmanCorrelation({5, 5, 7}, {1, 2, 3}), std::sqrt(3.0) / 2.0, 1e-12);
    EXPECT_EQ(spearmanCorrelation({1}, {1}), 0.0);
}

} // namespace
} // namespace ws
