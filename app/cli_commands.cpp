#include "cli_commands.h"
#include "cli_advise.h"
#include "cli_search.h"
#include "cli_subcommand.h"
#include "cli_sweep.h"
#include "cli_validate_model.h"

#include "command/optimize_command.h"
#include "evaluation/network_model_comparison.h"
#include "evaluation/scenario_run.h"
#include "io/atomic_file.h"
#include "io/environment_overrides.h"
#include "io/scenario_io.h"
#include "report/die_metrics_csv.h"
#include "report/launch_settings.h"
#include "report/report_formats.h"
#include "report/simulation_report.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "strategy/workload_divisibility.h"
#include "tcme/tcme_engine.h"
#include "units/quantity.h"

#include "waferscope_version.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

namespace ws {

namespace {

constexpr const char* kUsage =
    R"(usage: waferscope-cli COMMAND FILE [options]

Commands:
  validate FILE                  check a scenario file; exit 0 if it is valid
  simulate FILE [--json[=summary]] [--trace OUT.json] [--csv OUT.csv] [--die-csv OUT.csv]
                [--fail-on-oom] [--compare-modes]
                                 simulate the scenario: its training step when it has a
                                 workload and a strategy, else its traffic. A summary by
                                 default; --json: the full report on stdout (=summary: without
                                 the flows and die events); --trace: Chrome
                                 trace events (open in Perfetto); --csv: link loads;
                                 --die-csv: per-die compute, utilisation and memory;
                                 --fail-on-oom: exit 1 when a die runs out of memory;
                                 --compare-modes: run the fluid and the store-and-forward
                                 network models and report the time and hottest link of each
  validate and simulate take --max-flows N (default 3000000) and --max-chunks N (default
  200000000, store-and-forward): a scenario that would build more is refused (exit 2) before
  it is expanded
  optimize FILE [--max-iter N] [--json] [-o TUNED.json]
                                 run the TCME optimizer (find the most congested link,
                                 merge duplicate transfers into multicast trees, reroute
                                 hot flows) and report every iteration; -o writes the
                                 scenario with the tuned routes pinned
  search FILE [--threads N] [--seed S] [--budget N] [--json] [-o BEST.json]
                                 search for the best parallel strategy (level 1: segments
                                 by dynamic programming; level 2: a genetic algorithm over
                                 degrees, FSDP, micro-batches, checkpointing and placement)
                                 and compare it with the Megatron-1, Megatron-3 and FSDP
                                 baselines; progress on stderr; -o writes the best scenario
  sweep SWEEP.json [-o OUT.csv|OUT.jsonl] [--threads N]
                                 simulate every point of a sweep file (the cartesian product
                                 of its axes over scenario keys), one row per point: CSV, or
                                 JSON Lines for .jsonl; a point that fails is a row with the
                                 reason; an existing OUT is resumed (its points skipped)
  advise FILE [--json]           diagnose the scenario from its simulation: low utilisation,
                                 load imbalance, latency spikes, hot links, TCME's cap and
                                 stale routes, the SRAM reserve, sequence length against
                                 dp and sp, the TATP degree, memory; each fix offered was
                                 simulated and helps
  validate-model SUITE.json [--json] [--calibrate]
                                 the model against published measurements: simulate every
                                 point of a validation suite (resources/validation/suite.json:
                                 Megatron-LM on Selene, nccl-tests on a DGX A100) and print
                                 published against simulated with the error, the mean and
                                 worst error over the predictions and each point's drift from
                                 its recorded value (exit 1 beyond the suite's tolerance);
                                 --calibrate: the GPU efficiency that reproduces the suite's
                                 calibration point
  launch FILE [--framework megatron|deepspeed|fsdp|all] [-o OUT]
                                 launch settings for GPU frameworks from the strategy:
                                 Megatron-LM arguments, a DeepSpeed config, a PyTorch FSDP
                                 sketch (default: all), with notes on what has no GPU
                                 equivalent (TATP, die placement, wafer routing)
  --help                         this text
  --version                      the version

Exit status: 0 success, 1 the run failed (reason stated), 2 bad input or usage.
Environment: TCME_MAX_ITER, TCME_ROUTING (static|adaptive), FSDP_ALLGATHER (ring|multicast)
override the file.
)";

struct UsageError {
    std::string message;
};

struct SimulateOptions {
    bool json = false;
    ReportDetail jsonDetail = ReportDetail::Full; // --json=summary leaves out flows and events
    std::optional<std::string> tracePath;
    std::optional<std::string> csvPath;
    std::optional<std::string> dieCsvPath;
    bool failOnOutOfMemory = false;
    bool compareModes = false;
    std::optional<int> maxIter;            // optimize
    std::optional<std::string> outputPath; // optimize and launch -o
    std::optional<std::string> framework;  // launch
    ExpansionLimits limits;                // validate and simulate: --max-flows, --max-chunks
};

// The scenario FILE prepared by core's one pipeline, with the environment's overrides.
ScenarioRun prepareFile(const std::string& file, const SimulateOptions& simulateOptions,
                        TaskLabels labels = TaskLabels::Kept,
                        FlowRecords flowRecords = FlowRecords::Kept) {
    RunOptions options = frontEndRunOptions();
    options.labels = labels;
    options.flowRecords = flowRecords;
    options.limits = simulateOptions.limits;
    return prepareRun(loadScenario(file), options);
}

// A positive count for --max-flows / --max-chunks.
std::int64_t countOption(const std::string& option, const std::string& text) {
    std::int64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error != std::errc() || end != text.data() + text.size() || parsed < 1)
        throw UsageError{option + " takes a positive whole number, not '" + text + "'"};
    return parsed;
}

// Options may come before or after FILE: "simulate --json FILE" and "simulate FILE --json".
SimulateOptions parseSimulateOptions(const std::vector<std::string>& args, std::string& file) {
    SimulateOptions options;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size())
                throw UsageError{
                    arg + (arg.starts_with("--max-") ? " needs a number" : " needs a file name")};
            return args[++i];
        };
        if (arg == "--json")
            options.json = true;
        else if (arg.starts_with("--json=")) {
            const auto detail = reportDetailFromString(arg.substr(7));
            if (!detail)
                throw UsageError{"--json= takes full or summary, not '" + arg.substr(7) + "'"};
            options.json = true;
            options.jsonDetail = *detail;
        } else if (arg == "--trace")
            options.tracePath = value();
        else if (arg == "--csv")
            options.csvPath = value();
        else if (arg == "--die-csv")
            options.dieCsvPath = value();
        else if (arg == "--framework") {
            options.framework = value();
            if (!launchFrameworkFromString(*options.framework))
                throw UsageError{"--framework takes megatron, deepspeed, fsdp or all, not '" +
                                 *options.framework + "'"};
        } else if (arg == "--fail-on-oom")
            options.failOnOutOfMemory = true;
        else if (arg == "--compare-modes")
            options.compareModes = true;
        else if (arg == "--max-flows")
            options.limits.maxFlows = countOption(arg, value());
        else if (arg == "--max-chunks")
            options.limits.maxChunks = countOption(arg, value());
        else if (arg == "--max-iter") {
            const std::string text = value();
            int parsed = 0;
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), parsed);
            if (error != std::errc() || end != text.data() + text.size() || parsed < 1 ||
                parsed > kMaxOptimizeIterations)
                throw UsageError{"--max-iter takes an integer from 1 to " +
                                 std::to_string(kMaxOptimizeIterations) + ", not '" + text + "'"};
            options.maxIter = parsed;
        } else if (arg == "-o")
            options.outputPath = value();
        else if (arg.starts_with("-"))
            throw UsageError{"unknown option '" + arg + "' for " + args[0]};
        else if (file.empty())
            file = arg;
        else
            throw UsageError{"more than one FILE: '" + file + "' and '" + arg + "'"};
    }
    if (file.empty())
        throw UsageError{args[0] + " needs a scenario FILE"};
    return options;
}

