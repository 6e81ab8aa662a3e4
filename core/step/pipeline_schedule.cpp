#include "step/pipeline_schedule.h"

#include <algorithm>
#include <stdexcept>

namespace ws {

namespace {

struct Pass {
    int microBatch;
    bool forward;
};

// Stage s's passes in 1F1B order.
std::vector<Pass> stageOrder(int stage, int stages, int microBatches) {
    const int warmUp = std::min(stages - stage - 1, microBatches);
    std::vector<Pass> order;
    for (int i = 0; i < warmUp; ++i)
        order.push_back({i, true});
    for (int i = 0; i + warmUp < microBatches; ++i) {
        order.push_back({i + warmUp, true});
        order.push_back({i, false});
    }
    for (int i = microBatches - warmUp; i < microBatches; ++i)
        order.push_back({i, false});
    return order;
}

} // namespace

PipelineSchedule schedule1F1B(const PipelineTimes& times) {
    const int p = times.stages;
    const int m = times.microBatches;
    const auto sized = [&](const std::vector<std::vector<double>>& byStage) {
        if (static_cast<int>(byStage.size()) != p)
            return false;
        return std::all_of(byStage.begin(), byStage.end(), [&](const std::vector<double>& row) {
            return static_cast<int>(row.size()) == m;
        });
    };
    if (p < 1 || m < 1 || !sized(times.forwardS) || !sized(times.backwardS))
        throw std::invalid_argument("schedule1F1B: times must be stages x micro-batches");

    constexpr double kNotYet = -1.0;
    const auto index = [&](int stage, int microBatch) {
        return static_cast<std::size_t>(stage) * static_cast<std::size_t>(m) +
               static_cast<std::size_t>(microBatch);
    };
    std::vector<double> forwardEnd(index(p, 0), kNotYet);
    std::vector<double> backwardEnd(index(p, 0), kNotYet);
    std::vector<std::vector<Pass>> order;
    for (int s = 0; s < p; ++s)
        order.push_back(stageOrder(s, p, m));
    std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
    std::vector<double> free(static_cast<std::size_t>(p), 0.0);
    std::vector<double> busy(static_cast<std::size_t>(p), 0.0);

    PipelineSchedule schedule;
    // Each sweep runs every stage's next passes whose inputs are ready; the dependencies are
    // acyclic, so every sweep schedules at least one pass.
    std::size_t scheduled = 0;
    const std::size_t total = 2 * static_cast<std::size_t>(p) * static_cast<std::size_t>(m);
    while (scheduled < total) {
        const std::size_t before = scheduled;
        for (int s = 0; s < p; ++s) {
            auto& cursor = next[static_cast<std::size_t>(s)];
            while (cursor < order[static_cast<std::size_t>(s)].size()) {
                const Pass pass = order[static_cast<std::size_t>(s)][cursor];
                double readyS = 0.0;
                if (pass.forward && s > 0) {
                    const double inputS = forwardEnd[index(s - 1, pass.microBatch)];
                    if (inputS == kNotYet)
                        break;
                    readyS = inputS + times.forwardSendS;
                } else if (!pass.forward) {
                    const double inputS = s + 1 < p ? backwardEnd[index(s + 1, pass.microBatch)]
                                                    : forwardEnd[index(s, pass.microBatch)];
                    if (inputS == kNotYet)
                        break;
                    readyS = inputS + (s + 1 < p ? times.backwardSendS : 0.0);
                }
                const auto stage = static_cast<std::size_t>(s);
                const auto i = static_cast<std::size_t>(pass.microBatch);
                const double durationS =
                    pass.forward ? times.forwardS[stage][i] : times.backwardS[stage][i];
                const double startS = std::max(readyS, free[stage]);
                const double endS = startS + durationS;
                (pass.forward ? forwardEnd : backwardEnd)[index(s, pass.microBatch)] = endS;
                free[stage] = endS;
                busy[stage] += durationS;
                schedule.passes.push_back({s, pass.microBatch, pass.forward, startS, endS});
                schedule.makespanS = std::max(schedule.makespanS, endS);
                ++cursor;
                ++scheduled;
            }
        }
        if (scheduled == before)
            throw std::logic_error("schedule1F1B: no pass could run"); // unreachable for 1F1B
    }
    if (schedule.makespanS > 0.0) {
        double idle = 0.0;
        for (double stageBusy : busy)
            idle += (schedule.makespanS - stageBusy) / schedule.makespanS;
        schedule.bubbleFraction = idle / p;
    }
    return schedule;
}

} // namespace ws
