#include "search/analytic_evaluator.h"

#include "search/rank_correlation.h"
#include "search/strategy_scoring.h"
#include "test_data_paths.h"

#include "io/scenario_io.h"
#include "io/workload_reader.h"
#include "scenario/workload.h"
#include "sim/fluid_simulator.h"
#include "step/training_step.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace ws {
namespace {

using test::kTestData;

struct Fixture {
    explicit Fixture(const char* file) : scenario(loadScenario(kTestData / file)) {}
    Scenario scenario;
    WaferTopology topology{scenario.wafer.topologySpec()};
    Workload workload = *scenario.workload;
    AnalyticEvaluator evaluator{workload, scenario.wafer, topology, scenario.routingMode()};

    double simulated(const StrategySpec& strategy) const {
        return simulateStep(withStrategy(scenario, strategy), topology).stepS;
    }
};

StrategySpec strategyOf(int dp, int tp, int tatp, bool fsdp, StrategySpec::MappingKind mapping) {
    StrategySpec s;
    s.dp = dp;
    s.tp = tp;
    s.tatp = tatp;
    s.fsdp = fsdp;
    s.mapping = mapping;
    return s;
}

TEST(AnalyticEvaluator, OneDieGemmIsItsFlopsOverPeak) {
    const Fixture f("gemm_4x4.json");
    const AnalyticEstimate e = f.evaluator.evaluate(StrategySpec{});
    ASSERT_TRUE(e.feasible);
    // 2 * 4096^3 FLOPs at 1000 TFLOP/s (4096 fills the 128-wide tiles), plus the default 1 us
    // task overhead. The 100.7 MB of I, W and O spill to HBM, and move in 100.7 us < compute.
    EXPECT_NEAR(e.stepS, 137.438'953'472e-6 + 1e-6, 1e-15);
    EXPECT_NEAR(f.simulated(StrategySpec{}), e.stepS, 1e-15);
}

// Both read one step plan (step/step_plan.h): where no task communicates, the closed form and
// the simulation cost the same GEMMs and agree to rounding, layer, head and step.
TEST(AnalyticEvaluator, OneDieTransformerStepIsTheSimulatedStep) {
    const Fixture f("small_transformer_4x4.json");
    for (Checkpointing checkpointing :
         {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full}) {
        StrategySpec s;
        s.microBatches = 2;
        s.activationCheckpointing = checkpointing;
        const AnalyticEstimate e = f.evaluator.evaluate(s);
        ASSERT_TRUE(e.feasible) << e.whyNot;
        const TrainingStep step = buildTrainingStep(withStrategy(f.scenario, s), f.topology);
        const StepTiming simulated = stepTiming(step, simulate(step.graph.problem()));
        EXPECT_NEAR(e.layerS / simulated.layerS, 1.0, 1e-12);
        EXPECT_NEAR(e.headS / simulated.headS, 1.0, 1e-12);
        EXPECT_EQ(e.syncS, 0.0);
        EXPECT_NEAR(e.stepS / simulated.stepS, 1.0, 1e-12);
        EXPECT_EQ(e.segments.fsdpS, 0.0);
        EXPECT_GT(e.segments.attentionS, 0.0);
        EXPECT_GT(e.segments.mlpS, 0.0);
    }
}

TEST(AnalyticEvaluator, InvalidStrategiesAreInfeasibleWithTheReason) {
    const Fixture f("small_transformer_4x4.json");
    StrategySpec s;
    s.tp = 3;
    const AnalyticEstimate e = f.evaluator.evaluate(s);
    EXPECT_FALSE(e.feasible);
    EXPECT_NE(e.whyNot.find("strategy.tp"), std::string::npos) << e.whyNot;
    s.tp = 1;
    s.dp = 8;
    s.tatp = 4; // 32 dies on a 16-die wafer
    EXPECT_FALSE(f.evaluator.evaluate(s).feasible);
}

TEST(AnalyticEvaluator, StreamsAndCollectivesAgreeWithTheSimulator) {
    const Fixture f("gemm_4x4.json");
    for (auto [dp, tp, tatp, fsdp, mapping] :
         {std::tuple{1, 1, 4, false, StrategySpec::Snake},
          std::tuple{1, 1, 16, false, StrategySpec::Snake},
          std::tuple{4, 1, 4, true, StrategySpec::Sequential},
          std::tuple{2, 2, 4, true, StrategySpec::Snake},
          std::tuple{1, 16, 1, false, StrategySpec::Sequential}}) {
        const StrategySpec s = strategyOf(dp, tp, tatp, fsdp, mapping);
        const AnalyticEstimate e = f.evaluator.evaluate(s);
        ASSERT_TRUE(e.feasible) << e.whyNot;
        const double simulated = f.simulated(s);
        EXPECT_NEAR(e.stepS / simulated, 1.0, 0.05) << dp << " " << tp << " " << tatp;
    }
}

// On a system (docs/network-model.md section 11) a collective crossing the off-wafer links is
// costed at their bandwidth: the gemm's 4x4 wafer cut into two 4x2 wafers joined by links 10 times
// slower. A 16-die FSDP ring crosses them; so does a dp 4 FSDP ring of snake-placed TATP groups.
TEST(AnalyticEvaluator, CostsOffWaferLinksAtTheirBandwidthLikeTheSimulator) {
    Scenario scenario = loadScenario(kTestData / "gemm_4x4.json");
    scenario.wafer.cols = 2;
    SystemSpec system;
    system.waferRows = 1;
    system.waferCols = 2;
    system.linkBandwidth = Quantity{scenario.wafer.linkBandwidth.value / 10, "slow"};
    system.linkLatency = scenario.wafer.linkLatency;
    scenario.system = system;
    const WaferTopology topology(scenario.topologySpec());
    const Workload workload = *scenario.workload;
    const AnalyticEvaluator onSystem(workload, scenario.wafer, topology, scenario.routingMode(),
                                     scenario.linkTierSpeeds());
    const AnalyticEvaluator asOneWafer(workload, scenario.wafer, topology, scenario.routingMode());
    for (auto [dp, tp, tatp, fsdp, mapping] : {std::tuple{16, 1, 1, true, StrategySpec::Sequential},
                                               std::tuple{4, 1, 4, true, StrategySpec::Snake}}) {
        const StrategySpec s = strategyOf(dp, tp, tatp, fsdp, mapping);
        const AnalyticEstimate e = onSystem.evaluate(s);
        ASSERT_TRUE(e.feasible) << e.whyNot;
        const double simulated = simulateStep(withStrategy(scenario, s), topology).stepS;
        EXPECT_NEAR(e.stepS / simulated, 1.0, 0.1) << dp << " " << tp << " " << tatp;
        // The 16-die FSDP ring's weight gather is on the critical path: costed at the
        // off-wafer links' bandwidth it takes longer than on one wafer.
        if (dp == 16) {
            EXPECT_GT(e.stepS, asOneWafer.evaluate(s).stepS);
        }
    }
}

TEST(AnalyticEvaluator, MemoryIsTheTrainingStepsMemory) {
    const Fixture f("small_transformer_4x4.json");
    StrategySpec s;
    s.dp = 2;
    s.tatp = 4;
    s.tp = 2;
    s.fsdp = true;
    s.activationCheckpointing = Checkpointing::Full;
    const AnalyticEstimate e = f.evaluator.evaluate(s);
    const TrainingStep step = buildTrainingStep(withStrategy(f.scenario, s), f.topology);
    EXPECT_DOUBLE_EQ(e.memory.total(), step.plan.memory.total());
    EXPECT_DOUBLE_EQ(e.memory.streamBuffers, step.plan.memory.streamBuffers);
}

TEST(AnalyticEvaluator, RanksRandomStrategiesLikeTheSimulator) {
    const Fixture f("small_transformer_4x4.json");
    const RankAgreement agreement = measureRankAgreement(f.scenario, f.topology, 40, 11, 2);
    ASSERT_EQ(agreement.analyticS.size(), 40u);
    EXPECT_GT(agreement.spearman, 0.9);
    EXPECT_LT(agreement.meanAbsRelativeError, 0.15);
}

} // namespace
} // namespace ws
