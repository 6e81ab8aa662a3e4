#include "sweep/fault_sample.h"

#include "scenario/scenario_error.h"
#include "step/step_plan.h"
#include "strategy/placement.h"
#include "strategy/workload_divisibility.h"
#include "topology/wafer_topology.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ws {

namespace {

// splitmix64's output function (Steele, Lea and Flood, 2014): a bijection of 64-bit words whose
// every output bit depends on every input bit, so nearby (seed, sample, point) triples give
// unrelated engine seeds.
std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E37'79B9'7F4A'7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58'476D'1CE4'E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D0'49BB'1331'11EBULL;
    return x ^ (x >> 31);
}

// A uniform draw from 0 .. n - 1 (n >= 1), by rejection: outputs at or above the largest
// multiple of n would favour the small values.
std::size_t below(std::mt19937_64& engine, std::size_t n) {
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = max - max % n;
    for (;;)
        if (const std::uint64_t draw = engine(); draw < limit)
            return static_cast<std::size_t>(draw % n);
}

// llround(rate * n) of `candidates`, uniformly: a partial Fisher-Yates shuffle, returned sorted.
template <typename T>
std::vector<T> chooseFraction(std::vector<T> candidates, double rate, std::mt19937_64& engine) {
    const std::size_t n = candidates.size();
    const auto count =
        std::min(n, static_cast<std::size_t>(std::llround(rate * static_cast<double>(n))));
    for (std::size_t i = 0; i < count; ++i)
        std::swap(candidates[i], candidates[i + below(engine, n - i)]);
    candidates.resize(count);
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

void checkRate(double rate, const char* name) {
    if (!(rate >= 0.0 && rate < 1.0))
        throw std::invalid_argument(std::string("sampleFaults: ") + name +
                                    " must be in [0, 1), got " + std::to_string(rate));
}

std::vector<DieId> liveDies(const WaferTopology& topology) {
    std::vector<DieId> dies;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (topology.isAlive(die))
            dies.push_back(die);
    return dies;
}

bool workloadAccepts(const StrategySpec& strategy, const std::optional<Workload>& workload) {
    if (!workload)
        return true;
    try {
        checkStrategyAgainstWorkload(strategy, *workload);
        return true;
    } catch (const ScenarioError&) {
        return false;
    }
}

// The largest dp below strategy.dp whose dies fit `live` and that the workload accepts, or
// nullopt when there is none (or when the strategy already fits).
std::optional<int> fittingDp(const StrategySpec& strategy, const std::optional<Workload>& workload,
                             int live) {
    const int perReplica = strategy.sp * strategy.tp * strategy.tatp;
    if (perReplica < 1 || strategy.dp < 1 || strategy.dieCount() <= live)
        return std::nullopt; // degrees below 1 are the placement's error to report
    StrategySpec candidate = strategy;
    for (candidate.dp = std::min(strategy.dp - 1, live / perReplica); candidate.dp >= 1;
         --candidate.dp)
        if (workloadAccepts(candidate, workload))
            return candidate.dp;
    return std::nullopt;
}

// The dead dies an explicit mapping's groups name, ascending.
std::vector<DieId> deadGroupDies(const StrategySpec& strategy, const WaferTopology& topology) {
    std::set<DieId> dead;
    for (const auto* groups : {&strategy.dpGroups, &strategy.tatpGroups})
        for (const std::vector<DieId>& group : *groups)
            for (DieId die : group)
                if (topology.contains(die) && !topology.isAlive(die))
                    dead.insert(die);
    return {dead.begin(), dead.end()};
}

std::string dieList(const std::vector<DieId>& dies) {
    std::string text;
    for (DieId die : dies)
        text += (text.empty() ? "" : ", ") + std::to_string(die);
    return text;
}

// Places the strategy again after die faults (see sampleFaults); returns what changed.
std::string replaceStrategy(Scenario& scenario, const WaferTopology& topology) {
    if (!scenario.strategy)
        return {};
    StrategySpec& strategy = *scenario.strategy;
    const int live = static_cast<int>(liveDies(topology).size());
    std::vector<std::string> changes;
    const std::optional<int> dp = fittingDp(strategy, scenario.workload, live);
    const std::vector<DieId> deadInGroups = strategy.mapping == StrategySpec::Explicit
                                                ? deadGroupDies(strategy, topology)
                                                : std::vector<DieId>{};
    if (strategy.mapping == StrategySpec::Explicit && (!deadInGroups.empty() || dp)) {
        strategy.mapping = StrategySpec::Snake;
        strategy.dpGroups.clear();
        strategy.tatpGroups.clear();
        const std::string why = deadInGroups.empty()
                                    ? "its groups were drawn for dp " + std::to_string(strategy.dp)
                                    : (deadInGroups.size() == 1 ? "die " : "dies ") +
                                          dieList(deadInGroups) + " of its groups died";
        changes.push_back("mapping explicit -> snake: " + why);
    }
    if (dp) {
        changes.push_back("dp " + std::to_string(strategy.dp) + " -> " + std::to_string(*dp) +
                          ": " + std::to_string(live) + " of " +
                          std::to_string(topology.dieCount()) + " dies live");
        strategy.dp = *dp;
    }
    std::string note;
    for (const std::string& change : changes)
        note += (note.empty() ? "" : "; ") + change;
    return note;
}

// Whether `strategy` suits the workload and its step fits a die's SRAM and HBM.
bool fitsInMemory(const StrategySpec& strategy, const Workload& workload, const DieSpec& die) {
    if (!workloadAccepts(strategy, workload))
        return false;
    return !buildStepPlan(workload, strategy, die).memory.outOfMemory();
}

// A smaller dp holds more of the model on each die (FSDP's shards over fewer replicas) and more
// sequences per replica: when the re-placed strategy no longer fits its dies' memory, it is
// planned again as a user would, with more micro-batches (fewer activations at once), then with
// full recomputation as well, the first that fits (docs/cli.md section 10). Returns what changed,
// or "" (nothing needed to, or nothing fits: the point then fails out of memory).
std::string refitMemory(Scenario& scenario) {
    if (!scenario.strategy || !scenario.workload ||
        scenario.workload->kind != WorkloadKind::Transformer)
        return {};
    StrategySpec& strategy = *scenario.strategy;
    const Workload& workload = *scenario.workload;
    const DieSpec& die = scenario.wafer.die;
    if (fitsInMemory(strategy, workload, die))
        return {};
    const long long batch = workload.globalBatch;
    std::vector<Checkpointing> checkpointings = {strategy.activationCheckpointing};
    if (strategy.activationCheckpointing != Checkpointing::Full)
        checkpointings.push_back(Checkpointing::Full);
    for (const Checkpointing checkpointing : checkpointings)
        for (long long micro = strategy.microBatches; micro <= batch; ++micro) {
            if (batch % micro != 0 || (batch / micro) % strategy.dp != 0)
                continue;
            StrategySpec candidate = strategy;
            candidate.microBatches = static_cast<int>(micro);
            candidate.activationCheckpointing = checkpointing;
            if (candidate == strategy || !fitsInMemory(candidate, workload, die))
                continue;
            std::string note;
            if (candidate.microBatches != strategy.microBatches)
                note = "micro_batches " + std::to_string(strategy.microBatches) + " -> " +
                       std::to_string(candidate.microBatches);
            if (checkpointing != strategy.activationCheckpointing)
                note += std::string(note.empty() ? "" : " and ") + "full recomputation";
            strategy = candidate;
            return note + " to fit in memory";
        }
    return {};
}

// The live dies outside the largest strongly connected part of the live links, ascending: the
// dies a collective over the rest could not reach or hear from.
std::vector<DieId> cutOffDies(const WaferTopology& topology) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph graph(static_cast<std::size_t>(topology.dieCount()));
    for (const LinkProperties& link : topology.links())
        if (link.alive)
            boost::add_edge(static_cast<std::size_t>(link.from), static_cast<std::size_t>(link.to),
                            graph);
    std::vector<int> component(static_cast<std::size_t>(topology.dieCount()));
    boost::strong_components(graph, boost::make_iterator_property_map(
                                        component.begin(), boost::get(boost::vertex_index, graph)));
    std::map<int, int> sizes; // component -> live dies in it
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (topology.isAlive(die))
            ++sizes[component[static_cast<std::size_t>(die)]];
    if (sizes.size() <= 1)
        return {};
    const int largest =
        std::max_element(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->first;
    std::vector<DieId> cutOff;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (topology.isAlive(die) && component[static_cast<std::size_t>(die)] != largest)
            cutOff.push_back(die);
    return cutOff;
}

// A snake mapping needs a rectangle of live dies joined by live links for every TATP group;
// faults soon leave too few. Then the groups are placed in order over the live dies instead
// (the sequential mapping, whose routes go around the faults), as a user would re-place them.
// Returns what changed, or "".
std::string fallBackToSequential(Scenario& scenario) {
    if (!scenario.strategy || scenario.strategy->mapping != StrategySpec::Snake)
        return {};
    const WaferTopology topology(scenario.topologySpec());
    try {
        placeStrategy(*scenario.strategy, topology);
        return {};
    } catch (const ScenarioError&) {
        StrategySpec sequential = *scenario.strategy;
        sequential.mapping = StrategySpec::Sequential;
        try {
            placeStrategy(sequential, topology);
        } catch (const ScenarioError&) {
            return {}; // neither places: the point fails with the snake mapping's reason
        }
        scenario.strategy = sequential;
        return "mapping snake -> sequential: the faults leave no room for its groups' "
               "rectangles";
    }
}

// Drops the pinned routes (routing.paths, TCME's tuning) that cross a dead die or link: as a route
// that meets a fault takes a live path (docs/network-model.md section 5), those flows follow the
// routing mode instead of failing the point. Returns how many were dropped.
int dropDeadPins(Scenario& scenario) {
    if (!scenario.routing || scenario.routing->paths.empty())
        return 0;
    const WaferTopology topology(scenario.topologySpec());
    auto liveHop = [&](DieId from, DieId to) {
        if (!topology.contains(from) || !topology.contains(to))
            return false;
        const std::optional<LinkId> link = topology.linkBetween(from, to);
        return topology.isAlive(from) && topology.isAlive(to) && link && topology.link(*link).alive;
    };
    const std::size_t before = scenario.routing->paths.size();
    std::erase_if(scenario.routing->paths, [&](const auto& entry) {
        const PinnedRoute& pin = entry.second;
        for (std::size_t i = 0; i + 1 < pin.path.size(); ++i)
            if (!liveHop(pin.path[i], pin.path[i + 1]))
                return true;
        for (const auto& [from, to] : pin.treeEdges)
            if (!liveHop(from, to))
                return true;
        return false;
    });
    return static_cast<int>(before - scenario.routing->paths.size());
}

} // namespace