int validate(const std::string& file, const SimulateOptions& options, std::ostream& out) {
    const ScenarioRun run = prepareFile(file, options, TaskLabels::Skipped, FlowRecords::Dropped);
    out << file << ": valid: " << run.topology->rows() << 'x' << run.topology->cols() << ' '
        << toString(run.topology->kind());
    if (run.step)
        out << ", a training step of " << run.step->graph.problem().tasks.size() << " tasks on "
            << run.step->placement.usedDies().size() << " dies\n";
    else
        out << ", " << run.scenario.traffic.size() << " ops, " << run.plan->flowCount << " flows\n";
    for (const std::string& note : run.overrides.notes)
        out << "environment: " << note << '\n';
    return kExitOk;
}

nlohmann::json outcomeJson(const NetworkModelOutcome& outcome) {
    nlohmann::json json = {{"model", toString(outcome.network.model)},
                           {"makespan_s", outcome.makespanS},
                           {"step_s", nullptr},
                           {"hottest_link", nullptr}};
    if (outcome.network.model == NetworkModel::StoreAndForward)
        json["chunk_bytes"] = outcome.network.chunkBytes;
    if (outcome.stepS)
        json["step_s"] = *outcome.stepS;
    if (const auto& link = outcome.hottestLink)
        json["hottest_link"] = {{"from", link->from},
                                {"to", link->to},
                                {"bytes", link->bytes},
                                {"utilization", link->utilization}};
    return json;
}

