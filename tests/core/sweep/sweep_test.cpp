#include "sweep/sweep_output.h"
#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace ws {
namespace {

// A GEMM step on a 4x4 wafer: each point simulates in milliseconds.
const char* kBase = R"({"format": "waferscope.scenario", "version": 1,
    "wafer": {"rows": 4, "cols": 4},
    "workload": {"kind": "gemm", "m": 2048, "k": 2048, "n": 2048},
    "strategy": {"dp": 2, "tatp": 2, "fsdp": true}})";

std::string sweepText(const std::string& axes, const std::string& extra = "") {
    return R"({"format": "waferscope.sweep", "version": 1, "base": )" + std::string(kBase) +
           R"(, "axes": )" + axes + extra + "}";
}

std::string problemOf(const std::string& text) {
    try {
        parseSweep(text);
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "accepted";
}

TEST(Sweep, PointsAreTheCartesianProductLastAxisFastestThenTheSample) {
    const SweepSpec spec = parseSweep(
        sweepText(R"({"strategy.tatp": [1, 2, 4], "wafer.link_bandwidth": ["1 TB/s", "4 TB/s"]})",
                  R"(, "samples": 2)"));
    ASSERT_EQ(spec.axes.size(), 2u);
    EXPECT_EQ(spec.axes[0].key, "strategy.tatp"); // the file's order, not alphabetical
    EXPECT_EQ(pointCount(spec), 3u * 2u * 2u);
    const SweepPoint first = pointAt(spec, 0);
    EXPECT_EQ(first.values, (std::vector<nlohmann::json>{1, "1 TB/s"}));
    EXPECT_EQ(first.sample, 0);
    EXPECT_EQ(pointAt(spec, 1).sample, 1);
    EXPECT_EQ(pointAt(spec, 2).values, (std::vector<nlohmann::json>{1, "4 TB/s"}));
    const SweepPoint last = pointAt(spec, 11);
    EXPECT_EQ(last.values, (std::vector<nlohmann::json>{4, "4 TB/s"}));
    EXPECT_EQ(last.sample, 1);
    const Scenario scenario = parseScenario(scenarioJsonAt(spec, last));
    EXPECT_EQ(scenario.strategy->tatp, 4);
    EXPECT_DOUBLE_EQ(scenario.wafer.linkBandwidth.value, 4e12);
}

// Bad sweep files exit 2 naming the key (docs/cli.md section 10).
TEST(Sweep, BadSweepFilesAreRefusedNamingTheKey) {
    EXPECT_NE(problemOf(sweepText(R"({"strategy.tapt": [2]})")).find("axes.strategy.tapt[0]"),
              std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"strategy.tapt": [2]})")).find("did you mean 'tatp'"),
              std::string::npos)
        << problemOf(sweepText(R"({"strategy.tapt": [2]})"));
    EXPECT_NE(problemOf(sweepText(R"({"strategy.tatp": ["four"]})")).find("axes.strategy.tatp[0]"),
              std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"strategy.tatp": []})")).find("axes.strategy.tatp: must be"),
              std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({})")).find("axes: must be"), std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"wafer.rows": [4]})", R"(, "samples": 0)")).find("samples"),
              std::string::npos);
    // The fault axes are fractions below 1 (tests/core/sweep/fault_sample_test.cpp has more).
    EXPECT_NE(problemOf(sweepText(R"({"faults.die_rate": [1.5]})"))
                  .find("axes.faults.die_rate[0]: 1.5 is not a fault rate"),
              std::string::npos);
    EXPECT_EQ(problemOf(sweepText(R"({"faults.die_rate": [0.1]})")), "accepted");
    EXPECT_NE(problemOf(R"({"format": "waferscope.sweep", "version": 1, "axes": {"a": [1]}})")
                  .find("base: missing"),
              std::string::npos);
    EXPECT_NE(problemOf(R"({"format": "sweep", "version": 1})").find("format"), std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"wafer.rows": [4]})", R"(, "sample": 2)")).find("sample: "),
              std::string::npos);
    EXPECT_NE(problemOf("{\"format\": ").find("JSON syntax error"), std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"strategy.tatp": [2, 4, 2]})"))
                  .find("axes.strategy.tatp[2]: 2 is already the axis's value 0"),
              std::string::npos);
}

