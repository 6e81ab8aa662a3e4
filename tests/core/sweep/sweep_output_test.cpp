// Reading a sweep's output back whole (core/sweep/sweep_output.h): what sweepLine writes reads
// back to the same values, and anything that is not a sweep output is a ScenarioError naming
// the line and the problem.
#include "sweep/fault_sample.h"
#include "sweep/sweep_output.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ws {
namespace {

const char* kBase = R"({"format": "waferscope.scenario", "version": 1,
    "wafer": {"rows": 4, "cols": 4},
    "workload": {"kind": "gemm", "m": 2048, "k": 2048, "n": 2048},
    "strategy": {"dp": 2, "tatp": 2, "fsdp": true}})";

std::string sweepText(const std::string& axes, const std::string& extra = "") {
    return R"({"format": "waferscope.sweep", "version": 1, "base": )" + std::string(kBase) +
           R"(, "axes": )" + axes + extra + "}";
}

// Rows of every kind, made by hand (nothing simulates): figures with awkward digits, a row
// without a training step, an out-of-memory row, and failed rows whose errors need CSV quoting.
std::vector<SweepRow> awkwardRows(const SweepSpec& spec) {
    std::vector<SweepRow> rows;
    for (std::size_t i = 0; i < pointCount(spec); ++i) {
        SweepRow row;
        row.point = pointAt(spec, i);
        row.ok = true;
        row.stepS = 0.1 + 1e-17 * static_cast<double>(i); // 0.1 has no exact binary form
        row.tokensPerSecond = 123'456.789 / static_cast<double>(i + 1);
        row.mfu = 1.0 / 3.0;
        row.makespanS = 2.5e-3 * static_cast<double>(i + 1);
        row.maxLinkBytes = 1.5e9;
        row.peakMemoryBytes = 4.0e10 + static_cast<double>(i);
        rows.push_back(row);
    }
    rows[1].stepS.reset(); // a traffic scenario: no step
    rows[1].tokensPerSecond.reset();
    rows[1].mfu.reset();
    rows[2].outOfMemory = true;
    for (const std::size_t failed : {3u, 4u}) {
        rows[failed] = SweepRow{};
        rows[failed].point = pointAt(spec, failed);
        rows[failed].error =
            failed == 3 ? R"(strategy: dp 16, "too many", for 16 dies)" : "two\nlines";
    }
    // A step that does not fit fails, and reads back out of memory from its error alone
    // (docs/cli.md section 10: a failed row has no `oom`).
    rows[5] = SweepRow{};
    rows[5].point = pointAt(spec, 5);
    rows[5].error = "out of memory: 93.08 GB per die against 72.08 GB of SRAM and HBM";
    rows[5].outOfMemory = true;
    return rows;
}

std::string outputText(const SweepSpec& spec, const std::vector<SweepRow>& rows,
                       SweepFormat format) {
    std::string text = sweepHeader(spec, format);
    for (const SweepRow& row : rows)
        text += sweepLine(spec, row, format);
    return text;
}

std::string problemOf(const std::string& text, SweepFormat format) {
    try {
        parseSweepOutput(text, format);
    } catch (const ScenarioError& error) {
        return error.what();
    }
    return "accepted";
}

TEST(SweepOutput, RowsWrittenBySweepLineReadBackToTheSameValues) {
    const SweepSpec spec = parseSweep(
        sweepText(R"({"strategy.tatp": [1, 2], "wafer.link_bandwidth": ["1 TB/s", "4 TB/s"]})",
                  R"(, "samples": 2)"));
    const std::vector<SweepRow> rows = awkwardRows(spec);
    for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        SCOPED_TRACE(format == SweepFormat::Csv ? "CSV" : "JSON Lines");
        const SweepOutput output = parseSweepOutput(outputText(spec, rows, format), format);
        EXPECT_EQ(output.axes, (std::vector<std::string>{"strategy.tatp", "wafer.link_bandwidth"}));
        ASSERT_EQ(output.rows.size(), rows.size());
        EXPECT_FALSE(output.droppedCutLine);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            SCOPED_TRACE(r);
            const SweepRow& in = rows[r];
            const SweepRow& out = output.rows[r];
            EXPECT_EQ(out.point.values, in.point.values); // 1 stays a number, "1 TB/s" a string
            EXPECT_EQ(out.point.sample, in.point.sample);
            EXPECT_EQ(out.point.index, r);
            EXPECT_EQ(out.ok, in.ok);
            EXPECT_EQ(out.error, in.error);
            EXPECT_EQ(out.stepS, in.stepS); // exact: the shortest text that reads back
            EXPECT_EQ(out.tokensPerSecond, in.tokensPerSecond);
            EXPECT_EQ(out.mfu, in.mfu);
            EXPECT_EQ(out.makespanS, in.makespanS);
            EXPECT_EQ(out.maxLinkBytes, in.maxLinkBytes);
            EXPECT_EQ(out.peakMemoryBytes, in.peakMemoryBytes);
            EXPECT_EQ(out.outOfMemory, in.outOfMemory);
            // The row finds its point of the sweep again, with the sweep's numbering.
            const std::optional<SweepPoint> point =
                sweepPointOf(spec, out.point.values, out.point.sample);
            ASSERT_TRUE(point);
            EXPECT_EQ(point->index, in.point.index);
        }
        // The CSV's error with a line break is one record of two lines: line numbers count it.
        EXPECT_EQ(output.lines.front(), format == SweepFormat::Csv ? 2u : 1u);
        EXPECT_EQ(output.lines[5], output.lines[4] + (format == SweepFormat::Csv ? 2u : 1u));
    }
}