// `simulate --compare-modes`: the two ends of the network model's bracket side by side.
int compareModesCommand(const std::string& file, const SimulateOptions& options,
                        std::ostream& out) {
    RunOptions runOptions = frontEndRunOptions();
    runOptions.limits = options.limits;
    const Scenario scenario = loadScenario(file);
    const NetworkModelComparison comparison = compareNetworkModels(scenario, runOptions);
    const WaferTopology topology(scenario.topologySpec()); // names a cluster's switches
    if (options.json) {
        out << nlohmann::json{{"modes",
                               {outcomeJson(comparison.fluid),
                                outcomeJson(comparison.storeAndForward)}},
                              {"ratio", comparison.ratio()}}
                   .dump(2)
            << '\n';
        return kExitOk;
    }
    for (const NetworkModelOutcome* outcome : {&comparison.fluid, &comparison.storeAndForward}) {
        out << (outcome == &comparison.fluid ? "fluid:              " : "store-and-forward:  ")
            << "makespan " << formatSeconds(outcome->makespanS);
        if (outcome->stepS)
            out << ", step " << formatSeconds(*outcome->stepS);
        if (const auto& link = outcome->hottestLink) {
            char utilization[32];
            std::snprintf(utilization, sizeof utilization, "%.1f%%", link->utilization * 100);
            out << ", hottest link " << linkName(topology, link->from, link->to) << ' '
                << formatBytes(link->bytes) << " (" << utilization << " busy)";
        }
        out << '\n';
    }
    char ratio[64];
    std::snprintf(ratio, sizeof ratio, "%.3fx", comparison.ratio());
    out << "store-and-forward (" << formatBytes(comparison.storeAndForward.network.chunkBytes)
        << " chunks) over fluid: " << ratio << '\n';
    return kExitOk;
}

int simulateCommand(const std::string& file, const SimulateOptions& options, std::ostream& out,
                    std::ostream& err) {
    if (options.compareModes) {
        if (options.tracePath || options.csvPath || options.dieCsvPath || options.failOnOutOfMemory)
            throw UsageError{"--compare-modes takes only --json"};
        return compareModesCommand(file, options, out);
    }
    // Per-flow records, task labels and die events are most of a large run's memory: only the
    // trace and the full JSON report read them.
    const bool full =
        options.tracePath || (options.json && options.jsonDetail == ReportDetail::Full);
    const ScenarioRun run =
        prepareFile(file, options, full ? TaskLabels::Kept : TaskLabels::Skipped,
                    full ? FlowRecords::Kept : FlowRecords::Dropped);
    const SimulationReport report =
        reportOf(run, simulateRun(run), full ? ReportDetail::Full : ReportDetail::Summary);
    if (options.tracePath) {
        std::ostringstream trace;
        writeChromeTrace(trace, report);
        writeFileAtomically(*options.tracePath, trace.str());
    }
    if (options.csvPath)
        writeFileAtomically(*options.csvPath, linkLoadsCsv(report));
    if (options.dieCsvPath)
        writeFileAtomically(*options.dieCsvPath, dieMetricsCsv(report));
    if (options.json)
        writeReportJson(out, report, options.jsonDetail);
    else
        out << humanSummary(report, *run.topology);
    if (options.failOnOutOfMemory && run.step && run.step->plan.memory.outOfMemory()) {
        err << file << ": out of memory: " << formatBytes(run.step->plan.memory.total())
            << " per die exceeds SRAM + HBM; the largest term is "
            << run.step->plan.memory.dominantTerm() << '\n';
        return kExitRunFailed;
    }
    return kExitOk;
}

