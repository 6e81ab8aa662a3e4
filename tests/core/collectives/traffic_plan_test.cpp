#include "collectives/traffic_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace ws {
namespace {

using Path = std::vector<DieId>;
using Edges = std::vector<std::pair<DieId, DieId>>;

Scenario wafer(int rows, int cols) {
    Scenario scenario;
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    return scenario;
}

WaferTopology topologyOf(const Scenario& scenario, std::vector<DieId> deadDies = {},
                         std::vector<std::pair<DieId, DieId>> deadLinks = {}) {
    return WaferTopology(TopologySpec{scenario.wafer.rows, scenario.wafer.cols,
                                      scenario.wafer.topology, std::move(deadDies),
                                      std::move(deadLinks)});
}

TrafficOp p2p(std::string id, DieId src, DieId dst, double bytes) {
    TrafficOp op;
    op.id = std::move(id);
    op.src = src;
    op.dst = dst;
    op.bytes = Quantity{bytes, ""};
    return op;
}

TrafficOp collective(std::string id, OpKind kind, std::vector<DieId> group, double bytes,
                     std::optional<Algorithm> algorithm = std::nullopt) {
    TrafficOp op;
    op.id = std::move(id);
    op.kind = kind;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, ""};
    op.algorithm = algorithm;
    return op;
}