TEST(Sweep, ADottedKeyCreatesTheObjectsOnItsWay) {
    nlohmann::ordered_json document = {{"wafer", {{"rows", 2}}}};
    setDottedKey(document, "tcme.max_iter", 15);
    EXPECT_EQ(document["tcme"]["max_iter"], 15);
    setDottedKey(document, "wafer.rows", 6);
    EXPECT_EQ(document["wafer"]["rows"], 6);
    EXPECT_THROW(setDottedKey(document, "wafer.rows.x", 1), ScenarioError);
    EXPECT_THROW(setDottedKey(document, "wafer..rows", 1), ScenarioError);
}

// A sweep's rows equal individual simulations of the same points (docs/cli.md section 10).
TEST(Sweep, ARowIsTheSimulationOfItsPoint) {
    const SweepSpec spec = parseSweep(sweepText(R"({"strategy.tatp": [2, 4]})"));
    for (std::size_t index = 0; index < pointCount(spec); ++index) {
        const SweepPoint point = pointAt(spec, index);
        const SweepRow row = evaluatePoint(spec, point);
        ASSERT_TRUE(row.ok) << row.error;
        const SimulationReport report =
            simulateScenarioReport(parseScenario(scenarioJsonAt(spec, point)), frontEndRunOptions(),
                                   ReportDetail::Summary);
        ASSERT_TRUE(report.step && row.stepS);
        EXPECT_EQ(*row.stepS, report.step->stepS);
        EXPECT_EQ(*row.mfu, report.step->mfu);
        EXPECT_EQ(row.makespanS, report.makespanS);
        EXPECT_GT(row.maxLinkBytes, 0.0);
        EXPECT_GT(row.peakMemoryBytes, 0.0);
    }
}

// A point that cannot be placed is a row with the reason, never a failed sweep.
TEST(Sweep, APointThatFailsIsARowWithTheReason) {
    const SweepSpec spec = parseSweep(sweepText(R"({"strategy.dp": [2, 16]})"));
    const SweepRow bad = evaluatePoint(spec, pointAt(spec, 1)); // dp 16 x tatp 2 > 16 dies
    EXPECT_FALSE(bad.ok);
    EXPECT_FALSE(bad.error.empty());
    const std::string line = sweepLine(spec, bad, SweepFormat::Csv);
    EXPECT_EQ(line.rfind("16,0,false,", 0), 0u) << line;
    EXPECT_TRUE(evaluatePoint(spec, pointAt(spec, 0)).ok);
}

std::string runToText(const SweepSpec& spec, int threads, SweepFormat format) {
    std::string text = sweepHeader(spec, format);
    SweepRunOptions options;
    options.threads = threads;
    options.onRow = [&](const SweepRow& row) { text += sweepLine(spec, row, format); };
    runSweep(spec, options);
    return text;
}

// One thread or two: the same output, row for row (docs/cli.md section 10).
TEST(Sweep, TheOutputIsTheSameOnOneOrTwoThreads) {
    const SweepSpec spec =
        parseSweep(sweepText(R"({"strategy.tatp": [1, 2, 4], "strategy.dp": [1, 2, 16]})"));
    const std::string one = runToText(spec, 1, SweepFormat::Csv);
    EXPECT_EQ(one, runToText(spec, 2, SweepFormat::Csv));
    EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 1 + 9);
    EXPECT_EQ(one.substr(0, one.find('\n')),
              "strategy.tatp,strategy.dp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,"
              "max_link_bytes,peak_memory_bytes,oom,dies_used,pp_bubble");
    EXPECT_EQ(runToText(spec, 1, SweepFormat::JsonLines),
              runToText(spec, 2, SweepFormat::JsonLines));
}

