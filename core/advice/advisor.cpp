#include "advice/advisor.h"

#include "evaluation/scenario_run.h"
#include "io/dotted_key.h"
#include "io/json_text.h"
#include "io/scenario_io.h"
#include "io/scenario_writer.h"
#include "io/strategy_reader.h"
#include "scenario/scenario_error.h"
#include "search/nearest_strategies.h"
#include "sim/run_cancelled.h"
#include "strategy/placement.h"
#include "tcme/tcme_engine.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

namespace ws {

const char* toString(Finding::Severity severity) {
    switch (severity) {
    case Finding::Severity::Info:
        return "info";
    case Finding::Severity::Warning:
        return "warning";
    case Finding::Severity::Error:
        break;
    }
    return "error";
}

Scenario applyFix(const Scenario& scenario, const nlohmann::ordered_json& fix) {
    nlohmann::ordered_json document = toOrderedJson(scenario);
    for (auto it = fix.begin(); it != fix.end(); ++it)
        setDottedKey(document, it.key(), it.value());
    return parseScenario(nlohmann::json(document));
}

namespace {

using ordered_json = nlohmann::ordered_json;

// docs/advisor.md: a fix is offered when it makes the step (or a network experiment's makespan)
// at least this much faster, so that a change within the simulator's rounding is never advice.
constexpr double kMeaningfulGain = 0.01;
// The design note's thresholds, each checked against the simulation (docs/advisor.md).
constexpr double kLowUtilization = 0.5;
constexpr double kImbalance = 1.05;    // slowest / fastest compute time in a group
constexpr double kStallShare = 0.01;   // a stall is an idle gap of at least this share of the run
constexpr double kPeriodJitter = 0.25; // stalls are periodic when their spacing varies less
constexpr double kSramReserveAdvice = 0.10;
constexpr long long kLongSequence = 8192;
constexpr long long kShortSequence = 4096;
constexpr int kTcmeRaisedCap = 15;

// What one simulation of a variant measured.
struct Outcome {
    double seconds = 0.0; // the step time, or a network experiment's makespan
    bool outOfMemory = false;
};

double secondsOf(const SimulationReport& report) {
    return report.step ? report.step->stepS : report.makespanS;
}

bool outOfMemory(const SimulationReport& report) {
    return std::any_of(report.dies.begin(), report.dies.end(), [](const DieReport& die) {
        return die.memory && die.memory->outOfMemory();
    });
}

std::string percent(double fraction) {
    return numberText(std::round(fraction * 1000.0) / 10.0) + "%";
}

std::string seconds(double s) {
    if (s >= 1.0)
        return numberText(std::round(s * 1000.0) / 1000.0) + " s";
    if (s >= 1e-3)
        return numberText(std::round(s * 1e6) / 1e3) + " ms";
    return numberText(std::round(s * 1e9) / 1e3) + " us";
}

std::string dieList(const std::vector<DieId>& dies, std::size_t shown = 8) {
    std::string text;
    for (std::size_t i = 0; i < dies.size() && i < shown; ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(dies[i]);
    if (dies.size() > shown)
        text += " and " + std::to_string(dies.size() - shown) + " more";
    return text;
}

// The strategy keys in which `to` differs from `from`, as a fix writes them: each changed key
// of the file's `strategy` object set, each key `to` no longer writes removed (null).
ordered_json strategyFix(const StrategySpec& from, const StrategySpec& to) {
    const ordered_json before = toOrderedJson(from);
    const ordered_json after = toOrderedJson(to);
    ordered_json fix = ordered_json::object();
    for (auto it = after.begin(); it != after.end(); ++it)
        if (!before.contains(it.key()) || before[it.key()] != it.value())
            fix["strategy." + it.key()] = it.value();
    for (auto it = before.begin(); it != before.end(); ++it)
        if (!after.contains(it.key()))
            fix["strategy." + it.key()] = nullptr;
    return fix;
}

// --- nearest_fitting_strategy ------------------------------------------------------------------
// The nearest strategies that run on this hardware and fit, one finding each, its fix writing
// it (docs/advisor.md): offered when the strategy does not place or runs out of memory.
// `beforeS`: the step time of the strategy as it is, when it simulates at all.
std::vector<Finding> nearestFittingStrategyFindings(const Scenario& scenario,
                                                    std::optional<double> beforeS,
                                                    const std::function<bool()>& cancel) {
    constexpr int kOffered = 3;
    const WaferTopology topology(scenario.topologySpec());
    std::vector<Finding> findings;
    for (const NearStrategy& near :
         nearestFittingStrategies(scenario, topology, kOffered, cancel)) {
        Finding finding;
        finding.id = "nearest_fitting_strategy";
        finding.severity = Finding::Severity::Info;
        const double stepS = *near.score.simulatedStepS;
        // The step time first: it is what a list cut at its column's edge must still show.
        finding.message = seconds(stepS) + " per step, " + std::to_string(near.changes) +
                          (near.changes == 1 ? " change (" : " changes (") + near.changesText +
                          "): " + near.score.label + "; fits with " +
                          numberText(std::round(near.score.memoryPerDieBytes / 1e8) / 10.0) +
                          " GB per die";
        finding.evidence["strategy"] = near.score.label;
        finding.evidence["changes"] = strategyChanges(*scenario.strategy, near.score.strategy);
        finding.evidence["step_s"] = stepS;
        finding.evidence["memory_per_die_bytes"] = near.score.memoryPerDieBytes;
        finding.fix = strategyFix(*scenario.strategy, near.score.strategy);
        finding.fixBeforeS = beforeS;
        finding.fixAfterS = stepS;
        findings.push_back(std::move(finding));
    }
    return findings;
}

// The advisor's state: the scenario as advised, its simulation, and the trials of fixes.
class Advisor {
public:
    Advisor(const Scenario& scenario, const RunOptions& options) : m_options(options) {
        m_options.progress = {};
        m_scenario = scenario;
        dropStalePins();
        m_run.emplace(prepareRun(m_scenario, m_options));
        m_result = simulateRun(*m_run, m_options);
        m_report = reportOf(*m_run, m_result, ReportDetail::Full, m_options.cancel);
        m_baseS = secondsOf(m_report);
        // The trials below run the scenario as simulated (overrides already applied).
        m_trialOptions = m_options;
        m_trialOptions.applyEnvironment = false;
        m_trialOptions.labels = TaskLabels::Skipped;
    }

    std::vector<Finding> findings() {
        outOfMemoryFinding();
        staleRoutesFinding();
        lowUtilizationFinding();
        loadImbalanceFinding();
        latencySpikesFinding();
        hotLinkFinding();
        tcmeIterationCapFinding();
        sramReserveFinding();
        sequenceFindings();
        tatpDegreeFinding();
        std::stable_sort(m_findings.begin(), m_findings.end(),
                         [](const Finding& a, const Finding& b) {
                             return static_cast<int>(a.severity) > static_cast<int>(b.severity);
                         });
        return std::move(m_findings);
    }

private:
    const Scenario& simulated() const { return m_run->scenario; }
    bool isStep() const { return m_run->step.has_value(); }

    // Simulates the scenario with `fix` applied; nullopt when it does not read or simulate.
    std::optional<Outcome> trial(const ordered_json& fix) {
        throwIfCancelled();
        try {
            const Scenario variant = applyFix(simulated(), fix);
            const SimulationReport report =
                simulateScenarioReport(variant, m_trialOptions, ReportDetail::Summary);
            return Outcome{secondsOf(report), outOfMemory(report)};
        } catch (const ScenarioError&) {
            return std::nullopt;
        }
    }

    // Whether `outcome` is worth offering: meaningfully faster and no worse on memory, or
    // fitting where the scenario does not.
    bool helps(const std::optional<Outcome>& outcome) const {
        if (!outcome)
            return false;
        if (outOfMemory(m_report) && !outcome->outOfMemory)
            return true;
        return !outcome->outOfMemory && outcome->seconds < m_baseS * (1.0 - kMeaningfulGain);
    }

    // The fastest of `fixes` that helps, if any, with its outcome.
    std::optional<std::pair<ordered_json, Outcome>> bestOf(const std::vector<ordered_json>& fixes) {
        std::optional<std::pair<ordered_json, Outcome>> best;
        for (const ordered_json& fix : fixes) {
            const std::optional<Outcome> outcome = trial(fix);
            if (!helps(outcome))
                continue;
            const bool better = !best || (best->second.outOfMemory && !outcome->outOfMemory) ||
                                (best->second.outOfMemory == outcome->outOfMemory &&
                                 outcome->seconds < best->second.seconds);
            if (better)
                best = std::make_pair(fix, *outcome);
        }
        return best;
    }

    void offer(Finding& finding, const std::pair<ordered_json, Outcome>& fix) {
        finding.fix = fix.first;
        finding.fixBeforeS = m_baseS;
        finding.fixAfterS = fix.second.seconds;
    }

    std::string fixEffect(const Outcome& outcome) const {
        return "the step takes " + seconds(outcome.seconds) + " instead of " + seconds(m_baseS) +
               " (" + percent(1.0 - outcome.seconds / m_baseS) + " faster)";
    }

    void throwIfCancelled() const {
        if (m_options.cancel && m_options.cancel())
            throw RunCancelled();
    }

    // --- tcme_routes_stale ---------------------------------------------------------------------
    // A pinned route that names no flow of the step, or a flow whose ends moved, stops the
    // scenario from simulating at all (docs/file-format.md `routing.paths`): drop such pins one
    // by one, remember them, and advise the rest.
    void dropStalePins() {
        if (!m_scenario.routing)
            return;
        const std::size_t pins = m_scenario.routing->paths.size();
        for (std::size_t attempt = 0; attempt <= pins; ++attempt) {
            try {
                prepareRun(m_scenario, m_options);
                return;
            } catch (const ScenarioError& error) {
                const std::string prefix = "routing.paths.";
                if (error.keyPath().rfind(prefix, 0) != 0)
                    throw;
                const std::string id = error.keyPath().substr(prefix.size());
                if (m_scenario.routing->paths.erase(id) == 0)
                    throw;
                m_stalePins.emplace_back(id, error.problem());
            }
        }
    }

    void staleRoutesFinding() {
        if (m_stalePins.empty())
            return;
        Finding finding;
        finding.id = "tcme_routes_stale";
        finding.severity = Finding::Severity::Warning;
        ordered_json pins = ordered_json::array();
        for (const auto& [id, problem] : m_stalePins)
            pins.push_back({{"flow", id}, {"problem", problem}});
        finding.evidence["stale_pins"] = pins;
        finding.evidence["pins_kept"] =
            m_scenario.routing ? m_scenario.routing->paths.size() : std::size_t{0};
        finding.message =
            std::to_string(m_stalePins.size()) +
            (m_stalePins.size() == 1 ? " pinned route (routing.paths) no longer fits"
                                     : " pinned routes (routing.paths) no longer fit") +
            " the current placement (first: " + m_stalePins.front().first + ": " +
            m_stalePins.front().second +
            "), so the scenario does not simulate; the routes TCME tuned did not "
            "take effect. Dropping them lets it simulate (the rest of this advice "
            "is for the scenario without them); run the optimizer again to retune.";
        // The pins that still fit, as the file writes them: the whole object replaces the old
        // one (a flow id may hold a dot, which a dotted key per pin would split).
        const ordered_json written = toOrderedJson(m_scenario);
        ordered_json kept = ordered_json::object();
        if (written.contains("routing") && written["routing"].contains("paths"))
            kept = written["routing"]["paths"];
        finding.fix = ordered_json{{"routing.paths", kept}};
        finding.fixAfterS = m_baseS;
        m_findings.push_back(std::move(finding));
    }

    // --- out_of_memory -------------------------------------------------------------------------
    void outOfMemoryFinding() {
        if (!outOfMemory(m_report))
            return;
        Finding finding;
        finding.id = "out_of_memory";
        finding.severity = Finding::Severity::Error;
        double peak = 0.0;
        double capacity = 0.0;
        std::string dominant;
        for (const DieReport& die : m_report.dies)
            if (die.memory && die.memory->outOfMemory()) {
                finding.dies.push_back(die.id);
                if (die.memory->total() > peak) {
                    peak = die.memory->total();
                    capacity = die.memory->sramCapacity + die.memory->hbmCapacity;
                    dominant = die.memory->dominantTerm();
                }
            }
        finding.evidence["dies"] = finding.dies;
        finding.evidence["peak_memory_bytes"] = peak;
        finding.evidence["capacity_bytes"] = capacity;
        finding.evidence["dominant"] = dominant;
        finding.message = std::to_string(finding.dies.size()) + " dies need " +
                          numberText(std::round(peak / 1e8) / 10.0) + " GB but hold " +
                          numberText(std::round(capacity / 1e8) / 10.0) +
                          " GB (SRAM + HBM); the largest term is " + dominant;
        const StrategySpec& strategy = *simulated().strategy;
        std::vector<ordered_json> fixes;
        if (!strategy.fsdp && strategy.dp > 1)
            fixes.push_back({{"strategy.fsdp", true}});
        if (strategy.activationCheckpointing != Checkpointing::Full)
            fixes.push_back({{"strategy.activation_checkpointing", "full"}});
        fixes.push_back({{"strategy.micro_batches", strategy.microBatches * 2}});
        if (strategy.dp % 2 == 0)
            fixes.push_back(
                {{"strategy.dp", strategy.dp / 2}, {"strategy.tatp", strategy.tatp * 2}});
        if (const auto best = bestOf(fixes)) {
            offer(finding, *best);
            finding.message += "; the fix fits, and " + fixEffect(best->second);
        } else {
            finding.message += "; none of FSDP, full checkpointing, more micro-batches or a "
                               "larger TATP degree fits";
        }
        m_findings.push_back(std::move(finding));
        if (simulated().workload)
            for (Finding& near :
                 nearestFittingStrategyFindings(simulated(), m_baseS, m_options.cancel))
                m_findings.push_back(std::move(near));
    }

    // --- low_utilization -----------------------------------------------------------------------
    // The dies' own groups' slow members, when the balancer could even them out.
    std::vector<DieId> slowPeersOf(DieId die) const {
        std::vector<DieId> peers;
        if (!isStep() || simulated().strategy->tatp < 2)
            return peers;
        for (const std::vector<DieId>& group : m_run->step->placement.groups(GroupKind::TATP))
            if (std::find(group.begin(), group.end(), die) != group.end())
                for (DieId member : group)
                    if (member != die && simulated().wafer.dieSpeed(member) < 1.0)
                        peers.push_back(member);
        return peers;
    }

    // The longest idle stretch of a die's timeline.
    static std::optional<std::pair<double, double>> longestIdle(const DieReport& die) {
        std::optional<std::pair<double, double>> longest;
        for (const DieEvent& event : die.events)
            if (event.kind == DieEvent::Kind::Idle &&
                (!longest || event.endS - event.startS > longest->second - longest->first))
                longest = std::make_pair(event.startS, event.endS);
        return longest;
    }

    void lowUtilizationFinding() {
        if (!isStep())
            return;
        const StepMetrics& metrics = *m_report.step;
        std::vector<DieId> low;
        double lowest = 1.0;
        for (DieId die : m_run->step->placement.usedDies()) {
            const double utilization = m_report.dies[static_cast<std::size_t>(die)].utilization;
            if (utilization < kLowUtilization) {
                low.push_back(die);
                lowest = std::min(lowest, utilization);
            }
        }
        if (low.empty())
            return;
        Finding finding;
        finding.id = "low_utilization";
        finding.severity = Finding::Severity::Warning;
        finding.dies = low;
        ordered_json dies = ordered_json::array();
        for (DieId die : low)
            dies.push_back(
                {{"id", die},
                 {"utilization", m_report.dies[static_cast<std::size_t>(die)].utilization},
                 {"speed", simulated().wafer.dieSpeed(die)}});
        finding.evidence["dies"] = dies;
        // The cause, from the timeline: waiting for a slow member of the die's group, else the
        // largest of the step's non-compute terms (docs/training-model.md's breakdown).
        std::set<DieId> slowPeers;
        for (DieId die : low)
            for (DieId peer : slowPeersOf(die))
                slowPeers.insert(peer);
        std::string cause;
        if (!slowPeers.empty() && simulated().strategy->balance == StrategySpec::Balance::Even) {
            const std::vector<DieId> slow(slowPeers.begin(), slowPeers.end());
            cause = "they wait for the slow " + std::string(slow.size() == 1 ? "die " : "dies ") +
                    dieList(slow) +
                    " of their TATP group: with even shares a group runs at its slowest "
                    "member's pace";
            finding.evidence["cause"] = "slow_group_member";
            finding.evidence["slow_dies"] = slow;
            for (DieId die : slow)
                finding.dies.push_back(die);
        } else {
            const std::vector<std::pair<double, std::string>> terms = {
                {metrics.exposedS, "exposed communication"},
                {metrics.hbmStallS, "waiting for HBM (memory-bound tasks)"},
                {metrics.overheadS, "task overhead"},
                {metrics.optimizerS, "the optimizer update"}};
            const auto largest = std::max_element(terms.begin(), terms.end());
            cause =
                largest->second + ", " + percent(largest->first / metrics.stepS) + " of the step";
            finding.evidence["cause"] = largest->second;
            finding.evidence["cause_s"] = largest->first;
        }
        finding.evidence["step_s"] = metrics.stepS;
        finding.message = std::to_string(low.size()) + " of " + std::to_string(metrics.diesUsed) +
                          " dies compute less than " + percent(kLowUtilization) +
                          " of the step (lowest " + percent(lowest) + ", dies " + dieList(low) +
                          "): " + cause;
        finding.timeSpan = longestIdle(m_report.dies[static_cast<std::size_t>(low.front())]);
        if (!slowPeers.empty() && simulated().strategy->balance == StrategySpec::Balance::Even)
            if (const auto best = bestOf({{{"strategy.balance", "speed"}}})) {
                offer(finding, *best);
                finding.message += "; shares in proportion to speed: " + fixEffect(best->second);
            }
        m_findings.push_back(std::move(finding));
    }

    // --- load_imbalance ------------------------------------------------------------------------
    void loadImbalanceFinding() {
        if (!isStep())
            return;
        const Placement& placement = m_run->step->placement;
        std::vector<std::vector<DieId>> groups =
            simulated().strategy->tatp > 1 ? placement.groups(GroupKind::TATP)
                                           : std::vector<std::vector<DieId>>{placement.usedDies()};
        double worst = 1.0;
        const std::vector<DieId>* worstGroup = nullptr;
        for (const std::vector<DieId>& group : groups) {
            double fastest = 0.0;
            double slowest = 0.0;
            for (DieId die : group) {
                const double computeS = m_report.dies[static_cast<std::size_t>(die)].computeS;
                fastest = fastest == 0.0 ? computeS : std::min(fastest, computeS);
                slowest = std::max(slowest, computeS);
            }
            if (fastest > 0.0 && slowest / fastest > worst) {
                worst = slowest / fastest;
                worstGroup = &group;
            }
        }
        if (worstGroup == nullptr || worst < kImbalance)
            return;
        Finding finding;
        finding.id = "load_imbalance";
        finding.severity = Finding::Severity::Warning;
        finding.dies = *worstGroup;
        ordered_json members = ordered_json::array();
        DieId slowestDie = worstGroup->front();
        for (DieId die : *worstGroup) {
            const DieReport& report = m_report.dies[static_cast<std::size_t>(die)];
            members.push_back({{"id", die},
                               {"compute_s", report.computeS},
                               {"speed", simulated().wafer.dieSpeed(die)},
                               {"share", m_run->step->graph.workShare(die)}});
            if (report.computeS > m_report.dies[static_cast<std::size_t>(slowestDie)].computeS)
                slowestDie = die;
        }
        finding.evidence["group"] = members;
        finding.evidence["slowest_over_fastest"] = worst;
        const bool tatp = simulated().strategy->tatp > 1;
        finding.message =
            std::string(tatp ? "a TATP group's" : "the dies'") + " compute times differ by " +
            percent(worst - 1.0) + " (die " + std::to_string(slowestDie) + " takes longest, at " +
            percent(simulated().wafer.dieSpeed(slowestDie)) + " speed): the others wait for it";
        if (tatp && simulated().strategy->balance == StrategySpec::Balance::Even) {
            if (const auto best = bestOf({{{"strategy.balance", "speed"}}})) {
                offer(finding, *best);
                finding.message +=
                    "; sub-tensor shares in proportion to speed: " + fixEffect(best->second);
            }
        } else if (!tatp) {
            finding.message += "; without TATP there are no sub-tensors to rebalance";
        }
        m_findings.push_back(std::move(finding));
    }

    // --- latency_spikes ------------------------------------------------------------------------
    // The cause of a stall that ends at `endS`: the transfer the die received just then, or
    // else the task that could only start then (after a barrier or its group's collective).
    static std::string stallCause(const DieReport& die, double endS) {
        const double tolerance = 1e-9 * std::max(1.0, endS) + 1e-12;
        for (const DieEvent& event : die.events)
            if (event.kind == DieEvent::Kind::Recv && std::abs(event.endS - endS) <= tolerance)
                return "receiving '" + event.label + "'";
        for (const DieEvent& event : die.events)
            if (event.kind != DieEvent::Kind::Idle && event.startS >= endS - tolerance)
                return "until '" +
                       (event.label.empty() ? std::string(toString(event.kind)) : event.label) +
                       "' can start";
        return "the end of the step";
    }

    void latencySpikesFinding() {
        const double run = m_report.makespanS;
        if (run <= 0.0)
            return;
        struct Stalls {
            DieId die = 0;
            std::vector<std::pair<double, double>> spans;
            double total = 0.0;
        };
        std::optional<Stalls> worst;
        for (const DieReport& die : m_report.dies) {
            Stalls stalls{die.id, {}, 0.0};
            bool started = false;
            for (const DieEvent& event : die.events) {
                if (event.kind != DieEvent::Kind::Idle) {
                    started = true;
                    continue;
                }
                // Idle before a die's first task or after its last is not a stall.
                if (!started || event.endS >= run - 1e-15)
                    continue;
                if (event.endS - event.startS >= kStallShare * run) {
                    stalls.spans.emplace_back(event.startS, event.endS);
                    stalls.total += event.endS - event.startS;
                }
            }
            if (stalls.spans.size() < 3)
                continue;
            std::vector<double> gaps;
            for (std::size_t i = 1; i < stalls.spans.size(); ++i)
                gaps.push_back(stalls.spans[i].first - stalls.spans[i - 1].first);
            const double mean =
                std::accumulate(gaps.begin(), gaps.end(), 0.0) / static_cast<double>(gaps.size());
            const bool periodic = std::all_of(gaps.begin(), gaps.end(), [&](double gap) {
                return std::abs(gap - mean) <= kPeriodJitter * mean;
            });
            if (periodic && (!worst || stalls.total > worst->total))
                worst = std::move(stalls);
        }
        if (!worst)
            return;
        const DieReport& die = m_report.dies[static_cast<std::size_t>(worst->die)];
        const double period = (worst->spans.back().first - worst->spans.front().first) /
                              static_cast<double>(worst->spans.size() - 1);
        std::map<std::string, int> causes;
        for (const auto& span : worst->spans)
            ++causes[stallCause(die, span.second)];
        const auto cause =
            std::max_element(causes.begin(), causes.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        Finding finding;
        finding.id = "latency_spikes";
        finding.severity = Finding::Severity::Warning;
        finding.dies = {worst->die};
        finding.timeSpan = std::make_pair(worst->spans.front().first, worst->spans.back().second);
        finding.evidence["die"] = worst->die;
        finding.evidence["stalls"] = worst->spans.size();
        finding.evidence["period_s"] = period;
        finding.evidence["mean_stall_s"] = worst->total / static_cast<double>(worst->spans.size());
        finding.evidence["stalled_s"] = worst->total;
        finding.evidence["cause"] = cause->first;
        finding.message =
            "die " + std::to_string(worst->die) + " stalls " + std::to_string(worst->spans.size()) +
            " times, every " + seconds(period) + " for " +
            seconds(worst->total / static_cast<double>(worst->spans.size())) + " on average (" +
            percent(worst->total / run) + " of the simulated run), mostly waiting " + cause->first;
        std::vector<ordered_json> fixes;
        if (const auto& strategy = simulated().strategy) {
            if (strategy->fsdp && !strategy->fsdpAllGatherMulticast)
                fixes.push_back({{"strategy.fsdp_allgather", "multicast"}});
            if (!strategy->doubleBuffering && strategy->tatp > 1)
                fixes.push_back({{"strategy.double_buffering", true}});
        }
        if (simulated().routingMode() != RoutingMode::Adaptive)
            fixes.push_back({{"routing.mode", "adaptive"}});
        if (const auto best = bestOf(fixes)) {
            offer(finding, *best);
            finding.message += "; with the fix " + fixEffect(best->second);
        }
        m_findings.push_back(std::move(finding));
    }

    // --- hot_link ------------------------------------------------------------------------------
    double targetUtilization() const {
        return simulated().tcme ? simulated().tcme->targetUtilization
                                : TcmeSpec{}.targetUtilization;
    }

    void hotLinkFinding() {
        const std::vector<LinkReport> hottest = m_report.hottestLinks(1);
        if (hottest.empty() || hottest.front().bytes <= 0.0)
            return;
        const LinkReport& link = hottest.front();
        // Its busiest phase: the TATP round with the highest utilisation against the round's
        // compute window, or the whole run.
        double utilization = link.utilization;
        std::string phase = "over the whole run";
        ordered_json round = nullptr;
        for (const RoundLoad& load : m_report.rounds)
            if (load.maxUtilization > utilization) {
                utilization = load.maxUtilization;
                phase = "in TATP round " + std::to_string(load.round) + " (against its " +
                        seconds(load.windowS) + " of compute)";
                round = {{"round", load.round},
                         {"max_link_bytes", load.maxLinkBytes},
                         {"window_s", load.windowS}};
            }
        if (utilization <= targetUtilization())
            return;
        Finding finding;
        finding.id = "hot_link";
        finding.severity = Finding::Severity::Warning;
        finding.links = {{link.from, link.to}};
        finding.evidence["link"] = {{"from", link.from}, {"to", link.to}};
        finding.evidence["bytes"] = link.bytes;
        finding.evidence["busy_s"] = link.busyS;
        finding.evidence["utilization"] = utilization;
        finding.evidence["target_utilization"] = targetUtilization();
        finding.evidence["busiest_round"] = round;
        // Named as the mesh names it ("0->rail 0" on a cluster), and said where routing cannot
        // help: every path between two wafers crosses some off-wafer link.
        finding.message = "link " + linkName(*m_run->topology, link.from, link.to) +
                          (link.offWafer ? " (off-wafer: it joins two wafers)" : "") + " is " +
                          percent(utilization) + " busy " + phase + ", above TCME's target of " +
                          percent(targetUtilization());
        std::vector<ordered_json> fixes;
        for (const char* mode : {"adaptive", "shortest"})
            if (toString(simulated().routingMode()) != mode)
                fixes.push_back({{"routing.mode", mode}});
        if (const auto best = bestOf(fixes)) {
            offer(finding, *best);
            finding.message += "; routing around it: " + fixEffect(best->second);
        } else {
            finding.message += "; the optimizer (TCME) reroutes flows off it";
        }
        m_findings.push_back(std::move(finding));
    }

    // --- tcme_iteration_cap --------------------------------------------------------------------
    // Only for a scenario that asks for TCME (a `tcme` key): the optimizer runs to its cap, and
    // when it stopped there while its last iteration still kept a change, again to 15.
    void tcmeIterationCapFinding() {
        if (!simulated().tcme || simulated().tcme->maxIter >= kTcmeRaisedCap)
            return;
        const std::function<bool()> cancel = m_options.cancel;
        TcmeOptions options = tcmeOptionsFrom(simulated());
        TcmeEngine capped(simulated(), *m_run->topology, options);
        if (capped.run(cancel) == TcmeStopReason::Cancelled)
            throw RunCancelled();
        if (capped.stopReason() != TcmeStopReason::MaxIter || capped.iterations().empty() ||
            capped.iterations().back().gain == TcmeGain::None)
            return;
        options.spec.maxIter = kTcmeRaisedCap;
        TcmeEngine raised(simulated(), *m_run->topology, options);
        if (raised.run(cancel) == TcmeStopReason::Cancelled)
            throw RunCancelled();
        const double atCap = capped.current().makespanS;
        const double atRaised = raised.current().makespanS;
        Finding finding;
        finding.id = "tcme_iteration_cap";
        finding.severity = Finding::Severity::Info;
        finding.evidence["max_iter"] = simulated().tcme->maxIter;
        finding.evidence["last_gain"] = toString(capped.iterations().back().gain);
        finding.evidence["makespan_at_cap_s"] = atCap;
        finding.evidence["makespan_at_15_s"] = atRaised;
        finding.evidence["iterations_at_15"] = raised.iterations().size();
        finding.message = "TCME stopped at its cap of " +
                          std::to_string(simulated().tcme->maxIter) +
                          " iterations while still gaining (the last kept a change: " +
                          gainExplanation(capped.iterations().back().gain) + ")";
        if (atRaised < atCap * (1.0 - 1e-12)) {
            finding.fix = ordered_json{{"tcme.max_iter", kTcmeRaisedCap}};
            finding.fixBeforeS = atCap;
            finding.fixAfterS = atRaised;
            finding.message += "; 15 iterations reach a makespan of " + seconds(atRaised) +
                               " instead of " + seconds(atCap);
        } else {
            finding.message += ", but 15 iterations reach no shorter makespan";
        }
        m_findings.push_back(std::move(finding));
    }

    // --- sram_reserve --------------------------------------------------------------------------
    void sramReserveFinding() {
        if (!isStep())
            return;
        const DieSpec& die = simulated().wafer.die;
        if (die.sramReserve >= kSramReserveAdvice)
            return;
        const MemoryBreakdown& memory = m_run->step->plan.memory;
        Finding finding;
        finding.id = "sram_reserve";
        finding.severity = Finding::Severity::Warning;
        finding.evidence["sram_reserve"] = die.sramReserve;
        finding.evidence["comm_reserve_bytes"] = memory.commReserve;
        finding.evidence["stream_buffers_bytes"] = memory.streamBuffers;
        finding.evidence["sram_bytes"] = die.sram.value;
        finding.message = "only " + percent(die.sramReserve) +
                          " of each die's SRAM is kept for communication buffers (the design "
                          "note keeps 10%)";
        const std::optional<Outcome> outcome = trial({{"wafer.die.sram_reserve", 0.1}});
        if (outcome && !outcome->outOfMemory) {
            finding.fix = ordered_json{{"wafer.die.sram_reserve", 0.1}};
            finding.fixBeforeS = m_baseS;
            finding.fixAfterS = outcome->seconds;
            const bool unchanged = std::abs(outcome->seconds - m_baseS) <= 1e-12 * m_baseS;
            finding.message += "; with 10% kept the step still fits" +
                               (unchanged ? std::string(", as fast as now")
                                          : " and takes " + seconds(outcome->seconds) + " (now " +
                                                seconds(m_baseS) + ")");
        }
        m_findings.push_back(std::move(finding));
    }

    // --- long_sequence_needs_sp, short_sequence_prefers_dp -------------------------------------
    // The same dies, regrouped: `to` doubled, one of `from` halved.
    std::vector<ordered_json> regroupings(const char* to, int toValue,
                                          const std::vector<std::pair<const char*, int>>& from) {
        std::vector<ordered_json> fixes;
        for (const auto& [key, value] : from)
            if (value % 2 == 0)
                fixes.push_back({{std::string("strategy.") + to, toValue * 2},
                                 {std::string("strategy.") + key, value / 2}});
        return fixes;
    }

    void sequenceFindings() {
        if (!isStep() || simulated().workload->kind != WorkloadKind::Transformer)
            return;
        const StrategySpec& s = *simulated().strategy;
        const long long seqLen = simulated().workload->seqLen;
        if (seqLen > kLongSequence && s.sp == 1) {
            if (const auto best = bestOf(
                    regroupings("sp", s.sp, {{"dp", s.dp}, {"tatp", s.tatp}, {"tp", s.tp}}))) {
                Finding finding;
                finding.id = "long_sequence_needs_sp";
                finding.severity = Finding::Severity::Warning;
                finding.evidence["seq_len"] = seqLen;
                finding.evidence["sp"] = s.sp;
                finding.message = std::to_string(seqLen) +
                                  "-token sequences without sequence parallelism (sp = 1): "
                                  "splitting each sequence over 2 dies " +
                                  (best->second.outOfMemory == outOfMemory(m_report)
                                       ? fixEffect(best->second)
                                       : std::string("makes the step fit"));
                offer(finding, *best);
                m_findings.push_back(std::move(finding));
            }
        }
        if (seqLen < kShortSequence) {
            if (const auto best = bestOf(
                    regroupings("dp", s.dp, {{"tatp", s.tatp}, {"tp", s.tp}, {"sp", s.sp}}))) {
                Finding finding;
                finding.id = "short_sequence_prefers_dp";
                finding.severity = Finding::Severity::Info;
                finding.evidence["seq_len"] = seqLen;
                finding.evidence["dp"] = s.dp;
                finding.message = std::to_string(seqLen) +
                                  "-token sequences are short enough for more data "
                                  "parallelism: dp " +
                                  std::to_string(s.dp * 2) +
                                  " over the same dies: " + fixEffect(best->second);
                offer(finding, *best);
                m_findings.push_back(std::move(finding));
            }
        }
    }

    // --- tatp_degree ---------------------------------------------------------------------------
    // The neighbouring TATP degrees on this wafer, the dies kept by trading against dp.
    void tatpDegreeFinding() {
        if (!isStep())
            return;
        const StrategySpec& s = *simulated().strategy;
        if (s.tatp < 2 && s.dp < 2)
            return;
        ordered_json measured = ordered_json::array();
        measured.push_back({{"tatp", s.tatp}, {"dp", s.dp}, {"step_s", m_baseS}});
        std::vector<ordered_json> fixes;
        if (s.dp % 2 == 0)
            fixes.push_back({{"strategy.tatp", s.tatp * 2}, {"strategy.dp", s.dp / 2}});
        if (s.tatp % 2 == 0)
            fixes.push_back({{"strategy.tatp", s.tatp / 2}, {"strategy.dp", s.dp * 2}});
        std::optional<std::pair<ordered_json, Outcome>> best;
        for (const ordered_json& fix : fixes) {
            const std::optional<Outcome> outcome = trial(fix);
            if (!outcome)
                continue;
            measured.push_back({{"tatp", fix["strategy.tatp"]},
                                {"dp", fix["strategy.dp"]},
                                {"step_s", outcome->seconds},
                                {"out_of_memory", outcome->outOfMemory}});
            if (helps(outcome) && (!best || outcome->seconds < best->second.seconds))
                best = std::make_pair(fix, *outcome);
        }
        if (!best)
            return;
        Finding finding;
        finding.id = "tatp_degree";
        finding.severity = Finding::Severity::Info;
        finding.evidence["measured"] = measured;
        const int degree = (*best).first["strategy.tatp"].get<int>();
        finding.message = "TATP degree " + std::to_string(s.tatp) +
                          " is not the best measured on this wafer: degree " +
                          std::to_string(degree) + " (dp " +
                          std::to_string((*best).first["strategy.dp"].get<int>()) +
                          "): " + fixEffect(best->second);
        for (const Finding& earlier : m_findings)
            if (earlier.fix && nlohmann::json(*earlier.fix) == nlohmann::json(best->first)) {
                finding.message += " (the same change as " + earlier.id + ")";
                break;
            }
        offer(finding, *best);
        m_findings.push_back(std::move(finding));
    }

    RunOptions m_options;
    RunOptions m_trialOptions;
    Scenario m_scenario; // as given, less its stale pins
    std::optional<ScenarioRun> m_run;
    SimResult m_result;
    SimulationReport m_report;
    double m_baseS = 0.0;
    std::vector<std::pair<std::string, std::string>> m_stalePins; // id, why
    std::vector<Finding> m_findings;
};

} // namespace

std::vector<Finding> adviseScenario(const Scenario& scenario, const RunOptions& options) {
    try {
        return Advisor(scenario, options).findings();
    } catch (const ScenarioError& error) {
        // A strategy the hardware cannot place (a fault, a resized wafer): say so, and offer
        // the nearest strategies that place and fit. Any other error is the file's.
        if (!scenario.workload || !scenario.strategy || !error.keyPath().starts_with("strategy"))
            throw;
        Finding finding;
        finding.id = "strategy_does_not_fit";
        finding.severity = Finding::Severity::Error;
        finding.message =
            "The strategy does not run on this hardware: " + std::string(error.what());
        finding.evidence["key"] = error.keyPath();
        finding.evidence["problem"] = error.problem();
        finding.dies = scenario.wafer.deadDies;
        for (const LinkRef& link : scenario.wafer.deadLinks)
            finding.links.emplace_back(link.from, link.to);
        std::vector<Finding> findings{std::move(finding)};
        for (Finding& near : nearestFittingStrategyFindings(scenario, std::nullopt, options.cancel))
            findings.push_back(std::move(near));
        if (findings.size() == 1)
            findings.front().message += "; no strategy a few changes away places and fits";
        return findings;
    }
}

ordered_json findingsJson(const std::vector<Finding>& findings) {
    ordered_json list = ordered_json::array();
    for (const Finding& finding : findings) {
        ordered_json out = ordered_json::object();
        out["id"] = finding.id;
        out["severity"] = toString(finding.severity);
        out["message"] = finding.message;
        out["evidence"] = finding.evidence;
        out["fix"] = finding.fix ? *finding.fix : ordered_json(nullptr);
        if (finding.fix && finding.fixAfterS)
            out["fix_effect"] = {{"before_s", finding.fixBeforeS.value_or(*finding.fixAfterS)},
                                 {"after_s", *finding.fixAfterS}};
        if (!finding.dies.empty())
            out["dies"] = finding.dies;
        if (!finding.links.empty()) {
            ordered_json links = ordered_json::array();
            for (const auto& [from, to] : finding.links)
                links.push_back({{"from", from}, {"to", to}});
            out["links"] = links;
        }
        if (finding.timeSpan)
            out["time_span_s"] = {finding.timeSpan->first, finding.timeSpan->second};
        list.push_back(std::move(out));
    }
    return {{"findings", list}};
}

} // namespace ws