std::vector<DieId> allDies(int count) {
    std::vector<DieId> dies(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        dies[static_cast<std::size_t>(i)] = i;
    return dies;
}

// Bytes per link summed over the plan's flow tasks.
std::vector<double> linkLoads(const TrafficPlan& plan, const WaferTopology& topology) {
    std::vector<double> loads(static_cast<std::size_t>(topology.linkCount()), 0.0);
    for (const SimTask& task : plan.problem.tasks) {
        if (task.kind != SimTask::Kind::Flow)
            continue;
        for (LinkId link : task.links)
            loads[static_cast<std::size_t>(link)] += task.bytes;
    }
    return loads;
}

double hottest(const TrafficPlan& plan, const WaferTopology& topology) {
    const auto loads = linkLoads(plan, topology);
    return *std::max_element(loads.begin(), loads.end());
}

template <class F>
void expectError(F call, const std::string& keyPath, const std::string& problemStart = {}) {
    try {
        call();
        ADD_FAILURE() << "no error; expected one at " << keyPath;
    } catch (const ScenarioError& error) {
        EXPECT_EQ(error.keyPath(), keyPath) << error.what();
        EXPECT_EQ(error.problem().substr(0, problemStart.size()), problemStart) << error.what();
    }
}

// The plan's index of the flow named `id`; -1 when there is none.
int flowIndex(const TrafficPlan& plan, const std::string& id) {
    for (std::size_t f = 0; f < plan.flows.size(); ++f)
        if (plan.flows[f].id == id)
            return static_cast<int>(f);
    return -1;
}

TEST(PlanTraffic, BuildsOneFlowTaskPerFlowAndOneBarrierPerOp) {
    auto scenario = wafer(4, 4);
    scenario.wafer.linkBandwidth = Quantity{4e12, "4 TB/s"};
    scenario.wafer.linkLatency = Quantity{200e-9, "200 ns"};
    scenario.traffic = {collective("ag", OpKind::AllGather, {3, 2, 6, 7}, 64e6),
                        p2p("p", 2, 10, 32e6)};
    const auto topology = topologyOf(scenario);
    const TrafficPlan plan = planTraffic(scenario, topology);

    ASSERT_EQ(plan.flows.size(), 13u);
    ASSERT_EQ(plan.problem.tasks.size(), 15u);
    EXPECT_EQ(plan.opDone, (std::vector<TaskId>{13, 14}));
    EXPECT_EQ(flowIndex(plan, "ag/s2/r3"), 11);
    EXPECT_EQ(flowIndex(plan, "p"), 12);
    EXPECT_EQ(plan.problem.dieCount, 16);
    EXPECT_EQ(plan.problem.hopLatencyS, 200e-9);
    EXPECT_EQ(plan.problem.linkBandwidth,
              std::vector<double>(static_cast<std::size_t>(topology.linkCount()), 4e12));

    const Flow& last = plan.flows[11]; // rank 3 (die 7) -> rank 0 (die 3)
    EXPECT_EQ(last.route.path, (Path{7, 3}));
    const SimTask& task = plan.problem.tasks[static_cast<std::size_t>(last.task)];
    EXPECT_EQ(task.kind, SimTask::Kind::Flow);
    EXPECT_EQ(task.bytes, 16e6);
    EXPECT_EQ(task.links, last.route.links);
    EXPECT_EQ(task.hops, 1);
    EXPECT_EQ(task.deps, (std::vector<TaskId>{plan.flows[6].task})); // ag/s1/r2

    const SimTask& p = plan.problem.tasks[12];
    EXPECT_EQ(plan.flows[12].route.path, (Path{2, 6, 10}));
    EXPECT_EQ(p.hops, 2);
    EXPECT_TRUE(p.deps.empty());

    const SimTask& agDone = plan.problem.tasks[13];
    EXPECT_EQ(agDone.kind, SimTask::Kind::Barrier);
    EXPECT_EQ(agDone.deps, (std::vector<TaskId>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
    EXPECT_EQ(plan.problem.tasks[14].deps, (std::vector<TaskId>{12}));
}

// Flow ids name flows uniquely across ops (docs/file-format.md): routing.paths and every report
// rely on it, and the planner keeps no index that would check it again.
TEST(PlanTraffic, FlowIdsAreUniqueAcrossOps) {
    auto scenario = wafer(4, 4);
    scenario.traffic = {collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 64e6),
                        collective("ar", OpKind::AllReduce, {4, 5, 6, 7}, 64e6),
                        collective("rs", OpKind::ReduceScatter, {8, 9, 10, 11}, 64e6),
                        collective("a2a", OpKind::AllToAll, {12, 13, 14, 15}, 64e6),
                        collective("bc", OpKind::Broadcast, {0, 5, 10, 15}, 64e6),
                        p2p("ag_s0_r0", 0, 15, 1e6)};
    const TrafficPlan plan = planTraffic(scenario, topologyOf(scenario));
    std::set<std::string> ids;
    for (const Flow& flow : plan.flows)
        EXPECT_TRUE(ids.insert(flow.id).second) << flow.id << " is named twice";
    EXPECT_GT(ids.size(), 30u);
}

// The expansion's flow dependencies become the tasks' (moved: the plan's flows keep none).
TEST(PlanTraffic, FlowDepsBecomeTaskDepsIndexingThePlan) {
    auto scenario = wafer(2, 2);
    scenario.traffic = {p2p("first", 0, 1, 1.0),
                        collective("ag", OpKind::AllGather, {0, 1, 3, 2}, 4.0)};
    const auto plan = planTraffic(scenario, topologyOf(scenario));
    // ag/s1/r1 waits for ag/s0/r0, which is flow 1 of the plan (after the p2p).
    const Flow& flow = plan.flows[static_cast<std::size_t>(flowIndex(plan, "ag/s1/r1"))];
    EXPECT_EQ(plan.problem.tasks[static_cast<std::size_t>(flow.task)].deps,
              (std::vector<TaskId>{1}));
    for (const Flow& each : plan.flows)
        EXPECT_TRUE(each.flowDeps.empty()) << each.id;
}

TEST(PlanTraffic, AfterWaitsForTheBarriersAndStartSetsEarliestStart) {
    auto scenario = wafer(2, 2);
    auto first = p2p("a", 0, 1, 1.0);
    auto second = collective("b", OpKind::AllGather, {0, 1, 3, 2}, 4.0);
    second.after = {"a"};
    second.start = Quantity{2e-6, "2 us"};
    auto single = collective("c", OpKind::AllReduce, {3}, 4.0); // one die: no flows
    single.after = {"b"};
    scenario.traffic = {first, second, single};
    const auto plan = planTraffic(scenario, topologyOf(scenario));

    const TaskId aDone = plan.opDone[0];
    for (const Flow& flow : plan.flows) {
        const SimTask& task = plan.problem.tasks[static_cast<std::size_t>(flow.task)];
        if (flow.opIndex != 1) {
            EXPECT_EQ(task.earliestStartS, 0.0);
            continue;
        }
        EXPECT_EQ(task.earliestStartS, 2e-6);
        if (flow.step == 0) {
            EXPECT_EQ(task.deps, (std::vector<TaskId>{aDone})) << flow.id;
        } else { // behind the previous step's flow only, which is already behind a
            EXPECT_EQ(task.deps.size(), 1u) << flow.id;
            EXPECT_EQ(std::count(task.deps.begin(), task.deps.end(), aDone), 0) << flow.id;
        }
    }
    EXPECT_EQ(plan.problem.tasks[static_cast<std::size_t>(plan.opDone[1])].earliestStartS, 2e-6);
    // An op without flows still finishes only after the ops it waits for.
    EXPECT_EQ(plan.problem.tasks[static_cast<std::size_t>(plan.opDone[2])].deps,
              (std::vector<TaskId>{plan.opDone[1]}));
}

TEST(PlanTraffic, OrderErrors) {
    auto scenario = wafer(2, 2);
    auto a = p2p("a", 0, 1, 1.0);
    a.after = {"zz"};
    scenario.traffic = {a};
    expectError([&] { planTraffic(scenario, topologyOf(scenario)); }, "traffic[0].after[0]",
                "'zz' names no op");
    auto b = p2p("b", 1, 0, 1.0);
    a.after = {"b"};
    b.after = {"a"};
    scenario.traffic = {a, b};
    expectError([&] { planTraffic(scenario, topologyOf(scenario)); }, "traffic[1].after",
                "ops wait for each other in a cycle");
    scenario.traffic = {p2p("a", 0, 1, 1.0), p2p("a", 1, 0, 1.0)};
    expectError([&] { planTraffic(scenario, topologyOf(scenario)); }, "traffic[1].id");
}

TEST(PlanTraffic, PinnedPathIsUsed) {
    auto scenario = wafer(4, 4);
    scenario.traffic = {p2p("p", 2, 10, 1.0)};
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["p"] = PinnedRoute{{2, 3, 7, 11, 10}, {}};
    const auto topology = topologyOf(scenario);
    const auto plan = planTraffic(scenario, topology);
    EXPECT_EQ(plan.flows[0].route.path, (Path{2, 3, 7, 11, 10}));
    EXPECT_EQ(plan.problem.tasks[0].hops, 4);
    EXPECT_EQ(plan.problem.tasks[0].links,
              (std::vector<LinkId>{*topology.linkBetween(2, 3), *topology.linkBetween(3, 7),
                                   *topology.linkBetween(7, 11), *topology.linkBetween(11, 10)}));
}

TEST(PlanTraffic, PinnedTreeIsUsedForAMulticastFlow) {
    auto scenario = wafer(2, 2);
    scenario.traffic = {
        collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 4.0, Algorithm::Multicast)};
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["ag/s0/r0"] = PinnedRoute{{}, {{0, 2}, {2, 3}, {3, 1}}};
    scenario.routing->paths["ag/s0/r1"] = PinnedRoute{{1, 0, 2, 3}, {}}; // a chain as a path
    const auto plan = planTraffic(scenario, topologyOf(scenario));
    EXPECT_EQ(plan.flows[0].route.edges, (Edges{{0, 2}, {2, 3}, {3, 1}}));
    EXPECT_EQ(plan.flows[0].route.hops, 3);
    EXPECT_EQ(plan.flows[1].route.edges, (Edges{{1, 0}, {0, 2}, {2, 3}}));
    EXPECT_EQ(plan.problem.tasks[1].hops, 3);
}

TEST(PlanTraffic, PinnedPathErrors) {
    auto scenario = wafer(4, 4);
    scenario.traffic = {collective("ag", OpKind::AllGather, {0, 1, 5, 4}, 64.0),
                        p2p("p", 2, 10, 1.0),
                        collective("m", OpKind::Broadcast, {0, 1, 2}, 8.0, Algorithm::Multicast)};
    const auto topology = topologyOf(scenario, {}, {{7, 11}});
    const auto expectPinError = [&](const std::string& id, PinnedRoute route,
                                    const std::string& problemStart) {
        scenario.routing = RoutingSpec{};
        scenario.routing->paths[id] = std::move(route);
        expectError([&] { planTraffic(scenario, topology); }, "routing.paths." + id, problemStart);
    };
    expectPinError("ag/s9/r0", {{0, 1}, {}},
                   "names no flow; flows of op 'ag' are ag/s0/r0, ag/s0/r1");
    expectPinError("nope", {{0, 1}, {}}, "names no flow; flow ids are <op id>");
    expectPinError("p", {{3, 7, 11, 10}, {}},
                   "the path starts at die 3, not at the flow's source die 2");
    expectPinError("p", {{2, 6}, {}},
                   "the path ends at die 6, not at the flow's destination die 10");
    expectPinError("p", {{2, 10}, {}}, "dies 2 and 10 are not neighbours");
    expectPinError("p", {{2, 3, 7, 11, 10}, {}}, "link 7->11 is dead");
    expectPinError("p", {{2, 6, 2, 6, 10}, {}}, "die 2 appears twice");
    expectPinError("p", {{}, {{2, 6}, {6, 10}}}, "flow 'p' goes to one die");
    expectPinError("m/s0/r0", {{}, {{0, 1}}}, "the tree does not reach destination die 2");
    expectPinError("m/s0/r0", {{}, {{1, 2}, {0, 1}, {2, 1}}}, "die 1 is entered twice");
    expectPinError("m/s0/r0", {{}, {{1, 0}, {1, 2}}}, "edge 1->0 enters the flow's source die 0");
    expectPinError("m/s0/r0", {{}, {{0, 1}, {1, 2}, {5, 6}}}, "edge 5->6 is not connected");
}

// A reduction tree is pinned with its edges pointing toward its root (docs/file-format.md).
TEST(PlanTraffic, PinnedReductionTrees) {
    auto scenario = wafer(4, 4);
    scenario.traffic = {collective("rs", OpKind::ReduceScatter, {0, 1, 2}, 3.0, Algorithm::Tree)};
    const auto topology = topologyOf(scenario, {}, {{6, 2}});
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["rs/s0/r0"] = {{}, {{2, 6}, {6, 5}, {5, 4}, {4, 0}, {1, 0}}};
    const TrafficPlan plan = planTraffic(scenario, topology);
    const Flow& pinned = plan.flows[0];
    EXPECT_TRUE(pinned.reduction);
    EXPECT_EQ(pinned.route.hops, 4); // die 2's way round
    EXPECT_EQ(pinned.route.edges.front().second, 0);
    const auto expectPinError = [&](const std::string& id, PinnedRoute route,
                                    const std::string& problemStart) {
        scenario.routing->paths = {{id, std::move(route)}};
        expectError([&] { planTraffic(scenario, topology); }, "routing.paths." + id, problemStart);
    };
    expectPinError("rs/s0/r0", {{}, {{0, 1}, {1, 2}}}, "edge 0->1 leaves the flow's root die 0");
    expectPinError("rs/s0/r0", {{}, {{1, 0}, {1, 5}, {5, 4}, {4, 0}, {2, 1}}},
                   "die 1 is left twice");
    expectPinError("rs/s0/r0", {{}, {{1, 0}}}, "the tree does not reach contributor die 2");
    scenario.routing->paths = {{"rs/s0/r0", {{2, 1, 0}, {}}}}; // a chain into the root
    EXPECT_EQ(planTraffic(scenario, topology).flows[0].route.hops, 2);
    expectPinError("rs/s0/r0", {{0, 1, 2}, {}}, "the path ends at die 2, not at the flow's root");
    // Dead links are directed: 6->2 is dead, 2->6 lives, and a reduction from die 2 needs 2->6.
    scenario.routing->paths = {{"rs/s0/r2", {{}, {{6, 2}, {1, 2}, {0, 1}}}}};
    expectError([&] { planTraffic(scenario, topology); }, "routing.paths.rs/s0/r2",
                "link 6->2 is dead");
}

TEST(PlanTraffic, UnreachableTrafficNamesTheOp) {
    auto scenario = wafer(4, 4);
    scenario.traffic = {p2p("ok", 0, 1, 1.0), p2p("cut", 3, 12, 1.0)};
    const auto topology = topologyOf(scenario, {8, 13});
    try {
        planTraffic(scenario, topology);
        FAIL();
    } catch (const ScenarioError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "traffic[1]: die 3 cannot reach die 12: dead dies or links cut it off");
    }
    scenario.traffic = {collective("b", OpKind::Broadcast, {0, 8, 1}, 8.0, Algorithm::Multicast)};
    expectError([&] { planTraffic(scenario, topology); }, "traffic[0]",
                "die 0 cannot reach die 8: die 8 is dead");
    // A reduction's data runs from its contributors to its root.
    scenario.traffic = {collective("r", OpKind::ReduceScatter, {0, 8, 1}, 3.0, Algorithm::Tree)};
    expectError([&] { planTraffic(scenario, topology); }, "traffic[0]",
                "die 8 cannot reach die 0: die 8 is dead");
}

