#include "sweep/fault_study.h"

#include "evaluation/scenario_run.h"
#include "scenario/scenario_error.h"
#include "search/strategy_scoring.h"
#include "sim/run_cancelled.h"
#include "sweep/fault_sample.h"
#include "sweep/sweep_runner.h"
#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws {

namespace {

void checkSpec(const FaultStudySpec& spec) {
    if (!spec.scenario.workload)
        throw ScenarioError("workload", "the fault study measures a training step's tokens per "
                                        "second: the scenario needs a workload");
    if (spec.strategies.empty())
        throw std::invalid_argument("runFaultStudy: no strategy to study");
    if (spec.rates.empty())
        throw std::invalid_argument("runFaultStudy: no fault rate");
    for (const double rate : spec.rates)
        if (!(rate >= 0.0 && rate < 1.0))
            throw std::invalid_argument("runFaultStudy: a fault rate must be in [0, 1), got " +
                                        std::to_string(rate));
    if (spec.samples < 1)
        throw std::invalid_argument("runFaultStudy: samples must be at least 1");
}

// The tokens per second of one fault draw, or the sentence saying why it did not simulate.
struct SampleOutcome {
    std::optional<double> tokensPerSecond;
    std::string error;
    std::string note; // what re-placing after the faults changed in the strategy
};

SampleOutcome simulateSample(const Scenario& base, const FaultStudySpec& spec, std::size_t rate,
                             int sample, const std::function<bool()>& cancel) {
    const double value = spec.rates[rate];
    const std::size_t point = rate * static_cast<std::size_t>(spec.samples) +
                              static_cast<std::size_t>(sample); // the sweep's pointAt
    SampleOutcome outcome;
    std::string faultNote; // what the faults changed in the strategy, to explain a failure
    try {
        FaultedScenario faulted =
            sampleFaults(base, spec.kind == FaultKind::Dies ? value : 0.0,
                         spec.kind == FaultKind::Links ? value : 0.0, spec.seed, sample, point);
        faultNote = std::move(faulted.note);
        RunOptions options = frontEndRunOptions(); // as the sweep simulates its points
        options.cancel = cancel;
        const SimulationReport report =
            simulateScenarioReport(std::move(faulted.scenario), options, ReportDetail::Summary);
        const DieReport* fullest = nullptr; // the die whose memory is the largest
        for (const DieReport& die : report.dies)
            if (die.memory && (!fullest || die.memory->total() > fullest->memory->total()))
                fullest = &die;
        if (!report.step)
            outcome.error = "no training step was simulated";
        else if (fullest && fullest->memory->outOfMemory())
            // Not run, so no throughput to average (docs/gui.md "Fault study").
            outcome.error =
                "out of memory: " + formatBytes(fullest->memory->total()) + " per die against " +
                formatBytes(fullest->memory->sramCapacity + fullest->memory->hbmCapacity) +
                " of SRAM and HBM";
        else
            outcome.tokensPerSecond = report.step->tokensPerSecond;
        outcome.note = faultNote;
    } catch (const RunCancelled&) {
        throw; // the study's end, not this sample's failure
    } catch (const std::bad_alloc&) {
        outcome.error = "out of memory while simulating this sample";
    } catch (const std::exception& error) {
        outcome.error = error.what(); // the placement's, the router's or the builder's sentence
    }
    if (!outcome.tokensPerSecond && !faultNote.empty())
        outcome.error += " (after the faults: " + faultNote + ")";
    return outcome;
}

void summarise(FaultStudyPoint& point) {
    double sum = 0.0;
    for (const std::optional<double>& tokens : point.tokensPerSecond) {
        if (!tokens)
            continue;
        if (!point.spread)
            point.spread = ThroughputSpread{0.0, *tokens, *tokens};
        point.spread->min = std::min(point.spread->min, *tokens);
        point.spread->max = std::max(point.spread->max, *tokens);
        sum += *tokens;
    }
    if (point.spread)
        point.spread->mean = sum / point.simulated;
}

} // namespace

FaultStudyResult runFaultStudy(const FaultStudySpec& spec, const std::function<bool()>& cancel,
                               const std::function<void(int done, int total)>& progress) {
    checkSpec(spec);
    const int total = static_cast<int>(spec.strategies.size() * spec.rates.size()) * spec.samples;
    int done = 0;
    FaultStudyResult result;
    result.kind = spec.kind;
    for (const FaultStudyStrategy& strategy : spec.strategies) {
        const Scenario base =
            strategy.strategy ? withStrategy(spec.scenario, *strategy.strategy) : spec.scenario;
        FaultStudyCurve& curve = result.curves.emplace_back();
        curve.name = strategy.name;
        for (std::size_t rate = 0; rate < spec.rates.size(); ++rate) {
            FaultStudyPoint& point = curve.points.emplace_back();
            point.rate = spec.rates[rate];
            for (int sample = 0; sample < spec.samples; ++sample) {
                if (cancel && cancel())
                    throw RunCancelled();
                SampleOutcome outcome = simulateSample(base, spec, rate, sample, cancel);
                point.tokensPerSecond.push_back(outcome.tokensPerSecond);
                if (isOutOfMemoryError(outcome.error))
                    ++point.outOfMemory;
                if (!outcome.note.empty() && point.changed++ == 0)
                    point.firstChange = outcome.note;
                if (outcome.tokensPerSecond) {
                    ++point.simulated;
                } else if (point.failed++ == 0) {
                    point.firstError = std::move(outcome.error);
                }
                if (progress)
                    progress(++done, total);
            }
            summarise(point);
        }
    }
    return result;
}

std::vector<double> faultRates(double maxRate, double step) {
    if (!(step > 0.0) || !(maxRate >= 0.0 && maxRate < 1.0))
        throw std::invalid_argument("faultRates: the step must be above 0 and the largest rate "
                                    "in [0, 1)");
    // A small tolerance, so that 0.4 / 0.05 = 7.999999999999999 still reaches 0.4; each rate is
    // rounded to 12 decimals, so that 3 x 0.05 is the 0.15 a sweep file would write.
    const auto count = static_cast<long long>(std::floor(maxRate / step + 1e-9));
    std::vector<double> rates;
    for (long long i = 0; i <= count; ++i)
        rates.push_back(std::min(maxRate, std::round(static_cast<double>(i) * step * 1e12) / 1e12));
    return rates;
}

} // namespace ws
