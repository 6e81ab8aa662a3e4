#include "edit/scenario_edits.h"

#include "io/json_text.h"
#include "io/scenario_io.h"
#include "io/scenario_limits.h"
#include "io/scenario_writer.h"
#include "io/workload_reader.h"
#include "scenario/scenario_error.h"
#include "scenario/transformer_config.h"
#include "scenario/wafer_presets.h"
#include "scenario/workload.h"
#include "search/strategy_scoring.h"
#include "strategy/die_role_swap.h"
#include "strategy/placement.h"
#include "strategy/workload_divisibility.h"
#include "workload/transformer_presets.h"

#include <algorithm>
#include <utility>

namespace ws {

namespace {

// What die ids number, for messages: "the 4x4 wafer", "the 4x8 grid of the system's 1x2 wafers".
std::string gridName(const Scenario& scenario) {
    const std::string grid =
        std::to_string(scenario.gridRows()) + "x" + std::to_string(scenario.gridCols());
    if (!scenario.system)
        return "the " + grid + " wafer";
    return "the " + grid + " grid of the system's " + std::to_string(scenario.system->waferRows) +
           "x" + std::to_string(scenario.system->waferCols) + " wafers";
}

// The core's checks that a training step can be built, without building it; a refusal names
// the key to blame.
void checkSimulates(const Scenario& scenario) {
    try {
        const WaferTopology topology(scenario.topologySpec());
        // The file's own rule, with or without a workload: a saved scenario must read back.
        if (scenario.strategy) {
            if (const std::string problem = sequenceParallelProblem(*scenario.strategy);
                !problem.empty())
                throw ScenarioError("strategy.sequence_parallel", problem);
            if (const std::string problem = tpOverlapProblem(*scenario.strategy); !problem.empty())
                throw ScenarioError("strategy.tp_overlap", problem);
        }
        if (!scenario.strategy || !scenario.workload)
            return;
        checkStrategyAgainstWorkload(*scenario.strategy, *scenario.workload);
        placeStrategy(*scenario.strategy, topology);
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    } catch (const std::invalid_argument& error) { // a wafer or system the topology refuses
        throw EditRefused(EditRefused::Reason::Infeasible,
                          (scenario.system ? "system: " : "wafer: ") + std::string(error.what()));
    }
}

StrategySpec strategyOf(const Scenario& scenario) {
    if (!scenario.strategy)
        throw EditRefused(EditRefused::Reason::NoStrategy,
                          "the scenario has no strategy: choose a model to simulate a training "
                          "step");
    return *scenario.strategy;
}

Scenario withSpec(const Scenario& scenario, const StrategySpec& spec) {
    Scenario after = scenario;
    after.strategy = spec;
    checkSimulates(after);
    return after;
}

// The field of StrategySpec each degree and flag of the edits names.
int StrategySpec::*degreeField(StrategyDegree degree) {
    switch (degree) {
    case StrategyDegree::Dp:
        return &StrategySpec::dp;
    case StrategyDegree::Sp:
        return &StrategySpec::sp;
    case StrategyDegree::Tp:
        return &StrategySpec::tp;
    case StrategyDegree::Tatp:
        return &StrategySpec::tatp;
    case StrategyDegree::Pp:
        return &StrategySpec::pp;
    case StrategyDegree::MicroBatches:
        break;
    }
    return &StrategySpec::microBatches;
}

bool StrategySpec::*flagField(StrategyFlag flag) {
    switch (flag) {
    case StrategyFlag::Fsdp:
        return &StrategySpec::fsdp;
    case StrategyFlag::DoubleBuffering:
        return &StrategySpec::doubleBuffering;
    case StrategyFlag::SequenceParallel:
        break;
    }
    return &StrategySpec::sequenceParallel;
}

} // namespace

Scenario setStrategyDegree(const Scenario& scenario, StrategyDegree degree, int value) {
    if (value < 1)
        throw EditRefused(EditRefused::Reason::Infeasible, "a degree is a positive integer");
    StrategySpec spec = strategyOf(scenario);
    if (degree != StrategyDegree::MicroBatches && spec.mapping == StrategySpec::Explicit) {
        spec.mapping = StrategySpec::Sequential;
        spec.dpGroups.clear();
        spec.tatpGroups.clear();
    }
    spec.*degreeField(degree) = value;
    if (degree == StrategyDegree::Tp && value == 1)
        spec.sequenceParallel = false; // it splits the activations of a TP group: none is left
    return withSpec(scenario, spec);
}

Scenario setStrategyFlag(const Scenario& scenario, StrategyFlag flag, bool on) {
    StrategySpec spec = strategyOf(scenario);
    spec.*flagField(flag) = on;
    return withSpec(scenario, spec);
}

Scenario setActivationCheckpointing(const Scenario& scenario, Checkpointing checkpointing) {
    StrategySpec spec = strategyOf(scenario);
    spec.activationCheckpointing = checkpointing;
    return withSpec(scenario, spec);
}

Scenario setStrategyMapping(const Scenario& scenario, StrategySpec::MappingKind mapping) {
    if (mapping == StrategySpec::Explicit)
        throw EditRefused(EditRefused::Reason::NoChange,
                          "drag dies on the mesh to make an explicit mapping");
    StrategySpec spec = strategyOf(scenario);
    spec.mapping = mapping;
    spec.dpGroups.clear();
    spec.tatpGroups.clear();
    return withSpec(scenario, spec);
}

Scenario setModelPreset(const Scenario& scenario, const std::string& preset) {
    const std::optional<TransformerConfig> model = transformerPreset(preset);
    if (!model)
        throw EditRefused(EditRefused::Reason::Infeasible,
                          "workload.model: no preset is named '" + preset + "'");
    Scenario after = scenario;
    if (!after.workload || after.workload->kind != WorkloadKind::Transformer) {
        // Explicit traffic (or a gemm) becomes a training step of the model on one die; the
        // user then raises the degrees. 2048 tokens and 16 sequences: a small step that
        // simulates at once on any wafer.
        // Built in place: assigning a temporary Workload{} trips GCC 12's -Wmaybe-uninitialized
        // (a false positive on its std::string) in release builds.
        after.workload.emplace();
        after.workload->seqLen = 2048;
        after.workload->globalBatch = 16;
        after.strategy.emplace();
        after.traffic.clear();
        after.routing.reset();
    }
    // A preset replaces a model object or a Hugging Face config, and their "x-..." keys.
    after.workload->model = *model;
    after.workload->modelSource = ModelSource::Preset;
    after.workload->hfConfig.clear();
    after.workload->modelExtensions = nlohmann::json::object();
    checkSimulates(after);
    return after;
}

Scenario setWorkloadSize(const Scenario& scenario, WorkloadSize size, long long value) {
    if (!scenario.workload || scenario.workload->kind != WorkloadKind::Transformer)
        throw EditRefused(EditRefused::Reason::Infeasible,
                          "only a transformer workload has a sequence length and a global batch");
    Scenario after = scenario;
    (size == WorkloadSize::SeqLen ? after.workload->seqLen : after.workload->globalBatch) = value;
    try {
        checkWorkloadSize(*after.workload); // the file's own limits
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    }
    checkSimulates(after);
    return after;
}

Scenario setDieKey(const Scenario& scenario, const std::string& key, const nlohmann::json& value) {
    nlohmann::ordered_json die = toOrderedJson(scenario.wafer.die);
    die[key] = value;
    Scenario after = scenario;
    try {
        after.wafer.die = parseDie(nlohmann::json(die)); // the file's own rules
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    }
    return after;
}

Scenario setLinkKey(const Scenario& scenario, const std::string& key, const nlohmann::json& value) {
    const bool bandwidth = key == "link_bandwidth";
    if (!bandwidth && key != "link_latency")
        throw EditRefused(EditRefused::Reason::Infeasible,
                          "wafer." + key + ": not a link key (link_bandwidth, link_latency)");
    // The file's own rules and messages: a one-die wafer with just this key, read as a file.
    const nlohmann::json probe = {{"format", "waferscope.scenario"},
                                  {"version", 1},
                                  {"wafer", {{"rows", 1}, {"cols", 1}, {key, value}}}};
    Scenario after = scenario;
    try {
        const WaferSpec read = parseScenario(probe).wafer;
        if (bandwidth)
            after.wafer.linkBandwidth = read.linkBandwidth;
        else
            after.wafer.linkLatency = read.linkLatency;
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    }
    return after;
}

Scenario setEnergyKey(const Scenario& scenario, const std::string& key, double value) {
    // The file's own rules and messages: this wafer's energy with the key changed, read back.
    const nlohmann::json probe = {
        {"format", "waferscope.scenario"},
        {"version", 1},
        {"wafer", {{"rows", 1}, {"cols", 1}, {"energy", {{key, value}}}}}};
    Scenario after = scenario;
    try {
        const EnergySpec read = parseScenario(probe).wafer.energy;
        if (key == "d2d_pj_per_bit")
            after.wafer.energy.d2dPicojoulesPerBit = read.d2dPicojoulesPerBit;
        else if (key == "hbm_pj_per_bit")
            after.wafer.energy.hbmPicojoulesPerBit = read.hbmPicojoulesPerBit;
        else if (key == "flops_per_joule")
            after.wafer.energy.flopsPerJoule = read.flopsPerJoule;
        else // an "x-..." key the reader keeps as an extension: not an energy figure
            throw EditRefused(EditRefused::Reason::Infeasible,
                              "wafer.energy." + key +
                                  ": not an energy key (d2d_pj_per_bit, hbm_pj_per_bit, "
                                  "flops_per_joule)");
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    }
    return after;
}

Scenario setDieSpeed(const Scenario& scenario, DieId die, double speed) {
    const std::string key = "wafer.faults.slow_dies." + std::to_string(die);
    if (die < 0 || die >= scenario.dieCount()) // ids number a system's whole grid
        throw EditRefused(EditRefused::Reason::OffWafer,
                          key + ": " + gridName(scenario) + " has no die " + std::to_string(die));
    const std::vector<DieId>& dead = scenario.wafer.deadDies;
    if (std::find(dead.begin(), dead.end(), die) != dead.end())
        throw EditRefused(EditRefused::Reason::DieUnavailable,
                          key + ": die " + std::to_string(die) +
                              " is dead (wafer.faults.dies), so it cannot be slow");
    if (!(speed > 0.0 && speed <= 1.0)) // also refuses NaN
        throw EditRefused(EditRefused::Reason::Infeasible,
                          key +
                              ": a die's speed is the fraction of its peak it reaches, above "
                              "0 and at most 1, got " +
                              numberText(speed));
    Scenario after = scenario;
    if (speed == 1.0)
        after.wafer.slowDies.erase(die); // the file keeps only dies below their peak
    else
        after.wafer.slowDies[die] = speed;
    return after;
}

Scenario setDieDead(const Scenario& scenario, DieId die, bool dead) {
    const std::string key = "wafer.faults.dies";
    if (die < 0 || die >= scenario.dieCount())
        throw EditRefused(EditRefused::Reason::OffWafer,
                          key + ": " + gridName(scenario) + " has no die " + std::to_string(die));
    Scenario after = scenario;
    std::vector<DieId>& deadDies = after.wafer.deadDies;
    const auto found = std::find(deadDies.begin(), deadDies.end(), die);
    if ((found != deadDies.end()) == dead)
        throw EditRefused(EditRefused::Reason::NoChange, key + ": die " + std::to_string(die) +
                                                             " is already " +
                                                             (dead ? "dead" : "alive"));
    if (dead) {
        deadDies.insert(std::upper_bound(deadDies.begin(), deadDies.end(), die), die);
        after.wafer.slowDies.erase(die);
    } else {
        deadDies.erase(found);
    }
    return after;
}

Scenario setLinkDead(const Scenario& scenario, const WaferTopology& topology, DieId from, DieId to,
                     bool dead) {
    const std::string key = "wafer.faults.links";
    const std::string name = std::to_string(from) + "->" + std::to_string(to);
    if (!topology.contains(from) || !topology.contains(to) || !topology.linkBetween(from, to))
        throw EditRefused(EditRefused::Reason::OffWafer,
                          key + ": no link joins die " + std::to_string(from) + " to die " +
                              std::to_string(to) +
                              (topology.isCluster() ? " (a cluster's faults are its GPUs')" : ""));
    Scenario after = scenario;
    std::vector<LinkRef>& links = after.wafer.deadLinks;
    const auto covers = [&](const LinkRef& ref) {
        return (ref.from == from && ref.to == to) ||
               (ref.bothDirections && ref.from == to && ref.to == from);
    };
    const auto found = std::find_if(links.begin(), links.end(), covers);
    if ((found != links.end()) == dead)
        throw EditRefused(EditRefused::Reason::NoChange,
                          key + ": link " + name + " is already " + (dead ? "dead" : "alive"));
    if (dead) {
        links.push_back(LinkRef{from, to, false});
    } else if (found->bothDirections) {
        *found = LinkRef{to, from, false}; // the other direction stays dead
    } else {
        links.erase(found);
    }
    return after;
}

Scenario setStrategyBalance(const Scenario& scenario, StrategySpec::Balance balance) {
    StrategySpec spec = strategyOf(scenario);
    spec.balance = balance;
    return withSpec(scenario, spec);
}

Scenario resizeWafer(const Scenario& scenario, int rows, int cols) {
    Scenario after = scenario;
    after.wafer.rows = rows;
    after.wafer.cols = cols;
    if (after.system &&
        (after.gridRows() > limits::kMaxWaferSide || after.gridCols() > limits::kMaxWaferSide))
        throw EditRefused(EditRefused::Reason::Infeasible,
                          "system.wafers: " + gridName(after) +
                              " is too large: a grid has at most 256 rows and 256 columns");
    // Ids number a system's whole grid, which the wafer's size scales.
    const long long dies = after.dieCount();
    auto onWafer = [&](DieId die) { return die >= 0 && die < dies; };
    for (const TrafficOp& op : after.traffic) {
        const bool fits = std::all_of(op.group.begin(), op.group.end(), onWafer) &&
                          (op.kind != OpKind::P2P || (onWafer(op.src) && onWafer(op.dst)));
        if (!fits)
            throw EditRefused(EditRefused::Reason::OffWafer,
                              "traffic: op '" + op.id + "' uses a die that " + gridName(after) +
                                  " does not have");
    }
    std::erase_if(after.wafer.deadDies, [&](DieId die) { return !onWafer(die); });
    std::erase_if(after.wafer.slowDies, [&](const auto& slow) { return !onWafer(slow.first); });
    std::erase_if(after.wafer.deadLinks,
                  [&](const LinkRef& link) { return !onWafer(link.from) || !onWafer(link.to); });
    checkSimulates(after);
    return after;
}

Scenario setNetworkModel(const Scenario& scenario, NetworkModel model, double chunkBytes) {
    if (!(chunkBytes >= limits::kMinChunkBytes && chunkBytes <= limits::kMaxOpBytes))
        throw EditRefused(EditRefused::Reason::Infeasible,
                          "network.chunk: must be at least 64 bytes (a flit) and at most 1 PB, "
                          "got " +
                              numberText(chunkBytes) + " bytes");
    Scenario after = scenario;
    NetworkSpec network = scenario.network.value_or(NetworkSpec{});
    network.model = model;
    if (network.chunk.value != chunkBytes)
        network.chunk = Quantity{chunkBytes, numberText(chunkBytes / 1024) + " KiB"};
    after.network = network;
    return after;
}

Scenario setWaferPreset(const Scenario& scenario, const std::string& preset) {
    std::optional<WaferSpec> wafer = waferPreset(preset);
    if (!wafer) {
        const std::string problem = "no preset is named '" + preset + "'; the presets are " +
                                    joinedNames(waferPresetNames());
        throw EditRefused(EditRefused::Reason::Infeasible, "wafer.preset: " + problem);
    }
    const WaferSpec& before = scenario.wafer;
    wafer->rows = before.rows;
    wafer->cols = before.cols;
    wafer->deadDies = before.deadDies;
    wafer->deadLinks = before.deadLinks;
    wafer->slowDies = before.slowDies;
    wafer->extensions = before.extensions;
    Scenario after = scenario;
    after.wafer = std::move(*wafer);
    checkSimulates(after); // a dead wrap-around link on a torus that becomes a mesh, say
    return after;
}

DieMove planDieMove(const WaferTopology& topology, const std::vector<DieId>& selection,
                    DieId anchor, DieId target) {
    if (!topology.contains(anchor) || !topology.contains(target))
        throw EditRefused(EditRefused::Reason::OffWafer, "drop the dies on a die of the wafer");
    const DieCoord from = topology.coord(anchor);
    const DieCoord to = topology.coord(target);
    DieMove move;
    move.rows = to.row - from.row;
    move.cols = to.col - from.col;
    if (move.rows == 0 && move.cols == 0)
        throw EditRefused(EditRefused::Reason::NoChange,
                          "dropped where it started: nothing to change");
    // From the far end of the move backwards: a chain of swaps is then a translation.
    std::vector<DieId> ordered = selection;
    std::sort(ordered.begin(), ordered.end(), [&](DieId a, DieId b) {
        const DieCoord ca = topology.coord(a);
        const DieCoord cb = topology.coord(b);
        return ca.row * move.rows + ca.col * move.cols > cb.row * move.rows + cb.col * move.cols;
    });
    for (DieId die : ordered) {
        const DieCoord c = topology.coord(die);
        const DieCoord moved{c.row + move.rows, c.col + move.cols};
        if (moved.row < 0 || moved.col < 0 || moved.row >= topology.rows() ||
            moved.col >= topology.cols())
            throw EditRefused(EditRefused::Reason::OffWafer,
                              "die " + std::to_string(die) + " would move off the wafer");
        move.swaps.emplace_back(die, topology.dieAt(moved));
    }
    return move;
}

Scenario swapDies(const Scenario& scenario, const WaferTopology& topology,
                  const std::vector<std::pair<DieId, DieId>>& swaps) {
    Scenario after = scenario;
    try {
        for (const auto& [a, b] : swaps)
            after = swapDieRoles(after, topology, a, b);
    } catch (const DieSwapRefused& refused) {
        throw EditRefused(EditRefused::Reason::DieUnavailable, refused.what());
    } catch (const ScenarioError& error) {
        throw EditRefused(EditRefused::Reason::Infeasible, error.what());
    }
    return after;
}

Scenario moveDies(const Scenario& scenario, const WaferTopology& topology,
                  const std::vector<DieId>& selection, DieId anchor, DieId target) {
    return swapDies(scenario, topology, planDieMove(topology, selection, anchor, target).swaps);
}

Scenario applySearchedStrategy(const Scenario& scenario, const Scenario& searched,
                               const Scenario& best, const StrategySpec& strategy) {
    if (!(scenario.wafer == searched.wafer) || scenario.system != searched.system ||
        scenario.workload != searched.workload)
        throw EditRefused(EditRefused::Reason::Mismatch,
                          "the wafer or the model changed since the search: search again");
    Scenario unchanged = scenario;
    unchanged.strategy = searched.strategy;
    unchanged.routing = searched.routing;
    if (best.strategy && strategy == *best.strategy && unchanged == searched)
        return best;
    return withStrategy(scenario, strategy);
}

Scenario applyTunedRoutes(const Scenario& scenario, const Scenario& tuned) {
    // What TCME may change, copied from `tuned`; everything else must already agree.
    Scenario after = scenario;
    after.routing = tuned.routing;
    bool sameOps = after.traffic.size() == tuned.traffic.size();
    for (std::size_t i = 0; sameOps && i < after.traffic.size(); ++i) {
        sameOps = after.traffic[i].id == tuned.traffic[i].id;
        after.traffic[i].algorithm = tuned.traffic[i].algorithm;
    }
    if (after.strategy && tuned.strategy) {
        after.strategy->fsdpAllGatherMulticast = tuned.strategy->fsdpAllGatherMulticast;
        after.strategy->fsdpReduceScatterTree = tuned.strategy->fsdpReduceScatterTree;
    }
    Scenario comparable = tuned;
    comparable.tcme = after.tcme; // TCME_MAX_ITER may have set the tuned copy's
    if (!sameOps || !(after == comparable))
        throw EditRefused(EditRefused::Reason::Mismatch,
                          "the scenario changed since TCME ran: run it again");
    return after;
}

} // namespace ws
