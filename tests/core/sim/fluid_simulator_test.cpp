#include "sim/fluid_simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace ws {
namespace {

// Times are checked to a relative error of 1e-9 against hand-derived closed forms.
double tol(double expected) {
    return 1e-9 * std::abs(expected) + 1e-18;
}
#define EXPECT_TIME(actual, expected) EXPECT_NEAR((actual), (expected), tol(expected))

constexpr double kB = 1e9;    // bytes/s: 1 MB takes 1 ms alone
constexpr double kA = 100e-9; // s per hop
constexpr double kMB = 1e6;   // bytes
constexpr double kMs = 1e-3;  // s

SimProblem makeProblem(int linkCount, double bandwidth = kB, double latency = kA, int dies = 1) {
    SimProblem problem;
    problem.linkBandwidth.assign(static_cast<std::size_t>(linkCount), bandwidth);
    problem.hopLatencyS = latency;
    problem.dieCount = dies;
    return problem;
}

TaskId addFlow(SimProblem& problem, double bytes, std::vector<LinkId> links, int hops = -1,
               std::vector<TaskId> deps = {}, double earliestStartS = 0.0) {
    SimTask task;
    task.kind = SimTask::Kind::Flow;
    task.bytes = bytes;
    task.hops = hops >= 0 ? hops : static_cast<int>(links.size());
    task.links = std::move(links);
    task.deps = std::move(deps);
    task.earliestStartS = earliestStartS;
    problem.tasks.push_back(task);
    return static_cast<TaskId>(problem.tasks.size() - 1);
}

TaskId addCompute(SimProblem& problem, DieId die, double seconds, std::vector<TaskId> deps = {},
                  double earliestStartS = 0.0) {
    SimTask task;
    task.kind = SimTask::Kind::Compute;
    task.die = die;
    task.seconds = seconds;
    task.deps = std::move(deps);
    task.earliestStartS = earliestStartS;
    problem.tasks.push_back(task);
    return static_cast<TaskId>(problem.tasks.size() - 1);
}

TaskId addBarrier(SimProblem& problem, std::vector<TaskId> deps, double earliestStartS = 0.0) {
    SimTask task;
    task.kind = SimTask::Kind::Barrier;
    task.deps = std::move(deps);
    task.earliestStartS = earliestStartS;
    problem.tasks.push_back(task);
    return static_cast<TaskId>(problem.tasks.size() - 1);
}

const TaskTiming& timing(const SimResult& result, TaskId id) {
    return result.tasks.at(static_cast<std::size_t>(id));
}

TEST(FluidSimulator, EmptyProblemHasZeroMakespan) {
    const SimResult result = simulate(makeProblem(3, kB, kA, 2));
    EXPECT_EQ(result.makespanS, 0.0);
    EXPECT_TRUE(result.tasks.empty());
    EXPECT_EQ(result.linkBytes, std::vector<double>(3, 0.0));
    EXPECT_EQ(result.linkBusyS, std::vector<double>(3, 0.0));
    EXPECT_EQ(result.dieComputeS, std::vector<double>(2, 0.0));
}

TEST(FluidSimulator, SingleFlowTakesSizeOverBandwidthPlusHopLatency) {
    SimProblem problem = makeProblem(4, 4e12, 200e-9);
    const double bytes = 64.0 * 1024 * 1024;
    const TaskId flow = addFlow(problem, bytes, {0, 1, 2}, 3);
    const SimResult result = simulate(problem);
    const double lastByte = bytes / 4e12;
    EXPECT_EQ(timing(result, flow).readyS, 0.0);
    EXPECT_EQ(timing(result, flow).startS, 0.0);
    EXPECT_TIME(timing(result, flow).lastByteS, lastByte);
    EXPECT_TIME(timing(result, flow).endS, lastByte + 3 * 200e-9);
    EXPECT_TIME(result.makespanS, lastByte + 3 * 200e-9);
    EXPECT_GE(result.rateRecomputations, 1);
}

TEST(FluidSimulator, TwoEqualFlowsOnOneLinkMatchTheHeaderExample) {
    SimProblem problem = makeProblem(1);
    const TaskId a = addFlow(problem, kMB, {0});
    const TaskId b = addFlow(problem, kMB, {0});
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, a).endS, 2 * kMs + kA);
    EXPECT_TIME(timing(result, b).endS, 2 * kMs + kA);
    // One solve when both start, one when both finish (a single batch).
    EXPECT_EQ(result.rateRecomputations, 2);
}

