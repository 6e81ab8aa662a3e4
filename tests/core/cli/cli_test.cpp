// Drives the real `waferscope-cli` binary: exit statuses, messages and output files as
// docs/cli.md specifies them.
#include "cli_runner.h"
#include "test_data_paths.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using ws::test::kScenarios;
const fs::path kBadInputs = fs::path(WAFERSCOPE_TEST_DATA_DIR) / ".." / "io" / "bad_inputs";

using ws::test::CliRun;
using ws::test::quote;
using ws::test::readFile;
using ws::test::runCli;
using ws::test::scratchDir;

TEST(Cli, ValidatesEveryExample) {
    int examples = 0;
    for (const auto& entry : fs::directory_iterator(kScenarios)) {
        if (entry.path().extension() != ".json")
            continue;
        ++examples;
        const CliRun run = runCli("validate " + quote(entry.path().string()));
        EXPECT_EQ(run.status, 0) << entry.path() << "\n" << run.err;
        EXPECT_NE(run.out.find("valid"), std::string::npos);
    }
    EXPECT_GE(examples, 4);
}

TEST(Cli, SimulateJsonMatchesTheRingOnALineClosedForm) {
    const CliRun run =
        runCli("simulate --json " + quote((kScenarios / "ring_allgather_line.json").string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto report = nlohmann::json::parse(run.out);
    // All-gather on a line of p dies: ((p-1)/p) n/B + (2p-3) a (docs/network-model.md section 9),
    // with the wafer's default protocol (section 4.8): its 1 us once, and B at 0.92 of the
    // line rate.
    const double p = 8, n = 64.0 * 1024 * 1024, bandwidth = 0.92 * 4e12, latency = 200e-9;
    const double expected = 1e-6 + (p - 1) / p * n / bandwidth + (2 * p - 3) * latency;
    EXPECT_NEAR(report.at("makespan_s").get<double>(), expected, expected * 1e-9);
    ASSERT_EQ(report.at("flows").size(), 56u);
    const auto& first = report.at("flows").at(0);
    EXPECT_EQ(first.at("id"), "ag/s0/r0");
    EXPECT_EQ(first.at("path"), nlohmann::json::array({0, 1}));
    for (const char* key : {"links", "dies", "energy_j", "warnings"})
        EXPECT_TRUE(report.contains(key)) << key;
    const auto& link = report.at("links").at(0);
    for (const char* key : {"from", "to", "bytes", "busy_s", "utilization"})
        EXPECT_TRUE(link.contains(key)) << key;
    const auto& die = report.at("dies").at(0);
    for (const char* key : {"id", "compute_s", "utilization", "peak_memory_bytes", "events"})
        EXPECT_TRUE(die.contains(key)) << key;
    EXPECT_EQ(die.at("events").at(0).at("kind"), "send");
    // The regime ratios of the default die: 1000 TFLOP/s over 4 TB/s of link and 1 TB/s of HBM.
    EXPECT_EQ(report.at("hardware").at("flops_per_link_byte"), 250.0);
    EXPECT_EQ(report.at("hardware").at("flops_per_hbm_byte"), 1000.0);
    EXPECT_FALSE(report.at("hardware").contains("preset"));
}

// --json=summary is the full report without its per-flow and per-event detail, and says so.
TEST(Cli, SimulateJsonSummaryLeavesOutFlowsAndEvents) {
    const std::string file = quote((kScenarios / "ring_allgather_line.json").string());
    const CliRun full = runCli("simulate --json " + file);
    const CliRun summary = runCli("simulate " + file + " --json=summary");
    ASSERT_EQ(full.status, 0) << full.err;
    ASSERT_EQ(summary.status, 0) << summary.err;
    auto fullReport = nlohmann::json::parse(full.out);
    const auto summaryReport = nlohmann::json::parse(summary.out);
    EXPECT_EQ(fullReport.at("detail"), "full");
    EXPECT_EQ(summaryReport.at("detail"), "summary");
    EXPECT_FALSE(summaryReport.contains("flows"));
    EXPECT_LT(summary.out.size(), full.out.size());
    // Everything else is the same, field for field.
    fullReport.erase("flows");
    fullReport["detail"] = "summary";
    for (auto& die : fullReport.at("dies"))
        die.erase("events");
    EXPECT_EQ(summaryReport, fullReport);

    const CliRun bad = runCli("simulate " + file + " --json=brief");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--json= takes full or summary, not 'brief'"), std::string::npos)
        << bad.err;
}

// The paper's wafer read as 4 TB/s per die: the report names the preset and the link regime
// is four times the per-link reading's.
TEST(Cli, SimulateNamesTheHardwarePresetAndItsRegime) {
    const fs::path file = scratchDir() / "per_die.json";
    std::ofstream(file) << R"({"name": "per die", "wafer": {"preset": "paper-wsc-per-die"},
        "traffic": [{"id": "p", "op": "p2p", "src": 0, "dst": 1, "bytes": "1 MB"}]})";
    const CliRun run = runCli("simulate --json " + quote(file.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto hardware = nlohmann::json::parse(run.out).at("hardware");
    EXPECT_EQ(hardware.at("preset"), "paper-wsc-per-die");
    EXPECT_EQ(hardware.at("flops_per_link_byte"), 1000.0);
    const CliRun human = runCli("simulate " + quote(file.string()));
    EXPECT_NE(human.out.find("hardware:  preset paper-wsc-per-die; 1000 FLOP per byte of link, "
                             "1000 FLOP per byte of HBM"),
              std::string::npos)
        << human.out;
}

// Both network models side by side: the ring on a line costs more chunked (the wrap-around is
// stored and forwarded at every die), and the report of a plain run names its model.
TEST(Cli, CompareModesReportsBothEndsOfTheBracket) {
    const std::string file = quote((kScenarios / "ring_allgather_line.json").string());
    const CliRun run = runCli("simulate --compare-modes --json " + file);
    ASSERT_EQ(run.status, 0) << run.err;
    const auto json = nlohmann::json::parse(run.out);
    const auto& modes = json.at("modes");
    ASSERT_EQ(modes.size(), 2u);
    EXPECT_EQ(modes[0].at("model"), "fluid");
    EXPECT_EQ(modes[1].at("model"), "store_and_forward");
    EXPECT_EQ(modes[1].at("chunk_bytes"), 1048576.0);
    EXPECT_EQ(modes[0].at("hottest_link").at("bytes"), modes[1].at("hottest_link").at("bytes"));
    const double fluid = modes[0].at("makespan_s");
    const double chunked = modes[1].at("makespan_s");
    EXPECT_GT(chunked, fluid);
    EXPECT_DOUBLE_EQ(json.at("ratio").get<double>(), chunked / fluid);
    const CliRun plain = runCli("simulate --json " + file);
    EXPECT_EQ(nlohmann::json::parse(plain.out).at("network").at("model"), "fluid");
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(plain.out).at("makespan_s").get<double>(), fluid);
    const CliRun human = runCli("simulate --compare-modes " + file);
    EXPECT_NE(human.out.find("store-and-forward (1.049 MB chunks) over fluid: "), std::string::npos)
        << human.out;
    EXPECT_EQ(runCli("simulate --compare-modes --csv out.csv " + file).status, 2);
}

// A scenario that would build more flows than the limit is refused before it is expanded,
// and the limit can be raised.
TEST(Cli, MaxFlowsRefusesAndRaisesTheLimit) {
    const std::string file = quote((kScenarios / "ring_allgather_line.json").string());
    const CliRun refused = runCli("validate --max-flows 10 " + file);
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("expands to 56 flows; the run would build more than the limit of "
                               "10 flows"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(runCli("simulate --max-flows 56 " + file).status, 0);
    EXPECT_EQ(runCli("simulate --max-flows x " + file).status, 2);
}

TEST(Cli, SimulateWritesCsvAndTrace) {
    const fs::path dir = scratchDir();
    const fs::path csv = dir / "links.csv";
    const fs::path trace = dir / "trace.json";
    const CliRun run =
        runCli("simulate " + quote((kScenarios / "allgather_p2p_collision_4x4.json").string()) +
               " --csv " + quote(csv.string()) + " --trace " + quote(trace.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("makespan"), std::string::npos);
    EXPECT_NE(run.out.find("hottest links"), std::string::npos);

    std::istringstream rows(readFile(csv));
    std::string line;
    std::getline(rows, line);
    EXPECT_EQ(line, "link,from,to,alive,bytes,busy_s,utilization,flows");
    int rowCount = 0;
    while (std::getline(rows, line))
        ++rowCount;
    EXPECT_EQ(rowCount, 4 * 4 * 3); // every directed link of a 4x4 mesh

    const auto events = nlohmann::json::parse(readFile(trace)).at("traceEvents");
    std::map<int, int> completeEventsPerProcess;
    for (const auto& event : events)
        if (event.at("ph") == "X") {
            ++completeEventsPerProcess[event.at("pid").get<int>()];
            EXPECT_GE(event.at("dur").get<double>(), 0.0);
        }
    EXPECT_GT(completeEventsPerProcess[1], 0); // die tracks
    EXPECT_GT(completeEventsPerProcess[2], 0); // link tracks
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(runCli("").status, 2);
    EXPECT_EQ(runCli("frobnicate x.json").status, 2);
    EXPECT_EQ(runCli("simulate").status, 2);
    const CliRun unknownOption =
        runCli("simulate " + quote((kScenarios / "transpose_8x8.json").string()) + " --fast");
    EXPECT_EQ(unknownOption.status, 2);
    EXPECT_NE(unknownOption.err.find("--fast"), std::string::npos);
    EXPECT_EQ(runCli("--help").status, 0);
}

TEST(Cli, MissingFileNamesTheFile) {
    const CliRun run = runCli("validate /nonexistent/scenario.json");
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("/nonexistent/scenario.json: "), std::string::npos) << run.err;
}

TEST(Cli, EnvironmentOverridesAreCheckedAndReported) {
    const std::string file = quote((kScenarios / "transpose_8x8.json").string());
    const CliRun bad = runCli("validate " + file, "TCME_ROUTING=sometimes");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("environment.TCME_ROUTING"), std::string::npos) << bad.err;

    const CliRun adaptive = runCli("simulate --json " + file, "TCME_ROUTING=adaptive");
    ASSERT_EQ(adaptive.status, 0) << adaptive.err;
    const auto warnings = nlohmann::json::parse(adaptive.out).at("warnings");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].get<std::string>().find("TCME_ROUTING=adaptive"), std::string::npos);
}

