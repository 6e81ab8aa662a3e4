// The one evaluation pipeline (core/evaluation/scenario_run.h): every front end's report is the
// pipeline's, overrides and all, and a cancel request stops a long run promptly.
#include "evaluation/scenario_run.h"

#include "cli_runner.h"
#include "io/scenario_io.h"
#include "long_simulation.h"
#include "report/report_formats.h"
#include "scenario/scenario_error.h"
#include "sim/run_cancelled.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <pthread.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

namespace ws {
namespace {

namespace fs = std::filesystem;
using test::quote;
using test::runCli;

const fs::path kScenarios = WAFERSCOPE_SCENARIO_DIR;

std::vector<fs::path> shippedScenarios() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kScenarios))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The in-process pipeline with `variables` as the whole environment.
SimulationReport pipelineReport(const fs::path& file,
                                const std::map<std::string, std::string>& variables,
                                ReportDetail detail = ReportDetail::Full) {
    RunOptions options = frontEndRunOptions();
    options.environment = [variables](const std::string& name) -> std::optional<std::string> {
        const auto found = variables.find(name);
        return found == variables.end() ? std::nullopt : std::optional(found->second);
    };
    return simulateScenarioReport(loadScenario(file), options, detail);
}

class EveryShippedScenario : public testing::TestWithParam<std::string> {};

// Dies a scenario's strategy uses, pipeline stages included (a traffic scenario: none).
long long diesUsed(const Scenario& scenario) {
    const std::optional<StrategySpec>& s = scenario.strategy;
    return s ? static_cast<long long>(s->pp) * s->dp * s->sp * s->tp * s->tatp : 0;
}

// `waferscope-cli simulate --json` and the pipeline the app runs (widgets/scenario_analysis.cpp
// calls the same prepareRun with frontEndRunOptions) give the same report for every shipped
// scenario with no override, and with each environment variable of docs/cli.md section 8 on
// every scenario of at most 16 dies used (pipeline stages counted): how an override reaches the
// scenario does not depend on its size, and a 6x8 training step costs seconds per run in a
// debug build. The full reports (every flow and die event) are compared without an override
// on those same scenarios and on pure traffic up to the 64 dies of the largest single wafer;
// every other run compares summary reports, whose figures an override moves. Writing a full
// report is most of a run's time (Llama 2 7B on 4x4: 5.7 MB of JSON, 5.7 s under the
// sanitizers against 0.3 s for its summary), and the records are the same code with or
// without an override, as they are at any size: a 6x8 step's full report is 21 MB of JSON, and
// past the 64 dies (the four-wafer system's 140,000 flows) took over a minute under the
// sanitizers.
TEST_P(EveryShippedScenario, CliAndPipelineAgreeWithAndWithoutEachOverride) {
    const fs::path file = kScenarios / GetParam();
    std::vector<std::map<std::string, std::string>> environments = {{}};
    const Scenario scenario = loadScenario(file);
    const bool small = diesUsed(scenario) <= 16;
    if (small)
        environments.insert(environments.end(), {{{"FSDP_ALLGATHER", "multicast"}},
                                                 {{"TCME_ROUTING", "adaptive"}},
                                                 {{"TCME_MAX_ITER", "3"}}});
    const bool large = !small || scenario.dieCount() > 64;
    for (const auto& variables : environments) {
        const ReportDetail detail =
            large || !variables.empty() ? ReportDetail::Summary : ReportDetail::Full;
        std::string prefix;
        for (const auto& [name, value] : variables)
            prefix += name + "=" + value + " ";
        const test::CliRun cli =
            runCli(std::string(detail == ReportDetail::Summary ? "simulate --json=summary "
                                                               : "simulate --json ") +
                       quote(file.string()),
                   prefix);
        ASSERT_EQ(cli.status, 0) << file << " " << prefix << cli.err;
        std::ostringstream expected;
        writeReportJson(expected, pipelineReport(file, variables, detail), detail);
        EXPECT_EQ(cli.out, expected.str()) << file.filename() << " with " << prefix;
    }
}

