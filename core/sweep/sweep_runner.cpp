#include "sweep/sweep_runner.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "search/strategy_family.h"
#include "sweep/fault_sample.h"
#include "units/quantity.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace ws {

namespace {

// The point's value on the axis `key`, or 0 when the sweep has no such axis.
double rateAt(const SweepSpec& spec, const SweepPoint& point, std::string_view key) {
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        if (spec.axes[a].key == key)
            return point.values[a].get<double>();
    return 0.0;
}

} // namespace

bool isOutOfMemoryError(const std::string& error) {
    return error.rfind("out of memory: ", 0) == 0;
}

FaultedScenario scenarioAt(const SweepSpec& spec, const SweepPoint& point) {
    FaultedScenario faulted;
    faulted.scenario = parseScenario(scenarioJsonAt(spec, point), spec.baseDirectory);
    // Only a sweep with fault axes draws faults: any other simulates its points as written.
    if (hasFaultAxes(spec))
        faulted =
            sampleFaults(faulted.scenario, rateAt(spec, point, kDieRateAxis),
                         rateAt(spec, point, kLinkRateAxis), spec.seed, point.sample, point.index);
    return faulted;
}

namespace {

// The strategy search at a point (SweepSpec::search): the best family and the runner-up's
// margin, every family judged by the simulator (search/strategy_family.h). One thread: the
// sweep runs its points on the others.
void searchPoint(const SweepSearch& search, const Scenario& scenario, SweepRow& row) {
    if (!scenario.workload)
        return;
    const WaferTopology topology(scenario.topologySpec());
    SearchOptions options;
    options.threads = 1;
    options.budget = search.budget;
    options.seed = search.seed;
    options.polishWithTcme = false;
    const SearchResult result = searchStrategies(scenario, topology, options);
    const std::vector<FamilyBest> families = familyBests(scenario, topology, result);
    if (families.empty())
        return;
    row.bestStrategy = families[0].score.label;
    row.bestFamily = families[0].family;
    row.bestStepS = families[0].score.simulatedStepS;
    if (families.size() > 1) {
        row.runnerUpFamily = families[1].family;
        row.margin = *families[1].score.simulatedStepS / *row.bestStepS - 1.0;
    }
}

} // namespace

SweepRow evaluatePoint(const SweepSpec& spec, const SweepPoint& point) {
    SweepRow row;
    row.point = point;
    try {
        FaultedScenario scenario = scenarioAt(spec, point);
        row.note = std::move(scenario.note);
        if (spec.search)
            searchPoint(*spec.search, scenario.scenario, row);
        const SimulationReport report = simulateScenarioReport(
            std::move(scenario.scenario), frontEndRunOptions(), ReportDetail::Summary);
        row.makespanS = report.makespanS;
        for (const LinkReport& link : report.links)
            row.maxLinkBytes = std::max(row.maxLinkBytes, link.bytes);
        double capacity = 0.0; // the fullest die's SRAM + HBM
        for (const DieReport& die : report.dies)
            if (die.memory) {
                if (die.memory->total() > row.peakMemoryBytes)
                    capacity = die.memory->sramCapacity + die.memory->hbmCapacity;
                row.peakMemoryBytes = std::max(row.peakMemoryBytes, die.memory->total());
                row.outOfMemory = row.outOfMemory || die.memory->outOfMemory();
            }
        if (report.step) {
            row.stepS = report.step->stepS;
            row.tokensPerSecond = report.step->tokensPerSecond;
            row.mfu = report.step->mfu;
            row.diesUsed = report.step->diesUsed;
            row.ppBubble = report.step->ppBubbleFraction;
        }
        row.ok = true;
        // A step that does not fit its dies' memory does not run: its figures are no
        // throughput to average (docs/cli.md section 10).
        if (row.outOfMemory && report.step) {
            row.error = "out of memory: " + formatBytes(row.peakMemoryBytes) + " per die against " +
                        formatBytes(capacity) + " of SRAM and HBM";
            row.ok = false;
            row.stepS.reset();
            row.tokensPerSecond.reset();
            row.mfu.reset();
            row.makespanS = row.maxLinkBytes = row.peakMemoryBytes = 0.0;
        }
    } catch (const std::bad_alloc&) {
        row.error = "out of memory while simulating this point";
    } catch (const std::exception& error) {
        row.error = error.what(); // the reader's, the planner's or the builder's sentence
    }
    if (!row.ok && !row.note.empty())
        row.error += " (after the faults: " + row.note + ")";
    return row;
}

void evaluatePointsInOrder(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                           int threads, const std::function<void(std::size_t, SweepRow&&)>& onRow) {
    // Workers take points in order; rows wait in `finished` until every earlier one is handed
    // over, so the output is the same for any number of threads.
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::condition_variable ready;
    std::map<std::size_t, SweepRow> finished; // by position in `points`; guarded by mutex
    const auto work = [&] {
        for (std::size_t i = next++; i < points.size(); i = next++) {
            SweepRow row = evaluatePoint(spec, points[i]);
            const std::lock_guard lock(mutex);
            finished.emplace(i, std::move(row));
            ready.notify_one();
        }
    };
    std::vector<std::jthread> workers;
    for (int t = 0; t < std::clamp(threads, 1, 256) && static_cast<std::size_t>(t) < points.size();
         ++t)
        workers.emplace_back(work);
    try {
        for (std::size_t handed = 0; handed < points.size(); ++handed) {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return finished.count(handed) > 0; });
            SweepRow row = std::move(finished.at(handed));
            finished.erase(handed);
            lock.unlock();
            onRow(handed, std::move(row));
        }
    } catch (...) {
        next = points.size(); // the caller failed: the workers stop after their current point
        throw;
    }
}

std::vector<SweepPoint> pointsToRun(const SweepSpec& spec,
                                    const std::function<bool(const SweepPoint&)>& skip) {
    std::vector<SweepPoint> todo;
    const std::size_t count = pointCount(spec);
    for (std::size_t index = 0; index < count; ++index) {
        SweepPoint point = pointAt(spec, index);
        if (!skip || !skip(point))
            todo.push_back(std::move(point));
    }
    return todo;
}

std::size_t runSweep(const SweepSpec& spec, const SweepRunOptions& options) {
    const std::vector<SweepPoint> todo = pointsToRun(spec, options.skip);
    evaluatePointsInOrder(spec, todo, options.threads, [&](std::size_t handed, SweepRow&& row) {
        if (options.onRow)
            options.onRow(row);
        if (options.progress)
            options.progress(handed + 1, todo.size());
    });
    return todo.size();
}

} // namespace ws
