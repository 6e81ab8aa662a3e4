// TCME's fast path for reroute candidates (RoutePatcher, then a FluidSimulation of the current
// problem forked where the first rerouted flow starts) must give exactly, bit for bit, what the
// slow path gives: evaluateScenario of the edited scenario, rebuilt from scratch.
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "sim/fluid_simulation.h"
#include "sim/fluid_simulator.h"
#include "tcme/bypass_path.h"
#include "tcme/route_patcher.h"
#include "tcme/scenario_evaluation.h"
#include "tcme/tcme_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ws {
namespace {

using Pins = std::map<std::string, std::vector<DieId>>;

Scenario load(const std::string& name) {
    return loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + name);
}

// Fails at the first difference (a training step has ten thousand flows: one message is enough).
void expectSameEvaluation(const ScenarioEvaluation& fast, const ScenarioEvaluation& slow) {
    EXPECT_EQ(fast.makespanS, slow.makespanS);
    EXPECT_EQ(fast.linkBytes, slow.linkBytes);
    EXPECT_EQ(fast.linkBandwidth, slow.linkBandwidth);
    EXPECT_EQ(fast.trainingStep, slow.trainingStep);
    ASSERT_EQ(fast.flows.size(), slow.flows.size());
    for (std::size_t f = 0; f < fast.flows.size(); ++f) {
        const EvaluatedFlow& a = fast.flows[f];
        const EvaluatedFlow& b = slow.flows[f];
        const bool same = a.id == b.id && a.group == b.group && a.kind == b.kind &&
                          a.opIndex == b.opIndex && a.src == b.src && a.dsts == b.dsts &&
                          a.bytes == b.bytes && a.multicast == b.multicast && a.route == b.route &&
                          a.startS == b.startS && a.lastByteS == b.lastByteS && a.endS == b.endS;
        if (!same) {
            ADD_FAILURE() << "flow " << f << " ('" << a.id << "') differs";
            return;
        }
    }
}

void expectSameResult(const SimResult& a, const SimResult& b) {
    EXPECT_EQ(a.makespanS, b.makespanS);
    EXPECT_EQ(a.linkBytes, b.linkBytes);
    EXPECT_EQ(a.linkBusyS, b.linkBusyS);
    EXPECT_EQ(a.dieComputeS, b.dieComputeS);
    EXPECT_EQ(a.rateRecomputations, b.rateRecomputations);
    ASSERT_EQ(a.tasks.size(), b.tasks.size());
    for (std::size_t t = 0; t < a.tasks.size(); ++t) {
        const TaskTiming& x = a.tasks[t];
        const TaskTiming& y = b.tasks[t];
        if (x.readyS != y.readyS || x.startS != y.startS || x.lastByteS != y.lastByteS ||
            x.endS != y.endS) {
            ADD_FAILURE() << "task " << t << " timing differs";
            return;
        }
    }
}

// What TCME tries first: the largest hot unicast flows on the most loaded link (ties by id),
// each on its bypass path, at most `count` of them.
Pins reroutes(const ScenarioEvaluation& evaluation, const WaferTopology& topology,
              std::size_t count) {
    const LinkId mcl = evaluation.maxLink();
    std::vector<const EvaluatedFlow*> hot;
    for (const EvaluatedFlow& flow : evaluation.flows)
        if (!flow.multicast && flow.dsts.size() == 1 &&
            std::find(flow.route.links.begin(), flow.route.links.end(), mcl) !=
                flow.route.links.end())
            hot.push_back(&flow);
    std::stable_sort(hot.begin(), hot.end(), [](const EvaluatedFlow* a, const EvaluatedFlow* b) {
        return a->bytes != b->bytes ? a->bytes > b->bytes : a->id < b->id;
    });
    Pins pins;
    for (const EvaluatedFlow* flow : hot) {
        if (pins.size() >= count)
            break;
        const auto path = bypassPath(topology, flow->src, flow->dsts[0], mcl, evaluation.linkBytes);
        if (path && *path != flow->route.path)
            pins.emplace(flow->id, *path);
    }
    return pins;
}