// Every malformed file of the corpus: exit status 2 (never a crash) and a message
// "FILE: key.path: problem" that names the expected key.
TEST(Cli, BadInputCorpusExitsTwoNamingTheKey) {
    std::ifstream expectations(kBadInputs / "EXPECTED.tsv");
    ASSERT_TRUE(expectations) << "missing " << (kBadInputs / "EXPECTED.tsv");
    std::string line;
    int files = 0;
    while (std::getline(expectations, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab = line.find('\t');
        ASSERT_NE(tab, std::string::npos) << line;
        const fs::path file = kBadInputs / line.substr(0, tab);
        const std::string expected = line.substr(tab + 1);
        ASSERT_TRUE(fs::exists(file)) << file;
        const CliRun run = runCli("simulate " + quote(file.string()));
        EXPECT_EQ(run.status, 2) << file << "\n" << run.err;
        EXPECT_NE(run.err.find(file.string() + ": "), std::string::npos) << run.err;
        EXPECT_NE(run.err.find(expected), std::string::npos)
            << file.filename() << ": expected '" << expected << "' in: " << run.err;
        ++files;
    }
    EXPECT_GE(files, 30);
}

TEST(Cli, SimulatesATrainingStep) {
    const CliRun run =
        runCli("simulate --json " + quote((kScenarios / "llama2_7b_4x4_tp_vs_tatp.json").string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto report = nlohmann::json::parse(run.out);
    const auto& step = report.at("step");
    EXPECT_GT(step.at("step_s").get<double>(), 0.0);
    EXPECT_GT(step.at("tokens_per_s").get<double>(), 0.0);
    EXPECT_EQ(step.at("dies_used"), 16);
    const auto& die = report.at("dies").at(5);
    EXPECT_TRUE(die.at("memory").contains("total_bytes"));
    EXPECT_EQ(die.at("peak_memory_bytes"), die.at("memory").at("total_bytes"));
    ASSERT_FALSE(die.at("tensors").empty());
    EXPECT_EQ(die.at("tensors").at(0).at("gemm"), "qkv");
    bool computeInRound = false;
    for (const auto& event : die.at("events"))
        computeInRound = computeInRound || (event.at("kind") == "compute" && event.at("round") > 0);
    EXPECT_TRUE(computeInRound);
}

TEST(Cli, OutOfMemoryFailsOnlyWhenAsked) {
    const fs::path file = scratchDir() / "oom.json";
    std::ofstream(file) << R"({"wafer": {"rows": 4, "cols": 4},
        "workload": {"kind": "transformer", "model": "gpt3-175b", "global_batch": 16},
        "strategy": {"dp": 16}})";
    const CliRun plain = runCli("simulate " + quote(file.string()));
    EXPECT_EQ(plain.status, 0) << plain.err;
    EXPECT_NE(plain.out.find("OUT OF MEMORY"), std::string::npos) << plain.out;
    const CliRun strict = runCli("simulate --fail-on-oom " + quote(file.string()));
    EXPECT_EQ(strict.status, 1);
    EXPECT_NE(strict.err.find("out of memory"), std::string::npos) << strict.err;
    EXPECT_NE(strict.err.find("optimizer"), std::string::npos) << strict.err;
}

TEST(Cli, InfeasibleStrategyExitsTwo) {
    const fs::path file = scratchDir() / "infeasible.json";
    std::ofstream(file) << R"({"wafer": {"rows": 4, "cols": 4},
        "workload": {"kind": "transformer", "model": "gpt3-6.7b", "global_batch": 8},
        "strategy": {"tp": 5}})";
    const CliRun run = runCli("simulate " + quote(file.string()));
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(file.string() + ": strategy.tp: "), std::string::npos) << run.err;
}