TEST(FluidSimulator, TwoFlowsShareALinkThenTheLargerSpeedsUp) {
    SimProblem problem = makeProblem(1);
    const TaskId small = addFlow(problem, 1 * kMB, {0});
    const TaskId large = addFlow(problem, 3 * kMB, {0});
    const SimResult result = simulate(problem);
    // B/2 each: the small one is done at 2 ms; the large one has 2 MB left at full rate.
    EXPECT_TIME(timing(result, small).lastByteS, 2 * kMs);
    EXPECT_TIME(timing(result, large).lastByteS, 4 * kMs);
    EXPECT_TIME(timing(result, large).endS, 4 * kMs + kA);
}

TEST(FluidSimulator, ThreeFlowsShareALinkAndSpeedUpAsEachFinishes) {
    SimProblem problem = makeProblem(1);
    const TaskId f1 = addFlow(problem, 1 * kMB, {0});
    const TaskId f2 = addFlow(problem, 2 * kMB, {0});
    const TaskId f3 = addFlow(problem, 3 * kMB, {0});
    const SimResult result = simulate(problem);
    // B/3 each until f1 is done (1 MB at 1/3 GB/s = 3 ms); then f2 (1 MB left) and f3 (2 MB
    // left) get B/2: f2 at 5 ms; then f3 (1 MB left) alone: 6 ms = total bytes / B.
    EXPECT_TIME(timing(result, f1).lastByteS, 3 * kMs);
    EXPECT_TIME(timing(result, f2).lastByteS, 5 * kMs);
    EXPECT_TIME(timing(result, f3).lastByteS, 6 * kMs);
}

TEST(FluidSimulator, ParkingLotGivesUnequalMaxMinRates) {
    // L1 (link 0) and L2 (link 1) in a chain: A crosses both, B only L1, C and D only L2.
    SimProblem problem = makeProblem(2, kB, 0.0);
    const TaskId a = addFlow(problem, 1 * kMB, {0, 1});
    const TaskId b = addFlow(problem, 1 * kMB, {0});
    const TaskId c = addFlow(problem, 0.25 * kMB, {1});
    const TaskId d = addFlow(problem, 1 * kMB, {1});
    const SimResult result = simulate(problem);
    // L2 is the bottleneck: A, C, D get B/3, B the rest of L1: 2B/3.
    // C is done at 0.25 MB / (B/3) = 0.75 ms; A and D have 0.75 MB left, B 0.5 MB.
    // Then L1 = {A, B} and L2 = {A, D} both give B/2: B is done at 0.75 + 1 = 1.75 ms, when A
    // and D have 0.25 MB left; L2 still splits in two: A and D are done at 2.25 ms.
    EXPECT_TIME(timing(result, c).lastByteS, 0.75 * kMs);
    EXPECT_TIME(timing(result, b).lastByteS, 1.75 * kMs);
    EXPECT_TIME(timing(result, a).lastByteS, 2.25 * kMs);
    EXPECT_TIME(timing(result, d).lastByteS, 2.25 * kMs);
}

TEST(FluidSimulator, MulticastTreeIsLimitedByItsSlowestLink) {
    SimProblem problem = makeProblem(3);
    problem.linkBandwidth[1] = kB / 2;
    const TaskId tree = addFlow(problem, 1 * kMB, {0, 1, 2}, 2);
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, tree).lastByteS, 2 * kMs);
    EXPECT_TIME(timing(result, tree).endS, 2 * kMs + 2 * kA);
    // A tree crosses each of its links once: each carries the flow's bytes once.
    EXPECT_EQ(result.linkBytes, std::vector<double>(3, kMB));
    EXPECT_TIME(result.linkBusyS[1], 2 * kMs);
    EXPECT_TIME(result.linkBusyS[0], 1 * kMs);
}

