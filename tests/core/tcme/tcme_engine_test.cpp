#include "io/scenario_io.h"
#include "tcme/bypass_path.h"
#include "tcme/scenario_evaluation.h"
#include "tcme/tcme_engine.h"

#include "fsdp_step_2x2.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace ws {
namespace {

constexpr double kMB = 1e6;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kBandwidth = 1e12; // bytes/s: 1 MB crosses a free link in 1 us

// A mesh with 1 TB/s links and no latency, so simulated times are bytes / bandwidth exactly.
Scenario mesh(int rows, int cols) {
    Scenario scenario;
    scenario.name = "tcme test";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.wafer.linkBandwidth = Quantity{kBandwidth, "1 TB/s"};
    scenario.wafer.linkLatency = Quantity{0.0, "0 s"};
    return scenario;
}

TrafficOp p2p(const std::string& id, DieId src, DieId dst, double bytes) {
    TrafficOp op;
    op.id = id;
    op.kind = OpKind::P2P;
    op.src = src;
    op.dst = dst;
    op.bytes = Quantity{bytes, std::to_string(bytes)};
    return op;
}

TrafficOp collective(const std::string& id, OpKind kind, std::vector<DieId> group, double bytes,
                     std::optional<Algorithm> algorithm) {
    TrafficOp op;
    op.id = id;
    op.kind = kind;
    op.group = std::move(group);
    op.bytes = Quantity{bytes, std::to_string(bytes)};
    op.algorithm = algorithm;
    return op;
}

// 2x2 mesh, links 0: 0->1, 1: 0->2, 2: 1->0, 3: 1->3, 4: 2->3, 5: 2->0, 6: 3->2, 7: 3->1.
// Under XY, "a" (0->3) goes 0->1->3 and "b" (1->3) goes 1->3: both cross link 3 (1->3).
Scenario twoFlowsOnOneLink() {
    Scenario scenario = mesh(2, 2);
    scenario.traffic = {p2p("a", 0, 3, kMB), p2p("b", 1, 3, kMB)};
    return scenario;
}

TcmeOptions optionsFor(const Scenario& scenario) {
    return tcmeOptionsFrom(scenario);
}

TEST(BypassPath, AvoidsTheHotLinkAndPrefersLightLinks) {
    const WaferTopology topology(mesh(2, 2).wafer.topologySpec());
    const std::vector<double> loads(8, 0.0);
    EXPECT_EQ(bypassPath(topology, 0, 3, 3, loads), (std::vector<DieId>{0, 2, 3}));
    // Without the avoided link, 0->1->3 and 0->2->3 tie; a load on 0->2 makes 0->1->3 cheaper.
    std::vector<double> loaded(8, 0.0);
    loaded[1] = 5.0;
    EXPECT_EQ(bypassPath(topology, 0, 3, -1, loaded), (std::vector<DieId>{0, 1, 3}));
    // A 1x3 line has no way around 0->1.
    const WaferTopology line(mesh(1, 3).wafer.topologySpec());
    EXPECT_FALSE(bypassPath(line, 0, 2, 0, std::vector<double>(4, 0.0)).has_value());
}

TEST(BypassPath, SkipsDeadLinks) {
    Scenario scenario = mesh(3, 3);
    scenario.wafer.deadLinks = {LinkRef{3, 4, false}};
    const WaferTopology topology(scenario.wafer.topologySpec());
    const std::vector<double> loads(static_cast<std::size_t>(topology.linkCount()), 0.0);
    // 0 -> 5 avoiding 0->1, with 3->4 dead: five hops through row 2 are the shortest way left.
    const auto path = bypassPath(topology, 0, 5, *topology.linkBetween(0, 1), loads);
    ASSERT_TRUE(path.has_value());
    EXPECT_EQ(path->size(), 6u);
    EXPECT_EQ(path->front(), 0);
    EXPECT_EQ(path->back(), 5);
    for (std::size_t i = 1; i < path->size(); ++i) {
        const auto link = topology.linkBetween((*path)[i - 1], (*path)[i]);
        ASSERT_TRUE(link.has_value());
        EXPECT_TRUE(topology.link(*link).alive);
        EXPECT_NE(*link, *topology.linkBetween(0, 1));
    }
}

TEST(TcmeEngine, FindsTheMostCongestedLinkAndItsConflicts) {
    const Scenario scenario = twoFlowsOnOneLink();
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    ASSERT_FALSE(engine.finished());
    EXPECT_NEAR(engine.initial().makespanS, 2e-6, 1e-18); // two 1 MB flows share 1 TB/s
    const TcmeIteration& first = engine.step();
    EXPECT_EQ(first.index, 0);
    EXPECT_EQ(first.mcl, 3);
    EXPECT_EQ(first.mclFrom, 1);
    EXPECT_EQ(first.mclTo, 3);
    EXPECT_DOUBLE_EQ(first.mclBytes, 2 * kMB);
    EXPECT_NEAR(first.mclUtilization, 1.0, 1e-12);
    EXPECT_EQ(first.hotFlows, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(first.conflictFlows, 2);
    EXPECT_EQ(first.conflictGroups, 2);
    // Each flow took 2 us where 1 us alone would do: 1 us lost each.
    EXPECT_NEAR(first.queueingDelayS, 2e-6, 1e-18);
    EXPECT_DOUBLE_EQ(first.linkBytesBefore[3], 2 * kMB);
}

TEST(TcmeEngine, ReroutesAHotP2pFlowAndHalvesTheMakespan) {
    const Scenario scenario = twoFlowsOnOneLink();
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    const TcmeIteration& first = engine.step();
    ASSERT_EQ(first.actions.size(), 1u);
    const TcmeAction& action = first.actions[0];
    EXPECT_EQ(action.kind, TcmeAction::Kind::Reroute);
    EXPECT_EQ(action.flow, "a"); // same bytes as "b": the lower id goes first
    EXPECT_EQ(action.oldPath, (std::vector<DieId>{0, 1, 3}));
    EXPECT_EQ(action.newPath, (std::vector<DieId>{0, 2, 3}));
    EXPECT_NEAR(first.after.makespanS, 1e-6, 1e-18);
    EXPECT_NEAR(first.after.makespanS, first.before.makespanS / 2, 1e-18);
    EXPECT_EQ(first.gain, TcmeGain::Makespan);
    EXPECT_DOUBLE_EQ(first.linkBytesAfter[3], kMB);
    EXPECT_DOUBLE_EQ(first.linkBytesAfter[1], kMB); // 0->2
    EXPECT_DOUBLE_EQ(first.linkBytesAfter[0], 0.0); // 0->1 is free now
    ASSERT_TRUE(engine.tunedScenario().routing.has_value());
    EXPECT_EQ(engine.tunedScenario().routing->paths.at("a").path, (std::vector<DieId>{0, 2, 3}));

    // Nothing beats one flow per link: the next iteration finds no improving candidate.
    EXPECT_EQ(engine.run(), TcmeStopReason::NoCandidate);
    ASSERT_EQ(engine.iterations().size(), 2u);
    EXPECT_TRUE(engine.iterations()[1].actions.empty());
    EXPECT_EQ(engine.iterations()[1].gain, TcmeGain::None);
    EXPECT_NEAR(engine.current().makespanS, 1e-6, 1e-18);
    EXPECT_THROW(engine.step(), std::logic_error);
}

// Two equally hot links (an iteration once kept a reroute that moved neither the makespan nor the
// hottest link, and nothing said why). On the 2x2 mesh "a" and "b" share 1->3 and "c" (3->2->0) and
// "d" share 2->0, 2 MB each: 2 us. Taking "a" off 1->3 leaves 2->0 as hot and the makespan at 2 us,
// but the squared bytes fall from 1+4+1+4 to 1+1+1+1+4 (MB^2): kept for the spread. The next
// iteration takes "c" off 2->0, and the makespan halves.
TEST(TcmeEngine, SaysWhichFigureOfTheObjectiveAKeptChangeImproved) {
    Scenario scenario = twoFlowsOnOneLink();
    scenario.traffic.push_back(p2p("c", 3, 0, kMB));
    scenario.traffic.push_back(p2p("d", 2, 0, kMB));
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    const TcmeIteration first = engine.step();
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].flow, "a");
    EXPECT_EQ(first.gain, TcmeGain::Spread);
    EXPECT_NEAR(first.after.makespanS, 2e-6, 1e-18);
    EXPECT_DOUBLE_EQ(first.after.maxLinkBytes, 2 * kMB);
    const TcmeIteration second = engine.step();
    ASSERT_EQ(second.actions.size(), 1u);
    EXPECT_EQ(second.gain, TcmeGain::Makespan);
    EXPECT_NEAR(second.after.makespanS, 1e-6, 1e-18);
    EXPECT_EQ(toString(TcmeGain::Spread), "spread");
    EXPECT_EQ(toString(TcmeGain::HottestLink), "hottest_link");
}

