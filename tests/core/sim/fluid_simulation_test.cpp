// FluidSimulation paused, copied and finished on a variant of its problem (other links for some
// flows not yet started) must give exactly what simulate(variant) gives.
#include "sim/fluid_simulation.h"
#include "sim/fluid_simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace ws {
namespace {

constexpr double kB = 1e9;    // bytes/s
constexpr double kA = 100e-9; // s per hop
constexpr double kMB = 1e6;   // bytes
constexpr double kMs = 1e-3;  // s

void expectSameResult(const SimResult& a, const SimResult& b) {
    EXPECT_EQ(a.makespanS, b.makespanS);
    EXPECT_EQ(a.linkBytes, b.linkBytes);
    EXPECT_EQ(a.linkBusyS, b.linkBusyS);
    EXPECT_EQ(a.dieComputeS, b.dieComputeS);
    EXPECT_EQ(a.rateRecomputations, b.rateRecomputations);
    ASSERT_EQ(a.tasks.size(), b.tasks.size());
    for (std::size_t t = 0; t < a.tasks.size(); ++t) {
        EXPECT_EQ(a.tasks[t].readyS, b.tasks[t].readyS) << "task " << t;
        EXPECT_EQ(a.tasks[t].startS, b.tasks[t].startS) << "task " << t;
        EXPECT_EQ(a.tasks[t].lastByteS, b.tasks[t].lastByteS) << "task " << t;
        EXPECT_EQ(a.tasks[t].endS, b.tasks[t].endS) << "task " << t;
    }
}

std::vector<LinkId> randomRoute(std::mt19937& random, int links) {
    std::uniform_int_distribution<int> linkPick(0, links - 1);
    const int count = std::uniform_int_distribution<int>(1, 4)(random);
    std::vector<LinkId> route;
    while (static_cast<int>(route.size()) < count) {
        const LinkId link = linkPick(random);
        if (std::find(route.begin(), route.end(), link) == route.end())
            route.push_back(link);
    }
    return route;
}

// Flows over a few shared links and compute on a few dies, chained by random dependencies on
// earlier tasks, some with earliest starts.
SimProblem randomProblem(unsigned seed, int tasks, int links, int dies) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> size(0.1 * kMB, 4 * kMB);
    std::uniform_real_distribution<double> start(0.0, 3 * kMs);
    std::bernoulli_distribution isCompute(0.3), hasDep(0.6), hasStart(0.2);
    SimProblem problem;
    problem.linkBandwidth.assign(static_cast<std::size_t>(links), kB);
    problem.hopLatencyS = kA;
    problem.dieCount = dies;
    for (int t = 0; t < tasks; ++t) {
        SimTask task;
        if (isCompute(random)) {
            task.kind = SimTask::Kind::Compute;
            task.die = std::uniform_int_distribution<int>(0, dies - 1)(random);
            task.seconds = size(random) / kB;
        } else {
            task.kind = SimTask::Kind::Flow;
            task.bytes = size(random);
            task.links = randomRoute(random, links);
            task.hops = static_cast<int>(task.links.size());
        }
        if (t > 0 && hasDep(random))
            task.deps.push_back(std::uniform_int_distribution<int>(0, t - 1)(random));
        if (hasStart(random))
            task.earliestStartS = start(random);
        problem.tasks.push_back(task);
    }
    return problem;
}

// Forks a run of `problem` where the first of `changed` becomes ready and finishes it on
// `variant`; also forks at time 0 (nothing run yet).
void expectForksMatch(const SimProblem& problem, const SimProblem& variant,
                      const std::vector<TaskId>& changed) {
    const SimResult base = simulate(problem);
    const SimResult expected = simulate(variant);
    double readyS = std::numeric_limits<double>::infinity();
    for (TaskId task : changed)
        readyS = std::min(readyS, base.tasks[static_cast<std::size_t>(task)].readyS);
    for (double forkAt : {readyS, 0.0}) {
        FluidSimulation run(problem);
        run.runUntil(forkAt);
        ASSERT_TRUE(run.untouched(changed));
        FluidSimulation fork = run;
        fork.switchTo(variant, changed);
        fork.runToEnd();
        expectSameResult(fork.result(), expected);
        // The original, run on, is unaffected by its fork.
        run.runToEnd();
        expectSameResult(run.result(), base);
    }
}

TEST(FluidSimulation, RunToEndIsSimulate) {
    const SimProblem problem = randomProblem(7, 200, 10, 3);
    FluidSimulation run(problem);
    run.runToEnd();
    EXPECT_TRUE(run.finished());
    expectSameResult(run.result(), simulate(problem));
}