TEST(FluidSimulator, MulticastTreeSharesOneBranchWithAUnicast) {
    SimProblem problem = makeProblem(3);
    const TaskId tree = addFlow(problem, 2 * kMB, {0, 1, 2}, 2);
    const TaskId unicast = addFlow(problem, 1 * kMB, {1}, 1);
    const SimResult result = simulate(problem);
    // Link 1 splits in two: the unicast is done at 2 ms, the tree then has 1 MB left at B.
    EXPECT_TIME(timing(result, unicast).lastByteS, 2 * kMs);
    EXPECT_TIME(timing(result, tree).lastByteS, 3 * kMs);
    EXPECT_TIME(timing(result, tree).endS, 3 * kMs + 2 * kA);
}

TEST(FluidSimulator, DependentFlowStartsWhenItsDependencyIsDelivered) {
    SimProblem problem = makeProblem(4);
    const TaskId first = addFlow(problem, 1 * kMB, {0, 1}, 2);
    const TaskId second = addFlow(problem, 2 * kMB, {2, 3}, 2, {first});
    const SimResult result = simulate(problem);
    const double delivered = 1 * kMs + 2 * kA;
    EXPECT_TIME(timing(result, first).endS, delivered);
    EXPECT_TIME(timing(result, second).readyS, delivered);
    EXPECT_TIME(timing(result, second).startS, delivered);
    EXPECT_TIME(timing(result, second).lastByteS, delivered + 2 * kMs);
    EXPECT_TIME(timing(result, second).endS, delivered + 2 * kMs + 2 * kA);
    EXPECT_TIME(result.makespanS, delivered + 2 * kMs + 2 * kA);
}

TEST(FluidSimulator, LatencyDoesNotOccupyBandwidth) {
    // The second flow reuses the first one's link as soon as its last byte has left, not when
    // it has been delivered: it only waits for a zero-byte signal sent after the first flow.
    SimProblem problem = makeProblem(1, kB, 1 * kMs);
    const TaskId a = addFlow(problem, 1 * kMB, {0}, 1);
    const TaskId b = addFlow(problem, 1 * kMB, {0}, 1, {}, 1 * kMs);
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, a).lastByteS, 1 * kMs);
    EXPECT_TIME(timing(result, a).endS, 2 * kMs);
    EXPECT_TIME(timing(result, b).lastByteS, 2 * kMs);
    EXPECT_TIME(timing(result, b).endS, 3 * kMs);
}

TEST(FluidSimulator, ZeroByteFlowIsDeliveredAfterItsLatency) {
    SimProblem problem = makeProblem(2);
    const TaskId before = addFlow(problem, 1 * kMB, {0}, 1);
    const TaskId signal = addFlow(problem, 0.0, {}, 5, {before});
    const TaskId noLinks = addFlow(problem, 0.0, {}, 0);
    const SimResult result = simulate(problem);
    const double ready = 1 * kMs + kA;
    EXPECT_TIME(timing(result, signal).readyS, ready);
    EXPECT_TIME(timing(result, signal).lastByteS, ready);
    EXPECT_TIME(timing(result, signal).endS, ready + 5 * kA);
    EXPECT_EQ(timing(result, noLinks).endS, 0.0);
}

TEST(FluidSimulator, EarliestStartDelaysReadiness) {
    SimProblem problem = makeProblem(1);
    const TaskId early = addFlow(problem, 1 * kMB, {0});
    const TaskId late = addFlow(problem, 1 * kMB, {0}, -1, {}, 0.5 * kMs);
    // Dependency delivered after its own earliest start: ready at the delivery.
    const TaskId afterEarly = addFlow(problem, 0.0, {}, 0, {early}, 0.1 * kMs);
    // Earliest start after the dependency's delivery: ready at the earliest start.
    const TaskId waits = addFlow(problem, 0.0, {}, 0, {early}, 10 * kMs);
    const SimResult result = simulate(problem);
    // Alone for 0.5 ms (0.5 MB sent), then B/2 each: the early one is done at 1.5 ms, the late
    // one then has 0.5 MB left at B: 2 ms.
    EXPECT_TIME(timing(result, late).readyS, 0.5 * kMs);
    EXPECT_TIME(timing(result, early).lastByteS, 1.5 * kMs);
    EXPECT_TIME(timing(result, late).lastByteS, 2 * kMs);
    EXPECT_TIME(timing(result, afterEarly).readyS, 1.5 * kMs + kA);
    EXPECT_TIME(timing(result, waits).readyS, 10 * kMs);
    EXPECT_TIME(result.makespanS, 10 * kMs);
}