Scenario withPins(Scenario scenario, const Pins& pins) {
    if (!scenario.routing)
        scenario.routing = RoutingSpec{};
    for (const auto& [id, path] : pins)
        scenario.routing->paths[id] = PinnedRoute{path, {}};
    return scenario;
}

std::set<std::string> idsOf(const Pins& pins) {
    std::set<std::string> ids;
    for (const auto& entry : pins)
        ids.insert(entry.first);
    return ids;
}

PreparedScenario evaluated(const Scenario& scenario, const WaferTopology& topology) {
    PreparedScenario prepared = prepareScenario(scenario, topology);
    completeEvaluation(prepared, simulate(prepared.problem));
    return prepared;
}

// The fast path on `prepared` (left as it was, except that its evaluation is returned patched):
// the patched problem simulated by a fork of the current problem's run, checked against a whole
// simulation of the patched problem.
ScenarioEvaluation patchedEvaluation(PreparedScenario prepared, const WaferTopology& topology,
                                     const Pins& pins) {
    const RoutePatcher patcher(prepared, topology, idsOf(pins));
    auto patches = patcher.patches(pins);
    if (!patches) {
        ADD_FAILURE() << "the patcher declined";
        return {};
    }
    double readyS = std::numeric_limits<double>::infinity();
    std::vector<TaskId> tasks;
    for (const RoutePatch& patch : *patches) {
        const auto flow = static_cast<std::size_t>(patch.flow);
        readyS = std::min(readyS, prepared.evaluation.flows[flow].startS);
        tasks.push_back(prepared.flowTasks[flow]);
    }
    FluidSimulation current(prepared.problem);
    current.runUntil(readyS);
    FluidSimulation fork = current;
    swapPatchedLinks(prepared, *patches);
    fork.switchTo(prepared.problem, tasks);
    fork.runToEnd();
    const SimResult whole = simulate(prepared.problem);
    swapPatchedLinks(prepared, *patches);
    expectSameResult(fork.result(), whole);
    applyPatches(prepared, std::move(*patches));
    completeEvaluation(prepared, fork.takeResult());
    return prepared.evaluation;
}

void expectFastPathMatches(const Scenario& scenario, std::size_t singles) {
    const WaferTopology topology(scenario.wafer.topologySpec());
    const PreparedScenario current = evaluated(scenario, topology);
    ASSERT_TRUE(current.independentRoutes);
    const Pins all = reroutes(current.evaluation, topology, 8);
    ASSERT_FALSE(all.empty());
    std::size_t tried = 0;
    for (const auto& [id, path] : all) {
        if (tried++ == singles)
            break;
        SCOPED_TRACE("reroute " + id);
        const Pins one{{id, path}};
        expectSameEvaluation(patchedEvaluation(current, topology, one),
                             evaluateScenario(withPins(scenario, one), topology));
    }
    if (all.size() < 2)
        return;
    SCOPED_TRACE("all reroutes together");
    expectSameEvaluation(patchedEvaluation(current, topology, all),
                         evaluateScenario(withPins(scenario, all), topology));
}

TEST(RoutePatcher, FastPathMatchesARebuildOnTheTeachingExample) {
    expectFastPathMatches(load("contention_fsdp_tatp_4x4.json"), 8);
}

TEST(RoutePatcher, FastPathMatchesARebuildOnTheGpt3TrainingStep) {
    expectFastPathMatches(load("gpt3_175b_6x8_fsdp_tatp.json"), 2);
}

// Pins on top of pins: an already tuned scenario (its reroutes pinned) rerouted again.
TEST(RoutePatcher, FastPathMatchesARebuildOnTopOfEarlierPins) {
    const Scenario base = load("contention_fsdp_tatp_4x4.json");
    const WaferTopology topology(base.wafer.topologySpec());
    const Pins first = reroutes(evaluateScenario(base, topology), topology, 1);
    ASSERT_EQ(first.size(), 1u);
    expectFastPathMatches(withPins(base, first), 8);
}