// Resume: the rows already written are recognised, a line cut short is dropped.
TEST(Sweep, AnEarlierOutputIsReadBackForResuming) {
    const SweepSpec spec = parseSweep(sweepText(R"({"strategy.tatp": [1, 2, 4]})"));
    for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        const std::string full = runToText(spec, 1, format);
        const std::size_t cut = full.rfind('\n', full.size() - 2) + 5; // into the last row
        const ExistingRows rows = readExistingRows(full.substr(0, cut), spec, format);
        EXPECT_EQ(rows.keys.size(), 2u);
        EXPECT_EQ(rows.completeBytes, full.rfind('\n', full.size() - 2) + 1);
        EXPECT_EQ(rows.hasHeader, format == SweepFormat::Csv);
        EXPECT_TRUE(rows.keys.count(pointKey(pointAt(spec, 0))));
        EXPECT_TRUE(rows.keys.count(pointKey(pointAt(spec, 1))));
        EXPECT_FALSE(rows.keys.count(pointKey(pointAt(spec, 2))));
    }
    const SweepSpec other = parseSweep(sweepText(R"({"strategy.dp": [1, 2]})"));
    EXPECT_THROW(readExistingRows(runToText(spec, 1, SweepFormat::Csv), other, SweepFormat::Csv),
                 ScenarioError);
}

// docs/cli.md section 10: each row gives the dies its step used and its pipeline bubble, the
// figures MFU is read beside; both read back from CSV and JSON Lines. A tiny transformer on a
// 4x4 wafer: dp 2 x tatp 2 uses 4 dies, dp 4 x tatp 2 uses 8, and two pipeline stages of dp 2
// idle for part of their 1F1B schedule.
TEST(Sweep, EachRowGivesItsDiesUsedAndPipelineBubble) {
    const std::string base = R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 4, "cols": 4},
        "workload": {"kind": "transformer", "model": {"name": "tiny", "layers": 2,
            "hidden": 512, "heads": 8, "ffn_hidden": 2048, "vocab": 4096},
            "seq_len": 256, "global_batch": 8},
        "strategy": {"dp": 2, "tatp": 2, "micro_batches": 2}})";
    const SweepSpec spec =
        parseSweep(R"({"format": "waferscope.sweep", "version": 1, "base": )" + base +
                   R"(, "axes": {"strategy.dp": [2, 4], "strategy.pp": [1, 2]}})");
    for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        const std::string text = runToText(spec, 1, format);
        const SweepOutput output = parseSweepOutput(text, format);
        ASSERT_EQ(output.rows.size(), 4u);
        for (const SweepRow& row : output.rows) {
            ASSERT_TRUE(row.ok) << row.error;
            const int dp = row.point.values[0].get<int>();
            const int pp = row.point.values[1].get<int>();
            EXPECT_EQ(row.diesUsed, pp * dp * 2) << text;
            ASSERT_TRUE(row.ppBubble);
            if (pp == 1)
                EXPECT_EQ(*row.ppBubble, 0.0);
            else // at least the closed form's (p - 1) / (m + p - 1) = 1/3
                EXPECT_GE(*row.ppBubble, 1.0 / 3.0 - 1e-9);
        }
    }
}

// An output written before the planning columns still reads (without them), and resuming it
// is refused with the reason: the rows a run adds would not match its header.
TEST(Sweep, AnOutputWithoutThePlanningColumnsReadsButDoesNotResume) {
    const SweepSpec spec = parseSweep(sweepText(R"({"strategy.tatp": [1, 2]})"));
    const std::string older = "strategy.tatp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,"
                              "max_link_bytes,peak_memory_bytes,oom\n"
                              "1,0,true,,,,,0.5,100,0,false\n";
    const SweepOutput output = parseSweepOutput(older, SweepFormat::Csv);
    EXPECT_TRUE(output.extras.empty());
    ASSERT_EQ(output.rows.size(), 1u);
    EXPECT_FALSE(output.rows[0].diesUsed);
    try {
        readExistingRows(older, spec, SweepFormat::Csv);
        FAIL() << "resumed an output without the planning columns";
    } catch (const ScenarioError& error) {
        EXPECT_NE(std::string(error.what()).find("dies_used and pp_bubble"), std::string::npos)
            << error.what();
    }
    EXPECT_THROW(parseSweepOutput("strategy.tatp,sample,ok,error,step_s,tokens_per_s,mfu,"
                                  "makespan_s,max_link_bytes,peak_memory_bytes,oom,dies_used,"
                                  "pp_bubble\n1,0,true,,,,,0.5,100,0,false,2.5,0\n",
                                  SweepFormat::Csv),
                 ScenarioError)
        << "2.5 is no count of dies";
}