// 1x4 line, links 0: 0->1, 1: 1->2, 2: 1->0, 3: 2->3, 4: 2->1, 5: 3->2; a 4 MB all-gather,
// 1 MB shards. Direct: every XY unicast of the same shard is a separate copy; multicast: one
// copy per sender per link. Eastward, link 0->1 carries die 0's shard three times (to 1, 2, 3),
// link 1->2 carries die 0's twice and die 1's twice; merging keeps one copy of each.
TEST(TcmeEngine, MergesDirectAllGatherDuplicatesIntoTrees) {
    Scenario scenario = mesh(1, 4);
    scenario.traffic = {
        collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 4 * kMB, Algorithm::Direct)};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    const TcmeIteration& first = engine.step();
    EXPECT_EQ(first.mcl, 1); // 1->2 and 2->1 carry 4 MB; the lower id wins
    EXPECT_EQ(first.linkBytesBefore,
              (std::vector<double>{3 * kMB, 4 * kMB, 3 * kMB, 3 * kMB, 4 * kMB, 3 * kMB}));
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::Multicast);
    EXPECT_EQ(first.actions[0].flow, "ag");
    EXPECT_TRUE(first.actions[0].oldPath.empty());
    EXPECT_TRUE(first.actions[0].newPath.empty());
    EXPECT_EQ(first.linkBytesAfter,
              (std::vector<double>{1 * kMB, 2 * kMB, 3 * kMB, 3 * kMB, 2 * kMB, 1 * kMB}));
    // Exactly the duplicates vanish: 0->1 loses die 0's 2 extra copies, 1->2 loses 2, 2->3 none.
    EXPECT_DOUBLE_EQ(first.linkBytesBefore[0] - first.linkBytesAfter[0], 2 * kMB);
    EXPECT_DOUBLE_EQ(first.linkBytesBefore[1] - first.linkBytesAfter[1], 2 * kMB);
    EXPECT_DOUBLE_EQ(first.linkBytesBefore[3] - first.linkBytesAfter[3], 0.0);
    // Three trees share 2->3 (and 1->0): 3 MB at 1 TB/s.
    EXPECT_NEAR(first.after.makespanS, 3e-6, 1e-15);
    EXPECT_LT(first.after.makespanS, first.before.makespanS);
    EXPECT_EQ(engine.tunedScenario().traffic[0].algorithm, Algorithm::Multicast);
    EXPECT_EQ(engine.run(), TcmeStopReason::NoCandidate); // trees on a line have no detour
}