bool isFaultAxis(std::string_view key) {
    return key == kDieRateAxis || key == kLinkRateAxis;
}

std::uint64_t faultSeed(std::uint64_t seed, int sample, std::size_t point) {
    return splitmix64(splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(sample)) ^
                      static_cast<std::uint64_t>(point));
}

FaultedScenario sampleFaults(const Scenario& base, double dieRate, double linkRate,
                             std::uint64_t seed, int sample, std::size_t point) {
    checkRate(dieRate, "dieRate");
    checkRate(linkRate, "linkRate");
    FaultedScenario result{base, 0, 0, 0, {}};
    // Faults go into the wafer; topologies come from the scenario, whose grid is a system's
    // whole grid of dies (the ids the faults use), and see the faults added so far.
    WaferSpec& wafer = result.scenario.wafer;
    std::mt19937_64 engine(faultSeed(seed, sample, point));

    const std::vector<DieId> dies =
        chooseFraction(liveDies(WaferTopology(result.scenario.topologySpec())), dieRate, engine);
    for (DieId die : dies) {
        wafer.deadDies.push_back(die);
        wafer.slowDies.erase(die); // a dead die is never slow (the file refuses both)
    }
    result.diesKilled = static_cast<int>(dies.size());

    const WaferTopology afterDies(result.scenario.topologySpec());
    std::vector<std::pair<DieId, DieId>> liveLinks;
    for (const LinkProperties& link : afterDies.links())
        if (link.alive)
            liveLinks.emplace_back(link.from, link.to);
    const std::vector<std::pair<DieId, DieId>> links =
        chooseFraction(std::move(liveLinks), linkRate, engine);
    for (const auto& [from, to] : links)
        wafer.deadLinks.push_back(LinkRef{from, to, false});
    result.linksKilled = static_cast<int>(links.size());

    // A die that dead links cut off (no live path to or from the rest) cannot take part in a
    // collective: it is left out of the placement as a dead die would be.
    const std::vector<DieId> isolated = cutOffDies(WaferTopology(result.scenario.topologySpec()));
    for (DieId die : isolated) {
        wafer.deadDies.push_back(die);
        wafer.slowDies.erase(die);
    }
    result.diesCutOff = static_cast<int>(isolated.size());
    if (!isolated.empty())
        result.note = std::to_string(isolated.size()) +
                      (isolated.size() == 1 ? " die cut off by dead links is left out"
                                            : " dies cut off by dead links are left out");
    if (result.diesKilled > 0 || result.diesCutOff > 0) {
        const std::string replaced =
            replaceStrategy(result.scenario, WaferTopology(result.scenario.topologySpec()));
        if (!replaced.empty()) {
            result.note += (result.note.empty() ? "" : "; ") + replaced;
            const std::string refitted = refitMemory(result.scenario);
            if (!refitted.empty())
                result.note += "; " + refitted;
        }
    }
    if (result.diesKilled > 0 || result.linksKilled > 0) {
        const std::string mapping = fallBackToSequential(result.scenario);
        if (!mapping.empty())
            result.note += (result.note.empty() ? "" : "; ") + mapping;
    }
    const int dropped = dropDeadPins(result.scenario);
    if (dropped > 0)
        result.note += (result.note.empty() ? "" : "; ") + std::to_string(dropped) +
                       (dropped == 1 ? " pinned route crossed a fault and follows"
                                     : " pinned routes crossed a fault and follow") +
                       " the routing mode";
    return result;
}

} // namespace ws