// The overrides above are compared on enough shipped scenarios: at least one training step with
// FSDP (FSDP_ALLGATHER changes its gathers) and one with a TCME section.
TEST(ScenarioRun, OverridesAreComparedOnATrainingStepAndOnTcme) {
    bool fsdpStep = false;
    bool tcme = false;
    for (const fs::path& file : shippedScenarios()) {
        const Scenario scenario = loadScenario(file);
        const std::optional<StrategySpec>& s = scenario.strategy;
        if (diesUsed(scenario) > 16)
            continue;
        fsdpStep = fsdpStep || (scenario.workload && s && s->fsdp && s->dp > 1);
        tcme = tcme || scenario.tcme.has_value();
    }
    EXPECT_TRUE(fsdpStep);
    EXPECT_TRUE(tcme);
}

std::vector<std::string> shippedScenarioNames() {
    std::vector<std::string> names;
    for (const fs::path& file : shippedScenarios())
        names.push_back(file.filename().string());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Shipped, EveryShippedScenario, testing::ValuesIn(shippedScenarioNames()),
                         [](const testing::TestParamInfo<std::string>& param) {
                             std::string name = fs::path(param.param).stem().string();
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

TEST(ScenarioRun, EveryShippedScenarioIsCompared) {
    EXPECT_GE(shippedScenarioNames().size(), 10u);
}

// FSDP_ALLGATHER used to reach only the CLI's simulate; through the pipeline it sets
// strategy.fsdp_allgather, which the step model reads, and the report says so.
TEST(ScenarioRun, FsdpAllGatherOverrideTurnsTheGathersIntoMulticastTrees) {
    // dp 6 with FSDP: each rank's weight shard goes to 5 others, by ring or as one tree.
    const fs::path file = kScenarios / "gpt3_6_7b_6x8_search.json";
    auto multicastFlows = [](const SimulationReport& report) {
        int count = 0;
        for (const FlowReport& flow : report.flows)
            count += flow.dsts.size() > 1 ? 1 : 0;
        return count;
    };
    const SimulationReport ring = pipelineReport(file, {{"FSDP_ALLGATHER", "ring"}});
    const SimulationReport multicast = pipelineReport(file, {{"FSDP_ALLGATHER", "multicast"}});
    EXPECT_EQ(multicastFlows(ring), 0);
    EXPECT_GT(multicastFlows(multicast), 0);
    ASSERT_EQ(multicast.warnings.size(), 1u);
    EXPECT_NE(multicast.warnings[0].find("FSDP_ALLGATHER=multicast"), std::string::npos);
}

// A summary report (what `simulate` and `--json=summary` build) is the full report without its
// per-flow records and die events: the same summary, byte for byte, on a network experiment and
// on a training step, and the writers of detail refuse it rather than write an empty list.
TEST(ScenarioRun, SummaryReportIsTheFullReportWithoutItsDetail) {
    for (const char* name : {"transpose_8x8.json", "gpt3_125m_dojo_tile_5x5.json"}) {
        const ScenarioRun run = prepareRun(loadScenario(kScenarios / name), {});
        const SimResult result = simulateRun(run);
        const SimulationReport full = reportOf(run, result, ReportDetail::Full);
        const SimulationReport summary = reportOf(run, result, ReportDetail::Summary);
        EXPECT_EQ(summary.detail, ReportDetail::Summary);
        EXPECT_TRUE(summary.flows.empty()) << name;
        EXPECT_GT(full.flows.size(), 0u) << name;
        EXPECT_EQ(summary.flowCount, full.flows.size()) << name;
        EXPECT_EQ(full.flowCount, full.flows.size()) << name;
        for (const DieReport& die : summary.dies)
            EXPECT_TRUE(die.events.empty()) << name << " die " << die.id;
        std::ostringstream fromFull;
        std::ostringstream fromSummary;
        writeReportJson(fromFull, full, ReportDetail::Summary);
        writeReportJson(fromSummary, summary, ReportDetail::Summary);
        EXPECT_EQ(fromSummary.str(), fromFull.str()) << name;
        EXPECT_EQ(humanSummary(summary, *run.topology), humanSummary(full, *run.topology)) << name;
        std::ostringstream sink;
        EXPECT_THROW(writeReportJson(sink, summary, ReportDetail::Full), std::invalid_argument);
        EXPECT_THROW(writeChromeTrace(sink, summary), std::invalid_argument);
    }
}

// Two runs' problems are the same, task by task.
void expectSameTasks(const std::vector<SimTask>& tasks, const std::vector<SimTask>& expected) {
    ASSERT_EQ(tasks.size(), expected.size());
    for (std::size_t t = 0; t < expected.size(); ++t) {
        EXPECT_EQ(tasks[t].kind, expected[t].kind) << "task " << t;
        EXPECT_EQ(tasks[t].bytes, expected[t].bytes) << "task " << t;
        EXPECT_EQ(tasks[t].links, expected[t].links) << "task " << t;
        EXPECT_EQ(tasks[t].hops, expected[t].hops) << "task " << t;
        EXPECT_EQ(tasks[t].die, expected[t].die) << "task " << t;
        EXPECT_EQ(tasks[t].seconds, expected[t].seconds) << "task " << t;
        EXPECT_EQ(tasks[t].earliestStartS, expected[t].earliestStartS) << "task " << t;
        EXPECT_EQ(tasks[t].deps, expected[t].deps) << "task " << t;
    }
}

// A run that drops its flow records (what simulate does unless a trace or the full JSON report
// is asked for) simulates the same problem and reports the same summary; only a full report,
// which needs the records, is refused. The scenarios cover one op, several ops waiting for each
// other, dead dies and multicast trees.
TEST(ScenarioRun, DroppedFlowRecordsChangeNothingButTheMemory) {
    for (const char* name : {"transpose_8x8.json", "dead_dies_6x8.json",
                             "allgather_p2p_collision_4x4.json", "ring_allgather_line.json"}) {
        SCOPED_TRACE(name);
        const ScenarioRun kept = prepareRun(loadScenario(kScenarios / name), {});
        RunOptions dropping;
        dropping.flowRecords = FlowRecords::Dropped;
        const ScenarioRun dropped = prepareRun(loadScenario(kScenarios / name), dropping);
        ASSERT_TRUE(kept.plan && dropped.plan);
        EXPECT_GT(kept.plan->flowCount, 0u);
        EXPECT_EQ(kept.plan->flowCount, kept.plan->flows.size());
        EXPECT_EQ(dropped.plan->flowCount, kept.plan->flowCount);
        EXPECT_TRUE(dropped.plan->flows.empty());
        EXPECT_EQ(dropped.plan->opDone, kept.plan->opDone);
        const std::vector<SimTask>& keptTasks = kept.problem().tasks;
        expectSameTasks(dropped.problem().tasks, keptTasks);
        for (std::size_t f = 0; f < kept.plan->flows.size(); ++f)
            EXPECT_EQ(keptTasks[f].links, kept.plan->flows[f].route.links) << "flow " << f;

        const SimResult keptResult = simulateRun(kept);
        const SimResult droppedResult = simulateRun(dropped);
        EXPECT_EQ(droppedResult.makespanS, keptResult.makespanS);
        std::ostringstream fromKept;
        std::ostringstream fromDropped;
        writeReportJson(fromKept, reportOf(kept, keptResult, ReportDetail::Summary),
                        ReportDetail::Summary);
        writeReportJson(fromDropped, reportOf(dropped, droppedResult, ReportDetail::Summary),
                        ReportDetail::Summary);
        EXPECT_EQ(fromDropped.str(), fromKept.str());
        EXPECT_THROW(reportOf(dropped, droppedResult, ReportDetail::Full), std::invalid_argument);
    }
}

// The same for a training step: a run that drops its flow records and task labels (what
// simulate does unless a trace or the full JSON report is asked for) keeps no flow record,
// builds the same problem and reports the same summary, TATP rounds and
// flow counts included; only a full report is refused. The scenarios cover TATP with FSDP, a
// tile of dies, one GEMM, and a step with explicit traffic beside it.
TEST(ScenarioRun, ATrainingStepThatDropsItsFlowRecordsReportsTheSameSummary) {
    Scenario withTraffic = loadScenario(kScenarios / "llama2_7b_4x4_tp_vs_tatp.json");
    withTraffic.traffic = loadScenario(kScenarios / "contention_fsdp_tatp_4x4.json").traffic;
    ASSERT_FALSE(withTraffic.traffic.empty());
    std::vector<Scenario> scenarios{loadScenario(kScenarios / "llama2_7b_4x4_tp_vs_tatp.json"),
                                    loadScenario(kScenarios / "gpt3_125m_dojo_tile_5x5.json"),
                                    loadScenario(kScenarios / "gemm_gpt3_175b_mlp_6x8.json"),
                                    withTraffic};
    for (const Scenario& scenario : scenarios) {
        SCOPED_TRACE(scenario.name);
        const ScenarioRun kept = prepareRun(scenario, {});
        RunOptions dropping;
        dropping.flowRecords = FlowRecords::Dropped;
        dropping.labels = TaskLabels::Skipped;
        const ScenarioRun dropped = prepareRun(scenario, dropping);
        ASSERT_TRUE(kept.step && dropped.step);
        const StepGraph& keptGraph = kept.step->graph;
        const StepGraph& droppedGraph = dropped.step->graph;
        EXPECT_GT(keptGraph.flowCount(), 0u);
        EXPECT_EQ(keptGraph.flowCount(), keptGraph.flows().size());
        EXPECT_EQ(droppedGraph.flowCount(), keptGraph.flowCount());
        EXPECT_TRUE(droppedGraph.flows().empty());
        const std::vector<SimTask>& keptTasks = kept.problem().tasks;
        expectSameTasks(dropped.problem().tasks, keptTasks);
        // What the report reads from the tasks instead of the records.
        for (const Flow& flow : keptGraph.flows()) {
            const SimTask& task = keptTasks[static_cast<std::size_t>(flow.task)];
            EXPECT_EQ(task.links, flow.route.links) << flow.id;
            EXPECT_EQ(task.bytes, flow.bytes) << flow.id;
        }

        const SimResult keptResult = simulateRun(kept);
        const SimResult droppedResult = simulateRun(dropped);
        EXPECT_EQ(droppedResult.makespanS, keptResult.makespanS);
        const SimulationReport full = reportOf(kept, keptResult, ReportDetail::Full);
        const SimulationReport summary = reportOf(dropped, droppedResult, ReportDetail::Summary);
        EXPECT_EQ(summary.flowCount, full.flows.size());
        // The TATP rounds' loads are summed from the tasks (no record is left to read).
        if (scenario.strategy->tatp > 1) {
            EXPECT_FALSE(summary.rounds.empty());
        }
        std::ostringstream fromFull;
        std::ostringstream fromDropped;
        writeReportJson(fromFull, full, ReportDetail::Summary);
        writeReportJson(fromDropped, summary, ReportDetail::Summary);
        EXPECT_EQ(fromDropped.str(), fromFull.str());
        EXPECT_EQ(humanSummary(summary, *dropped.topology), humanSummary(full, *kept.topology));
        EXPECT_THROW(reportOf(dropped, droppedResult, ReportDetail::Full), std::invalid_argument);
    }
}

TEST(ScenarioRun, EnvironmentIsIgnoredUnlessAsked) {
    Scenario scenario = loadScenario(kScenarios / "transpose_8x8.json");
    RunOptions options;
    options.environment = [](const std::string&) -> std::optional<std::string> {
        return "not a value";
    };
    const ScenarioRun run = prepareRun(scenario, options);
    EXPECT_TRUE(run.warnings().empty());
    options.applyEnvironment = true;
    try {
        prepareRun(scenario, options);
        FAIL() << "a malformed variable must be refused";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "environment.TCME_MAX_ITER");
    }
}

TEST(ScenarioRun, ABadWaferIsAnErrorAtWafer) {
    Scenario scenario = loadScenario(kScenarios / "transpose_8x8.json");
    scenario.wafer.rows = 0;
    try {
        prepareRun(scenario, {});
        FAIL() << "a wafer with no rows must be refused";
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), "wafer");
    }
}