// On a 2x2 mesh a ring all-gather in group order 0,1,2,3 sends 1->2 and 3->0 over two hops:
// 3 steps of 1 MB on each of 6 links (3 us). Per-sender trees carry at most 2 MB per link and
// run at once (2 us). The pin on rank 1's ring flow names a flow the trees do not have as a
// unicast: the merge must drop it, or the merged scenario would not simulate.
TEST(TcmeEngine, MergesAnUnsetAlgorithmAsRingAndDropsItsPins) {
    Scenario scenario = mesh(2, 2);
    scenario.traffic = {collective("ag", OpKind::AllGather, {0, 1, 2, 3}, 4 * kMB, std::nullopt)};
    scenario.routing = RoutingSpec{};
    scenario.routing->paths["ag/s0/r1"] = PinnedRoute{{1, 0, 2}, {}};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeOptions options = optionsFor(scenario);
    options.rerouteFlows = false;
    TcmeEngine engine(scenario, topology, options);
    EXPECT_NEAR(engine.initial().makespanS, 3e-6, 1e-15);
    EXPECT_DOUBLE_EQ(engine.initial().maxLinkBytes, 3 * kMB);
    const TcmeIteration& first = engine.step();
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::Multicast);
    EXPECT_EQ(first.actions[0].detail, "allgather 'ag': ring -> multicast");
    EXPECT_NEAR(first.after.makespanS, 2e-6, 1e-15);
    EXPECT_DOUBLE_EQ(first.after.maxLinkBytes, 2 * kMB);
    const Scenario& tuned = engine.tunedScenario();
    EXPECT_EQ(tuned.traffic[0].algorithm, Algorithm::Multicast);
    ASSERT_TRUE(tuned.routing.has_value());
    EXPECT_TRUE(tuned.routing->paths.empty());
}

// A ring reduce-scatter over a 2x2 rectangle in ring order 0,1,2,3 sends 1->2 and 3->0 over two
// hops; hierarchical (row rings, then column rings) uses only neighbour links and halves the
// row traffic: the hottest link drops from 3/4 of the buffer to 1/2.
TEST(TcmeEngine, MakesARectangleReduceScatterHierarchical) {
    Scenario scenario = mesh(2, 2);
    scenario.traffic = {
        collective("rs", OpKind::ReduceScatter, {0, 1, 2, 3}, 4 * kMB, Algorithm::Ring)};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeOptions options = optionsFor(scenario);
    options.reductionTrees = false; // the hierarchical candidate alone
    TcmeEngine engine(scenario, topology, options);
    EXPECT_DOUBLE_EQ(engine.initial().maxLinkBytes, 3 * kMB);
    const TcmeIteration& first = engine.step();
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::Hierarchical);
    EXPECT_EQ(first.actions[0].flow, "rs");
    EXPECT_DOUBLE_EQ(first.after.maxLinkBytes, 2 * kMB);
    EXPECT_EQ(engine.tunedScenario().traffic[0].algorithm, Algorithm::Hierarchical);
}

TEST(TcmeEngine, NonRectangleGroupGetsNoHierarchicalCandidate) {
    Scenario scenario = mesh(1, 4);
    // Dies 0, 1, 3 do not fill a rectangle.
    scenario.traffic = {
        collective("rs", OpKind::ReduceScatter, {0, 1, 3}, 3 * kMB, Algorithm::Ring)};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    engine.run();
    for (const TcmeIteration& iteration : engine.iterations())
        for (const TcmeAction& action : iteration.actions)
            EXPECT_NE(action.kind, TcmeAction::Kind::Hierarchical);
}

TEST(TcmeEngine, StopsAtMaxIter) {
    Scenario scenario = twoFlowsOnOneLink();
    scenario.tcme = TcmeSpec{};
    scenario.tcme->maxIter = 1;
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    EXPECT_EQ(engine.run(), TcmeStopReason::MaxIter);
    EXPECT_EQ(engine.iterations().size(), 1u);
    EXPECT_EQ(engine.stopReason(), TcmeStopReason::MaxIter);
    EXPECT_EQ(toString(*engine.stopReason()), "max_iter");
}

TEST(TcmeEngine, StopsBelowTargetBeforeAnyIteration) {
    Scenario scenario = twoFlowsOnOneLink();
    scenario.tcme = TcmeSpec{};
    scenario.tcme->targetUtilization = 10.0;
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    EXPECT_TRUE(engine.finished());
    EXPECT_EQ(engine.stopReason(), TcmeStopReason::BelowTarget);
    EXPECT_EQ(engine.run(), TcmeStopReason::BelowTarget);
    EXPECT_TRUE(engine.iterations().empty());
    EXPECT_EQ(engine.tunedScenario(), scenario);
    EXPECT_EQ(toString(TcmeStopReason::BelowTarget), "below_target");
}

TEST(TcmeEngine, StopsOnLowGain) {
    Scenario scenario = twoFlowsOnOneLink();
    scenario.tcme = TcmeSpec{};
    scenario.tcme->minGain = 0.99; // the 50% gain of the first iteration is not enough
    scenario.tcme->patience = 1;
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    EXPECT_EQ(engine.run(), TcmeStopReason::NoGain);
    ASSERT_EQ(engine.iterations().size(), 1u);
    EXPECT_EQ(engine.iterations()[0].actions.size(), 1u); // the gain is still kept
    EXPECT_NEAR(engine.current().makespanS, 1e-6, 1e-18);
    EXPECT_EQ(toString(TcmeStopReason::NoGain), "no_gain");
}

