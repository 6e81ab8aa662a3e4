// The store-and-forward model (docs/network-model.md section 10) on hand-built
// problems: the pipeline closed form, the FIFO tie rule, multicast copies at branches,
// reduction chunks combined where branches join, and dependencies that wait for the last chunk.
#include "sim/fluid_simulator.h"
#include "sim/store_and_forward_simulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace ws {
namespace {

double tol(double expected) {
    return 1e-9 * std::abs(expected) + 1e-18;
}
#define EXPECT_TIME(actual, expected) EXPECT_NEAR((actual), (expected), tol(expected))

constexpr double kB = 1e9;          // bytes/s
constexpr double kA = 1e-6;         // s per hop
constexpr double kC = 1048576.0;    // bytes per chunk (1 MiB)
constexpr double kChunkS = kC / kB; // one chunk over one link

SimProblem problemOn(const WaferTopology& topology, double chunk = kC, double latency = kA) {
    return problemOnLinks(topology, kB, latency, {NetworkModel::StoreAndForward, chunk});
}

// The links of the path through `dies` (consecutive dies adjacent).
std::vector<LinkId> pathLinks(const WaferTopology& topology, const std::vector<DieId>& dies) {
    std::vector<LinkId> links;
    for (std::size_t i = 1; i < dies.size(); ++i)
        links.push_back(*topology.linkBetween(dies[i - 1], dies[i]));
    return links;
}

TaskId addFlow(SimProblem& problem, double bytes, std::vector<LinkId> links, int hops,
               std::vector<TaskId> deps = {}, double earliestStartS = 0.0) {
    SimTask task;
    task.kind = SimTask::Kind::Flow;
    task.bytes = bytes;
    task.links = std::move(links);
    task.hops = hops;
    task.deps = std::move(deps);
    task.earliestStartS = earliestStartS;
    problem.tasks.push_back(std::move(task));
    return static_cast<TaskId>(problem.tasks.size() - 1);
}

const WaferTopology& line(int dies) {
    static std::vector<std::unique_ptr<WaferTopology>> lines(17);
    auto& topology = lines[static_cast<std::size_t>(dies)];
    if (!topology) {
        TopologySpec spec;
        spec.rows = 1;
        spec.cols = dies;
        topology = std::make_unique<WaferTopology>(spec);
    }
    return *topology;
}

std::vector<DieId> firstDies(int count) {
    std::vector<DieId> dies;
    for (DieId d = 0; d < count; ++d)
        dies.push_back(d);
    return dies;
}

// Without contention m chunks of size C over h hops take (m + h - 1) C / B + h a.
TEST(StoreAndForward, PipelineFillClosedForm) {
    for (const int h : {1, 2, 4, 7}) {
        for (const int m : {1, 2, 5, 16}) {
            const WaferTopology& topology = line(h + 1);
            SimProblem problem = problemOn(topology);
            addFlow(problem, m * kC, pathLinks(topology, firstDies(h + 1)), h);
            const SimResult result = simulate(problem);
            EXPECT_TIME(result.makespanS, (m + h - 1) * kChunkS + h * kA)
                << m << " chunks over " << h << " hops";
            EXPECT_TIME(result.tasks[0].lastByteS, m * kChunkS);
            EXPECT_TIME(result.tasks[0].startS, 0.0);
        }
    }
}

// The last chunk is smaller: 2.5 chunks over 2 hops leave the second link at 3.5 chunk times.
TEST(StoreAndForward, LastChunkIsTheRemainder) {
    const WaferTopology& topology = line(3);
    SimProblem problem = problemOn(topology);
    addFlow(problem, 2.5 * kC, pathLinks(topology, {0, 1, 2}), 2);
    EXPECT_TIME(simulate(problem).makespanS, 3.5 * kChunkS + 2 * kA);
}

// The fluid model pays the latency once per hop but pipelines bytes: the same flow takes
// S / B + h a there, never more than store-and-forward.
TEST(StoreAndForward, FluidIsTheOptimisticEndOfTheBracket) {
    const WaferTopology& topology = line(5);
    SimProblem problem = problemOn(topology);
    addFlow(problem, 3 * kC, pathLinks(topology, firstDies(5)), 4);
    const double chunked = simulate(problem).makespanS;
    problem.network.model = NetworkModel::Fluid;
    const double fluid = simulate(problem).makespanS;
    EXPECT_TIME(fluid, 3 * kChunkS + 4 * kA);
    EXPECT_TIME(chunked, 6 * kChunkS + 4 * kA);
    EXPECT_LT(fluid, chunked);
}

// Two flows ready at once on one link: the lower TaskId sends all its chunks first; a flow
// ready earlier goes first whatever its id.
TEST(StoreAndForward, LinksServeChunksInReadyOrderTiesByFlow) {
    const WaferTopology& topology = line(2);
    const std::vector<LinkId> link = pathLinks(topology, {0, 1});
    SimProblem problem = problemOn(topology);
    addFlow(problem, 2 * kC, link, 1);
    addFlow(problem, 2 * kC, link, 1);
    SimResult result = simulate(problem);
    EXPECT_TIME(result.tasks[0].endS, 2 * kChunkS + kA);
    EXPECT_TIME(result.tasks[1].startS, 2 * kChunkS);
    EXPECT_TIME(result.tasks[1].endS, 4 * kChunkS + kA);

    problem.tasks[0].earliestStartS = 0.5 * kChunkS; // flow 1 is now ready first
    result = simulate(problem);
    EXPECT_TIME(result.tasks[1].endS, 2 * kChunkS + kA);
    EXPECT_TIME(result.tasks[0].startS, 2 * kChunkS);
    EXPECT_TIME(result.tasks[0].endS, 4 * kChunkS + kA);
}

// A chunk that reaches a die while the next link is busy waits there: flow 1 (die 1 -> 2) is
// ready first at die 1 and holds link 1->2 for 4 chunk times, so flow 0 (die 0 -> 2) crosses
// its first hop at once and then waits.
TEST(StoreAndForward, AChunkQueuesAtTheDieWhereItsNextLinkIsBusy) {
    const WaferTopology& topology = line(3);
    SimProblem problem = problemOn(topology, kC, 0.0);
    addFlow(problem, kC, pathLinks(topology, {0, 1, 2}), 2);
    addFlow(problem, 4 * kC, pathLinks(topology, {1, 2}), 1);
    const SimResult result = simulate(problem);
    EXPECT_TIME(result.tasks[1].endS, 4 * kChunkS);
    EXPECT_TIME(result.tasks[0].lastByteS, kChunkS);
    EXPECT_TIME(result.tasks[0].endS, 5 * kChunkS);
}

// A multicast tree 1 -> 0 and 1 -> 2 -> 3 on a line: chunks are copied at the source and
// both branches run at once; the flow ends when the deeper leaf has every chunk.
TEST(StoreAndForward, MulticastChunksAreCopiedWhereTheTreeBranches) {
    const WaferTopology& topology = line(4);
    SimProblem problem = problemOn(topology);
    std::vector<LinkId> tree = pathLinks(topology, {1, 2, 3});
    tree.push_back(*topology.linkBetween(1, 0));
    addFlow(problem, 3 * kC, tree, 2);
    const SimResult result = simulate(problem);
    EXPECT_TIME(result.makespanS, (3 + 2 - 1) * kChunkS + 2 * kA);
    EXPECT_TIME(result.tasks[0].lastByteS, 3 * kChunkS);
    for (const LinkId link : tree)
        EXPECT_DOUBLE_EQ(result.linkBytes[static_cast<std::size_t>(link)], 3 * kC);
}

// A reduction tree into die 4 of a 2x3 mesh (0 1 2 / 3 4 5): 5 -> 2 -> 1 -> 4, 0 -> 1 and
// 3 -> 4. Die 1 sends chunk k on once both 0's and 2's have reached it (combined there), so every
// link carries the flow's bytes once and the tree pipelines like its deepest path:
// (m + 3 - 1) C / B + 3 a. Without the join the link 1 -> 4 would carry them twice.
TEST(StoreAndForward, ReductionChunksAreCombinedWhereTheTreeJoins) {
    TopologySpec spec;
    spec.rows = 2;
    spec.cols = 3;
    const WaferTopology topology(spec);
    SimProblem problem = problemOn(topology);
    std::vector<LinkId> tree = pathLinks(topology, {5, 2, 1, 4});
    tree.push_back(*topology.linkBetween(0, 1));
    tree.push_back(*topology.linkBetween(3, 4));
    for (const int m : {1, 4}) {
        problem.tasks.clear();
        addFlow(problem, m * kC, tree, 3);
        const SimResult result = simulate(problem);
        EXPECT_TIME(result.makespanS, (m + 3 - 1) * kChunkS + 3 * kA) << m << " chunks";
        EXPECT_TIME(result.tasks[0].lastByteS, m * kChunkS); // the leaves' last chunks left
        for (const LinkId link : tree)
            EXPECT_DOUBLE_EQ(result.linkBytes[static_cast<std::size_t>(link)], m * kC);
        // The fluid model sends at the full rate on every link and pays the deepest leaf's
        // three latencies.
        SimProblem fluid = problem;
        fluid.network.model = NetworkModel::Fluid;
        EXPECT_TIME(simulate(fluid).makespanS, m * kChunkS + 3 * kA);
    }
    // Links that converge on a die and leave another one twice are neither kind of tree.
    problem.tasks.clear();
    addFlow(problem, kC,
            {*topology.linkBetween(0, 1), *topology.linkBetween(2, 1), *topology.linkBetween(4, 1),
             *topology.linkBetween(4, 5)},
            2);
    EXPECT_THROW(simulate(problem), std::invalid_argument);
}

// Links of different latencies (a system's off-wafer links, docs/network-model.md section 11):
// a tree pays its deepest path in latency, not in hops. Multicast 1 -> 2 -> 3 and 1 -> 0 on a
// line, 1 -> 0 with a latency L of 5 ms: in the fluid model the flow ends at S/B + L (the
// two-hop branch pays only 2a); store-and-forward sends 1 -> 0's m chunks back to back, each
// ready at 0 L after it left: m C/B + L, later than the long branch's (m + 1) C/B + 2a. The
// mirror image, a reduction into die 4 of a 2x3 mesh whose leaf link 3 -> 4 has latency L:
// fluid m C/B + L, store-and-forward the same (that one-hop branch is the last to arrive).
TEST(StoreAndForward, TreesPayTheirDeepestLatencyNotTheirDeepestHops) {
    constexpr double kL = 5e-3;
    constexpr int kM = 3;
    const WaferTopology& topology = line(4);
    SimProblem problem = problemOn(topology);
    std::vector<LinkId> tree = pathLinks(topology, {1, 2, 3});
    const LinkId slow = *topology.linkBetween(1, 0);
    tree.push_back(slow);
    addFlow(problem, kM * kC, tree, 2);
    problem.linkLatencyS.assign(problem.linkBandwidth.size(), kA);
    problem.linkLatencyS[static_cast<std::size_t>(slow)] = kL;
    EXPECT_TIME(simulate(problem).makespanS, kM * kChunkS + kL);
    SimProblem fluid = problem;
    fluid.network.model = NetworkModel::Fluid;
    EXPECT_TIME(simulate(fluid).makespanS, kM * kChunkS + kL);

    TopologySpec spec;
    spec.rows = 2;
    spec.cols = 3;
    const WaferTopology mesh(spec);
    SimProblem reduction = problemOn(mesh);
    std::vector<LinkId> into4 = pathLinks(mesh, {5, 2, 1, 4});
    into4.push_back(*mesh.linkBetween(0, 1));
    const LinkId slowLeaf = *mesh.linkBetween(3, 4);
    into4.push_back(slowLeaf);
    addFlow(reduction, kC, into4, 3);
    reduction.linkLatencyS.assign(reduction.linkBandwidth.size(), kA);
    reduction.linkLatencyS[static_cast<std::size_t>(slowLeaf)] = kL;
    EXPECT_TIME(simulate(reduction).makespanS, kChunkS + kL);
    reduction.network.model = NetworkModel::Fluid;
    EXPECT_TIME(simulate(reduction).makespanS, kChunkS + kL);
    // A latency for some links only is refused.
    reduction.linkLatencyS.pop_back();
    EXPECT_THROW(simulate(reduction), std::invalid_argument);
}

// A dependent flow starts when the last chunk of the one it waits for has arrived.
TEST(StoreAndForward, DependenciesWaitForTheLastChunk) {
    const WaferTopology& topology = line(3);
    SimProblem problem = problemOn(topology);
    const TaskId first = addFlow(problem, 4 * kC, pathLinks(topology, {0, 1, 2}), 2);
    addFlow(problem, kC, pathLinks(topology, {2, 1}), 1, {first});
    const SimResult result = simulate(problem);
    const double firstEnd = 5 * kChunkS + 2 * kA;
    EXPECT_TIME(result.tasks[0].endS, firstEnd);
    EXPECT_TIME(result.tasks[1].readyS, firstEnd);
    EXPECT_TIME(result.tasks[1].endS, firstEnd + kChunkS + kA);
}

// Compute tasks, barriers and zero-byte flows behave as in the fluid model.
TEST(StoreAndForward, ComputeBarriersAndEmptyFlowsAsInTheFluidModel) {
    const WaferTopology& topology = line(3);
    SimProblem problem = problemOn(topology);
    SimTask compute;
    compute.kind = SimTask::Kind::Compute;
    compute.die = 0;
    compute.seconds = 3e-3;
    problem.tasks.push_back(compute);
    problem.tasks.push_back(compute); // same die: runs after the first
    const TaskId empty = addFlow(problem, 0.0, pathLinks(topology, {0, 1, 2}), 2, {0});
    SimTask barrier;
    barrier.kind = SimTask::Kind::Barrier;
    barrier.deps = {1, empty};
    problem.tasks.push_back(barrier);
    const SimResult chunked = simulate(problem);
    problem.network.model = NetworkModel::Fluid;
    const SimResult fluid = simulate(problem);
    for (std::size_t t = 0; t < problem.tasks.size(); ++t) {
        EXPECT_TIME(chunked.tasks[t].startS, fluid.tasks[t].startS) << "task " << t;
        EXPECT_TIME(chunked.tasks[t].endS, fluid.tasks[t].endS) << "task " << t;
    }
    EXPECT_TIME(chunked.tasks[2].endS, 3e-3 + 2 * kA);
    EXPECT_TIME(chunked.makespanS, 6e-3);
    EXPECT_DOUBLE_EQ(chunked.dieComputeS[0], 6e-3);
}

// Metamorphic: more bandwidth, less latency or a chunk that divides the flow more finely never
// makes a lone multi-hop flow slower.
TEST(StoreAndForward, MoreBandwidthOrSmallerChunksNeverSlowALoneFlow) {
    const WaferTopology& topology = line(6);
    SimProblem problem = problemOn(topology);
    addFlow(problem, 8 * kC, pathLinks(topology, firstDies(6)), 5);
    const double base = simulate(problem).makespanS;
    SimProblem faster = problem;
    for (double& bandwidth : faster.linkBandwidth)
        bandwidth *= 2;
    EXPECT_LT(simulate(faster).makespanS, base);
    SimProblem finer = problem;
    finer.network.chunkBytes = kC / 2;
    EXPECT_LT(simulate(finer).makespanS, base);
}

TEST(StoreAndForward, LinksThatAreNotARouteAreRefused) {
    const WaferTopology& topology = line(4);
    SimProblem problem = problemOn(topology);
    // Two separate pieces: 0 -> 1 and 2 -> 3.
    addFlow(problem, kC, {*topology.linkBetween(0, 1), *topology.linkBetween(2, 3)}, 2);
    EXPECT_THROW(simulate(problem), std::invalid_argument);
    problem.tasks[0].links = {*topology.linkBetween(0, 1), *topology.linkBetween(1, 0)};
    EXPECT_THROW(simulate(problem), std::invalid_argument); // a cycle
    problem.tasks[0].links = pathLinks(topology, {0, 1});
    problem.linkEnds.clear();
    EXPECT_THROW(simulate(problem), std::invalid_argument);
}

} // namespace
} // namespace ws