// docs/cli.md section 10, `search`: every point searches strategies and reports the best
// family, its step and the runner-up family's margin; the columns read back from CSV and JSON
// Lines. A tiny transformer on a 4x4 wafer, so that a search takes a moment.
TEST(Sweep, ASweepWithSearchReportsTheBestFamilyAndTheRunnerUpsMargin) {
    const std::string base = R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 4, "cols": 4, "die": {"sram": "8 MB", "hbm": "64 MB"}},
        "workload": {"kind": "transformer", "model": {"name": "tiny", "layers": 2,
            "hidden": 512, "heads": 8, "ffn_hidden": 2048, "vocab": 4096},
            "seq_len": 256, "global_batch": 8},
        "strategy": {"dp": 1}})";
    const SweepSpec spec =
        parseSweep(R"({"format": "waferscope.sweep", "version": 1, "base": )" + base +
                   R"(, "axes": {"wafer.link_bandwidth": ["100 GB/s", "4 TB/s"]},
        "search": {"budget": 60, "seed": 3}})");
    ASSERT_TRUE(spec.search);
    EXPECT_EQ(spec.search->budget, 60);
    EXPECT_EQ(spec.search->seed, 3u);
    std::vector<std::string> extras = kPlanningColumns;
    extras.insert(extras.end(), kSearchColumns.begin(), kSearchColumns.end());
    EXPECT_EQ(sweepExtraColumns(spec), extras);
    for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        std::string text = sweepHeader(spec, format);
        std::vector<SweepRow> rows;
        SweepRunOptions options;
        options.onRow = [&](const SweepRow& row) {
            rows.push_back(row);
            text += sweepLine(spec, row, format);
        };
        runSweep(spec, options);
        ASSERT_EQ(rows.size(), 2u);
        for (const SweepRow& row : rows) {
            ASSERT_TRUE(row.bestStepS) << row.error;
            EXPECT_FALSE(row.bestFamily.empty());
            EXPECT_FALSE(row.bestStrategy.empty());
            ASSERT_TRUE(row.margin);
            EXPECT_GE(*row.margin, 0.0);
            EXPECT_NE(row.runnerUpFamily, row.bestFamily);
        }
        const SweepOutput output = parseSweepOutput(text, format);
        EXPECT_EQ(output.axes, (std::vector<std::string>{"wafer.link_bandwidth"}));
        EXPECT_EQ(output.extras, extras);
        ASSERT_EQ(output.rows.size(), 2u);
        for (std::size_t r = 0; r < 2; ++r) {
            EXPECT_EQ(output.rows[r].bestFamily, rows[r].bestFamily);
            EXPECT_EQ(output.rows[r].bestStrategy, rows[r].bestStrategy);
            EXPECT_EQ(output.rows[r].bestStepS, rows[r].bestStepS);
            EXPECT_EQ(output.rows[r].runnerUpFamily, rows[r].runnerUpFamily);
            EXPECT_EQ(output.rows[r].margin, rows[r].margin);
        }
    }
    EXPECT_NE(problemOf(sweepText(R"({"wafer.rows": [4]})", R"(, "search": {"budget": 0})"))
                  .find("search.budget: must be"),
              std::string::npos);
    EXPECT_NE(problemOf(sweepText(R"({"wafer.rows": [4]})", R"(, "search": {"budgte": 5})"))
                  .find("search.budgte: unknown key"),
              std::string::npos);
}

} // namespace
} // namespace ws