TEST(TcmeEngine, StopsWithNoCandidateForASingleFlowOnALine) {
    Scenario scenario = mesh(1, 3);
    scenario.traffic = {p2p("p", 0, 2, kMB)};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    EXPECT_EQ(engine.run(), TcmeStopReason::NoCandidate);
    ASSERT_EQ(engine.iterations().size(), 1u);
    const TcmeIteration& only = engine.iterations()[0];
    EXPECT_EQ(only.mcl, 0);
    EXPECT_TRUE(only.actions.empty());
    EXPECT_EQ(only.before.makespanS, only.after.makespanS);
    EXPECT_EQ(engine.tunedScenario(), scenario);
    EXPECT_EQ(toString(TcmeStopReason::NoCandidate), "no_candidate");
}

TEST(TcmeEngine, CancelLeavesTheEngineResumable) {
    const Scenario scenario = twoFlowsOnOneLink();
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    int progressCalls = 0;
    const TcmeStopReason stopped = engine.run([&] { return progressCalls >= 1; },
                                              [&](const TcmeIteration&) { ++progressCalls; });
    EXPECT_EQ(progressCalls, 1);
    // A cancelled run says so (it used to answer max_iter, a limit nobody set).
    EXPECT_EQ(stopped, TcmeStopReason::Cancelled);
    EXPECT_EQ(toString(stopped), "cancelled");
    EXPECT_FALSE(engine.finished());
    EXPECT_FALSE(engine.stopReason().has_value());
    EXPECT_EQ(engine.run(), TcmeStopReason::NoCandidate);
}

// A busier case: several crossing p2p flows and a ring all-gather on a 3x3 mesh.
Scenario busy3x3() {
    Scenario scenario = mesh(3, 3);
    scenario.traffic = {
        p2p("p0", 0, 8, 2 * kMB),
        p2p("p1", 1, 7, 2 * kMB),
        p2p("p2", 3, 5, 1 * kMB),
        p2p("p3", 0, 2, 1 * kMB),
        p2p("p4", 6, 2, 3 * kMB),
        collective("ag", OpKind::AllGather, {0, 1, 2, 5, 4, 3}, 6 * kMB, Algorithm::Ring)};
    return scenario;
}

TEST(TcmeEngine, IsNeverWorseAndDeterministic) {
    const Scenario scenario = busy3x3();
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine first(scenario, topology, optionsFor(scenario));
    TcmeEngine second(scenario, topology, optionsFor(scenario));
    first.run();
    second.run();
    EXPECT_LE(first.current().makespanS, first.initial().makespanS * (1 + 1e-12));
    EXPECT_LT(first.current().makespanS, first.initial().makespanS);
    for (const TcmeIteration& iteration : first.iterations())
        EXPECT_LE(iteration.after.makespanS, iteration.before.makespanS * (1 + 1e-12));
    ASSERT_EQ(first.iterations().size(), second.iterations().size());
    for (std::size_t i = 0; i < first.iterations().size(); ++i) {
        const TcmeIteration& a = first.iterations()[i];
        const TcmeIteration& b = second.iterations()[i];
        EXPECT_EQ(a.mcl, b.mcl);
        EXPECT_EQ(a.hotFlows, b.hotFlows);
        EXPECT_EQ(a.linkBytesAfter, b.linkBytesAfter);
        EXPECT_EQ(a.after.makespanS, b.after.makespanS);
        ASSERT_EQ(a.actions.size(), b.actions.size());
        for (std::size_t k = 0; k < a.actions.size(); ++k) {
            EXPECT_EQ(a.actions[k].flow, b.actions[k].flow);
            EXPECT_EQ(a.actions[k].newPath, b.actions[k].newPath);
        }
    }
    EXPECT_EQ(first.tunedScenario(), second.tunedScenario());
    EXPECT_EQ(first.stopReason(), second.stopReason());
}

TEST(TcmeEngine, TunedScenarioReproducesTheResult) {
    for (const Scenario& scenario : {twoFlowsOnOneLink(), busy3x3()}) {
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeEngine engine(scenario, topology, optionsFor(scenario));
        engine.run();
        ASSERT_FALSE(engine.iterations().empty());
        // Through JSON too: the tuned scenario is an ordinary scenario file.
        const Scenario reloaded = parseScenario(toJson(engine.tunedScenario()));
        for (const Scenario& tuned : {engine.tunedScenario(), reloaded}) {
            const ScenarioEvaluation again = evaluateScenario(tuned, topology);
            EXPECT_EQ(again.makespanS, engine.current().makespanS);
            EXPECT_EQ(again.makespanS, engine.iterations().back().after.makespanS);
            EXPECT_EQ(again.linkBytes, engine.iterations().back().linkBytesAfter);
        }
    }
}

// In the store-and-forward model every candidate is simulated whole (no forked fluid run); the
// tuned scenario reproduces the result in the same model.
TEST(TcmeEngine, WorksInTheStoreAndForwardModel) {
    for (const Scenario& base : {twoFlowsOnOneLink(), busy3x3()}) {
        Scenario scenario = base;
        scenario.network = NetworkSpec{NetworkModel::StoreAndForward, Quantity{262144, ""}, {}};
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeEngine engine(scenario, topology, optionsFor(scenario));
        engine.run();
        ASSERT_FALSE(engine.iterations().empty());
        EXPECT_LE(engine.current().makespanS, engine.initial().makespanS);
        const ScenarioEvaluation again = evaluateScenario(engine.tunedScenario(), topology);
        EXPECT_EQ(again.makespanS, engine.current().makespanS);
        EXPECT_EQ(again.linkBytes, engine.iterations().back().linkBytesAfter);
    }
    Scenario scenario = twoFlowsOnOneLink();
    scenario.network = NetworkSpec{NetworkModel::StoreAndForward, Quantity{262144, ""}, {}};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    const TcmeIteration& first = engine.step();
    // Before: "b" (1->3) is ready at link 1->3 at t = 0 and sends its 1 MB first; "a" (0->1->3)
    // crosses 0->1 and then waits: 2 S / B. After: "a" takes 0->2->3 alone, a pipeline of
    // chunks C over 2 hops: (S + C) / B (the last chunk being the remainder).
    EXPECT_NEAR(first.before.makespanS, 2 * kMB / kBandwidth, 1e-15);
    EXPECT_NEAR(first.after.makespanS, (kMB + 262144) / kBandwidth, 1e-15);
}