TEST(RoutePatcher, DeclinesWhatItCannotDeriveExactly) {
    const Scenario scenario = load("contention_fsdp_tatp_4x4.json");
    const WaferTopology topology(scenario.wafer.topologySpec());
    const PreparedScenario current = evaluated(scenario, topology);
    const EvaluatedFlow& flow = current.evaluation.flows.front();
    ASSERT_FALSE(flow.multicast);
    const RoutePatcher patcher(current, topology, {flow.id, "no such flow"});
    // Not joined by links, or not from the flow's source: a rebuild would reject the pin.
    EXPECT_FALSE(patcher.patches({{flow.id, {flow.src, 15}}}).has_value());
    EXPECT_FALSE(patcher.patches({{flow.id, {flow.dsts[0]}}}).has_value());
    EXPECT_FALSE(patcher.patches({{flow.id, {}}}).has_value());
    EXPECT_THROW(evaluateScenario(withPins(scenario, {{flow.id, {flow.src, 15}}}), topology),
                 ScenarioError);
    // A flow the patcher has not indexed (here: none has that id).
    EXPECT_FALSE(patcher.patches({{"no such flow", {0, 1}}}).has_value());
    // Its own route pinned: accepted, and the patch is that route.
    const auto same = patcher.patches({{flow.id, flow.route.path}});
    ASSERT_TRUE(same.has_value());
    ASSERT_EQ(same->size(), 1u);
    EXPECT_EQ((*same)[0].route, flow.route);

    // Load-aware routing: a pin could move the flows routed after it, so never patch.
    Scenario shortest = scenario;
    shortest.routing->mode = RoutingMode::Shortest;
    const PreparedScenario loadAware = evaluated(shortest, topology);
    EXPECT_FALSE(loadAware.independentRoutes);
    EXPECT_FALSE(RoutePatcher(loadAware, topology, {flow.id})
                     .patches({{flow.id, flow.route.path}})
                     .has_value());
    // Faults: a route crossing one detours by a load-aware shortest path.
    Scenario faulty = scenario;
    faulty.wafer.deadDies = {15};
    const WaferTopology faultyTopology(faulty.wafer.topologySpec());
    EXPECT_FALSE(evaluated(faulty, faultyTopology).independentRoutes);
}

// A multicast flow: a pinned path on it is read as a tree, which the patcher leaves to a rebuild.
TEST(RoutePatcher, DeclinesMulticastFlows) {
    Scenario scenario = load("contention_fsdp_tatp_4x4.json");
    for (TrafficOp& op : scenario.traffic)
        if (op.kind == OpKind::AllGather)
            op.algorithm = Algorithm::Multicast;
    const WaferTopology topology(scenario.wafer.topologySpec());
    const PreparedScenario current = evaluated(scenario, topology);
    const auto multicast =
        std::find_if(current.evaluation.flows.begin(), current.evaluation.flows.end(),
                     [](const EvaluatedFlow& flow) { return flow.multicast; });
    ASSERT_NE(multicast, current.evaluation.flows.end());
    const RoutePatcher patcher(current, topology, {multicast->id});
    EXPECT_FALSE(
        patcher.patches({{multicast->id, {multicast->src, multicast->dsts[0]}}}).has_value());
}

