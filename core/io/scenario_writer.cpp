#include "io/scenario_writer.h"

#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/cluster_presets.h"
#include "scenario/wafer_presets.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ws {
namespace {

using nlohmann::ordered_json;

constexpr std::size_t kLineWidth = 100;

// A quantity as the user wrote it: its text, or the plain number (an integer when exact, so
// that 64000000 is not written 64000000.0).
ordered_json quantityJson(const Quantity& quantity) {
    if (!quantity.text.empty())
        return quantity.text;
    return quantity.value;
}

ordered_json energyJson(const EnergySpec& energy) {
    ordered_json out = ordered_json::object();
    out["d2d_pj_per_bit"] = energy.d2dPicojoulesPerBit;
    out["hbm_pj_per_bit"] = energy.hbmPicojoulesPerBit;
    out["flops_per_joule"] = energy.flopsPerJoule;
    addExtensions(out, energy.extensions);
    return out;
}

// `faults` of a wafer or a cluster's GPUs.
ordered_json faultsJson(const WaferSpec& wafer) {
    ordered_json links = ordered_json::array();
    for (const LinkRef& link : wafer.deadLinks)
        links.push_back(std::to_string(link.from) + (link.bothDirections ? "-" : "->") +
                        std::to_string(link.to));
    ordered_json faults = {{"dies", wafer.deadDies}, {"links", links}};
    if (!wafer.slowDies.empty()) {
        ordered_json slow = ordered_json::object();
        for (const auto& [die, speed] : wafer.slowDies)
            slow[std::to_string(die)] = speed;
        faults["slow_dies"] = std::move(slow);
    }
    return faults;
}

// A tier's protocols as the file writes them (docs/file-format.md "Protocols").
ordered_json protocolsJson(const std::vector<ProtocolSpec>& protocols) {
    ordered_json out = ordered_json::array();
    for (const ProtocolSpec& protocol : protocols) {
        ordered_json entry = ordered_json::object();
        entry["name"] = protocol.name;
        entry["latency"] = quantityJson(protocol.latency);
        if (protocol.efficiency)
            entry["efficiency"] = *protocol.efficiency;
        else
            entry["bus_bandwidth"] = quantityJson(*protocol.busBandwidth);
        addExtensions(entry, protocol.extensions);
        out.push_back(std::move(entry));
    }
    return out;
}

// Every key of `wafer` but the preset's name, in the documented order.
ordered_json waferKeysJson(const WaferSpec& wafer) {
    ordered_json out = ordered_json::object();
    out["rows"] = wafer.rows;
    out["cols"] = wafer.cols;
    out["topology"] = toString(wafer.topology);
    out["link_bandwidth"] = quantityJson(wafer.linkBandwidth);
    out["link_latency"] = quantityJson(wafer.linkLatency);
    out["die"] = toOrderedJson(wafer.die);
    out["energy"] = energyJson(wafer.energy);
    out["protocols"] = protocolsJson(wafer.protocols);
    out["faults"] = faultsJson(wafer);
    addExtensions(out, wafer.extensions);
    return out;
}

// The keys of `keys` whose value is not the one `base` has; an object ("die", "energy",
// "faults") is compared key by key, so that it keeps only the keys that differ, and is dropped
// when none does. Reading the result over `base` gives `keys` again.
ordered_json keysThatDiffer(const ordered_json& keys, const ordered_json& base) {
    ordered_json out = ordered_json::object();
    for (auto it = keys.begin(); it != keys.end(); ++it) {
        const auto inBase = base.find(it.key());
        if (inBase == base.end()) {
            out[it.key()] = it.value();
        } else if (it.value().is_object() && inBase->is_object()) {
            ordered_json changed = keysThatDiffer(it.value(), *inBase);
            if (!changed.empty())
                out[it.key()] = std::move(changed);
        } else if (it.value() != *inBase) {
            out[it.key()] = it.value();
        }
    }
    return out;
}

// A wafer made from a preset is written as the user writes one: the preset's name, then only
// the keys that override it (rows and cols too: a preset applied to a resized wafer keeps the
// size). A name that is no preset (a scenario built in code) is written with every key, so
// nothing is lost; reading it back refuses the name.
ordered_json waferJson(const WaferSpec& wafer) {
    ordered_json keys = waferKeysJson(wafer);
    if (!wafer.preset) {
        // The reader's default without a preset: a file that never had the key keeps its text.
        if (wafer.protocols == defaultWaferProtocols())
            keys.erase("protocols");
        return keys;
    }
    ordered_json out = ordered_json::object();
    out["preset"] = *wafer.preset;
    const std::optional<WaferSpec> preset = waferPreset(*wafer.preset);
    if (preset)
        keys = keysThatDiffer(keys, waferKeysJson(*preset));
    for (auto it = keys.begin(); it != keys.end(); ++it)
        out[it.key()] = it.value();
    return out;
}

// Every key of `cluster` but the preset's name, in the documented order: its GPUs, node switch
// and energy from the WaferSpec of its grid (ClusterSpec).
ordered_json clusterKeysJson(const ClusterSpec& cluster, const WaferSpec& gpus) {
    ordered_json out = ordered_json::object();
    out["nodes"] = gpus.rows;
    out["gpus_per_node"] = gpus.cols;
    out["gpu"] = toOrderedJson(gpus.die);
    ordered_json intra = {{"bandwidth", quantityJson(gpus.linkBandwidth)},
                          {"latency", quantityJson(gpus.linkLatency)},
                          {"protocols", protocolsJson(gpus.protocols)}};
    addExtensions(intra, gpus.extensions);
    out["intra"] = std::move(intra);
    ordered_json inter = ordered_json::object();
    inter["kind"] = toString(cluster.network);
    inter["nic_bandwidth"] = quantityJson(cluster.nicBandwidth);
    inter["latency"] = quantityJson(cluster.interLatency);
    inter["oversubscription"] = cluster.oversubscription;
    inter["nodes_per_leaf"] = cluster.nodesPerLeaf;
    inter["protocols"] = protocolsJson(cluster.interProtocols);
    addExtensions(inter, cluster.interExtensions);
    out["inter"] = std::move(inter);
    out["energy"] = energyJson(gpus.energy);
    if (!gpus.deadDies.empty() || !gpus.slowDies.empty())
        out["faults"] = faultsJson(gpus);
    addExtensions(out, cluster.extensions);
    return out;
}

// As waferJson: a preset's name, then only the keys that override it.
ordered_json clusterJson(const ClusterSpec& cluster, const WaferSpec& gpus) {
    ordered_json keys = clusterKeysJson(cluster, gpus);
    if (!cluster.preset) {
        // Without a preset the protocols default to none: written only when there are some.
        if (gpus.protocols.empty())
            keys["intra"].erase("protocols");
        if (cluster.interProtocols.empty())
            keys["inter"].erase("protocols");
        return keys;
    }
    ordered_json out = ordered_json::object();
    out["preset"] = *cluster.preset;
    if (const std::optional<ClusterPreset> preset = clusterPreset(*cluster.preset))
        keys = keysThatDiffer(keys, clusterKeysJson(preset->cluster, preset->gpus));
    for (auto it = keys.begin(); it != keys.end(); ++it)
        out[it.key()] = it.value();
    return out;
}

// `system` with the keys that are set: links_per_edge and pj_per_bit only when written.
ordered_json systemJson(const SystemSpec& system) {
    ordered_json out = ordered_json::object();
    out["wafers"] = ordered_json::array({system.waferRows, system.waferCols});
    out["link_bandwidth"] = quantityJson(system.linkBandwidth);
    out["link_latency"] = quantityJson(system.linkLatency);
    if (system.linksPerEdge)
        out["links_per_edge"] = *system.linksPerEdge;
    if (system.picojoulesPerBit)
        out["pj_per_bit"] = *system.picojoulesPerBit;
    if (system.protocols != defaultWaferProtocols()) // the reader's default
        out["protocols"] = protocolsJson(system.protocols);
    addExtensions(out, system.extensions);
    return out;
}

ordered_json opJson(const TrafficOp& op) {
    ordered_json out = ordered_json::object();
    out["id"] = op.id;
    out["op"] = toString(op.kind);
    if (op.kind == OpKind::P2P) {
        out["src"] = op.src;
        out["dst"] = op.dst;
    } else {
        out["group"] = op.group;
        if (op.root)
            out["root"] = *op.root;
    }
    out["bytes"] = quantityJson(op.bytes);
    if (op.algorithm)
        out["algorithm"] = toString(*op.algorithm);
    if (op.split != 1)
        out["split"] = op.split;
    if (op.start)
        out["start"] = quantityJson(*op.start);
    if (!op.after.empty())
        out["after"] = op.after;
    addExtensions(out, op.extensions);
    return out;
}

ordered_json routingJson(const RoutingSpec& routing) {
    ordered_json out = ordered_json::object();
    out["mode"] = toString(routing.mode);
    if (!routing.paths.empty()) {
        ordered_json paths = ordered_json::object();
        for (const auto& [flowId, pinned] : routing.paths) {
            if (!pinned.treeEdges.empty()) {
                ordered_json edges = ordered_json::array();
                for (const auto& [from, to] : pinned.treeEdges)
                    edges.push_back({from, to});
                paths[flowId] = edges;
            } else {
                paths[flowId] = pinned.path;
            }
        }
        out["paths"] = paths;
    }
    addExtensions(out, routing.extensions);
    return out;
}

ordered_json tcmeJson(const TcmeSpec& tcme) {
    ordered_json out = ordered_json::object();
    out["max_iter"] = tcme.maxIter;
    out["min_gain"] = tcme.minGain;
    out["patience"] = tcme.patience;
    out["target_utilization"] = tcme.targetUtilization;
    if (!tcme.splitTransfers) // written only when off: files from before the key stay as they were
        out["split_transfers"] = false;
    addExtensions(out, tcme.extensions);
    return out;
}

// Doubles as people write them: 64000000, 0.05, 2e12, 1.5e-6 (the shortest text that reads
// back as the same double; nlohmann would write 2000000000000.0).
std::string doubleText(double value) {
    char buffer[32];
    if (std::trunc(value) == value && std::fabs(value) < 1e9) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return buffer;
    }
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value)
            break;
    }
    std::string text = buffer;
    // "2e+12" -> "2e12", "1.5e-06" -> "1.5e-6"
    if (const std::size_t e = text.find('e'); e != std::string::npos) {
        std::string mantissa = text.substr(0, e);
        std::string exponent = text.substr(e + 1);
        const bool negative = exponent[0] == '-';
        exponent.erase(0, exponent.find_first_not_of("+-0"));
        text = mantissa + "e" + (negative ? "-" : "") + exponent;
    }
    return text;
}