// Why each kept change was kept, in the text report as in the JSON's `gain`: on the teaching
// example iteration 0's reroute leaves the makespan and the hottest link where they were and
// only spreads the load; iteration 1's lowers the makespan.
TEST(Cli, OptimizeSaysWhyEachChangeWasKept) {
    const std::string file = quote((kScenarios / "contention_fsdp_tatp_4x4.json").string());
    const CliRun text = runCli("optimize " + file);
    ASSERT_EQ(text.status, 0) << text.err;
    const std::size_t first =
        text.out.find("  kept for: spread (same makespan and largest link load");
    const std::size_t second = text.out.find("  kept for: makespan (the makespan fell)");
    ASSERT_NE(first, std::string::npos) << text.out;
    ASSERT_NE(second, std::string::npos) << text.out;
    EXPECT_LT(first, second);
    const CliRun json = runCli("optimize --json " + file);
    ASSERT_EQ(json.status, 0) << json.err;
    const auto iterations = nlohmann::json::parse(json.out).at("iterations");
    ASSERT_GE(iterations.size(), 2u);
    EXPECT_EQ(iterations[0].at("gain"), "spread");
    EXPECT_EQ(iterations[1].at("gain"), "makespan");
}

// TCME through the CLI: the JSON of docs/cli.md, and a tuned scenario that simulates to
// exactly the reported `after`.
TEST(Cli, OptimizeWritesATunedScenarioThatReproducesAfter) {
    for (const char* name : {"contention_fsdp_tatp_4x4.json", "allgather_p2p_collision_4x4.json"}) {
        const fs::path tuned = scratchDir() / (std::string("tuned_") + name);
        const CliRun run = runCli("optimize --json " + quote((kScenarios / name).string()) +
                                  " -o " + quote(tuned.string()));
        ASSERT_EQ(run.status, 0) << run.err;
        const auto report = nlohmann::json::parse(run.out);
        const auto& before = report.at("before");
        const auto& after = report.at("after");
        EXPECT_LT(after.at("makespan_s").get<double>(), before.at("makespan_s").get<double>())
            << name;
        EXPECT_LT(after.at("max_link_bytes").get<double>(),
                  before.at("max_link_bytes").get<double>())
            << name;
        ASSERT_FALSE(report.at("iterations").empty());
        const auto& first = report.at("iterations").at(0);
        for (const char* key :
             {"index", "max_link", "max_link_bytes", "max_utilization", "makespan_s", "actions"})
            EXPECT_TRUE(first.contains(key)) << key;
        EXPECT_FALSE(first.at("actions").empty());
        const std::string reason = report.at("stop_reason");
        EXPECT_TRUE(reason == "max_iter" || reason == "no_gain" || reason == "below_target" ||
                    reason == "no_candidate")
            << reason;

        const CliRun again = runCli("simulate --json " + quote(tuned.string()));
        ASSERT_EQ(again.status, 0) << again.err;
        const auto simulated = nlohmann::json::parse(again.out);
        EXPECT_DOUBLE_EQ(simulated.at("makespan_s").get<double>(),
                         after.at("makespan_s").get<double>())
            << name;
        double hottest = 0.0;
        for (const auto& link : simulated.at("links"))
            hottest = std::max(hottest, link.at("bytes").get<double>());
        EXPECT_DOUBLE_EQ(hottest, after.at("max_link_bytes").get<double>()) << name;
    }
}