std::string pathText(const std::vector<DieId>& path) {
    std::string text;
    for (DieId die : path)
        text += (text.empty() ? "" : "-") + std::to_string(die);
    return text;
}

int optimizeCommand(const std::string& file, const SimulateOptions& options, std::ostream& out) {
    const Scenario scenario = loadScenario(file);
    const OptimizeOutcome outcome =
        optimizeScenario(scenario, options.maxIter, frontEndRunOptions());
    const WaferTopology topology(scenario.topologySpec()); // names a cluster's switches

    if (options.outputPath)
        saveScenario(outcome.tunedScenario, *options.outputPath);

    if (options.json) {
        out << optimizeReportJson(outcome).dump(2) << '\n';
        return kExitOk;
    }

    // TCME changes routes and algorithms, never the name: the tuned scenario's is the input's.
    if (!outcome.tunedScenario.name.empty())
        out << outcome.tunedScenario.name << '\n';
    for (const TcmeIteration& iteration : outcome.iterations) {
        char line[280];
        std::snprintf(line, sizeof line,
                      "iteration %d: target link %s carries %s (%.1f%%), %d flows from %d "
                      "groups, queueing %s\n",
                      iteration.index,
                      linkName(topology, iteration.mclFrom, iteration.mclTo).c_str(),
                      formatBytes(iteration.mclBytes).c_str(), iteration.mclUtilization * 100,
                      iteration.conflictFlows, iteration.conflictGroups,
                      formatSeconds(iteration.queueingDelayS).c_str());
        out << line;
        if (!iteration.phaseCollective.empty())
            out << "  (utilisation over the critical phase of '" << iteration.phaseCollective
                << "', " << formatSeconds(iteration.phaseToS - iteration.phaseFromS) << " from "
                << formatSeconds(iteration.phaseFromS) << ")\n";
        for (const TcmeAction& action : iteration.actions) {
            out << "  " << toString(action.kind) << ' ' << action.flow;
            if (!action.oldPath.empty())
                out << ": " << pathText(action.oldPath) << " -> " << pathText(action.newPath);
            else if (!action.detail.empty())
                out << ": " << action.detail;
            out << '\n';
        }
        if (iteration.actions.empty())
            out << "  no change improves the objective\n";
        out << "  ";
        if (iteration.before.stepS > 0)
            out << "step " << formatSeconds(iteration.before.stepS) << " -> "
                << formatSeconds(iteration.after.stepS) << ", ";
        out << "makespan " << formatSeconds(iteration.before.makespanS) << " -> "
            << formatSeconds(iteration.after.makespanS) << ", largest link load "
            << formatBytes(iteration.before.maxLinkBytes) << " -> "
            << formatBytes(iteration.after.maxLinkBytes) << '\n';
        if (!iteration.actions.empty())
            out << "  kept for: " << toString(iteration.gain) << " ("
                << gainExplanation(iteration.gain) << ")\n";
    }
    out << "stopped:   " << toString(outcome.stopReason) << '\n';
    for (const auto& [label, snapshot] :
         {std::pair{"before:    ", &outcome.before}, std::pair{"after:     ", &outcome.after}}) {
        out << label;
        if (snapshot->stepS > 0)
            out << "step " << formatSeconds(snapshot->stepS) << ", ";
        out << "makespan " << formatSeconds(snapshot->makespanS) << ", largest link load "
            << formatBytes(snapshot->maxLinkBytes) << ", utilisation "
            << std::lround(snapshot->maxUtilization * 100) << "%\n";
    }
    for (const std::string& warning : outcome.warnings)
        out << "warning:   " << warning << '\n';
    if (options.outputPath)
        out << "tuned scenario written to " << *options.outputPath << '\n';
    return kExitOk;
}