TEST(TcmeEngine, ParsesItsSettingsFromTheScenario) {
    const Scenario scenario = parseScenario(R"({
        "format": "waferscope.scenario", "version": 1, "name": "t",
        "wafer": { "rows": 2, "cols": 2 },
        "traffic": [ { "id": "a", "op": "p2p", "src": 0, "dst": 3, "bytes": "1 MB" } ],
        "tcme": { "max_iter": 4, "min_gain": 0.1, "patience": 2, "target_utilization": 0.5 }
    })");
    const TcmeOptions options = tcmeOptionsFrom(scenario);
    EXPECT_EQ(options.spec.maxIter, 4);
    EXPECT_DOUBLE_EQ(options.spec.minGain, 0.1);
    EXPECT_EQ(options.spec.patience, 2);
    EXPECT_DOUBLE_EQ(options.spec.targetUtilization, 0.5);
    EXPECT_TRUE(options.splitTransfers);
    EXPECT_EQ(tcmeOptionsFrom(mesh(2, 2)).spec, TcmeSpec{});
    EXPECT_FALSE(toJson(scenario)["tcme"].contains("split_transfers")); // the default: not written
}

// An all-gather of 1 MiB per die over every die of an n x n mesh.
Scenario yardstick(int n, std::optional<Algorithm> algorithm) {
    Scenario scenario = mesh(n, n);
    std::vector<DieId> all(static_cast<std::size_t>(n * n));
    for (DieId die = 0; die < n * n; ++die)
        all[static_cast<std::size_t>(die)] = die;
    scenario.traffic = {
        collective("ag", OpKind::AllGather, all, n * n * kMiB, std::move(algorithm))};
    return scenario;
}

// docs/file-format.md `tcme.split_transfers`: off, candidate (e) is never tried, so the
// yardstick's balanced whole trees are reachable from a file (and the CLI's optimize); the key
// survives a save.
TEST(TcmeEngine, SplitTransfersOffInTheFileStopsAtWholeTrees) {
    Scenario scenario = yardstick(4, Algorithm::Ring);
    scenario.tcme = TcmeSpec{};
    scenario.tcme->splitTransfers = false;
    const Scenario reloaded = parseScenario(toJson(scenario));
    ASSERT_TRUE(reloaded.tcme);
    EXPECT_FALSE(reloaded.tcme->splitTransfers);
    const TcmeOptions options = tcmeOptionsFrom(reloaded);
    EXPECT_FALSE(options.splitTransfers);
    const WaferTopology topology(reloaded.wafer.topologySpec());
    TcmeEngine whole(reloaded, topology, options);
    whole.run();
    for (const TcmeIteration& iteration : whole.iterations())
        for (const TcmeAction& action : iteration.actions)
            EXPECT_NE(action.kind, TcmeAction::Kind::Split);
    EXPECT_LT(whole.current().makespanS, whole.initial().makespanS);
}

// docs/network-model.md section 9 and docs/tcme.md: an all-gather of 1 MiB per die over the 64
// dies of an 8x8 mesh puts 128 shards on the hottest link as XY unicasts (direct), 56 as
// per-source XY trees, and 32 once the trees are balanced (the bound is 31.5: a corner die
// receives 63 shards over two links). With no latency, the 32 trees crossing a link that
// carries 32 share it equally and every other tree is at least as fast: 32 MiB / B exactly.
TEST(TcmeEngine, Yardstick8x8AllGatherReachesBalancedTrees) {
    const Scenario scenario = yardstick(8, Algorithm::Direct);
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    EXPECT_DOUBLE_EQ(engine.initial().maxLinkBytes, 128 * kMiB);
    engine.run();
    // 128 MiB on 1 TB/s: the direct all-gather ends when its hottest link drains.
    EXPECT_NEAR(engine.initial().makespanS, 128 * kMiB / kBandwidth, 1e-15);
    ASSERT_GE(engine.iterations().size(), 2u);
    const TcmeIteration& merge = engine.iterations()[0];
    EXPECT_EQ(merge.mclFrom, 3); // the middle of row 0: 32 sources x 4 destinations each
    EXPECT_EQ(merge.mclTo, 4);
    EXPECT_EQ(merge.conflictFlows, 128);
    EXPECT_EQ(merge.conflictGroups, 1);
    ASSERT_EQ(merge.actions.size(), 1u);
    EXPECT_EQ(merge.actions[0].kind, TcmeAction::Kind::Multicast);
    EXPECT_DOUBLE_EQ(merge.after.maxLinkBytes, 56 * kMiB);
    EXPECT_NEAR(merge.after.makespanS, 56 * kMiB / kBandwidth, 1e-15);

    // Whole trees can reach 32 shards (the retree candidate); split in two, the halves reach the
    // fractional bound, 31.5 shards: a corner die's 63 shards, half over each of its two links.
    const TcmeIteration& split = engine.iterations()[1];
    EXPECT_EQ(split.conflictFlows, 56);
    ASSERT_GE(split.actions.size(), 2u);
    EXPECT_EQ(split.actions[0].kind, TcmeAction::Kind::Split);
    EXPECT_EQ(split.actions[0].flow, "ag");
    for (std::size_t a = 1; a < split.actions.size(); ++a) {
        const TcmeAction& action = split.actions[a];
        EXPECT_EQ(action.kind, TcmeAction::Kind::Retree);
        EXPECT_EQ(action.flow.rfind("ag/s0/r", 0), 0u);
        EXPECT_EQ(action.flow.substr(action.flow.size() - 3, 2), "/p") << action.flow;
        EXPECT_EQ(action.oldTree.size(), 63u); // spanning trees: one link into every other die
        EXPECT_EQ(action.newTree.size(), 63u);
    }
    EXPECT_EQ(engine.tunedScenario().traffic[0].split, 2);
    EXPECT_DOUBLE_EQ(engine.current().maxLinkBytes, 31.5 * kMiB);
    EXPECT_NEAR(engine.current().makespanS, 31.5 * kMiB / kBandwidth, 1e-15);
    EXPECT_EQ(engine.stopReason(), TcmeStopReason::NoCandidate);
}