// Table-driven: what is not a sweep output is refused with the line and the problem.
TEST(SweepOutput, WhatIsNotASweepOutputIsRefusedNamingTheLine) {
    const std::string header = "strategy.tatp,sample,ok,error,step_s,tokens_per_s,mfu,makespan_s,"
                               "max_link_bytes,peak_memory_bytes,oom\n";
    const std::string good = "4,0,true,,0.5,1000,0.4,0.25,1e9,2e10,false\n";
    struct Case {
        const char* what;
        SweepFormat format;
        std::string text;
        std::string problem;
    };
    const Case cases[] = {
        {"empty", SweepFormat::Csv, "", "the file is empty: a sweep output has a header line"},
        {"blank lines", SweepFormat::Csv, "\n\r\n", "the file is empty"},
        {"a link-load CSV", SweepFormat::Csv, "from,to,bytes\n0,1,5\n",
         "line 1: no 'sample' column: this is not a sweep output; a sweep output's columns are "
         "its axes, then sample, ok, error, step_s, tokens_per_s, mfu, makespan_s, "
         "max_link_bytes, peak_memory_bytes, oom (docs/cli.md section 10)"},
        {"no ok column", SweepFormat::Csv, "a,sample,error\n", "line 1: no 'ok' column"},
        {"no axis", SweepFormat::Csv, header.substr(header.find("sample")),
         "line 1: the columns are sample, ok"},
        {"figures out of order", SweepFormat::Csv,
         "a,ok,sample,error,step_s,tokens_per_s,mfu,makespan_s,max_link_bytes,"
         "peak_memory_bytes,oom\n",
         "line 1: the columns are a, ok, sample,"},
        {"repeated axis", SweepFormat::Csv, "a,a," + header.substr(header.find("sample")),
         "line 1: axis column 'a' is repeated"},
        {"too few cells", SweepFormat::Csv, header + good + "4,1,true\n",
         "line 3: a row of 3 cells, where the header has 11"},
        {"negative sample", SweepFormat::Csv, header + "4,-1,true,,0.5,1000,0.4,0.25,1,2,false\n",
         "line 2: sample '-1' is not a sample number (0, 1, 2, ...)"},
        {"ok yes", SweepFormat::Csv, header + "4,0,yes,,0.5,1000,0.4,0.25,1,2,false\n",
         "line 2: ok 'yes' is not true or false"},
        {"a word for a number", SweepFormat::Csv,
         header + "4,0,true,,fast,1000,0.4,0.25,1,2,false\n",
         "line 2: step_s 'fast' is not a number"},
        {"ok without figures", SweepFormat::Csv, header + "4,0,true,,,,,,,,\n",
         "line 2: a row with ok true has no makespan_s"},
        {"failed with figures", SweepFormat::Csv, header + "4,0,false,why,,,,0.25,1,2,false\n",
         "line 2: a row with ok false has a makespan_s"},
        {"oom maybe", SweepFormat::Csv, header + "4,0,true,,0.5,1000,0.4,0.25,1,2,maybe\n",
         "line 2: oom 'maybe' is not true or false"},
        {"not JSON", SweepFormat::JsonLines, "strategy.tatp,sample\n", "line 1: not JSON"},
        {"an array", SweepFormat::JsonLines, "[1, 2]\n", "line 1: not a JSON object"},
        {"a scenario", SweepFormat::JsonLines,
         R"({"format": "waferscope.scenario"})"
         "\n",
         "line 1: no 'sample' column"},
        {"other keys", SweepFormat::JsonLines,
         R"({"a": 1, "sample": 0, "ok": false, "error": "x", "step_s": null, "tokens_per_s": null, "mfu": null, "makespan_s": null, "max_link_bytes": null, "peak_memory_bytes": null, "oom": null})"
         "\n"
         R"({"b": 1, "sample": 0, "ok": false, "error": "x", "step_s": null, "tokens_per_s": null, "mfu": null, "makespan_s": null, "max_link_bytes": null, "peak_memory_bytes": null, "oom": null})"
         "\n",
         "line 2: its keys (b, sample,"},
        {"a string sample", SweepFormat::JsonLines,
         R"({"a": 1, "sample": "first", "ok": false, "error": "x", "step_s": null, "tokens_per_s": null, "mfu": null, "makespan_s": null, "max_link_bytes": null, "peak_memory_bytes": null, "oom": null})"
         "\n",
         "line 1: sample 'first' is not a sample number"},
    };
    for (const Case& c : cases) {
        const std::string problem = problemOf(c.text, c.format);
        EXPECT_EQ(problem.rfind(c.problem, 0), 0u)
            << c.what << ": got '" << problem << "', expected it to start with '" << c.problem
            << "'";
    }
}