TEST(PlanTraffic, FlowsAroundDeadDiesDetour) {
    auto scenario = wafer(3, 3);
    scenario.traffic = {p2p("p", 3, 5, 1.0)};
    const auto plan = planTraffic(scenario, topologyOf(scenario, {4}));
    EXPECT_EQ(plan.flows[0].route.path, (Path{3, 0, 1, 2, 5}));
    EXPECT_EQ(plan.problem.tasks[0].hops, 4);
}

TEST(PlanTraffic, LoadAwareRoutingSeesEarlierFlowsAcrossOps) {
    auto scenario = wafer(3, 3);
    scenario.routing = RoutingSpec{RoutingMode::Shortest, {}, nlohmann::json::object()};
    scenario.traffic = {p2p("a", 0, 4, 10.0), p2p("b", 0, 4, 10.0)};
    const auto plan = planTraffic(scenario, topologyOf(scenario));
    EXPECT_EQ(plan.flows[0].route.path, (Path{0, 1, 4}));
    EXPECT_EQ(plan.flows[1].route.path, (Path{0, 3, 4}));
}

TEST(PlanTraffic, PinnedPathsCountTowardsLoad) {
    auto scenario = wafer(3, 3);
    scenario.routing = RoutingSpec{RoutingMode::Shortest, {}, nlohmann::json::object()};
    scenario.routing->paths["a"] = PinnedRoute{{0, 1, 4}, {}};
    scenario.traffic = {p2p("a", 0, 4, 10.0), p2p("b", 0, 4, 10.0)};
    const auto plan = planTraffic(scenario, topologyOf(scenario));
    EXPECT_EQ(plan.flows[1].route.path, (Path{0, 3, 4}));
}

