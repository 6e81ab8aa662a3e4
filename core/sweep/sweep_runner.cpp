#include "sweep/sweep_runner.h"

#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace ws {

SweepRow evaluatePoint(const SweepSpec& spec, const SweepPoint& point) {
    SweepRow row;
    row.point = point;
    try {
        const Scenario scenario = parseScenario(scenarioJsonAt(spec, point), spec.baseDirectory);
        const SimulationReport report =
            simulateScenarioReport(scenario, frontEndRunOptions(), ReportDetail::Summary);
        row.makespanS = report.makespanS;
        for (const LinkReport& link : report.links)
            row.maxLinkBytes = std::max(row.maxLinkBytes, link.bytes);
        for (const DieReport& die : report.dies)
            if (die.memory) {
                row.peakMemoryBytes = std::max(row.peakMemoryBytes, die.memory->total());
                row.outOfMemory = row.outOfMemory || die.memory->outOfMemory();
            }
        if (report.step) {
            row.stepS = report.step->stepS;
            row.tokensPerSecond = report.step->tokensPerSecond;
            row.mfu = report.step->mfu;
        }
        row.ok = true;
    } catch (const std::bad_alloc&) {
        row.error = "out of memory while simulating this point";
    } catch (const std::exception& error) {
        row.error = error.what(); // the reader's, the planner's or the builder's sentence
    }
    return row;
}

std::size_t runSweep(const SweepSpec& spec, const SweepRunOptions& options) {
    std::vector<SweepPoint> todo;
    const std::size_t count = pointCount(spec);
    for (std::size_t index = 0; index < count; ++index) {
        SweepPoint point = pointAt(spec, index);
        if (!options.skip || !options.skip(point))
            todo.push_back(std::move(point));
    }
    // Workers take points in order; rows wait in `finished` until every earlier one is handed
    // over, so the output is the same for any number of threads.
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::condition_variable ready;
    std::map<std::size_t, SweepRow> finished; // by position in `todo`; guarded by mutex
    const auto work = [&] {
        for (std::size_t i = next++; i < todo.size(); i = next++) {
            SweepRow row = evaluatePoint(spec, todo[i]);
            const std::lock_guard lock(mutex);
            finished.emplace(i, std::move(row));
            ready.notify_one();
        }
    };
    const int threads = std::clamp(options.threads, 1, 256);
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads && static_cast<std::size_t>(t) < todo.size(); ++t)
        workers.emplace_back(work);
    try {
        for (std::size_t handed = 0; handed < todo.size(); ++handed) {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return finished.count(handed) > 0; });
            SweepRow row = std::move(finished.at(handed));
            finished.erase(handed);
            lock.unlock();
            if (options.onRow)
                options.onRow(row);
            if (options.progress)
                options.progress(handed + 1, todo.size());
        }
    } catch (...) {
        next = todo.size(); // the output failed: the workers stop after their current point
        throw;
    }
    return todo.size();
}

} // namespace ws