std::string scalarText(const ordered_json& value) {
    if (value.is_number_float() && std::isfinite(value.get<double>()))
        return doubleText(value.get<double>());
    // Replace, not throw, on invalid UTF-8: a scenario built in code may hold any bytes.
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One-line form with a space after ',' and ':', as people write short JSON.
std::string compactText(const ordered_json& value) {
    if (value.is_object()) {
        std::string text = "{";
        for (auto it = value.begin(); it != value.end(); ++it)
            text += (it == value.begin() ? "" : ", ") + scalarText(it.key()) + ": " +
                    compactText(it.value());
        return text + "}";
    }
    if (value.is_array()) {
        std::string text = "[";
        for (std::size_t i = 0; i < value.size(); ++i)
            text += (i == 0 ? "" : ", ") + compactText(value[i]);
        return text + "]";
    }
    return scalarText(value);
}

// Appends `value`, which starts at column `column` of a line indented by `indent`.
void appendValue(std::string& out, const ordered_json& value, std::size_t indent,
                 std::size_t column, bool forceExpand) {
    const std::string compact = compactText(value);
    if (!value.is_structured() || value.empty() ||
        (!forceExpand && column + compact.size() + 1 <= kLineWidth)) {
        out += compact;
        return;
    }
    const std::string inner(indent + 2, ' ');
    const bool object = value.is_object();
    out += object ? "{\n" : "[\n";
    std::size_t index = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++index) {
        out += inner;
        std::size_t valueColumn = inner.size();
        if (object) {
            const std::string key = scalarText(it.key()) + ": ";
            out += key;
            valueColumn += key.size();
        }
        appendValue(out, it.value(), indent + 2, valueColumn, false);
        out += index + 1 < value.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + (object ? "}" : "]");
}

} // namespace