// docs/network-model.md section 9, multicast on an 8x8 mesh, through the whole expansion and
// routing.
TEST(PlanTrafficLoads, OneToAllOnAnEightByEightMesh) {
    const int k = 8;
    auto scenario = wafer(k, k);
    const auto topology = topologyOf(scenario);
    auto corner = collective("b", OpKind::Broadcast, allDies(k * k), 1.0, Algorithm::Direct);
    scenario.traffic = {corner};
    EXPECT_EQ(hottest(planTraffic(scenario, topology), topology), k * (k - 1)); // 56
    auto centre = corner;
    centre.root = 3 * k + 3;
    scenario.traffic = {centre};
    EXPECT_EQ(hottest(planTraffic(scenario, topology), topology), k * k / 2); // 32
    auto tree = corner;
    tree.algorithm = Algorithm::Multicast;
    scenario.traffic = {tree};
    const auto plan = planTraffic(scenario, topology);
    EXPECT_EQ(hottest(plan, topology), 1);
    EXPECT_EQ(plan.problem.tasks[0].links.size(), static_cast<std::size_t>(k * k - 1));
}

TEST(PlanTrafficLoads, AllGatherOfSixtyFourDies) {
    const int k = 8;
    auto scenario = wafer(k, k);
    const auto topology = topologyOf(scenario);
    // bytes = P: every chunk is one byte, so loads count messages.
    scenario.traffic = {
        collective("ag", OpKind::AllGather, allDies(k * k), k * k, Algorithm::Direct)};
    EXPECT_EQ(hottest(planTraffic(scenario, topology), topology), k * k * k / 4); // 128
    scenario.traffic[0].algorithm = Algorithm::Multicast;
    EXPECT_EQ(hottest(planTraffic(scenario, topology), topology), k * (k - 1)); // 56
}

TEST(PlanTrafficLoads, UniformAllToAllIsKCubedOverFour) {
    const int k = 8;
    auto scenario = wafer(k, k);
    const auto topology = topologyOf(scenario);
    scenario.traffic = {
        collective("a2a", OpKind::AllToAll, allDies(k * k), k * k, Algorithm::Direct)};
    const auto plan = planTraffic(scenario, topology);
    EXPECT_EQ(plan.flows.size(), 4'032u);
    EXPECT_EQ(hottest(plan, topology), 128);
}

} // namespace
} // namespace ws