// The yardstick under the parameters of TACOS (MICRO 2024), whose synthesized all-gathers take
// about 641 us on 8x8 (32.8 shards on the hottest link) and 2,564 us on 16x16: 50 GiB/s and
// 0.5 us per hop, 1 MiB per die, starting from ring all-gathers. TCME merges the ring into XY
// trees, then balances them. Lower bounds: (n^2 - 1) / 2 shards over B, plus the latency of a
// shortest path to the farthest die.
TEST(TcmeEngine, YardstickUnderTacosParametersBeatsTheSynthesizer) {
    constexpr double kGiBPerS = 50.0 * 1024 * 1024 * 1024;
    constexpr double kHopS = 0.5e-6;
    for (const auto& [n, publishedS] : {std::pair{8, 641e-6}, std::pair{16, 2564e-6}}) {
        Scenario scenario = yardstick(n, std::nullopt);
        scenario.wafer.linkBandwidth = Quantity{kGiBPerS, "50 GiB/s"};
        scenario.wafer.linkLatency = Quantity{kHopS, "0.5 us"};
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeEngine engine(scenario, topology, optionsFor(scenario));
        engine.run();
        const double boundShards = (n * n - 1) / 2.0;
        SCOPED_TRACE(n);
        EXPECT_LE(engine.current().makespanS, publishedS);
        EXPECT_GE(engine.current().makespanS, boundShards * kMiB / kGiBPerS + 2 * (n - 1) * kHopS);
        EXPECT_LE(engine.current().maxLinkBytes, (boundShards + 1) * kMiB);
        EXPECT_GE(engine.current().maxLinkBytes, boundShards * kMiB);
        // The tuned file pins every tree and simulates to the same figures.
        const Scenario reloaded = parseScenario(toJson(engine.tunedScenario()));
        const ScenarioEvaluation again = evaluateScenario(reloaded, topology);
        EXPECT_EQ(again.makespanS, engine.current().makespanS);
        EXPECT_EQ(again.linkBytes, engine.iterations().back().linkBytesAfter);
    }
}

// A random unicast mix: 40 transfers of 1 to 8 MB between random dies of a 6x6 mesh, with TCME
// free to iterate (target 1%, up to 30 iterations).
Scenario randomUnicastMix(std::mt19937& random) {
    Scenario scenario = mesh(6, 6);
    for (int f = 0; f < 40; ++f) {
        const auto src = static_cast<DieId>(random() % 36);
        const auto dst = static_cast<DieId>(random() % 36);
        if (src != dst)
            scenario.traffic.push_back(p2p("p" + std::to_string(f), src, dst,
                                           static_cast<double>(1 + random() % 8) * kMB));
    }
    scenario.tcme = TcmeSpec{};
    scenario.tcme->targetUtilization = 0.01;
    scenario.tcme->maxIter = 30;
    return scenario;
}

// Random unicast mixes (40 transfers of 1 to 8 MB on a 6x6 mesh): re-planning all the hot
// unicast flows together against the load (candidate (c), planned, docs/tcme.md) on top of
// rerouting them around the hot link ends lower on most mixes and on the sum of all (measured:
// 12 of 16 lower, 2 level, 2 higher, the sum 5% lower; greedy steps can end in different
// places), never above where it started, and the tuned file reproduces it.
TEST(TcmeEngine, ReplannedPathsEndLowerThanReroutesAroundTheHotLinkAlone) {
    std::mt19937 random(7);
    double aroundSum = 0.0;
    double plannedSum = 0.0;
    int lower = 0;
    int replanned = 0;
    for (int trial = 0; trial < 16; ++trial) {
        const Scenario scenario = randomUnicastMix(random);
        const WaferTopology topology(scenario.wafer.topologySpec());
        // Splits (candidate (e)) off in both: this compares the two ways of routing whole flows.
        TcmeOptions withPlanning = optionsFor(scenario);
        withPlanning.splitTransfers = false;
        TcmeOptions aroundOnly = withPlanning;
        aroundOnly.replanPaths = false;
        TcmeEngine around(scenario, topology, aroundOnly);
        around.run();
        TcmeEngine planned(scenario, topology, withPlanning);
        planned.run();
        SCOPED_TRACE(trial);
        aroundSum += around.current().makespanS;
        plannedSum += planned.current().makespanS;
        lower += planned.current().makespanS < around.current().makespanS ? 1 : 0;
        EXPECT_LE(planned.current().makespanS, planned.initial().makespanS);
        for (const TcmeIteration& iteration : planned.iterations())
            for (const TcmeAction& action : iteration.actions)
                replanned += action.detail.rfind("re-plan", 0) == 0 ? 1 : 0;
        const ScenarioEvaluation again = evaluateScenario(planned.tunedScenario(), topology);
        EXPECT_EQ(again.makespanS, planned.current().makespanS);
    }
    EXPECT_GT(replanned, 0);
    EXPECT_GE(lower, 10);
    EXPECT_LT(plannedSum, 0.97 * aroundSum);
}