TEST(Cli, OptimizeMaxIterCapsTheRun) {
    const CliRun run = runCli("optimize --json --max-iter 1 " +
                              quote((kScenarios / "contention_fsdp_tatp_4x4.json").string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto report = nlohmann::json::parse(run.out);
    EXPECT_EQ(report.at("iterations").size(), 1u);
    EXPECT_EQ(report.at("stop_reason"), "max_iter");
    EXPECT_EQ(runCli("optimize --max-iter zero x.json").status, 2);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream stream(text);
    std::string line;
    while (std::getline(stream, line))
        result.push_back(line);
    return result;
}

// The exports of a training step parse back: the trace is JSON with complete events on the
// track of every die that computes or sends, the link CSV has a row per link, the die CSV a
// row per die with the memory model's figures.
TEST(Cli, SimulateExportsOfATrainingStepParseBack) {
    const fs::path dir = scratchDir();
    const fs::path trace = dir / "step_trace.json";
    const fs::path links = dir / "step_links.csv";
    const fs::path dies = dir / "step_dies.csv";
    const CliRun run =
        runCli("simulate --json " + quote((kScenarios / "llama2_7b_4x4_tp_vs_tatp.json").string()) +
               " --trace " + quote(trace.string()) + " --csv " + quote(links.string()) +
               " --die-csv " + quote(dies.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto report = nlohmann::json::parse(run.out);

    std::set<int> active; // dies that compute or send
    for (const auto& die : report.at("dies"))
        for (const auto& event : die.at("events"))
            if (event.at("kind") == "compute" || event.at("kind") == "send")
                active.insert(die.at("id").get<int>());
    ASSERT_FALSE(active.empty());
    std::set<int> traced;
    const auto events = nlohmann::json::parse(readFile(trace)).at("traceEvents");
    for (const auto& event : events) {
        if (event.at("ph") != "X" || event.at("pid") != 1)
            continue;
        EXPECT_GE(event.at("dur").get<double>(), 0.0);
        EXPECT_TRUE(event.contains("ts") && event.contains("name"));
        traced.insert(event.at("tid").get<int>() % (1 << 20)); // lanes: tid = lane * 2^20 + die
    }
    EXPECT_EQ(traced, active);

    const auto linkRows = lines(readFile(links));
    ASSERT_FALSE(linkRows.empty());
    EXPECT_EQ(linkRows[0], "link,from,to,alive,bytes,busy_s,utilization,flows");
    EXPECT_EQ(linkRows.size(), 1u + 4 * 4 * 3); // every directed link of a 4x4 mesh

    const auto dieRows = lines(readFile(dies));
    ASSERT_EQ(dieRows.size(), 1u + 16);
    EXPECT_EQ(dieRows[0], "die,alive,compute_s,utilization,peak_memory_bytes,weights_bytes,"
                          "gradients_bytes,optimizer_bytes,activations_bytes,"
                          "stream_buffers_bytes,comm_reserve_bytes,total_bytes,sram_bytes,"
                          "hbm_bytes,fits_sram,out_of_memory");
    for (std::size_t row = 1; row < dieRows.size(); ++row) {
        std::vector<std::string> cells;
        std::istringstream cellStream(dieRows[row]);
        std::string cell;
        while (std::getline(cellStream, cell, ','))
            cells.push_back(cell);
        ASSERT_EQ(cells.size(), 16u) << dieRows[row];
        EXPECT_EQ(cells[0], std::to_string(row - 1));
        const auto& die = report.at("dies").at(row - 1);
        EXPECT_DOUBLE_EQ(std::stod(cells[2]), die.at("compute_s").get<double>());
        EXPECT_DOUBLE_EQ(std::stod(cells[11]),
                         die.at("memory").at("total_bytes").get<double>()); // all 16 used
    }
}

TEST(Cli, DieCsvOfATrafficScenarioLeavesMemoryEmpty) {
    const fs::path dies = scratchDir() / "traffic_dies.csv";
    const CliRun run =
        runCli("simulate " + quote((kScenarios / "ring_allgather_line.json").string()) +
               " --die-csv " + quote(dies.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto rows = lines(readFile(dies));
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows[1].substr(rows[1].size() - 11), ",,,,,,,,,,,");
}

TEST(Cli, LaunchPrintsMegatronFlagsForTheGpt3Strategy) {
    const std::string file = quote((kScenarios / "gpt3_175b_6x8_fsdp_tatp.json").string());
    const CliRun run = runCli("launch " + file + " --framework megatron");
    ASSERT_EQ(run.status, 0) << run.err;
    for (const char* flag :
         {"--tensor-model-parallel-size 8 \\\n", "--pipeline-model-parallel-size 1 \\\n",
          "--sequence-parallel \\\n", "--micro-batch-size 4 \\\n", "--global-batch-size 96 \\\n",
          "--recompute-granularity full \\\n", "--use-distributed-optimizer\n"})
        EXPECT_NE(run.out.find(flag), std::string::npos) << flag << "\n" << run.out;
    EXPECT_NE(run.out.find("48 GPUs: data parallel 6 x tensor parallel 8"), std::string::npos);
    EXPECT_NE(run.out.find("TATP (degree 8) has no GPU equivalent"), std::string::npos);
    EXPECT_EQ(run.out.find("ds_config"), std::string::npos); // megatron only

    const CliRun all = runCli("launch " + file);
    ASSERT_EQ(all.status, 0) << all.err;
    const auto open = all.out.find("# DeepSpeed ds_config.json\n");
    ASSERT_NE(open, std::string::npos) << all.out;
    const auto config = nlohmann::json::parse(all.out.substr(
        all.out.find('{', open), all.out.find("\n}\n", open) + 2 - all.out.find('{', open)));
    EXPECT_EQ(config.at("train_batch_size"), 96);
    EXPECT_EQ(config.at("train_micro_batch_size_per_gpu"), 4);
    EXPECT_EQ(config.at("gradient_accumulation_steps"), 4);
    EXPECT_EQ(config.at("zero_optimization").at("stage"), 3);

    const fs::path out = scratchDir() / "launch.txt";
    const CliRun written = runCli("launch " + file + " -o " + quote(out.string()));
    ASSERT_EQ(written.status, 0) << written.err;
    EXPECT_EQ(readFile(out), all.out);
}

TEST(Cli, LaunchNeedsAStrategy) {
    const fs::path file = kScenarios / "ring_allgather_line.json";
    const CliRun run = runCli("launch " + quote(file.string()));
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(file.string() + ": strategy: "), std::string::npos) << run.err;
    EXPECT_EQ(runCli("launch --framework jax " + quote(file.string())).status, 2);
    EXPECT_EQ(runCli("simulate --framework all " + quote(file.string())).status, 2);
}

// search, advise and validate-model share one error path (app/cli_subcommand.h): a bad command
// line and a file that cannot be read are each reported alike, exit 2.
TEST(Cli, SubcommandsReportBadInputAlike) {
    const fs::path missing = scratchDir() / "no_such_scenario.json";
    for (const std::string command : {"search", "advise", "validate-model"}) {
        SCOPED_TRACE(command);
        const CliRun usage = runCli(command + " " + quote(missing.string()) + " --no-such-option");
        EXPECT_EQ(usage.status, 2);
        EXPECT_NE(usage.err.find("waferscope-cli: unknown option '--no-such-option' for " +
                                 command + "\n(see waferscope-cli --help)"),
                  std::string::npos)
            << usage.err;
        const CliRun unreadable = runCli(command + " " + quote(missing.string()));
        EXPECT_EQ(unreadable.status, 2);
        EXPECT_EQ(unreadable.err.rfind(missing.string() + ": ", 0), 0u) << unreadable.err;
    }
}

} // namespace