// A graph built once and shared by several runs (TCME's re-simulations) changes nothing.
TEST(FluidSimulation, ASharedTaskGraphGivesTheSameResult) {
    const SimProblem problem = randomProblem(11, 200, 10, 3);
    const auto graph = std::make_shared<const TaskGraph>(TaskGraph::build(problem));
    expectSameResult(simulate(problem, graph), simulate(problem));
    FluidSimulation first(problem, graph);
    first.runUntil(kMs);
    FluidSimulation copy = first; // shares the graph
    first.runToEnd();
    copy.runToEnd();
    expectSameResult(copy.result(), first.result());
    expectSameResult(first.result(), simulate(problem));
}

TEST(FluidSimulation, ForkFinishedOnAReroutedVariantIsSimulateOfTheVariant) {
    for (unsigned seed = 1; seed <= 8; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const SimProblem problem = randomProblem(seed, 300, 12, 4);
        std::mt19937 random(seed + 100);
        SimProblem variant = problem;
        std::vector<TaskId> changed;
        // Reroute a few flows from the second half, as TCME would.
        for (std::size_t t = problem.tasks.size() / 2; t < problem.tasks.size(); t += 37) {
            SimTask& task = variant.tasks[t];
            if (task.kind != SimTask::Kind::Flow)
                continue;
            task.links = randomRoute(random, 12);
            task.hops = static_cast<int>(task.links.size()) + 1;
            changed.push_back(static_cast<TaskId>(t));
        }
        ASSERT_FALSE(changed.empty());
        expectForksMatch(problem, variant, changed);
    }
}

TEST(FluidSimulation, CopyAssignmentReusesAFork) {
    SimProblem problem = randomProblem(3, 200, 8, 2);
    SimTask lastFlow; // after everything else: not ready at 1 ms
    lastFlow.kind = SimTask::Kind::Flow;
    lastFlow.bytes = kMB;
    lastFlow.links = {3};
    lastFlow.hops = 1;
    for (std::size_t t = 0; t < problem.tasks.size(); ++t)
        lastFlow.deps.push_back(static_cast<TaskId>(t));
    problem.tasks.push_back(lastFlow);
    const auto last = static_cast<TaskId>(problem.tasks.size() - 1);
    SimProblem variant = problem;
    variant.tasks.back().links = {0, 1, 2};
    variant.tasks.back().hops = 3;
    FluidSimulation run(problem);
    FluidSimulation fork = run;
    run.runUntil(kMs);
    fork = run; // into an existing simulation
    fork.switchTo(variant, std::vector<TaskId>{last});
    fork.runToEnd();
    expectSameResult(fork.result(), simulate(variant));
}

TEST(FluidSimulation, SwitchToRefusesATaskAlreadyStarted) {
    SimProblem problem;
    problem.linkBandwidth.assign(2, kB);
    problem.hopLatencyS = kA;
    SimTask flow;
    flow.kind = SimTask::Kind::Flow;
    flow.bytes = kMB;
    flow.links = {0};
    flow.hops = 1;
    problem.tasks = {flow, flow};
    problem.tasks[1].deps = {0};
    SimProblem firstMoved = problem;
    firstMoved.tasks[0].links = {1};
    SimProblem secondMoved = problem;
    secondMoved.tasks[1].links = {1};

    FluidSimulation run(problem);
    run.runUntil(0.5 * kMs); // task 0 is sending, task 1 waits for it
    EXPECT_FALSE(run.untouched(std::vector<TaskId>{0}));
    EXPECT_TRUE(run.untouched(std::vector<TaskId>{1}));
    FluidSimulation late = run;
    EXPECT_THROW(late.switchTo(firstMoved, std::vector<TaskId>{0}), std::logic_error);
    FluidSimulation fine = run;
    fine.switchTo(secondMoved, std::vector<TaskId>{1});
    fine.runToEnd();
    expectSameResult(fine.result(), simulate(secondMoved));
}

TEST(FluidSimulation, SwitchToChecksTheChangedTasksAsSimulateWould) {
    SimProblem problem;
    problem.linkBandwidth.assign(3, kB);
    SimTask flow;
    flow.kind = SimTask::Kind::Flow;
    flow.bytes = kMB;
    flow.links = {0};
    flow.hops = 1;
    problem.tasks = {flow};
    SimProblem twice = problem;
    twice.tasks[0].links = {1, 1};
    SimProblem outOfRange = problem;
    outOfRange.tasks[0].links = {7};
    for (const SimProblem* variant : {&twice, &outOfRange}) {
        EXPECT_THROW(simulate(*variant), std::invalid_argument);
        FluidSimulation run(problem);
        EXPECT_THROW(run.switchTo(*variant, std::vector<TaskId>{0}), std::invalid_argument);
    }
}

} // namespace
} // namespace ws