TEST(FluidSimulator, ComputeTasksQueueOnTheirDieFirstReadyFirstRun) {
    SimProblem problem = makeProblem(1, kB, kA, 2);
    const TaskId first = addCompute(problem, 0, 2.0);
    const TaskId lateLowId = addCompute(problem, 0, 4.0, {}, 0.5); // ready at 0.5 s
    const TaskId second = addCompute(problem, 0, 1.0);             // ready at 0
    const TaskId otherDie = addCompute(problem, 1, 3.0);
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, first).startS, 0.0);
    EXPECT_TIME(timing(result, first).endS, 2.0);
    // Ready at 0, before lateLowId (0.5 s), although its TaskId is higher.
    EXPECT_TIME(timing(result, second).startS, 2.0);
    EXPECT_TIME(timing(result, second).endS, 3.0);
    EXPECT_TIME(timing(result, lateLowId).readyS, 0.5);
    EXPECT_TIME(timing(result, lateLowId).startS, 3.0);
    EXPECT_TIME(timing(result, lateLowId).endS, 7.0);
    EXPECT_TIME(timing(result, otherDie).startS, 0.0);
    EXPECT_TIME(timing(result, otherDie).endS, 3.0);
    EXPECT_TIME(result.dieComputeS[0], 7.0);
    EXPECT_TIME(result.dieComputeS[1], 3.0);
    EXPECT_TIME(result.makespanS, 7.0);
}

TEST(FluidSimulator, ComputeTasksReadyTogetherRunInTaskIdOrder) {
    SimProblem problem = makeProblem(1, kB, 0.0, 1);
    // Task 1 becomes ready at 0 through a zero-byte flow, after task 2's own readiness was
    // handled; the die still takes the lower TaskId first.
    const TaskId signal = addFlow(problem, 0.0, {}, 0);
    const TaskId lowId = addCompute(problem, 0, 1.0, {signal});
    const TaskId highId = addCompute(problem, 0, 2.0);
    const SimResult result = simulate(problem);
    EXPECT_EQ(timing(result, lowId).startS, 0.0);
    EXPECT_TIME(timing(result, highId).startS, 1.0);
    EXPECT_TIME(timing(result, highId).endS, 3.0);
}

TEST(FluidSimulator, ComputeAndFlowsChain) {
    SimProblem problem = makeProblem(1, kB, kA, 2);
    const TaskId produce = addCompute(problem, 0, 1 * kMs);
    const TaskId send = addFlow(problem, 1 * kMB, {0}, 1, {produce});
    const TaskId consume = addCompute(problem, 1, 2 * kMs, {send});
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, send).startS, 1 * kMs);
    EXPECT_TIME(timing(result, consume).startS, 2 * kMs + kA);
    EXPECT_TIME(timing(result, consume).endS, 4 * kMs + kA);
    EXPECT_TIME(timing(result, consume).lastByteS, 4 * kMs + kA);
}

TEST(FluidSimulator, BarrierCompletesWithItsLastDependency) {
    SimProblem problem = makeProblem(2);
    const TaskId a = addFlow(problem, 1 * kMB, {0}, 1);
    const TaskId b = addFlow(problem, 3 * kMB, {1}, 1);
    const TaskId barrier = addBarrier(problem, {a, b});
    const TaskId delayed = addBarrier(problem, {a}, 5 * kMs);
    const TaskId empty = addBarrier(problem, {});
    const SimResult result = simulate(problem);
    const double bDone = 3 * kMs + kA;
    EXPECT_TIME(timing(result, barrier).readyS, bDone);
    EXPECT_TIME(timing(result, barrier).startS, bDone);
    EXPECT_TIME(timing(result, barrier).lastByteS, bDone);
    EXPECT_TIME(timing(result, barrier).endS, bDone);
    EXPECT_TIME(timing(result, delayed).endS, 5 * kMs);
    EXPECT_EQ(timing(result, empty).endS, 0.0);
}