// A sweep interrupted (or still running) leaves its last line cut short: it is left out and
// said so, as resuming drops it.
TEST(SweepOutput, ALastLineCutShortIsLeftOut) {
    const SweepSpec spec = parseSweep(sweepText(R"({"strategy.tatp": [1, 2, 4]})"));
    std::vector<SweepRow> rows = awkwardRows(
        parseSweep(sweepText(R"({"strategy.tatp": [1, 2], "strategy.dp": [1, 2, 4]})")));
    rows.resize(3);
    for (std::size_t r = 0; r < rows.size(); ++r)
        rows[r].point = pointAt(spec, r);
    for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        const std::string full = outputText(spec, rows, format);
        const std::string cut = full.substr(0, full.size() - 12);
        const SweepOutput output = parseSweepOutput(cut, format);
        EXPECT_EQ(output.rows.size(), 2u);
        EXPECT_TRUE(output.droppedCutLine);
        // Only the line break missing: the row is whole and kept.
        const SweepOutput whole = parseSweepOutput(full.substr(0, full.size() - 1), format);
        EXPECT_EQ(whole.rows.size(), 3u);
        EXPECT_FALSE(whole.droppedCutLine);
    }
}

struct TempFolder {
    TempFolder() {
        path = std::filesystem::temp_directory_path() /
               ("ws_sweep_output_test_" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempFolder() { std::filesystem::remove_all(path); }
    void write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
    }
    std::filesystem::path path;
};

TEST(SweepOutput, AFileIsNamedInItsErrorsAndItsSweepFileIsFoundBesideIt) {
    const TempFolder folder;
    folder.write("links.csv", "from,to,bytes\n0,1,5\n");
    try {
        loadSweepOutput(folder.path / "links.csv");
        FAIL() << "a link-load CSV was read as a sweep output";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(
            std::string(error.what())
                .rfind((folder.path / "links.csv").string() + ": line 1: no 'sample' column", 0),
            0u)
            << error.what();
    }
    EXPECT_THROW(loadSweepOutput(folder.path / "missing.csv"), ScenarioError);

    const std::string axes = R"({"strategy.tatp": [1, 2], "strategy.dp": [1, 2]})";
    folder.write("sweep.json", sweepText(axes));
    folder.write("reversed.json", sweepText(R"({"strategy.dp": [1, 2], "strategy.tatp": [1]})"));
    folder.write("scenario.json", kBase);
    folder.write("broken.json", "{\"format\": ");
    folder.write("sweep.json.bak", sweepText(axes));
    const std::vector<std::string> columns{"strategy.tatp", "strategy.dp"};
    EXPECT_EQ(findSweepFiles(folder.path, columns),
              std::vector<std::filesystem::path>{folder.path / "sweep.json"});
    folder.write("copy.json", sweepText(axes));
    EXPECT_EQ(findSweepFiles(folder.path, columns).size(), 2u);
    EXPECT_TRUE(findSweepFiles(folder.path / "nowhere", columns).empty());
}

// sweepPointOf refuses a row of another sweep; scenarioAt is what evaluatePoint simulates,
// faults included.
TEST(SweepOutput, ARowOpensTheScenarioItsPointSimulated) {
    const SweepSpec spec =
        parseSweep(sweepText(R"({"strategy.tatp": [1, 2], "faults.die_rate": [0, 0.25]})",
                             R"(, "samples": 3, "seed": 7)"));
    EXPECT_FALSE(sweepPointOf(spec, {nlohmann::json(4), nlohmann::json(0)}, 0));
    EXPECT_FALSE(sweepPointOf(spec, {nlohmann::json(1), nlohmann::json(0)}, 3));
    EXPECT_FALSE(sweepPointOf(spec, {nlohmann::json(1)}, 0));
    const std::optional<SweepPoint> point =
        sweepPointOf(spec, {nlohmann::json(2), nlohmann::json(0.25)}, 2);
    ASSERT_TRUE(point);
    EXPECT_EQ(point->index, 11u); // (1 * 2 + 1) * 3 + 2
    const FaultedScenario opened = scenarioAt(spec, *point);
    EXPECT_EQ(opened.scenario.strategy->tatp, 2);
    const FaultedScenario drawn =
        sampleFaults(parseScenario(scenarioJsonAt(spec, *point)), 0.25, 0.0, 7, 2, 11);
    EXPECT_EQ(opened.diesKilled, 4); // llround(0.25 * 16)
    EXPECT_EQ(opened.scenario, drawn.scenario);
    EXPECT_EQ(opened.note, drawn.note);
}

} // namespace
} // namespace ws