nlohmann::ordered_json toOrderedJson(const DieSpec& die) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["peak_flops"] = quantityJson(die.peakFlops);
    out["sram"] = quantityJson(die.sram);
    out["hbm"] = quantityJson(die.hbm);
    out["hbm_bandwidth"] = quantityJson(die.hbmBandwidth);
    out["efficiency"] = die.efficiency;
    out["task_overhead"] = quantityJson(die.taskOverhead);
    out["gemm_tile"] = die.gemmTile;
    out["sram_reserve"] = die.sramReserve;
    addExtensions(out, die.extensions);
    return out;
}

void addExtensions(ordered_json& object, const nlohmann::json& extensions) {
    for (const auto& [key, value] : extensions.items())
        object[key] = value;
}

ordered_json toOrderedJson(const Scenario& scenario) {
    ordered_json out = ordered_json::object();
    out["format"] = "waferscope.scenario";
    out["version"] = 1;
    out["name"] = scenario.name;
    if (!scenario.description.empty())
        out["description"] = scenario.description;
    if (scenario.cluster)
        out["cluster"] = clusterJson(*scenario.cluster, scenario.wafer);
    else
        out["wafer"] = waferJson(scenario.wafer);
    if (scenario.system)
        out["system"] = systemJson(*scenario.system);
    if (scenario.workload)
        out["workload"] = toOrderedJson(*scenario.workload);
    if (scenario.strategy)
        out["strategy"] = toOrderedJson(*scenario.strategy);
    if (!scenario.traffic.empty()) {
        ordered_json traffic = ordered_json::array();
        for (const TrafficOp& op : scenario.traffic)
            traffic.push_back(opJson(op));
        out["traffic"] = traffic;
    }
    if (scenario.routing)
        out["routing"] = routingJson(*scenario.routing);
    if (scenario.tcme)
        out["tcme"] = tcmeJson(*scenario.tcme);
    if (scenario.network) {
        ordered_json network = ordered_json::object();
        network["model"] = toString(scenario.network->model);
        network["chunk"] = quantityJson(scenario.network->chunk);
        addExtensions(network, scenario.network->extensions);
        out["network"] = network;
    }
    addExtensions(out, scenario.extensions);
    return out;
}

std::string formatScenarioText(const Scenario& scenario) {
    std::string text;
    appendValue(text, toOrderedJson(scenario), 0, 0, true);
    return text + "\n";
}

nlohmann::json toJson(const Scenario& scenario) {
    return nlohmann::json(toOrderedJson(scenario));
}

} // namespace ws