TEST(FluidSimulator, ChainOfBarriersResolvesInOneBatch) {
    SimProblem problem = makeProblem(1);
    TaskId previous = addFlow(problem, 1 * kMB, {0}, 0);
    for (int i = 0; i < 10'000; ++i) {
        previous = addBarrier(problem, {previous});
    }
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, previous).endS, 1 * kMs);
    EXPECT_EQ(result.rateRecomputations, 2);
}

TEST(FluidSimulator, LinkBytesAndBusyTime) {
    SimProblem problem = makeProblem(3);
    problem.linkBandwidth[2] = 2 * kB;
    addFlow(problem, 1 * kMB, {0, 1});
    addFlow(problem, 2 * kMB, {1, 2});
    addFlow(problem, 0.0, {2}, 1);
    const SimResult result = simulate(problem);
    EXPECT_EQ(result.linkBytes, (std::vector<double>{1 * kMB, 3 * kMB, 2 * kMB}));
    EXPECT_TIME(result.linkBusyS[0], 1 * kMs);
    EXPECT_TIME(result.linkBusyS[1], 3 * kMs);
    EXPECT_TIME(result.linkBusyS[2], 1 * kMs);
}

TEST(FluidSimulator, NearlySimultaneousFinishesFormOneBatch) {
    SimProblem problem = makeProblem(4);
    for (int i = 0; i < 4; ++i) {
        // Sizes differing in the 14th digit: floating-point noise, not a real ordering.
        addFlow(problem, kMB * (1 + i * 1e-14), {i}, 1);
    }
    const SimResult result = simulate(problem);
    EXPECT_EQ(result.rateRecomputations, 2);
    for (TaskId t = 0; t < 4; ++t) {
        EXPECT_EQ(timing(result, t).lastByteS, timing(result, 0).lastByteS);
    }
}

TEST(FluidSimulator, IndependentFlowsDoNotShareSolves) {
    SimProblem problem = makeProblem(2);
    const TaskId a = addFlow(problem, 1 * kMB, {0});
    const TaskId b = addFlow(problem, 1 * kMB, {1}, -1, {}, 0.25 * kMs);
    const SimResult result = simulate(problem);
    EXPECT_TIME(timing(result, a).lastByteS, 1 * kMs);
    EXPECT_TIME(timing(result, b).lastByteS, 1.25 * kMs);
}

