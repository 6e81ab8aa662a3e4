#pragma once

#include "scenario/scenario.h"
#include "scenario/strategy_spec.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// How training throughput degrades as a wafer loses dies or links (docs/cli.md section 10's fault
// axes, docs/gui.md "Fault study"): several strategies for one scenario, each simulated at a series
// of fault rates, `samples` random fault draws per rate.

// Which parts fail: sampleFaults' dieRate or its linkRate (sweep/fault_sample.h).
enum class FaultKind { Dies, Links };

// A strategy to study: the scenario's own (no `strategy`), or another one put in its place
// (search/strategy_scoring.h: withStrategy), such as a search's baselines.
struct FaultStudyStrategy {
    std::string name; // "current strategy", "Megatron-1 (TP)"
    std::optional<StrategySpec> strategy;
};

struct FaultStudySpec {
    Scenario scenario; // with a workload: the study measures tokens per second
    std::vector<FaultStudyStrategy> strategies;
    FaultKind kind = FaultKind::Links;
    std::vector<double> rates; // fractions of the live dies or links that fail, each in [0, 1)
    int samples = 5;           // fault draws per rate, >= 1
    std::uint64_t seed = 1;
};

// The simulated throughput of the samples that simulated: tokens per second.
struct ThroughputSpread {
    double mean = 0.0;
    double min = 0.0;
    double max = 0.0;
};

// One strategy at one rate.
struct FaultStudyPoint {
    double rate = 0.0;
    // By sample: the step's tokens per second, or nullopt when that draw did not simulate.
    std::vector<std::optional<double>> tokensPerSecond;
    int simulated = 0;
    int failed = 0;         // simulated + failed == samples
    std::string firstError; // of the first failed sample, with what the faults changed
    // Failed samples whose step did not fit a die's memory: never averaged as throughput.
    int outOfMemory = 0;
    // Samples whose strategy re-placing changed (a smaller dp, more micro-batches, another
    // mapping), and what the first of them changed (sampleFaults' note).
    int changed = 0;
    std::string firstChange;
    std::optional<ThroughputSpread> spread; // nullopt when no sample simulated
};

struct FaultStudyCurve {
    std::string name;
    std::vector<FaultStudyPoint> points; // one per rate, in the spec's order
};

struct FaultStudyResult {
    FaultKind kind = FaultKind::Links;
    std::vector<FaultStudyCurve> curves; // one per strategy, in the spec's order
};

// Simulates every (strategy, rate, sample) with a summary report, as `waferscope-cli sweep` does
// (the environment's overrides applied), one after the other on the calling thread.
//
// The faults are the sweep's: sample s at rate index r is sampleFaults(scenario, ..., seed, s,
// r * samples + s), the point index of a sweep whose one axis is faults.die_rate or
// faults.link_rate over `rates` (sweep_spec.h: pointAt numbers the points with the sample
// fastest). So the study and that sweep draw the same faults, and every strategy meets the same
// faults at one (rate, sample): the draw depends on the wafer only.
//
// A draw that cannot be placed or simulated (the dies ran out for the strategy, a route found no
// live path) counts as failed, with its reason; it is never an error of the study. `cancel` is
// polled before each simulation and during it (RunOptions::cancel): when it fires the study
// throws RunCancelled. `progress` gets (simulations done, simulations in all) after each one.
//
// Throws ScenarioError (at "workload") for a scenario without a workload, and
// std::invalid_argument for no strategy, no rate, a rate outside [0, 1) or samples < 1.
FaultStudyResult runFaultStudy(const FaultStudySpec& spec, const std::function<bool()>& cancel = {},
                               const std::function<void(int done, int total)>& progress = {});

// The rates 0, step, 2 * step, ... up to `maxRate` (included when it is a whole number of steps
// away, within rounding), for a study's axis. Example: faultRates(0.4, 0.05) has 9 rates, 0 to
// 0.4. Throws std::invalid_argument unless step > 0 and 0 <= maxRate < 1.
std::vector<double> faultRates(double maxRate, double step);

} // namespace ws
