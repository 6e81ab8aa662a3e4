// The fault study (core/sweep/fault_study.h): tokens per second of several strategies against a
// fault rate, every sample counted, the faults those of the CLI's sweep.
#include "sweep/fault_study.h"

#include "sweep/fault_sample.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "scenario/scenario_error.h"
#include "search/strategy_scoring.h"
#include "sim/run_cancelled.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ws {
namespace {

// A GEMM step on a small wafer: each simulation takes milliseconds.
std::string gemmScenario(int rows, int cols, const std::string& strategy) {
    return R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": )" +
           std::to_string(rows) + R"(, "cols": )" + std::to_string(cols) + R"(},
        "workload": {"kind": "gemm", "m": 2048, "k": 2048, "n": 2048},
        "strategy": )" +
           strategy + "}";
}

FaultStudySpec studyOf(const std::string& scenario) {
    FaultStudySpec spec;
    spec.scenario = parseScenario(scenario);
    spec.strategies = {{"current strategy", std::nullopt}};
    return spec;
}

double tokensPerSecondOf(const Scenario& scenario) {
    const SimulationReport report =
        simulateScenarioReport(scenario, frontEndRunOptions(), ReportDetail::Summary);
    return report.step.value().tokensPerSecond;
}

// Rate 0 kills nothing: every sample is the scenario itself, for the scenario's own strategy and
// for one put in its place.
TEST(FaultStudy, RateZeroGivesTheFaultFreeThroughputExactly) {
    FaultStudySpec spec = studyOf(gemmScenario(4, 4, R"({"dp": 2, "tatp": 2})"));
    const StrategySpec line = parseStrategy(nlohmann::json{{"tatp", 4}});
    spec.strategies.push_back({"tatp 4", line});
    spec.rates = {0.0, 0.2};
    spec.samples = 3;
    const FaultStudyResult result = runFaultStudy(spec);
    ASSERT_EQ(result.curves.size(), 2u);
    EXPECT_EQ(result.curves[1].name, "tatp 4");
    const double expected[] = {tokensPerSecondOf(spec.scenario),
                               tokensPerSecondOf(withStrategy(spec.scenario, line))};
    for (std::size_t curve = 0; curve < 2; ++curve) {
        const FaultStudyPoint& fine = result.curves[curve].points.at(0);
        EXPECT_EQ(fine.rate, 0.0);
        EXPECT_EQ(fine.simulated, 3);
        EXPECT_EQ(fine.failed, 0);
        for (const std::optional<double>& tokens : fine.tokensPerSecond)
            EXPECT_EQ(tokens, expected[curve]);
        ASSERT_TRUE(fine.spread);
        EXPECT_EQ(fine.spread->min, expected[curve]);
        EXPECT_EQ(fine.spread->max, expected[curve]);
        EXPECT_DOUBLE_EQ(fine.spread->mean, expected[curve]);
    }
}

// Every (strategy, rate, sample) is counted, and a sample is the very point of the CLI's sweep
// over faults.link_rate with the same samples and seed: the GUI and `waferscope-cli sweep` agree.
TEST(FaultStudy, EverySampleIsCountedAndIsTheSweepsPoint) {
    const std::string scenario = gemmScenario(4, 4, R"({"dp": 2, "tatp": 2})");
    FaultStudySpec spec = studyOf(scenario);
    spec.rates = {0.0, 0.1, 0.2};
    spec.samples = 3;
    spec.seed = 5;
    int calls = 0;
    const FaultStudyResult result = runFaultStudy(spec, {}, [&](int done, int total) {
        EXPECT_EQ(done, ++calls);
        EXPECT_EQ(total, 9);
    });
    EXPECT_EQ(calls, 9);
    EXPECT_EQ(result.kind, FaultKind::Links);
    ASSERT_EQ(result.curves.size(), 1u);
    const FaultStudyCurve& curve = result.curves[0];
    ASSERT_EQ(curve.points.size(), 3u);

    const SweepSpec sweep =
        parseSweep(R"({"format": "waferscope.sweep", "version": 1, "base": )" + scenario +
                   R"(, "axes": {"faults.link_rate": [0, 0.1, 0.2]},
                                       "samples": 3, "seed": 5})");
    ASSERT_EQ(pointCount(sweep), 9u);
    for (std::size_t index = 0; index < pointCount(sweep); ++index) {
        const SweepPoint point = pointAt(sweep, index);
        const SweepRow row = evaluatePoint(sweep, point);
        const FaultStudyPoint& studied = curve.points[index / 3];
        EXPECT_EQ(studied.rate, point.values[0].get<double>());
        const auto sample = static_cast<std::size_t>(point.sample);
        ASSERT_EQ(studied.tokensPerSecond.size(), 3u);
        EXPECT_EQ(studied.tokensPerSecond[sample], row.ok ? row.tokensPerSecond : std::nullopt)
            << "point " << index << ": " << row.error;
    }
    for (const FaultStudyPoint& point : curve.points) {
        EXPECT_EQ(point.simulated + point.failed, 3);
        if (point.spread) {
            EXPECT_LE(point.spread->min, point.spread->mean);
            EXPECT_LE(point.spread->mean, point.spread->max);
        }
    }
}