void expectInvalid(const SimProblem& problem, const std::string& fragment) {
    try {
        simulate(problem);
        ADD_FAILURE() << "expected std::invalid_argument containing '" << fragment << "'";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
}

TEST(FluidSimulator, RejectsDependencyCycles) {
    SimProblem problem = makeProblem(1);
    addFlow(problem, 1 * kMB, {0}, 1, {2});
    addFlow(problem, 1 * kMB, {0}, 1, {0});
    addBarrier(problem, {1});
    addBarrier(problem, {2}); // behind the cycle, not on it
    expectInvalid(problem, "cycle");

    SimProblem self = makeProblem(1);
    addBarrier(self, {0});
    expectInvalid(self, "cycle through task 0");
}

TEST(FluidSimulator, RejectsBadDependencyIndices) {
    SimProblem problem = makeProblem(1);
    addBarrier(problem, {1});
    expectInvalid(problem, "dependency 1 out of range");
    problem.tasks[0].deps = {-1};
    expectInvalid(problem, "dependency -1 out of range");
}

TEST(FluidSimulator, RejectsAFlowWithBytesButNoLinks) {
    SimProblem problem = makeProblem(1);
    addFlow(problem, 1 * kMB, {}, 0);
    expectInvalid(problem, "crosses no link");
}

TEST(FluidSimulator, RejectsZeroBandwidthOnAUsedLink) {
    SimProblem problem = makeProblem(2);
    problem.linkBandwidth[1] = 0.0;
    addFlow(problem, 1 * kMB, {0}); // link 1 unused: fine
    EXPECT_NO_THROW(simulate(problem));
    addFlow(problem, 1 * kMB, {0, 1});
    expectInvalid(problem, "link 1 has no bandwidth");
}

TEST(FluidSimulator, RejectsOtherMalformedTasks) {
    SimProblem outOfRange = makeProblem(2);
    addFlow(outOfRange, 1 * kMB, {2});
    expectInvalid(outOfRange, "link 2 out of range");

    SimProblem twice = makeProblem(2);
    addFlow(twice, 1 * kMB, {0, 1, 0});
    expectInvalid(twice, "listed twice");

    SimProblem badDie = makeProblem(1, kB, kA, 2);
    addCompute(badDie, 2, 1.0);
    expectInvalid(badDie, "die 2 out of range");

    SimProblem negative = makeProblem(1);
    addFlow(negative, -1.0, {0});
    expectInvalid(negative, "bytes");

    SimProblem nanStart = makeProblem(1);
    addBarrier(nanStart, {}, std::numeric_limits<double>::quiet_NaN());
    expectInvalid(nanStart, "earliestStartS");
}

TEST(FluidSimulator, CancelStopsTheRun) {
    SimProblem problem = makeProblem(1);
    TaskId previous = addFlow(problem, 1 * kMB, {0});
    for (int i = 0; i < 100; ++i) {
        previous = addFlow(problem, 1 * kMB, {0}, 1, {previous});
    }
    int polls = 0;
    const auto cancelAfterTen = [&polls] { return ++polls > 10; };
    EXPECT_THROW(
        {
            try {
                simulate(problem, cancelAfterTen);
            } catch (const std::runtime_error& error) {
                EXPECT_STREQ(error.what(), "cancelled");
                throw;
            }
        },
        std::runtime_error);
    EXPECT_EQ(polls, 11);

    int neverPolls = 0;
    const SimResult result = simulate(problem, [&neverPolls] { return ++neverPolls < 0; });
    EXPECT_GT(neverPolls, 100);
    EXPECT_TIME(result.makespanS, 101 * (1 * kMs + kA));
}

// A deliberately naive reference: every event re-solves every active flow's max-min rate by
// textbook progressive filling (raise all unfrozen rates together until a link fills), with no
// batching and no components. The simulator must agree with it to 1e-9.
std::vector<double> referenceEndTimes(const SimProblem& problem) {
    const std::size_t n = problem.tasks.size();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> readyAt(n, inf), endAt(n, inf), remaining(n, 0.0), rate(n, 0.0);
    std::vector<int> state(n, 0); // 0 waiting, 1 sending, 2 in flight, 3 done
    std::vector<double> lastByte(n, inf);
    for (std::size_t t = 0; t < n; ++t) {
        remaining[t] = problem.tasks[t].bytes;
    }
    double now = 0.0;
    while (true) {
        for (std::size_t t = 0; t < n; ++t) {
            if (state[t] != 0) {
                continue;
            }
            double ready = problem.tasks[t].earliestStartS;
            bool met = true;
            for (const TaskId d : problem.tasks[t].deps) {
                met = met && state[static_cast<std::size_t>(d)] == 3;
                if (met) {
                    ready = std::max(ready, endAt[static_cast<std::size_t>(d)]);
                }
            }
            readyAt[t] = met ? ready : inf;
        }
        // Progressive filling over the sending flows.
        std::vector<double> capacity = problem.linkBandwidth;
        std::vector<bool> frozen(n, true);
        for (std::size_t t = 0; t < n; ++t) {
            if (state[t] == 1) {
                frozen[t] = false;
                rate[t] = 0.0;
            }
        }
        while (true) {
            std::vector<int> unfrozenOn(capacity.size(), 0);
            for (std::size_t t = 0; t < n; ++t) {
                if (!frozen[t]) {
                    for (const LinkId l : problem.tasks[t].links) {
                        ++unfrozenOn[static_cast<std::size_t>(l)];
                    }
                }
            }
            double raise = inf;
            for (std::size_t l = 0; l < capacity.size(); ++l) {
                if (unfrozenOn[l] > 0) {
                    raise = std::min(raise, capacity[l] / unfrozenOn[l]);
                }
            }
            if (raise == inf) {
                break;
            }
            for (std::size_t t = 0; t < n; ++t) {
                if (!frozen[t]) {
                    rate[t] += raise;
                    for (const LinkId l : problem.tasks[t].links) {
                        capacity[static_cast<std::size_t>(l)] -= raise;
                    }
                }
            }
            for (std::size_t t = 0; t < n; ++t) {
                if (!frozen[t]) {
                    for (const LinkId l : problem.tasks[t].links) {
                        if (capacity[static_cast<std::size_t>(l)] <=
                            1e-9 * problem.linkBandwidth[static_cast<std::size_t>(l)]) {
                            frozen[t] = true;
                        }
                    }
                }
            }
        }
        double next = inf;
        for (std::size_t t = 0; t < n; ++t) {
            if (state[t] == 0) {
                next = std::min(next, readyAt[t]);
            } else if (state[t] == 1) {
                next = std::min(next, now + remaining[t] / rate[t]);
            } else if (state[t] == 2) {
                next = std::min(next, endAt[t]);
            }
        }
        if (next == inf) {
            break;
        }
        for (std::size_t t = 0; t < n; ++t) {
            if (state[t] == 1) {
                remaining[t] -= rate[t] * (next - now);
            }
        }
        now = next;
        for (std::size_t t = 0; t < n; ++t) {
            const SimTask& task = problem.tasks[t];
            if (state[t] == 0 && readyAt[t] <= now) {
                state[t] = task.bytes > 0.0 ? 1 : 2;
                if (state[t] == 2) {
                    endAt[t] = now + task.hops * problem.hopLatencyS;
                }
            } else if (state[t] == 1 && remaining[t] <= 1e-9 * task.bytes) {
                state[t] = 2;
                endAt[t] = now + task.hops * problem.hopLatencyS;
            } else if (state[t] == 2 && endAt[t] <= now) {
                state[t] = 3;
            }
        }
    }
    return endAt;
}

// Random flows over a few shared links, with random starts, sizes and dependencies.
SimProblem randomProblem(unsigned seed, int flows, int links) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> linkPick(0, links - 1);
    std::uniform_int_distribution<int> linkCount(1, 4);
    std::uniform_real_distribution<double> size(0.1 * kMB, 4 * kMB);
    std::uniform_real_distribution<double> start(0.0, 3 * kMs);
    std::uniform_real_distribution<double> bandwidth(0.5 * kB, 2 * kB);
    std::bernoulli_distribution hasDep(0.3);
    SimProblem problem = makeProblem(links, kB, kA);
    for (double& b : problem.linkBandwidth) {
        b = bandwidth(random);
    }
    for (int f = 0; f < flows; ++f) {
        std::vector<LinkId> route;
        const int count = linkCount(random);
        while (static_cast<int>(route.size()) < count) {
            const LinkId l = linkPick(random);
            if (std::find(route.begin(), route.end(), l) == route.end()) {
                route.push_back(l);
            }
        }
        std::vector<TaskId> deps;
        if (f > 0 && hasDep(random)) {
            deps.push_back(std::uniform_int_distribution<int>(0, f - 1)(random));
        }
        addFlow(problem, size(random), route, count, deps, start(random));
    }
    return problem;
}