// The whole engine with its default options and with `vary` applied to them take the same steps
// to the last bit.
void expectSameRunEitherWay(Scenario scenario, int candidatesPerIteration,
                            const std::function<void(TcmeOptions&)>& vary) {
    if (!scenario.tcme)
        scenario.tcme = TcmeSpec{};
    scenario.tcme->targetUtilization = 1e-9; // iterate even on a compute-bound step
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeOptions defaults = tcmeOptionsFrom(scenario);
    defaults.maxCandidatesPerIteration = candidatesPerIteration;
    TcmeOptions changed = defaults;
    vary(changed);
    TcmeEngine reference(scenario, topology, defaults);
    TcmeEngine varied(scenario, topology, changed);
    EXPECT_EQ(reference.run(), varied.run());
    ASSERT_EQ(reference.iterations().size(), varied.iterations().size());
    for (std::size_t i = 0; i < reference.iterations().size(); ++i) {
        const TcmeIteration& a = reference.iterations()[i];
        const TcmeIteration& b = varied.iterations()[i];
        SCOPED_TRACE("iteration " + std::to_string(i));
        EXPECT_EQ(a.mcl, b.mcl);
        EXPECT_EQ(a.hotFlows, b.hotFlows);
        EXPECT_EQ(a.queueingDelayS, b.queueingDelayS);
        ASSERT_EQ(a.actions.size(), b.actions.size());
        for (std::size_t k = 0; k < a.actions.size(); ++k) {
            EXPECT_EQ(a.actions[k].flow, b.actions[k].flow);
            EXPECT_EQ(a.actions[k].newPath, b.actions[k].newPath);
            EXPECT_EQ(a.actions[k].detail, b.actions[k].detail);
        }
        EXPECT_EQ(a.linkBytesAfter, b.linkBytesAfter);
        EXPECT_EQ(a.after.makespanS, b.after.makespanS);
        EXPECT_EQ(a.after.maxUtilization, b.after.maxUtilization);
    }
    expectSameEvaluation(reference.currentEvaluation(), varied.currentEvaluation());
    // And the tuned scenario, rebuilt, reproduces what the reference ended with.
    expectSameEvaluation(reference.currentEvaluation(),
                         evaluateScenario(reference.tunedScenario(), topology));
}

// Patching (the default) and rebuilding every candidate.
void rebuildEveryCandidate(TcmeOptions& options) {
    options.patchRoutes = false;
}

TEST(TcmeEngine, PatchingAndRebuildingTakeTheSameStepsOnTheTeachingExample) {
    expectSameRunEitherWay(load("contention_fsdp_tatp_4x4.json"), 8, rebuildEveryCandidate);
}

TEST(TcmeEngine, PatchingAndRebuildingTakeTheSameStepsOnTheGpt3TrainingStep) {
    // Three reroutes per iteration keep the rebuilding engine's share of a debug run short.
    expectSameRunEitherWay(load("gpt3_175b_6x8_fsdp_tatp.json"), 3, rebuildEveryCandidate);
}

// The candidates simulated on a pool of threads (the default: one per core) and all on the
// caller's thread. Three threads, more than the two cores of our CI machine, so that the
// rebuilt candidates finish in varying orders.
TEST(TcmeEngine, TheThreadCountDoesNotChangeTheSteps) {
    const auto oneThread = [](TcmeOptions& options) { options.threads = 1; };
    const auto threeThreads = [](TcmeOptions& options) { options.threads = 3; };
    // The teaching example (candidates rebuilt beside the forked reroutes) and a reduce-scatter
    // (reduction trees rebuilt).
    expectSameRunEitherWay(load("contention_fsdp_tatp_4x4.json"), 8, oneThread);
    expectSameRunEitherWay(load("contention_fsdp_tatp_4x4.json"), 8, threeThreads);
    expectSameRunEitherWay(load("reducescatter_trees_8x8.json"), 8, oneThread);
}