// Too few live dies for the strategy: each such sample fails with the placement's reason, and
// the study goes on.
TEST(FaultStudy, FailuresAreCountedWhenTheDiesRunOut) {
    FaultStudySpec spec = studyOf(gemmScenario(4, 4, R"({"tatp": 16})"));
    spec.kind = FaultKind::Dies;
    spec.rates = {0.0, 0.25};
    spec.samples = 2;
    const FaultStudyResult result = runFaultStudy(spec);
    const std::vector<FaultStudyPoint>& points = result.curves.at(0).points;
    EXPECT_EQ(points[0].simulated, 2);
    EXPECT_EQ(points[0].failed, 0);
    EXPECT_TRUE(points[0].firstError.empty());
    EXPECT_EQ(points[1].simulated, 0);
    EXPECT_EQ(points[1].failed, 2);
    EXPECT_FALSE(points[1].spread);
    EXPECT_EQ(points[1].tokensPerSecond, (std::vector<std::optional<double>>{{}, {}}));
    EXPECT_NE(points[1].firstError.find("12 live dies"), std::string::npos) << points[1].firstError;
}

TEST(FaultStudy, TheSameSeedGivesTheSameStudy) {
    FaultStudySpec spec = studyOf(gemmScenario(4, 4, R"({"dp": 2, "tatp": 2})"));
    spec.kind = FaultKind::Dies;
    spec.rates = {0.0, 0.125};
    spec.samples = 3;
    spec.seed = 11;
    const FaultStudyResult first = runFaultStudy(spec);
    const FaultStudyResult second = runFaultStudy(spec);
    for (std::size_t rate = 0; rate < spec.rates.size(); ++rate) {
        EXPECT_EQ(first.curves[0].points[rate].tokensPerSecond,
                  second.curves[0].points[rate].tokensPerSecond);
        EXPECT_EQ(first.curves[0].points[rate].firstError,
                  second.curves[0].points[rate].firstError);
    }
}

// Cancel stops the study at its next poll: the simulations after it never run.
TEST(FaultStudy, CancelStopsItEarly) {
    FaultStudySpec spec = studyOf(gemmScenario(4, 4, R"({"dp": 2, "tatp": 2})"));
    spec.rates = {0.0, 0.1, 0.2};
    spec.samples = 2;
    int done = 0;
    EXPECT_THROW(runFaultStudy(
                     spec, [&] { return done >= 1; }, [&](int count, int) { done = count; }),
                 RunCancelled);
    EXPECT_EQ(done, 1);
}

TEST(FaultStudy, ASpecThatCannotBeStudiedIsRefused) {
    FaultStudySpec traffic;
    traffic.scenario = parseScenario(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 2, "cols": 2},
        "traffic": [{"id": "a", "op": "p2p", "src": 0, "dst": 1, "bytes": "1 MB"}]})");
    traffic.strategies = {{"traffic", std::nullopt}};
    traffic.rates = {0.0};
    EXPECT_THROW(runFaultStudy(traffic), ScenarioError);

    FaultStudySpec spec = studyOf(gemmScenario(2, 2, R"({"tatp": 2})"));
    spec.rates = {0.0, 1.0};
    EXPECT_THROW(runFaultStudy(spec), std::invalid_argument);
    spec.rates = {0.0};
    spec.samples = 0;
    EXPECT_THROW(runFaultStudy(spec), std::invalid_argument);
    spec.samples = 1;
    spec.strategies.clear();
    EXPECT_THROW(runFaultStudy(spec), std::invalid_argument);
}

// The study's axis: whole steps from 0, each rate the number a sweep file would write.
TEST(FaultStudy, RatesAreWholeStepsFromZero) {
    const std::vector<double> rates = faultRates(0.4, 0.05);
    ASSERT_EQ(rates.size(), 9u);
    EXPECT_EQ(rates.front(), 0.0);
    EXPECT_EQ(rates[3], 0.15); // not 3 x 0.05 = 0.15000000000000002
    EXPECT_EQ(rates.back(), 0.4);
    EXPECT_EQ(faultRates(0.1, 0.3), (std::vector<double>{0.0}));
    EXPECT_EQ(faultRates(0.25, 0.1), (std::vector<double>{0.0, 0.1, 0.2}));
    EXPECT_THROW(faultRates(1.0, 0.1), std::invalid_argument);
    EXPECT_THROW(faultRates(0.4, 0.0), std::invalid_argument);
}

// A sample whose step does not fit its dies' memory after the faults is counted out of memory
// and failed, not averaged: GPT-3 175B's FSDP shards over dp 4 instead of 6 (87.5 GB a die).
TEST(FaultStudy, OutOfMemorySamplesAreMarkedAndNeverAveraged) {
    FaultStudySpec spec = studyOf(R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 6, "cols": 8},
        "workload": {"kind": "transformer", "model": "gpt3-175b", "seq_len": 2048,
                     "global_batch": 12},
        "strategy": {"dp": 6, "tatp": 8, "fsdp": true, "mapping": "snake"}})");
    spec.kind = FaultKind::Dies;
    spec.rates = {0.1};
    spec.samples = 1;
    const FaultStudyResult result = runFaultStudy(spec);
    const FaultStudyPoint& point = result.curves.at(0).points.at(0);
    EXPECT_EQ(point.simulated, 0);
    EXPECT_EQ(point.failed, 1);
    EXPECT_EQ(point.outOfMemory, 1);
    EXPECT_FALSE(point.spread) << "nothing to average";
    EXPECT_EQ(point.changed, 1);
    EXPECT_EQ(point.firstChange.rfind("dp 6 -> 4", 0), 0u) << point.firstChange;
    EXPECT_EQ(point.firstError.rfind("out of memory: ", 0), 0u) << point.firstError;
}

} // namespace
} // namespace ws