// The same random unicast mixes with candidate (e) on: a hot transfer split in two, each half on
// its own path, ends lower on most mixes (measured: 12 of 16 lower, 3 level, 1 higher, the sum
// of the makespans 8% lower: greedy steps can end in different places), never above where it
// started, and the tuned file, with its `split` ops and their halves' paths, reproduces it.
TEST(TcmeEngine, SplitTransfersEndLowerOnRandomUnicastMixes) {
    std::mt19937 random(7);
    double wholeSum = 0.0;
    double splitSum = 0.0;
    int lower = 0, higher = 0, splits = 0;
    for (int trial = 0; trial < 16; ++trial) {
        const Scenario scenario = randomUnicastMix(random);
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeOptions wholeOnly = optionsFor(scenario);
        wholeOnly.splitTransfers = false;
        TcmeEngine whole(scenario, topology, wholeOnly);
        whole.run();
        TcmeEngine split(scenario, topology, optionsFor(scenario));
        split.run();
        SCOPED_TRACE(trial);
        wholeSum += whole.current().makespanS;
        splitSum += split.current().makespanS;
        lower += split.current().makespanS < whole.current().makespanS ? 1 : 0;
        higher += split.current().makespanS > whole.current().makespanS ? 1 : 0;
        EXPECT_LE(split.current().makespanS, split.initial().makespanS);
        for (const TcmeIteration& iteration : split.iterations())
            for (const TcmeAction& action : iteration.actions)
                splits += action.kind == TcmeAction::Kind::Split ? 1 : 0;
        const Scenario reloaded = parseScenario(toJson(split.tunedScenario()));
        const ScenarioEvaluation again = evaluateScenario(reloaded, topology);
        EXPECT_EQ(again.makespanS, split.current().makespanS);
    }
    EXPECT_GT(splits, 0);
    EXPECT_GE(lower, 10);
    EXPECT_LE(higher, 2);
    EXPECT_LT(splitSum, 0.95 * wholeSum);
}

// The mirror of the yardstick: a reduce-scatter of 1 MiB per die over the 64 dies of an 8x8
// mesh under TACOS's parameters, starting as a ring. TCME turns the ring into reduction trees,
// one into each die, and then balances them; a corner die must take in 63 shards of partial sums
// over two links, so the bound is the all-gather's: 31.5 shards over B plus the latency of the
// farthest die's 14 hops. The tuned file pins every reduction tree and reproduces the result.
TEST(TcmeEngine, ReduceScatterBecomesBalancedReductionTrees) {
    constexpr double kGiBPerS = 50.0 * 1024 * 1024 * 1024;
    constexpr double kHopS = 0.5e-6;
    Scenario scenario = yardstick(8, Algorithm::Ring);
    scenario.traffic[0].kind = OpKind::ReduceScatter;
    scenario.traffic[0].id = "rs";
    scenario.wafer.linkBandwidth = Quantity{kGiBPerS, "50 GiB/s"};
    scenario.wafer.linkLatency = Quantity{kHopS, "0.5 us"};
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, optionsFor(scenario));
    engine.run();
    ASSERT_GE(engine.iterations().size(), 2u);
    const TcmeIteration& first = engine.iterations()[0];
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::ReductionTree);
    EXPECT_EQ(first.actions[0].flow, "rs");
    EXPECT_EQ(first.after.maxLinkBytes, 56 * kMiB); // XY reduction trees, as XY multicasts
    int retrees = 0;
    for (const TcmeIteration& iteration : engine.iterations())
        for (const TcmeAction& action : iteration.actions)
            if (action.kind == TcmeAction::Kind::Retree) {
                ++retrees;
                EXPECT_EQ(action.newTree.size(), 63u);
                EXPECT_NE(action.newTree.front().second, action.newTree.front().first);
            }
    EXPECT_GT(retrees, 0);
    EXPECT_EQ(engine.tunedScenario().traffic[0].algorithm, Algorithm::Tree);
    const double boundShards = 63 / 2.0;
    EXPECT_LE(engine.current().maxLinkBytes, (boundShards + 1.5) * kMiB);
    EXPECT_GE(engine.current().maxLinkBytes, boundShards * kMiB);
    EXPECT_LE(engine.current().makespanS, 641e-6); // TACOS's all-gather, as a comparison
    EXPECT_GE(engine.current().makespanS, boundShards * kMiB / kGiBPerS + 14 * kHopS);
    const Scenario reloaded = parseScenario(toJson(engine.tunedScenario()));
    const ScenarioEvaluation again = evaluateScenario(reloaded, topology);
    EXPECT_EQ(again.makespanS, engine.current().makespanS);
    EXPECT_EQ(again.linkBytes, engine.iterations().back().linkBytesAfter);
}

// Balanced trees on a wafer with dead dies and a dead link, in both network models: the trees
// avoid what is dead, TCME never makes things worse, and the tuned scenario reproduces it.
TEST(TcmeEngine, BalancesTreesAroundFaultsInBothNetworkModels) {
    for (const NetworkModel model : {NetworkModel::Fluid, NetworkModel::StoreAndForward}) {
        Scenario scenario = mesh(6, 6);
        scenario.wafer.deadDies = {14, 22};
        scenario.wafer.deadLinks = {LinkRef{2, 3, false}};
        scenario.network = NetworkSpec{model, Quantity{262144, ""}, {}};
        std::vector<DieId> live;
        for (DieId die = 0; die < 36; ++die)
            if (die != 14 && die != 22)
                live.push_back(die);
        scenario.traffic = {
            collective("ag", OpKind::AllGather, live, 34 * kMiB, Algorithm::Multicast)};
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeEngine engine(scenario, topology, optionsFor(scenario));
        engine.run();
        SCOPED_TRACE(toString(model));
        ASSERT_FALSE(engine.iterations().empty());
        const TcmeIteration& first = engine.iterations().front();
        ASSERT_FALSE(first.actions.empty());
        EXPECT_TRUE(
            std::any_of(first.actions.begin(), first.actions.end(),
                        [](const TcmeAction& a) { return a.kind == TcmeAction::Kind::Retree; }));
        EXPECT_LT(engine.current().makespanS, engine.initial().makespanS);
        EXPECT_LT(engine.current().maxLinkBytes, engine.initial().maxLinkBytes);
        const ScenarioEvaluation again = evaluateScenario(engine.tunedScenario(), topology);
        EXPECT_EQ(again.makespanS, engine.current().makespanS);
        for (const EvaluatedFlow& flow : again.flows)
            for (const LinkId link : flow.route.links)
                EXPECT_TRUE(topology.link(link).alive);
    }
}

