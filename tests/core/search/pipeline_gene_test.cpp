// The pipeline-stage gene of the search (search/search_space.h): pp takes the divisors of the
// model's layers that also divide the system's wafer count (stages on whole wafers), or a GPU
// cluster's node count, so a system of wafers and a cluster explore pipelines and one wafer
// never does.
#include "search/search_space.h"
#include "search/strategy_search.h"
#include "test_data_paths.h"

#include "io/scenario_io.h"
#include "scenario/workload.h"
#include "strategy/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>

namespace ws {
namespace {

using test::kTestData;

// The search tests' tiny transformer, with 4 layers, on a 2 x 2 system of 2x2 wafers: the same
// 16 dies as its 4x4 wafer, cut into four wafers joined by slower off-wafer links.
Scenario fourWafers() {
    Scenario scenario = loadScenario(kTestData / "small_transformer_4x4.json");
    scenario.workload->model.layers = 4;
    scenario.wafer.rows = 2;
    scenario.wafer.cols = 2;
    SystemSpec system;
    system.waferRows = 2;
    system.waferCols = 2;
    scenario.system = system;
    return scenario;
}

SearchOptions quick(int budget) {
    SearchOptions options;
    options.budget = budget;
    options.threads = 2;
    options.seed = 3;
    options.population = 16;
    options.topK = 2;
    options.polishWithTcme = false;
    return options;
}

// pp divides the wafer count (stages on whole wafers) and the layers (equal stages).
void expectStagesOnWafers(int pp, int wafers, int layers) {
    EXPECT_GE(pp, 1);
    EXPECT_EQ(wafers % pp, 0) << "pp " << pp;
    EXPECT_EQ(layers % pp, 0) << "pp " << pp;
}

TEST(PipelineGene, ValuesDivideTheWaferCountAndTheLayers) {
    const Scenario scenario = fourWafers();
    const WaferTopology topology(scenario.topologySpec());
    ASSERT_EQ(topology.waferCount(), 4);
    EXPECT_EQ(SearchSpace(*scenario.workload, topology).ppValues(), (std::vector<int>{1, 2, 4}));

    Workload twoLayers = *scenario.workload; // 2 layers: no four stages
    twoLayers.model.layers = 2;
    EXPECT_EQ(SearchSpace(twoLayers, topology).ppValues(), (std::vector<int>{1, 2}));

    const Scenario wafer = loadScenario(kTestData / "small_transformer_4x4.json");
    const WaferTopology one(wafer.topologySpec());
    EXPECT_EQ(SearchSpace(*wafer.workload, one).ppValues(), (std::vector<int>{1}));

    const Scenario gemm = loadScenario(kTestData / "gemm_4x4.json"); // one layer
    EXPECT_EQ(SearchSpace(*gemm.workload, topology).ppValues(), (std::vector<int>{1}));
}

TEST(PipelineGene, GenomesCountEveryStageAndNeverUseExplicitGroups) {
    const Scenario scenario = fourWafers();
    const WaferTopology topology(scenario.topologySpec());
    const SearchSpace space(*scenario.workload, topology);
    std::mt19937_64 rng(11);
    std::set<int> seen;
    Genome previous = space.random(rng);
    for (int i = 0; i < 500; ++i) {
        const Genome a = space.random(rng);
        const Genome b = space.mutate(a, rng);
        const Genome c = space.crossover(b, previous, rng);
        for (const Genome& g : {a, b, c}) {
            seen.insert(g.pp);
            expectStagesOnWafers(g.pp, 4, 4);
            EXPECT_LE(g.dieCount(), 16);
            EXPECT_EQ(g.dieCount(), space.toStrategy(g).dieCount());
            EXPECT_EQ(space.repair(g), g);
            if (g.pp > 1) {
                EXPECT_NE(g.placement, PlacementGene::WaferSnake);
                EXPECT_NE(space.toStrategy(g).mapping, StrategySpec::Explicit);
            }
        }
        previous = c;
    }
    EXPECT_EQ(seen, (std::set<int>{1, 2, 4}));

    Genome wide; // 4 x 8 = 32 dies: repair shrinks the largest degree, tatp
    wide.pp = 4;
    wide.tatp = 8;
    wide.placement = PlacementGene::WaferSnake;
    const Genome repaired = space.repair(wide);
    EXPECT_EQ(repaired.pp, 4);
    EXPECT_EQ(repaired.tatp, 4);
    EXPECT_EQ(repaired.placement, PlacementGene::Snake);

    Genome stage;
    stage.pp = 2;
    stage.dp = 2;
    stage.tatp = 2;
    bool movesPp = false;
    for (const Genome& n : space.neighbours(stage)) {
        EXPECT_LE(n.dieCount(), 16);
        movesPp = movesPp || n.pp != stage.pp;
    }
    EXPECT_TRUE(movesPp);
}

TEST(PipelineGene, EnumerationPlacesPipelinesOnWafers) {
    const Scenario scenario = fourWafers();
    const WaferTopology topology(scenario.topologySpec());
    const SearchSpace space(*scenario.workload, topology);
    std::set<std::uint64_t> keys;
    int pipelines = 0;
    for (const Genome& g : space.enumerate()) {
        EXPECT_TRUE(keys.insert(g.key()).second); // pp is implied by the key's die count
        EXPECT_LE(g.dieCount(), 16);
        expectStagesOnWafers(g.pp, 4, 4);
        if (g.pp > 1) {
            ++pipelines;
            EXPECT_NE(g.placement, PlacementGene::WaferSnake);
        }
    }
    EXPECT_GT(pipelines, 0);

    Genome g;
    g.pp = 4;
    g.tatp = 4;
    g.placement = PlacementGene::Snake;
    const StrategySpec strategy = space.toStrategy(g);
    EXPECT_EQ(strategy.pp, 4);
    EXPECT_EQ(strategyLabel(strategy), "pp 4 x tatp 4, snake");
    const Placement placement = placeStrategy(strategy, topology);
    // Stage k on wafer k (row-major): every die of a stage lies on one wafer.
    for (int k = 0; k < 4; ++k)
        for (DieId die : placement.stageDies(k))
            EXPECT_EQ(topology.waferOf(die), k) << "stage " << k << ", die " << die;
}

TEST(PipelineGene, SearchOnASystemOfWafersExploresPipelines) {
    const Scenario scenario = fourWafers();
    const WaferTopology topology(scenario.topologySpec());
    const SearchResult result = searchStrategies(scenario, topology, quick(150));
    ASSERT_FALSE(result.candidates.empty());
    bool pipelined = false;
    for (const StrategyScore& c : result.candidates) {
        expectStagesOnWafers(c.strategy.pp, 4, 4);
        EXPECT_LE(c.strategy.dieCount(), 16);
        if (c.strategy.pp > 1) {
            pipelined = true;
            EXPECT_NE(c.strategy.mapping, StrategySpec::Explicit);
            // "pp 2 x dp 4, ...", or "pp 2, ..." when every other degree is 1.
            const std::string first = "pp " + std::to_string(c.strategy.pp);
            EXPECT_EQ(c.label.rfind(first, 0), 0u) << c.label;
            EXPECT_TRUE(c.label.size() == first.size() || c.label[first.size()] == ' ' ||
                        c.label[first.size()] == ',')
                << c.label;
        }
    }
    EXPECT_TRUE(pipelined);
    for (const StrategyScore& top : result.top)
        expectStagesOnWafers(top.strategy.pp, 4, 4);
    for (const BaselineScore& baseline : result.baselines)
        if (baseline.score) {
            EXPECT_EQ(baseline.score->strategy.pp, 1) << baseline.name;
        }
}

// On a GPU cluster the stages go on whole nodes, as Megatron places them: pp divides the node
// count and the layers, and the search explores pipelines there too. The 32-A100 example's four
// nodes, with the tiny transformer of 4 layers.
TEST(PipelineGene, SearchOnAClusterExploresPipelinesOnWholeNodes) {
    Scenario scenario = loadScenario(test::kScenarios / "gpt3_13b_dgx_a100_32gpu.json");
    const Scenario tiny = loadScenario(kTestData / "small_transformer_4x4.json");
    scenario.workload = tiny.workload;
    scenario.workload->model.layers = 4;
    scenario.strategy = tiny.strategy;
    const WaferTopology topology(scenario.topologySpec());
    ASSERT_TRUE(topology.isCluster());
    ASSERT_EQ(topology.rows(), 4); // nodes
    EXPECT_EQ(SearchSpace(*scenario.workload, topology).ppValues(), (std::vector<int>{1, 2, 4}));

    const SearchResult result = searchStrategies(scenario, topology, quick(120));
    bool pipelined = false;
    for (const StrategyScore& c : result.candidates) {
        expectStagesOnWafers(c.strategy.pp, 4, 4); // whole nodes
        pipelined = pipelined || c.strategy.pp > 1;
    }
    EXPECT_TRUE(pipelined);
}

TEST(PipelineGene, SearchOnOneWaferNeverPipelines) {
    const Scenario scenario = loadScenario(kTestData / "small_transformer_4x4.json");
    const WaferTopology topology(scenario.topologySpec());
    const SearchResult result = searchStrategies(scenario, topology, quick(150));
    ASSERT_FALSE(result.candidates.empty());
    for (const StrategyScore& c : result.candidates) {
        EXPECT_EQ(c.strategy.pp, 1) << c.label;
        EXPECT_EQ(c.label.find("pp "), std::string::npos) << c.label;
    }
}

} // namespace
} // namespace ws