// Exit 2 when the scenario has no strategy: there is nothing to translate.
int launchCommand(const std::string& file, const SimulateOptions& options, std::ostream& out,
                  std::ostream& err) {
    Scenario scenario = loadScenario(file);
    applyRunEnvironment(scenario, frontEndRunOptions());
    if (!scenario.strategy) {
        err << file
            << ": strategy: the scenario has no strategy to translate into launch "
               "settings (add a \"strategy\" object)\n";
        return kExitBadInput;
    }
    const StrategySpec& strategy = *scenario.strategy;
    const std::optional<Workload>& workload = scenario.workload;
    if (workload)
        checkStrategyAgainstWorkload(strategy, *workload);
    const LaunchSettings settings =
        launchSettings(scenario, strategy, workload ? &*workload : nullptr);
    const LaunchFramework framework =
        launchFrameworkFromString(options.framework.value_or("all")).value_or(LaunchFramework::All);
    const std::string text = launchSettingsText(settings, framework);
    if (options.outputPath) {
        writeFileAtomically(*options.outputPath, text);
        out << "launch settings written to " << *options.outputPath << '\n';
    } else {
        out << text;
    }
    return kExitOk;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        err << kUsage;
        return kExitBadInput;
    }
    const std::string& command = args[0];
    if (command == "--help" || command == "-h" || command == "help") {
        out << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        out << "waferscope-cli " << kWaferScopeVersion << '\n';
        return kExitOk;
    }
    if (command == "search")
        return runSearchCommand(args, out, err);
    if (command == "sweep")
        return runSweepCommand(args, out, err);
    if (command == "advise")
        return runAdviseCommand(args, out, err);
    if (command == "validate-model")
        return runValidateModelCommand(args, out, err);
    if (command != "validate" && command != "simulate" && command != "optimize" &&
        command != "launch") {
        err << "waferscope-cli: unknown command '" << command << "'\n\n" << kUsage;
        return kExitBadInput;
    }
    std::string file;
    return runSubcommand(command, file, err, [&]() -> int {
        // These commands answer a bad command line with the whole usage.
        try {
            const SimulateOptions options = parseSimulateOptions(args, file);
            if (command == "validate") {
                if (options.json || options.tracePath || options.csvPath ||
                    options.failOnOutOfMemory || options.maxIter || options.outputPath ||
                    options.dieCsvPath || options.framework || options.compareModes)
                    throw UsageError{"validate takes only --max-flows N and --max-chunks N"};
                return validate(file, options, out);
            }
            if (command == "optimize") {
                if (options.tracePath || options.csvPath || options.failOnOutOfMemory ||
                    options.dieCsvPath || options.framework || options.compareModes)
                    throw UsageError{"optimize takes --max-iter N, --json and -o FILE"};
                return optimizeCommand(file, options, out);
            }
            if (command == "launch") {
                if (options.json || options.tracePath || options.csvPath || options.dieCsvPath ||
                    options.failOnOutOfMemory || options.maxIter || options.compareModes)
                    throw UsageError{"launch takes --framework NAME and -o FILE"};
                return launchCommand(file, options, out, err);
            }
            if (options.maxIter || options.outputPath)
                throw UsageError{"--max-iter and -o belong to optimize and launch"};
            if (options.framework)
                throw UsageError{"--framework belongs to launch"};
            return simulateCommand(file, options, out, err);
        } catch (const UsageError& error) {
            err << "waferscope-cli: " << error.message << "\n\n" << kUsage;
            return kExitBadInput;
        }
    });
}

} // namespace ws