// The figures the original engine (rebuilding every candidate) produced for the GPT-3 step, to
// the last bit: the fast paths must not change them. (Re-pinned when the compute and memory
// model of docs/compute-model.md landed: the step's tasks now pay HBM traffic and overhead; and
// again when the window became three layers with the overlap schedule; and when the max-min
// solver began to keep the rates below a change's floor, which moved the queueing delays by one
// and 104 ulps: rounding, not a rate, as MaxMinSolver's oracle test checks; and when TCME began
// to judge a step by the step time and over its collectives' critical phases (docs/tcme.md). The
// hottest phase is the exposed gradient reduce-scatter at the window's end (link 3->4 98.5% busy)
// where nothing helped, so the first iteration fell back to the window's busiest link; and when
// reduction trees came (docs/tcme.md): the first iteration now turns that reduce-scatter into
// reduction trees, the second switches the all-gathers to multicast as the first did before; and
// when the solver's re-solve began to follow the flows' bottlenecks, which moved the second
// iteration's queueing delay by one ulp; and when every strategy came under one set of rules
// (docs/compute-model.md section 4: residency per task, TATP rounds that overflow SRAM re-read
// their stationary block; docs/network-model.md section 4.8: protocols): the second iteration now
// turns the step's rings bidirectional (section 4.7), the third switches the all-gathers to
// multicast, and the run stops for want of gain.)
TEST(TcmeEngine, Gpt3TrainingStepFiguresAreUnchanged) {
    Scenario scenario = load("gpt3_175b_6x8_fsdp_tatp.json");
    scenario.tcme = TcmeSpec{};
    scenario.tcme->targetUtilization = 1e-9;
    const WaferTopology topology(scenario.wafer.topologySpec());
    TcmeEngine engine(scenario, topology, tcmeOptionsFrom(scenario));
    EXPECT_EQ(engine.initial().makespanS, 0x1.3f7194a798765p-4);
    EXPECT_EQ(engine.initial().maxLinkBytes, 0x1.0368f92590b36p+35);
    EXPECT_EQ(engine.initial().stepS, 0x1.2a96656109c44p+3);
    EXPECT_EQ(engine.initial().maxUtilization, 0x1.f91b38933ef5dp-1);
    EXPECT_EQ(engine.run(), TcmeStopReason::NoGain);
    ASSERT_EQ(engine.iterations().size(), 3u);
    const TcmeIteration& first = engine.iterations()[0];
    EXPECT_EQ(first.phaseCollective, "dp grad reduce-scatter g0 #64");
    EXPECT_EQ(first.mclFrom, 3);
    EXPECT_EQ(first.mclTo, 4);
    EXPECT_EQ(first.queueingDelayS, 0x1.42afe835b66cfp-10);
    ASSERT_EQ(first.actions.size(), 1u);
    EXPECT_EQ(first.actions[0].kind, TcmeAction::Kind::ReductionTree);
    EXPECT_EQ(first.actions[0].flow, "strategy.fsdp_reducescatter");
    EXPECT_EQ(first.gain, TcmeGain::StepTime);
    EXPECT_EQ(first.after.makespanS, 0x1.3ec1495cc6d69p-4);
    EXPECT_EQ(first.after.maxLinkBytes, 0x1.f0cf1661642fp+34);
    EXPECT_EQ(first.after.stepS, 0x1.2a90e306b3375p+3);
    const TcmeIteration& second = engine.iterations()[1];
    EXPECT_EQ(second.phaseCollective, "dp grad reduce-scatter g0 #64");
    EXPECT_EQ(second.queueingDelayS, 0x1.62f4b2a17bfbdp-9);
    ASSERT_EQ(second.actions.size(), 1u);
    EXPECT_EQ(second.actions[0].kind, TcmeAction::Kind::BidirectionalRing);
    EXPECT_EQ(second.actions[0].flow, "strategy.ring_algorithm");
    EXPECT_EQ(second.gain, TcmeGain::StepTime);
    EXPECT_EQ(second.after.stepS, 0x1.2a90d59ab9e9fp+3);
    const TcmeIteration& third = engine.iterations()[2];
    EXPECT_TRUE(third.phaseCollective.empty()); // the whole window's busiest link
    EXPECT_EQ(third.queueingDelayS, 0x1.9dc46e090b2fp-6);
    ASSERT_EQ(third.actions.size(), 1u);
    EXPECT_EQ(third.actions[0].kind, TcmeAction::Kind::Multicast);
    EXPECT_EQ(third.after.makespanS, 0x1.3cb4993a3a246p-4);
    EXPECT_EQ(third.after.maxLinkBytes, 0x1.98c3a6ba6f4fep+34);
    EXPECT_EQ(third.after.stepS, 0x1.2a807d859ed1ap+3);
}

} // namespace
} // namespace ws