TEST(FluidSimulator, AgreesWithANaiveFullRecomputation) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
        const SimProblem problem = randomProblem(seed, 40, 12);
        const std::vector<double> expected = referenceEndTimes(problem);
        const SimResult result = simulate(problem);
        for (std::size_t t = 0; t < expected.size(); ++t) {
            EXPECT_NEAR(result.tasks[t].endS, expected[t], 1e-9 * expected[t])
                << "seed " << seed << " task " << t;
        }
    }
}

TEST(FluidSimulator, IsDeterministic) {
    const SimProblem problem = randomProblem(42, 300, 40);
    const SimResult first = simulate(problem);
    const SimResult second = simulate(problem);
    ASSERT_EQ(first.tasks.size(), second.tasks.size());
    for (std::size_t t = 0; t < first.tasks.size(); ++t) {
        EXPECT_EQ(first.tasks[t].readyS, second.tasks[t].readyS);
        EXPECT_EQ(first.tasks[t].startS, second.tasks[t].startS);
        EXPECT_EQ(first.tasks[t].lastByteS, second.tasks[t].lastByteS);
        EXPECT_EQ(first.tasks[t].endS, second.tasks[t].endS);
    }
    EXPECT_EQ(first.makespanS, second.makespanS);
    EXPECT_EQ(first.linkBytes, second.linkBytes);
    EXPECT_EQ(first.rateRecomputations, second.rateRecomputations);
}

} // namespace
} // namespace ws
