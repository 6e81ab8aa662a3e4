// libFuzzer target over the core (tests/fuzz/README.md): any bytes are a scenario file.
// For each input it checks what a user is promised of bad input (docs/file-format.md): the
// reader either accepts it or throws a ScenarioError; an accepted scenario saves and reloads to
// the same scenario; preparing, simulating and reporting it either works or throws a
// ScenarioError (a planner or step check), never anything else. Any other exception, a crash,
// a sanitizer report, a leak, a timeout or too much memory is a finding: it goes into the
// corpus with its expected message (tests/fuzz/README.md).

#include "evaluation/run_options.h"
#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "io/scenario_writer.h"
#include "report/report_formats.h"
#include "sim/run_cancelled.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

// Bounds that keep one input to milliseconds and megabytes, so that a minute explores
// thousands of them: the run's own size guard (collectives/expansion_budget.h) with small
// limits, and a cancel predicate that stops the run after a fixed number of polls (it is
// polled while the step is built and between simulation events), so that the bound is the
// same on every machine and a finding replays exactly.
constexpr std::int64_t kMaxFlows = 5'000;
constexpr std::int64_t kMaxChunks = 50'000;
constexpr long kMaxPolls = 20'000;
// Reports with per-flow and per-event detail are linear in the run's tasks: past this many
// they only repeat, and a large built-in step would spend seconds on them under the sanitizers.
constexpr std::size_t kMaxTasksReportedInFull = 5'000;

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "scenario_fuzzer: %s: %s\n", what, detail.c_str());
    std::abort();
}

void simulateBounded(const ws::Scenario& scenario) {
    long polls = 0;
    ws::RunOptions options;
    options.limits = {kMaxFlows, kMaxChunks};
    options.cancel = [&polls] { return ++polls > kMaxPolls; };
    try {
        const ws::ScenarioRun run = ws::prepareRun(scenario, options);
        const ws::SimResult result = ws::simulateRun(run, options);
        const bool full = run.problem().tasks.size() <= kMaxTasksReportedInFull;
        const ws::SimulationReport report =
            ws::reportOf(run, result, full ? ws::ReportDetail::Full : ws::ReportDetail::Summary);
        std::ostringstream sink;
        ws::writeReportJson(sink, report, ws::ReportDetail::Summary);
        if (full) {
            ws::writeReportJson(sink, report, ws::ReportDetail::Full);
            ws::writeChromeTrace(sink, report);
        }
    } catch (const ws::ScenarioError&) {
        // A check that needs routes or the strategy refused it: the message path is tested by
        // the corpus (tests/core/io/bad_input_test.cpp).
    } catch (const ws::RunCancelled&) {
        // Past the poll bound: a long run, not a finding.
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ws::Scenario scenario;
    try {
        scenario = ws::parseScenario(text);
    } catch (const ws::ScenarioError&) {
        return 0; // rejected with a message naming the key: what bad input should get
    }

    // Load -> save -> load gives the same scenario (core/scenario/scenario.h).
    const std::string saved = ws::formatScenarioText(scenario);
    try {
        if (!(ws::parseScenario(saved) == scenario))
            fail("saving changed the scenario", saved);
    } catch (const ws::ScenarioError& error) {
        fail("a saved scenario does not load", std::string(error.what()) + "\n" + saved);
    }

    simulateBounded(scenario);
    return 0;
}