TEST(ScenarioRun, ProgressTellsEachStageInOrder) {
    std::vector<RunStage> stages;
    RunOptions options;
    options.progress = [&](RunStage stage) { stages.push_back(stage); };
    simulateScenarioReport(loadScenario(kScenarios / "ring_allgather_line.json"), options);
    EXPECT_EQ(stages,
              (std::vector<RunStage>{RunStage::Prepared, RunStage::Simulated, RunStage::Reported}));
}

// CPU seconds a thread has used (its own clock, unaffected by other processes).
double threadCpuSeconds(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Runs `work` on a thread, sets the cancel flag once the thread has used `after` CPU seconds,
// and checks that it stopped with RunCancelled within 100 ms of the request. Measured on the
// working thread's own CPU clock, from the request to the poll that sees it: the work done
// between the two, whatever else the machine runs (on a loaded machine the wall-clock latency
// also includes waiting for a core).
void expectCancelWithin100Ms(const std::function<void(const RunOptions&)>& work, double after) {
    std::atomic<bool> cancel{false};
    std::atomic<double> seenAtCpuS{-1.0};
    RunOptions options;
    options.cancel = [&] {
        if (!cancel.load())
            return false;
        if (seenAtCpuS.load() < 0)
            seenAtCpuS = threadCpuSeconds(CLOCK_THREAD_CPUTIME_ID);
        return true;
    };
    std::atomic<bool> finished{false};
    bool threwCancelled = false;
    std::thread worker([&] {
        try {
            work(options);
        } catch (const RunCancelled&) {
            threwCancelled = true;
        }
        finished = true;
    });
    clockid_t workerClock{};
    ASSERT_EQ(pthread_getcpuclockid(worker.native_handle(), &workerClock), 0);
    while (threadCpuSeconds(workerClock) < after && !finished)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const double requestedAtCpuS = threadCpuSeconds(workerClock);
    const bool finishedEarly = finished;
    cancel = true;
    worker.join();
    ASSERT_FALSE(finishedEarly) << "the work finished before it could be cancelled";
    EXPECT_TRUE(threwCancelled);
    ASSERT_GE(seenAtCpuS.load(), 0.0);
    EXPECT_LT(seenAtCpuS.load() - requestedAtCpuS, 0.1);
}

// A long simulation (test::ringAllReduce16x16), cancelled while it runs, stops within 100 ms.
TEST(ScenarioRun, CancelStopsALongSimulationWithin100Ms) {
    const ScenarioRun run = prepareRun(test::ringAllReduce16x16(), RunOptions{});
    expectCancelWithin100Ms([&](const RunOptions& options) { simulateRun(run, options); }, 0.2);
}

// Cancel does not wait for the simulation to start: building a large step's graph and
// planning a large traffic pattern stop within 100 ms too.
TEST(ScenarioRun, CancelStopsTheBuildOfALargeStepWithin100Ms) {
    const Scenario scenario = test::gpt3Step16x16();
    expectCancelWithin100Ms([&](const RunOptions& options) { prepareRun(scenario, options); }, 0.1);
}

TEST(ScenarioRun, CancelStopsThePlanningOfLargeTrafficWithin100Ms) {
    const Scenario scenario = test::ringAllReduce16x16();
    expectCancelWithin100Ms([&](const RunOptions& options) { prepareRun(scenario, options); },
                            0.05);
}

// The full report of 10^5 flows takes about as long as their simulation (0.4 s of the app's
// 1 s on the 16x16 ring in a debug build), so it stops within 100 ms too. The app's Cancel
// once waited for it: a cancel during the report went unheard until the report was done.
TEST(ScenarioRun, CancelStopsTheFullReportOfALargeRunWithin100Ms) {
    const ScenarioRun run = prepareRun(test::ringAllReduce16x16(), RunOptions{});
    const SimResult result = simulateRun(run);
    expectCancelWithin100Ms(
        [&](const RunOptions& options) {
            reportOf(run, result, ReportDetail::Full, options.cancel);
        },
        0.05);
}

// A training step's report polls the same predicate (its tasks, not only its flows).
TEST(ScenarioRun, TheReportOfATrainingStepHonoursCancel) {
    const ScenarioRun run =
        prepareRun(loadScenario(kScenarios / "llama2_7b_4x4_tp_vs_tatp.json"), RunOptions{});
    const SimResult result = simulateRun(run);
    for (ReportDetail detail : {ReportDetail::Full, ReportDetail::Summary}) {
        EXPECT_THROW(reportOf(run, result, detail, [] { return true; }), RunCancelled);
        EXPECT_NO_THROW(reportOf(run, result, detail, [] { return false; }));
    }
}

} // namespace
} // namespace ws