// Random mixes of multicast all-gathers, a reduce-scatter and unicasts on small meshes: whatever
// TCME keeps, no iteration ends worse than it began, and the tuned scenario reproduces the result.
TEST(TcmeEngine, BalancedTreesNeverMakeARandomMixWorse) {
    std::mt19937 random(20261205);
    int retreesKept = 0;
    for (int trial = 0; trial < 12; ++trial) {
        const int rows = 3 + trial % 3;
        const int cols = 3 + (trial / 3) % 3;
        const int dies = rows * cols;
        Scenario scenario = mesh(rows, cols);
        auto die = [&] { return static_cast<DieId>(random() % static_cast<unsigned>(dies)); };
        for (int op = 0; op < 3; ++op) {
            std::vector<DieId> group;
            for (DieId d = 0; d < dies; ++d)
                if (random() % 2 == 0)
                    group.push_back(d);
            if (group.size() < 2)
                group = {0, static_cast<DieId>(dies - 1)};
            const double bytes = static_cast<double>(1 + random() % 8) * kMB;
            // Two all-gathers as trees, one reduce-scatter as a ring (TCME may make it trees).
            scenario.traffic.push_back(
                collective((op < 2 ? "ag" : "rs") + std::to_string(op),
                           op < 2 ? OpKind::AllGather : OpKind::ReduceScatter, group, bytes,
                           op < 2 ? Algorithm::Multicast : Algorithm::Ring));
        }
        for (int op = 0; op < 4; ++op) {
            const DieId src = die();
            const DieId dst = die();
            if (src != dst)
                scenario.traffic.push_back(p2p("p" + std::to_string(op), src, dst,
                                               static_cast<double>(1 + random() % 8) * kMB));
        }
        const WaferTopology topology(scenario.wafer.topologySpec());
        TcmeEngine engine(scenario, topology, optionsFor(scenario));
        engine.run();
        SCOPED_TRACE(trial);
        for (const TcmeIteration& iteration : engine.iterations()) {
            // Makespans within 1e-12 of each other are the same figure to the objective (a sum
            // of the same bytes in another order), decided on by the hottest link.
            EXPECT_LE(iteration.after.makespanS, iteration.before.makespanS * (1 + 1e-12));
            retreesKept += static_cast<int>(std::count_if(
                iteration.actions.begin(), iteration.actions.end(),
                [](const TcmeAction& a) { return a.kind == TcmeAction::Kind::Retree; }));
        }
        EXPECT_LE(engine.current().makespanS, engine.initial().makespanS);
        const ScenarioEvaluation again = evaluateScenario(engine.tunedScenario(), topology);
        EXPECT_EQ(again.makespanS, engine.current().makespanS);
    }
    EXPECT_GT(retreesKept, 0); // the mixes do exercise the trees
}

// A training step: FSDP over 4 dies of a 2x2 mesh with slow (10 GB/s) links, so the weight
// all-gathers dominate. TCME looks at the critical phase of a backward weight gather, whose ring
// flows make it switch strategy.fsdp_allgather to multicast (the key the strategy parser
// accepts) for a shorter step, and the tuned scenario reproduces the result.
TEST(TcmeEngine, SwitchesFsdpAllGathersOfATrainingStepToMulticast) {
    const Scenario scenario = test::fsdpStep2x2();
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeOptions options = optionsFor(scenario);
    options.spec.targetUtilization = 0.0; // never "below target": let it search
    TcmeEngine engine(scenario, topology, options);
    const TcmeIteration& first = engine.step();
    EXPECT_EQ(first.phaseCollective.rfind("fsdp bwd weights", 0), 0u) << first.phaseCollective;
    EXPECT_GT(first.phaseToS, first.phaseFromS);
    EXPECT_TRUE(std::any_of(first.hotFlows.begin(), first.hotFlows.end(),
                            [](const std::string& id) { return id.rfind("fsdp", 0) == 0; }));
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::Multicast);
    EXPECT_EQ(first.actions[0].flow, "strategy.fsdp_allgather");
    EXPECT_EQ(first.gain, TcmeGain::StepTime);
    EXPECT_GT(first.before.stepS, first.before.makespanS); // the window scaled to the step
    EXPECT_LT(first.after.stepS, first.before.stepS);
    EXPECT_TRUE(engine.tunedScenario().strategy->fsdpAllGatherMulticast);
    engine.run();
    EXPECT_LE(engine.current().makespanS, engine.initial().makespanS);
    const ScenarioEvaluation again = evaluateScenario(engine.tunedScenario(), topology);
    EXPECT_TRUE(again.trainingStep);
    EXPECT_EQ(again.stepS, engine.current().stepS); // optimize's after.step_s, exactly
    EXPECT_EQ(again.makespanS, engine.current().makespanS);
    EXPECT_EQ(again.linkBytes, engine.iterations().back().linkBytesAfter);
}

} // namespace
} // namespace ws
