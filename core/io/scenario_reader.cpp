// parseScenario(const nlohmann::json&): the validating reader of docs/file-format.md.
//
// Every check throws ScenarioError(keyPath, problem) for the first problem found, so a message
// always names one key. Objects are checked in a fixed order: unknown keys first, then the
// fields in the order the documentation lists them; wafer and system come before traffic and
// routing because their die ids are checked against the grid the two make, and the wafer's
// faults are read after system for the same reason.

#include "io/scenario_io.h"

#include "io/json_text.h"
#include "io/json_values.h"
#include "io/scenario_limits.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"
#include "scenario/cluster_presets.h"
#include "scenario/wafer_presets.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ws {
namespace {

using nlohmann::json;

using limits::kMaxLinkBandwidth;
using limits::kMaxLinkLatency;
using limits::kMaxOpBytes;
using limits::kMaxOpSplit;
using limits::kMaxOpStart;
using limits::kMaxTcmeIterations;
using limits::kMaxWaferSide;
using limits::kMinChunkBytes;

// Integer fields of this file are ints.
int readIntRange(const json& value, const std::string& path, int low, int high) {
    return static_cast<int>(readIntegerInRange(value, path, low, high));
}

std::string baseUnit(Dimension dimension) {
    switch (dimension) {
    case Dimension::Bytes:
        return "bytes";
    case Dimension::Seconds:
        return "seconds";
    case Dimension::BytesPerSecond:
        return "bytes per second";
    case Dimension::FlopsPerSecond:
        return "FLOP per second";
    case Dimension::Flops:
        return "FLOP";
    }
    return "base units";
}

// A number in SI base units, or a string with a unit ("4 TB/s"), whose text is kept.
Quantity readQuantity(const json& value, const std::string& path, Dimension dimension) {
    if (value.is_number()) {
        const double number = readNumber(value, path);
        if (number < 0)
            failAt(path, numberText(number) + " is negative");
        return Quantity{number, {}};
    }
    if (!value.is_string())
        failAt(path, "expected " + dimensionName(dimension) + " (a number in " +
                         baseUnit(dimension) + " or a string with a unit), got " +
                         jsonTypeName(value));
    Quantity quantity;
    quantity.text = value.get<std::string>();
    try {
        quantity.value = parseQuantity(quantity.text, dimension);
    } catch (const UnitError& error) {
        failAt(path, error.what());
    }
    return quantity;
}

// How the user wrote a quantity, for messages: "'4 TB/s'" or "4e+15".
std::string shown(const Quantity& quantity) {
    return quantity.text.empty() ? numberText(quantity.value) : "'" + quantity.text + "'";
}

void checkPositive(const Quantity& quantity, const std::string& path) {
    if (!(quantity.value > 0))
        failAt(path, "must be greater than 0, got " + shown(quantity));
}

void checkAtMost(const Quantity& quantity, const std::string& path, double limit,
                 const std::string& limitText) {
    if (quantity.value > limit)
        failAt(path, shown(quantity) + " is absurd: more than " + limitText);
}

// The enum spellings for messages: "p2p, allgather, ...".
template <typename Enum> std::vector<std::string> spellings(std::initializer_list<Enum> values) {
    std::vector<std::string> names;
    for (Enum value : values)
        names.push_back(toString(value));
    return names;
}

template <typename Enum, typename FromString>
Enum readEnum(const json& value, const std::string& path, const std::string& what,
              FromString fromString, const std::vector<std::string>& names) {
    const std::string text = readString(value, path);
    const std::optional<Enum> parsed = fromString(text);
    if (!parsed)
        failAt(path, "unknown " + what + " '" + text + "'; expected one of " + joinedNames(names) +
                         didYouMean(text, names));
    return *parsed;
}

const std::vector<std::string> kOpNames =
    spellings({OpKind::P2P, OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllReduce,
               OpKind::Broadcast, OpKind::AllToAll});
const std::vector<std::string> kAlgorithmNames =
    spellings({Algorithm::Ring, Algorithm::Multicast, Algorithm::Hierarchical, Algorithm::Direct,
               Algorithm::Tree, Algorithm::BidirectionalRing});
const std::vector<std::string> kRoutingModeNames =
    spellings({RoutingMode::XY, RoutingMode::YX, RoutingMode::Shortest, RoutingMode::Adaptive});
const std::vector<std::string> kTopologyNames =
    spellings({TopologyKind::Mesh, TopologyKind::Torus});
const std::vector<std::string> kNetworkModelNames =
    spellings({NetworkModel::Fluid, NetworkModel::StoreAndForward});

// Why no link joins `from` and `to` when they face each other across the edge of two wafers
// of a system: of that edge's die pairs, only system.links_per_edge are joined (WaferTopology).
// Empty when a link joins them or they are not such a pair (then they are not neighbours).
std::string unjoinedPairProblem(const WaferTopology& topology, DieId from, DieId to) {
    if (topology.linkBetween(from, to) || topology.waferOf(from) == topology.waferOf(to) ||
        topology.manhattanDistance(from, to) != 1)
        return {};
    // The edge's pairs run down the rows of a vertical edge, along the columns of a
    // horizontal one; `a` is the pair's die nearer the top left.
    const DieCoord a = topology.coord(std::min(from, to));
    const bool vertical = a.row == topology.coord(std::max(from, to)).row;
    const int edge = vertical ? topology.waferRows() : topology.waferCols();
    const int start = vertical ? a.row - a.row % edge : a.col - a.col % edge;
    std::vector<std::string> joined;
    for (int at = start; at < start + edge; ++at) {
        const DieId x = topology.dieAt(vertical ? DieCoord{at, a.col} : DieCoord{a.row, at});
        const DieId y =
            topology.dieAt(vertical ? DieCoord{at, a.col + 1} : DieCoord{a.row + 1, at});
        if (topology.linkBetween(x, y))
            joined.push_back(std::to_string(x) + "-" + std::to_string(y));
    }
    std::string which = std::to_string(joined.size()) + " of them";
    if (joined.size() <= 8) {
        which.clear();
        for (std::size_t i = 0; i < joined.size(); ++i)
            which += (i == 0 ? "" : i + 1 == joined.size() ? " and " : ", ") + joined[i];
    }
    return "dies " + std::to_string(from) + " and " + std::to_string(to) +
           " face each other across the edge of two wafers, but no off-wafer link joins them: "
           "of that edge's " +
           std::to_string(edge) + " die pairs, system.links_per_edge joins " + which;
}

// Die ids checked against the grid read so far: the wafer's, or the whole grid of a system's
// wafers (ids run row-major over it).
class DieChecker {
public:
    // `whole` names what the ids number in messages: "wafer" or "system".
    DieChecker(const WaferTopology& topology, std::string whole)
        : m_topology(topology), m_whole(std::move(whole)) {}

    void checkRange(std::int64_t id, const std::string& path) const {
        if (id < 0 || id >= m_topology.dieCount())
            failAt(path, "die " + std::to_string(id) + " is out of range (this " + m_whole +
                             " has dies 0 to " + std::to_string(m_topology.dieCount() - 1) + ")");
    }

    // An integer naming a die of this wafer or system (dead or alive).
    DieId inRange(const json& value, const std::string& path) const {
        const std::int64_t id = readInteger(value, path);
        checkRange(id, path);
        return static_cast<DieId>(id);
    }

    // A die that can send, receive or forward traffic.
    DieId alive(const json& value, const std::string& path) const {
        const DieId die = inRange(value, path);
        if (!m_topology.isAlive(die))
            failAt(path, "die " + std::to_string(die) + " is dead (wafer.faults.dies)");
        return die;
    }

    // A vertex a pinned route may cross: a live die, or on a cluster also a switch (vertex ids
    // from the GPU count on, WaferTopology), which is how TCME's saved reroutes name them.
    DieId routeVertex(const json& value, const std::string& path) const {
        const std::int64_t id = readInteger(value, path);
        if (m_topology.isCluster() && id >= m_topology.dieCount() && id < m_topology.vertexCount())
            return static_cast<DieId>(id);
        if (m_topology.isCluster() && id >= m_topology.dieCount())
            failAt(path, "vertex " + std::to_string(id) + " is out of range (this cluster has " +
                             "GPUs 0 to " + std::to_string(m_topology.dieCount() - 1) +
                             " and switches " + std::to_string(m_topology.dieCount()) + " to " +
                             std::to_string(m_topology.vertexCount() - 1) + ")");
        return alive(value, path);
    }

    // The live link from -> to, for pinned routes; `path` names the entry holding `to`.
    void liveLink(DieId from, DieId to, const std::string& path) const {
        const std::optional<LinkId> link = m_topology.linkBetween(from, to);
        if (!link) {
            const std::string unjoined = unjoinedPairProblem(m_topology, from, to);
            failAt(path, !unjoined.empty()
                             ? unjoined
                             : "dies " + std::to_string(from) + " and " + std::to_string(to) +
                                   " are not neighbours, so no link joins them");
        }
        if (!m_topology.link(*link).alive)
            failAt(path, "the link " + linkName(m_topology.link(*link)) +
                             " is dead (wafer.faults.links)");
    }

    const WaferTopology& topology() const { return m_topology; }

private:
    const WaferTopology& m_topology;
    std::string m_whole;
};

// A link's bandwidth (wafer.link_bandwidth, system.link_bandwidth): bytes/s per direction, above
// 0 and at most 1 PB/s.
Quantity readLinkBandwidth(const json& value, const std::string& path) {
    const Quantity bandwidth = readQuantity(value, path, Dimension::BytesPerSecond);
    checkPositive(bandwidth, path);
    checkAtMost(bandwidth, path, kMaxLinkBandwidth, "1 PB/s");
    return bandwidth;
}

// A link's latency (wafer.link_latency, system.link_latency): seconds per hop, 0 to 1 s.
Quantity readLinkLatency(const json& value, const std::string& path) {
    const Quantity latency = readQuantity(value, path, Dimension::Seconds);
    checkAtMost(latency, path, kMaxLinkLatency, "1 s per hop");
    return latency;
}

// A tier's `protocols` (docs/file-format.md "Protocols"): an array of objects, each a `name`
// (unique in the array), a `latency` (0 to 1 s, per collective) and exactly one of `efficiency`
// (above 0, at most 2) and `bus_bandwidth` (above 0, at most twice `lineRate`, the tier's line
// rate: more than the line rate is in-network reduction). An empty array: the line rate.
std::vector<ProtocolSpec> readProtocols(const json& value, const std::string& path,
                                        double lineRate) {
    expectArray(value, path);
    std::vector<ProtocolSpec> protocols;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = elementPath(path, i);
        expectObject(value[i], at);
        ProtocolSpec protocol;
        protocol.extensions =
            checkKeys(value[i], at, {"name", "latency", "efficiency", "bus_bandwidth"});
        protocol.name = readString(requireMember(value[i], at, "name"), memberPath(at, "name"));
        for (const ProtocolSpec& earlier : protocols)
            if (earlier.name == protocol.name)
                failAt(memberPath(at, "name"),
                       "protocol '" + protocol.name + "' is named twice in " + path);
        protocol.latency =
            readLinkLatency(requireMember(value[i], at, "latency"), memberPath(at, "latency"));
        const json* efficiency = findMember(value[i], "efficiency");
        const json* bus = findMember(value[i], "bus_bandwidth");
        if ((efficiency == nullptr) == (bus == nullptr))
            failAt(at, "needs exactly one of `efficiency` and `bus_bandwidth`");
        if (efficiency != nullptr) {
            const double share = readNumber(*efficiency, memberPath(at, "efficiency"));
            if (!(share > 0 && share <= 2))
                failAt(memberPath(at, "efficiency"),
                       "must be greater than 0 and at most 2, got " + numberText(share));
            protocol.efficiency = share;
        } else {
            const std::string key = memberPath(at, "bus_bandwidth");
            protocol.busBandwidth = readQuantity(*bus, key, Dimension::BytesPerSecond);
            checkPositive(*protocol.busBandwidth, key);
            if (protocol.busBandwidth->value > 2 * lineRate)
                failAt(key, "'" + protocol.busBandwidth->text +
                                "' is more than twice the tier's line rate (" +
                                numberText(lineRate / 1e9) + " GB/s)");
        }
        protocols.push_back(std::move(protocol));
    }
    return protocols;
}

// `die` holds the values in force before this object is read (the defaults, or a wafer
// preset's): each key written overrides one of them, the others stay.
DieSpec readDie(const json& value, const std::string& path, DieSpec die) {
    expectObject(value, path);
    die.extensions = checkKeys(value, path,
                               {"peak_flops", "sram", "hbm", "hbm_bandwidth", "efficiency",
                                "task_overhead", "gemm_tile", "sram_reserve"});
    if (const json* v = findMember(value, "peak_flops")) {
        die.peakFlops = readQuantity(*v, memberPath(path, "peak_flops"), Dimension::FlopsPerSecond);
        checkPositive(die.peakFlops, memberPath(path, "peak_flops"));
    }
    if (const json* v = findMember(value, "sram")) {
        die.sram = readQuantity(*v, memberPath(path, "sram"), Dimension::Bytes);
        checkPositive(die.sram, memberPath(path, "sram"));
    }
    if (const json* v = findMember(value, "hbm"))
        die.hbm = readQuantity(*v, memberPath(path, "hbm"), Dimension::Bytes);
    if (const json* v = findMember(value, "hbm_bandwidth")) {
        die.hbmBandwidth =
            readQuantity(*v, memberPath(path, "hbm_bandwidth"), Dimension::BytesPerSecond);
        checkPositive(die.hbmBandwidth, memberPath(path, "hbm_bandwidth"));
    }
    if (const json* v = findMember(value, "efficiency")) {
        die.efficiency = readNumber(*v, memberPath(path, "efficiency"));
        if (!(die.efficiency > 0 && die.efficiency <= 1))
            failAt(memberPath(path, "efficiency"),
                   "must be greater than 0 and at most 1, got " + numberText(die.efficiency));
    }
    if (const json* v = findMember(value, "task_overhead")) {
        const std::string key = memberPath(path, "task_overhead");
        die.taskOverhead = readQuantity(*v, key, Dimension::Seconds);
        if (!(die.taskOverhead.value >= 0 && die.taskOverhead.value <= limits::kMaxTaskOverhead))
            failAt(key, "must be between 0 and " + numberText(limits::kMaxTaskOverhead) +
                            " s, got " + numberText(die.taskOverhead.value));
    }
    if (const json* v = findMember(value, "gemm_tile"))
        die.gemmTile = static_cast<int>(
            readIntegerInRange(*v, memberPath(path, "gemm_tile"), 1, limits::kMaxGemmTile));
    if (const json* v = findMember(value, "sram_reserve")) {
        die.sramReserve = readNumber(*v, memberPath(path, "sram_reserve"));
        if (!(die.sramReserve >= 0 && die.sramReserve < 1))
            failAt(memberPath(path, "sram_reserve"),
                   "must be at least 0 and below 1, got " + numberText(die.sramReserve));
    }
    return die;
}

// As readDie: `energy` is overridden key by key.
EnergySpec readEnergy(const json& value, const std::string& path, EnergySpec energy) {
    expectObject(value, path);
    energy.extensions =
        checkKeys(value, path, {"d2d_pj_per_bit", "hbm_pj_per_bit", "flops_per_joule"});
    const auto nonNegative = [&](const char* key, double& field) {
        if (const json* v = findMember(value, key)) {
            field = readNumber(*v, memberPath(path, key));
            if (field < 0)
                failAt(memberPath(path, key), "must be at least 0, got " + numberText(field));
        }
    };
    nonNegative("d2d_pj_per_bit", energy.d2dPicojoulesPerBit);
    nonNegative("hbm_pj_per_bit", energy.hbmPicojoulesPerBit);
    if (const json* v = findMember(value, "flops_per_joule")) {
        energy.flopsPerJoule = readNumber(*v, memberPath(path, "flops_per_joule"));
        if (!(energy.flopsPerJoule > 0))
            failAt(memberPath(path, "flops_per_joule"),
                   "must be greater than 0, got " + numberText(energy.flopsPerJoule));
    }
    return energy;
}

// "12" -> 12; nullopt for anything that is not a plain decimal number.
std::optional<std::int64_t> parseDieNumber(std::string_view text) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return number;
}

// "a->b" (one direction) or "a-b" (both), between dies that a link of the fault-free grid joins:
// 4-neighbours (plus wrap-around on a torus), of one wafer or a joined pair of two.
LinkRef readLink(const json& value, const std::string& path, const DieChecker& dies) {
    const std::string text = readString(value, path);
    LinkRef link;
    std::size_t split = text.find("->");
    std::size_t separatorLength = 2;
    if (split == std::string::npos) {
        split = text.find('-');
        separatorLength = 1;
        link.bothDirections = true;
    }
    const auto badSyntax = [&] {
        failAt(path, "expected a link such as \"1->2\" (one direction) or \"1-2\" (both), got '" +
                         text + "'");
    };
    if (split == std::string::npos)
        badSyntax();
    const auto from = parseDieNumber(std::string_view(text).substr(0, split));
    const auto to = parseDieNumber(std::string_view(text).substr(split + separatorLength));
    if (!from || !to)
        badSyntax();
    for (const std::int64_t die : {*from, *to})
        dies.checkRange(die, path);
    link.from = static_cast<DieId>(*from);
    link.to = static_cast<DieId>(*to);
    const WaferTopology& geometry = dies.topology();
    if (const std::string unjoined = unjoinedPairProblem(geometry, link.from, link.to);
        !unjoined.empty())
        failAt(path, unjoined);
    if (!geometry.linkBetween(link.from, link.to))
        failAt(path, "dies " + std::to_string(link.from) + " and " + std::to_string(link.to) +
                         " are not neighbours on this " + std::to_string(geometry.rows()) + "x" +
                         std::to_string(geometry.cols()) + " " + toString(geometry.kind()) +
                         ", so no link joins them");
    return link;
}

// `wafer.faults.slow_dies` (docs/compute-model.md section 8): {"<die id>": fraction of peak
// in (0, 1)}. Read after `dies`, so that a die both dead and slow is refused.
void readSlowDies(const json& value, const std::string& path, const DieChecker& dies,
                  WaferSpec& wafer) {
    expectObject(value, path);
    const std::set<DieId> dead(wafer.deadDies.begin(), wafer.deadDies.end());
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (isExtensionKey(it.key()))
            continue;
        const std::string entryPath = memberPath(path, it.key());
        const std::string& key = it.key();
        const bool digits =
            !key.empty() && key.size() <= 9 &&
            std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits)
            failAt(entryPath, "is not a die id: keys of slow_dies are die ids written as "
                              "strings, like \"5\"");
        const DieId die = dies.inRange(json(std::stoi(key)), entryPath);
        if (dead.count(die) != 0)
            failAt(entryPath, "die " + key + " is dead (wafer.faults.dies), so it cannot be slow");
        const double speed = readNumber(it.value(), entryPath);
        if (!(speed > 0.0 && speed < 1.0))
            failAt(entryPath, "must be the fraction of its peak the die reaches, above 0 and "
                              "below 1, got " +
                                  numberText(speed));
        wafer.slowDies[die] = speed;
    }
}

// `dies` checks ids against the fault-free grid: the wafer's, or a system's whole grid.
void readFaults(const json& value, const std::string& path, const DieChecker& dies,
                WaferSpec& wafer) {
    expectObject(value, path);
    // A "faults" object has no struct of its own: its "x-..." keys are accepted but not kept.
    checkKeys(value, path, {"dies", "links", "slow_dies"});
    if (const json* list = findMember(value, "dies")) {
        const std::string listPath = memberPath(path, "dies");
        expectArray(*list, listPath);
        std::map<DieId, std::size_t> seen;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const DieId die = dies.inRange((*list)[i], elementPath(listPath, i));
            if (const auto it = seen.find(die); it != seen.end())
                failAt(elementPath(listPath, i), "die " + std::to_string(die) +
                                                     " is listed twice (also at " +
                                                     elementPath(listPath, it->second) + ")");
            seen.emplace(die, i);
            wafer.deadDies.push_back(die);
        }
    }
    if (const json* list = findMember(value, "links")) {
        const std::string listPath = memberPath(path, "links");
        expectArray(*list, listPath);
        std::map<std::pair<DieId, DieId>, std::size_t> seen; // directed link -> list index
        for (std::size_t i = 0; i < list->size(); ++i) {
            const LinkRef link = readLink((*list)[i], elementPath(listPath, i), dies);
            std::vector<std::pair<DieId, DieId>> directed{{link.from, link.to}};
            if (link.bothDirections)
                directed.emplace_back(link.to, link.from);
            for (const auto& d : directed) {
                if (const auto it = seen.find(d); it != seen.end())
                    failAt(elementPath(listPath, i), "the link " + std::to_string(d.first) + "->" +
                                                         std::to_string(d.second) +
                                                         " is listed twice (also at " +
                                                         elementPath(listPath, it->second) + ")");
                seen.emplace(d, i);
            }
            wafer.deadLinks.push_back(link);
        }
    }
    if (const json* slow = findMember(value, "slow_dies"))
        readSlowDies(*slow, memberPath(path, "slow_dies"), dies, wafer);
}

// A `wafer.preset` name (scenario/wafer_presets.h), refused as an unknown enum spelling is:
// naming the bad name, the known ones and the closest of them.
WaferSpec readWaferPreset(const json& value, const std::string& path) {
    return readEnum<WaferSpec>(value, path, "wafer preset", waferPreset, waferPresetNames());
}

// A preset is the wafer's starting point and every other key overrides it, as with
// `cluster.preset` (docs/file-format.md `wafer.preset`): the preset is read first and each key
// below assigns over its value, `die` and `energy` one key at a time (so "die": {"sram": "40 MB"}
// beside a preset changes only the SRAM). Without a preset, rows and cols are required. `faults` is
// left to readFaults, once `system` is read: fault die ids number the whole grid of a system.
WaferSpec readWafer(const json& value, const std::string& path) {
    expectObject(value, path);
    const json extensions = checkKeys(value, path,
                                      {"preset", "rows", "cols", "topology", "link_bandwidth",
                                       "link_latency", "die", "energy", "protocols", "faults"});
    const json* preset = findMember(value, "preset");
    WaferSpec wafer = preset ? readWaferPreset(*preset, memberPath(path, "preset")) : WaferSpec{};
    if (!preset)
        wafer.protocols = defaultWaferProtocols();
    wafer.extensions = extensions;
    const auto readSide = [&](const char* key, int& side) {
        const json* v = preset ? findMember(value, key) : &requireMember(value, path, key);
        if (v)
            side = readIntRange(*v, memberPath(path, key), 1, kMaxWaferSide);
    };
    readSide("rows", wafer.rows);
    readSide("cols", wafer.cols);
    if (const json* v = findMember(value, "topology")) {
        wafer.topology = readEnum<TopologyKind>(*v, memberPath(path, "topology"), "topology",
                                                topologyKindFromString, kTopologyNames);
        if (wafer.topology == TopologyKind::Cluster)
            failAt(memberPath(path, "topology"), "a cluster is described by the top-level "
                                                 "`cluster` key in place of `wafer`");
    }
    if (const json* v = findMember(value, "link_bandwidth"))
        wafer.linkBandwidth = readLinkBandwidth(*v, memberPath(path, "link_bandwidth"));
    if (const json* v = findMember(value, "link_latency"))
        wafer.linkLatency = readLinkLatency(*v, memberPath(path, "link_latency"));
    if (const json* v = findMember(value, "die"))
        wafer.die = readDie(*v, memberPath(path, "die"), wafer.die);
    if (const json* v = findMember(value, "energy"))
        wafer.energy = readEnergy(*v, memberPath(path, "energy"), wafer.energy);
    if (const json* v = findMember(value, "protocols"))
        wafer.protocols =
            readProtocols(*v, memberPath(path, "protocols"), wafer.linkBandwidth.value);
    return wafer;
}

// `system` (docs/file-format.md `system`): R x C copies of `wafer` side by side. Read after the
// wafer, whose size and topology bound it, and before the wafer's faults (dies of its grid).
SystemSpec readSystem(const json& value, const std::string& path, const WaferSpec& wafer) {
    expectObject(value, path);
    SystemSpec system;
    system.extensions = checkKeys(
        value, path,
        {"wafers", "link_bandwidth", "link_latency", "links_per_edge", "pj_per_bit", "protocols"});
    const std::string wafersPath = memberPath(path, "wafers");
    const json& wafers = expectArray(requireMember(value, path, "wafers"), wafersPath);
    if (wafers.size() != 2)
        failAt(wafersPath, "expected [rows, cols] of wafers, two integers, got an array of " +
                               std::to_string(wafers.size()));
    system.waferRows = readIntRange(wafers[0], elementPath(wafersPath, 0), 1, kMaxWaferSide);
    system.waferCols = readIntRange(wafers[1], elementPath(wafersPath, 1), 1, kMaxWaferSide);
    const int gridRows = system.waferRows * wafer.rows; // at most 256 * 256: no overflow
    const int gridCols = system.waferCols * wafer.cols;
    if (gridRows > kMaxWaferSide || gridCols > kMaxWaferSide)
        failAt(wafersPath,
               std::to_string(system.waferRows) + "x" + std::to_string(system.waferCols) +
                   " wafers of " + std::to_string(wafer.rows) + "x" + std::to_string(wafer.cols) +
                   " dies make a " + std::to_string(gridRows) + "x" + std::to_string(gridCols) +
                   " grid of dies; a grid has at most 256 rows and 256 columns");
    if (wafer.topology == TopologyKind::Torus && system.waferCount() > 1)
        failAt(wafersPath, "a torus wafer cannot be one of several: wafers are joined at their "
                           "edges, which a torus wraps around (use wafer.topology \"mesh\", or "
                           "wafers [1, 1])");
    system.linkBandwidth = readLinkBandwidth(requireMember(value, path, "link_bandwidth"),
                                             memberPath(path, "link_bandwidth"));
    system.linkLatency = readLinkLatency(requireMember(value, path, "link_latency"),
                                         memberPath(path, "link_latency"));
    if (const json* v = findMember(value, "links_per_edge")) {
        const std::string at = memberPath(path, "links_per_edge");
        const int links = readIntRange(*v, at, 1, kMaxWaferSide);
        // Wafers side by side share edges of wafer.rows die pairs, stacked ones of wafer.cols.
        // Without a shared edge (one wafer) nothing bounds it but the largest edge.
        const auto tooMany = [&](const char* side, int pairs) {
            failAt(at, std::to_string(links) + " joined pairs do not fit an edge between wafers " +
                           side + ", which has " + std::to_string(pairs) + " die pairs");
        };
        if (system.waferCols > 1 && links > wafer.rows)
            tooMany("side by side (wafer.rows)", wafer.rows);
        if (system.waferRows > 1 && links > wafer.cols)
            tooMany("one above the other (wafer.cols)", wafer.cols);
        system.linksPerEdge = links;
    }
    if (const json* v = findMember(value, "pj_per_bit")) {
        const std::string at = memberPath(path, "pj_per_bit");
        const double picojoules = readNumber(*v, at);
        if (picojoules < 0)
            failAt(at, "must be at least 0, got " + numberText(picojoules));
        system.picojoulesPerBit = picojoules;
    }
    // Off-wafer links run the die-to-die default too, unless the file says otherwise.
    system.protocols = defaultWaferProtocols();
    if (const json* v = findMember(value, "protocols"))
        system.protocols =
            readProtocols(*v, memberPath(path, "protocols"), system.linkBandwidth.value);
    return system;
}

// `cluster` (docs/file-format.md `cluster`): read in place of `wafer`. Its GPUs, node switches and
// energy go to the WaferSpec that describes its grid of GPUs (ClusterSpec); a preset gives every
// key, and without one `nodes`, `gpus_per_node`, `gpu`, `intra.bandwidth`, `inter.kind` and
// `inter.nic_bandwidth` are required.
ClusterPreset readCluster(const json& value, const std::string& path) {
    expectObject(value, path);
    const json extensions = checkKeys(
        value, path,
        {"preset", "nodes", "gpus_per_node", "gpu", "intra", "inter", "energy", "faults"});
    const json* presetName = findMember(value, "preset");
    ClusterPreset hardware;
    if (presetName)
        hardware = readEnum<ClusterPreset>(*presetName, memberPath(path, "preset"),
                                           "cluster preset", clusterPreset, clusterPresetNames());
    ClusterSpec& cluster = hardware.cluster;
    WaferSpec& gpus = hardware.gpus;
    cluster.extensions = extensions;
    // A key a preset gives; required without one.
    const auto member = [&](const json& object, const std::string& at, const char* key) {
        return presetName ? findMember(object, key) : &requireMember(object, at, key);
    };
    if (const json* v = member(value, path, "nodes"))
        gpus.rows = readIntRange(*v, memberPath(path, "nodes"), 1, kMaxWaferSide);
    if (const json* v = member(value, path, "gpus_per_node"))
        gpus.cols = readIntRange(*v, memberPath(path, "gpus_per_node"), 1, kMaxWaferSide);
    if (const json* v = member(value, path, "gpu"))
        gpus.die = readDie(*v, memberPath(path, "gpu"), gpus.die);
    if (const json* v = member(value, path, "intra")) {
        const std::string at = memberPath(path, "intra");
        expectObject(*v, at);
        gpus.extensions = checkKeys(*v, at, {"bandwidth", "latency", "protocols"});
        if (const json* b = member(*v, at, "bandwidth"))
            gpus.linkBandwidth = readLinkBandwidth(*b, memberPath(at, "bandwidth"));
        if (const json* l = findMember(*v, "latency"))
            gpus.linkLatency = readLinkLatency(*l, memberPath(at, "latency"));
        if (const json* p = findMember(*v, "protocols"))
            gpus.protocols =
                readProtocols(*p, memberPath(at, "protocols"), gpus.linkBandwidth.value);
    }
    if (const json* v = member(value, path, "inter")) {
        const std::string at = memberPath(path, "inter");
        expectObject(*v, at);
        cluster.interExtensions = checkKeys(*v, at,
                                            {"kind", "nic_bandwidth", "latency", "oversubscription",
                                             "nodes_per_leaf", "protocols"});
        if (const json* k = member(*v, at, "kind"))
            cluster.network = readEnum<ClusterNetwork>(
                *k, memberPath(at, "kind"), "inter-node network", clusterNetworkFromString,
                spellings({ClusterNetwork::Rail, ClusterNetwork::FatTree}));
        if (const json* b = member(*v, at, "nic_bandwidth"))
            cluster.nicBandwidth = readLinkBandwidth(*b, memberPath(at, "nic_bandwidth"));
        if (const json* l = findMember(*v, "latency"))
            cluster.interLatency = readLinkLatency(*l, memberPath(at, "latency"));
        if (const json* o = findMember(*v, "oversubscription")) {
            const std::string key = memberPath(at, "oversubscription");
            cluster.oversubscription = readNumber(*o, key);
            if (!(cluster.oversubscription >= 1.0 && cluster.oversubscription <= 64.0))
                failAt(key, "must be 1 (non-blocking) to 64, got " +
                                numberText(cluster.oversubscription));
            if (cluster.network == ClusterNetwork::Rail && cluster.oversubscription != 1.0)
                failAt(key, "applies to a fat tree only: a rail network has no spine to "
                            "oversubscribe (use inter.kind \"fat_tree\")");
        }
        if (const json* n = findMember(*v, "nodes_per_leaf"))
            cluster.nodesPerLeaf =
                readIntRange(*n, memberPath(at, "nodes_per_leaf"), 1, kMaxWaferSide);
        if (const json* p = findMember(*v, "protocols"))
            cluster.interProtocols =
                readProtocols(*p, memberPath(at, "protocols"), cluster.nicBandwidth.value);
    }
    if (cluster.network == ClusterNetwork::FatTree && gpus.rows % cluster.nodesPerLeaf != 0)
        failAt(memberPath(memberPath(path, "inter"), "nodes_per_leaf"),
               std::to_string(cluster.nodesPerLeaf) + " nodes per leaf do not divide the " +
                   std::to_string(gpus.rows) + " nodes (cluster.nodes) into whole leaves");
    if (const json* v = findMember(value, "energy"))
        gpus.energy = readEnergy(*v, memberPath(path, "energy"), gpus.energy);
    return hardware;
}

// The topology of `spec`, whose refusals (std::invalid_argument) become errors at `path`.
WaferTopology buildTopology(const TopologySpec& spec, const std::string& path) {
    try {
        return WaferTopology(spec);
    } catch (const std::invalid_argument& error) {
        failAt(path, error.what());
    }
}

// Reads a group; `path` is "traffic[i].group".
std::vector<DieId> readGroup(const json& value, const std::string& path, const DieChecker& dies) {
    expectArray(value, path);
    if (value.empty())
        failAt(path, "the group is empty; a collective needs at least 2 dies");
    std::vector<DieId> group;
    std::map<DieId, std::size_t> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const DieId die = dies.alive(value[i], elementPath(path, i));
        if (const auto it = seen.find(die); it != seen.end())
            failAt(elementPath(path, i), "die " + std::to_string(die) +
                                             " appears twice in the group (also at " +
                                             elementPath(path, it->second) + ")");
        seen.emplace(die, i);
        group.push_back(die);
    }
    if (group.size() < 2)
        failAt(path, "a collective needs at least 2 dies, got 1");
    return group;
}

// Hierarchical collectives run rings along rows and then columns, so the group must be
// every die of an axis-aligned rectangle, each exactly once.
void checkRectangle(const std::vector<DieId>& group, const std::string& path,
                    const WaferTopology& topology) {
    int top = topology.rows(), bottom = -1, left = topology.cols(), right = -1;
    for (DieId die : group) {
        const DieCoord c = topology.coord(die);
        top = std::min(top, c.row);
        bottom = std::max(bottom, c.row);
        left = std::min(left, c.col);
        right = std::max(right, c.col);
    }
    const auto area = static_cast<std::size_t>((bottom - top + 1) * (right - left + 1));
    if (area != group.size())
        failAt(path, "algorithm 'hierarchical' needs a group that fills a rectangle of dies "
                     "exactly, but the group's " +
                         std::to_string(group.size()) + " dies span rows " + std::to_string(top) +
                         " to " + std::to_string(bottom) + " and columns " + std::to_string(left) +
                         " to " + std::to_string(right) + " (" + std::to_string(area) + " dies)");
}

void checkAlgorithm(const TrafficOp& op, const std::string& path, const WaferTopology& topology) {
    if (!op.algorithm)
        return;
    const std::string kind = toString(op.kind);
    const auto notFor = [&](const std::string& alternatives) {
        failAt(path, "algorithm '" + toString(*op.algorithm) + "' is not defined for " + kind +
                         " (use " + alternatives + ")");
    };
    switch (*op.algorithm) {
    case Algorithm::Multicast:
        if (op.kind == OpKind::ReduceScatter)
            notFor("ring, tree, hierarchical or direct");
        if (op.kind == OpKind::AllToAll)
            notFor("ring or direct");
        break;
    case Algorithm::Hierarchical:
        if (op.kind == OpKind::Broadcast)
            notFor("ring, multicast or direct");
        if (op.kind == OpKind::AllToAll)
            notFor("ring or direct");
        checkRectangle(op.group, path, topology);
        break;
    case Algorithm::Tree:
        if (op.kind == OpKind::AllToAll)
            notFor("ring or direct");
        break;
    case Algorithm::BidirectionalRing:
        if (op.kind == OpKind::Broadcast)
            notFor("ring, multicast or direct");
        if (op.kind == OpKind::AllToAll)
            notFor("ring or direct");
        break;
    case Algorithm::Ring:
    case Algorithm::Direct:
        break;
    }
}

// Reads traffic[i] except the meaning of `after`, which needs every op id.
TrafficOp readOp(const json& value, const std::string& path, const DieChecker& dies) {
    expectObject(value, path);
    TrafficOp op;
    op.extensions = checkKeys(value, path,
                              {"id", "op", "src", "dst", "group", "root", "bytes", "algorithm",
                               "split", "start", "after"});
    op.id = readString(requireMember(value, path, "id"), memberPath(path, "id"));
    if (op.id.empty())
        failAt(memberPath(path, "id"), "the op id is empty");
    if (op.id.find('/') != std::string::npos)
        failAt(memberPath(path, "id"), "op id '" + op.id +
                                           "' contains '/', which separates the parts of flow ids "
                                           "(\"<op id>/s<step>/r<rank>\")");
    op.kind = readEnum<OpKind>(requireMember(value, path, "op"), memberPath(path, "op"), "op",
                               opKindFromString, kOpNames);
    const std::string kind = toString(op.kind);
    if (op.kind == OpKind::P2P) {
        for (const char* key : {"group", "root"})
            if (findMember(value, key))
                failAt(memberPath(path, key),
                       "'" + std::string(key) +
                           "' does not apply to a p2p op (it has src and dst)");
        op.src = dies.alive(requireMember(value, path, "src"), memberPath(path, "src"));
        op.dst = dies.alive(requireMember(value, path, "dst"), memberPath(path, "dst"));
        if (op.src == op.dst)
            failAt(memberPath(path, "dst"),
                   "a p2p op needs two different dies, but src and dst are "
                   "both die " +
                       std::to_string(op.src));
    } else {
        for (const char* key : {"src", "dst"})
            if (findMember(value, key))
                failAt(memberPath(path, key), "'" + std::string(key) +
                                                  "' applies only to a p2p op, not to " + kind +
                                                  " (which has a group)");
        op.group = readGroup(requireMember(value, path, "group"), memberPath(path, "group"), dies);
        if (const json* v = findMember(value, "root")) {
            if (op.kind != OpKind::Broadcast)
                failAt(memberPath(path, "root"),
                       "'root' applies only to a broadcast, not to " + kind);
            op.root = dies.alive(*v, memberPath(path, "root"));
            if (std::find(op.group.begin(), op.group.end(), *op.root) == op.group.end())
                failAt(memberPath(path, "root"),
                       "the root, die " + std::to_string(*op.root) + ", is not in the group");
        }
    }
    {
        const std::string at = memberPath(path, "bytes");
        op.bytes = readQuantity(requireMember(value, path, "bytes"), at, Dimension::Bytes);
        checkPositive(op.bytes, at);
        checkAtMost(op.bytes, at, kMaxOpBytes, "1 PB");
    }
    if (const json* v = findMember(value, "algorithm")) {
        const std::string at = memberPath(path, "algorithm");
        if (op.kind == OpKind::P2P)
            failAt(at, "'algorithm' applies only to collectives, not to a p2p op");
        op.algorithm =
            readEnum<Algorithm>(*v, at, "algorithm", algorithmFromString, kAlgorithmNames);
        checkAlgorithm(op, at, dies.topology());
    }
    if (const json* v = findMember(value, "split"))
        op.split = readIntRange(*v, memberPath(path, "split"), 1, kMaxOpSplit);
    if (const json* v = findMember(value, "start")) {
        const std::string at = memberPath(path, "start");
        op.start = readQuantity(*v, at, Dimension::Seconds);
        checkAtMost(*op.start, at, kMaxOpStart, "1e6 s (11.6 days)");
    }
    if (const json* v = findMember(value, "after")) {
        const std::string at = memberPath(path, "after");
        expectArray(*v, at);
        for (std::size_t i = 0; i < v->size(); ++i)
            op.after.push_back(readString((*v)[i], elementPath(at, i)));
    }
    return op;
}

// `after` names earlier or later ops; it must name existing ops, not the op itself, each once,
// and must not close a cycle (the ops of a cycle could never start).
void checkDependencies(const std::vector<TrafficOp>& traffic, const std::string& path) {
    std::map<std::string, std::size_t> indexById;
    for (std::size_t i = 0; i < traffic.size(); ++i)
        indexById.emplace(traffic[i].id, i);
    std::vector<std::vector<std::size_t>> dependsOn(traffic.size());
    for (std::size_t i = 0; i < traffic.size(); ++i) {
        const std::string afterPath = memberPath(elementPath(path, i), "after");
        std::map<std::string, std::size_t> seen;
        for (std::size_t k = 0; k < traffic[i].after.size(); ++k) {
            const std::string& id = traffic[i].after[k];
            const std::string at = elementPath(afterPath, k);
            if (id == traffic[i].id)
                failAt(at, "op '" + id + "' cannot wait for itself");
            const auto target = indexById.find(id);
            if (target == indexById.end()) {
                std::vector<std::string> ids;
                for (const auto& entry : indexById)
                    ids.push_back(entry.first);
                failAt(at, "unknown op id '" + id + "'" + didYouMean(id, ids));
            }
            if (const auto it = seen.find(id); it != seen.end())
                failAt(at, "op '" + id + "' is listed twice (also at " +
                               elementPath(afterPath, it->second) + ")");
            seen.emplace(id, k);
            dependsOn[i].push_back(target->second);
        }
    }
    // Depth-first search from every op in file order; a grey op met again closes a cycle.
    enum class Mark { White, Grey, Black };
    std::vector<Mark> marks(traffic.size(), Mark::White);
    std::vector<std::size_t> stack;
    const auto visit = [&](const auto& self, std::size_t op) -> void {
        marks[op] = Mark::Grey;
        stack.push_back(op);
        for (std::size_t next : dependsOn[op]) {
            if (marks[next] == Mark::Grey) {
                const auto first = std::find(stack.begin(), stack.end(), next);
                std::string cycle;
                for (auto it = first; it != stack.end(); ++it)
                    cycle += traffic[*it].id + " -> ";
                cycle += traffic[next].id;
                failAt(memberPath(elementPath(path, next), "after"), "dependency cycle " + cycle);
            }
            if (marks[next] == Mark::White)
                self(self, next);
        }
        stack.pop_back();
        marks[op] = Mark::Black;
    };
    for (std::size_t i = 0; i < traffic.size(); ++i)
        if (marks[i] == Mark::White)
            visit(visit, i);
}

std::vector<TrafficOp> readTraffic(const json& value, const std::string& path,
                                   const DieChecker& dies) {
    expectArray(value, path);
    std::vector<TrafficOp> traffic;
    std::map<std::string, std::size_t> indexById;
    for (std::size_t i = 0; i < value.size(); ++i) {
        TrafficOp op = readOp(value[i], elementPath(path, i), dies);
        if (const auto it = indexById.find(op.id); it != indexById.end())
            failAt(memberPath(elementPath(path, i), "id"),
                   "duplicate op id '" + op.id + "' (also " +
                       memberPath(elementPath(path, it->second), "id") + ")");
        indexById.emplace(op.id, i);
        traffic.push_back(std::move(op));
    }
    checkDependencies(traffic, path);
    return traffic;
}

// A pinned unicast path: at least 2 live dies, each visited once, consecutive ones joined by
// a live link. Whether it matches a flow is the traffic planner's business.
std::vector<DieId> readPath(const json& value, const std::string& path, const DieChecker& dies) {
    if (value.size() < 2)
        failAt(path, "a pinned path needs at least 2 dies, got " + std::to_string(value.size()));
    std::vector<DieId> dieList;
    std::map<DieId, std::size_t> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = elementPath(path, i);
        const DieId die = dies.routeVertex(value[i], at);
        if (const auto it = seen.find(die); it != seen.end())
            failAt(at, "die " + std::to_string(die) + " is visited twice (also at " +
                           elementPath(path, it->second) + ")");
        if (!dieList.empty())
            dies.liveLink(dieList.back(), die, at);
        seen.emplace(die, i);
        dieList.push_back(die);
    }
    return dieList;
}

// A pinned multicast tree: [from, to] edges over live links, none repeated.
std::vector<std::pair<DieId, DieId>> readTree(const json& value, const std::string& path,
                                              const DieChecker& dies) {
    std::vector<std::pair<DieId, DieId>> edges;
    std::map<std::pair<DieId, DieId>, std::size_t> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = elementPath(path, i);
        const json& pair = value[i];
        if (!pair.is_array() || pair.size() != 2)
            failAt(at, "expected a [from, to] pair of dies (every entry of a multicast tree is "
                       "one), got " +
                           (pair.is_array() ? "an array of " + std::to_string(pair.size())
                                            : jsonTypeName(pair)));
        const DieId from = dies.routeVertex(pair[0], elementPath(at, 0));
        const DieId to = dies.routeVertex(pair[1], elementPath(at, 1));
        dies.liveLink(from, to, at);
        if (const auto it = seen.find({from, to}); it != seen.end())
            failAt(at, "the edge " + std::to_string(from) + "->" + std::to_string(to) +
                           " is listed twice (also at " + elementPath(path, it->second) + ")");
        seen.emplace(std::pair{from, to}, i);
        edges.emplace_back(from, to);
    }
    return edges;
}

RoutingSpec readRouting(const json& value, const std::string& path, const DieChecker& dies) {
    expectObject(value, path);
    RoutingSpec routing;
    routing.extensions = checkKeys(value, path, {"mode", "paths"});
    if (const json* v = findMember(value, "mode"))
        routing.mode = readEnum<RoutingMode>(*v, memberPath(path, "mode"), "routing mode",
                                             routingModeFromString, kRoutingModeNames);
    if (const json* v = findMember(value, "paths")) {
        const std::string pathsPath = memberPath(path, "paths");
        expectObject(*v, pathsPath);
        // Keys here are flow ids ("ag/s0/r1"), not schema keys: "x-..." is not special.
        for (const auto& [flowId, route] : v->items()) {
            const std::string at = memberPath(pathsPath, flowId);
            if (flowId.empty())
                failAt(at, "the flow id is empty");
            expectArray(route, at);
            PinnedRoute pinned;
            if (!route.empty() && route[0].is_array())
                pinned.treeEdges = readTree(route, at, dies);
            else
                pinned.path = readPath(route, at, dies);
            routing.paths.emplace(flowId, std::move(pinned));
        }
    }
    return routing;
}

TcmeSpec readTcme(const json& value, const std::string& path) {
    expectObject(value, path);
    TcmeSpec tcme;
    tcme.extensions = checkKeys(
        value, path, {"max_iter", "min_gain", "patience", "target_utilization", "split_transfers"});
    if (const json* v = findMember(value, "max_iter"))
        tcme.maxIter = readIntRange(*v, memberPath(path, "max_iter"), 1, kMaxTcmeIterations);
    if (const json* v = findMember(value, "min_gain")) {
        tcme.minGain = readNumber(*v, memberPath(path, "min_gain"));
        if (!(tcme.minGain >= 0 && tcme.minGain < 1))
            failAt(memberPath(path, "min_gain"),
                   "must be at least 0 and less than 1, got " + numberText(tcme.minGain));
    }
    if (const json* v = findMember(value, "patience"))
        tcme.patience = readIntRange(*v, memberPath(path, "patience"), 1, kMaxTcmeIterations);
    if (const json* v = findMember(value, "target_utilization")) {
        tcme.targetUtilization = readNumber(*v, memberPath(path, "target_utilization"));
        if (!(tcme.targetUtilization > 0 && tcme.targetUtilization <= 10))
            failAt(memberPath(path, "target_utilization"),
                   "must be greater than 0 and at most 10, got " +
                       numberText(tcme.targetUtilization));
    }
    if (const json* v = findMember(value, "split_transfers"))
        tcme.splitTransfers = readBoolean(*v, memberPath(path, "split_transfers"));
    return tcme;
}

NetworkSpec readNetwork(const json& value, const std::string& path) {
    expectObject(value, path);
    NetworkSpec network;
    network.extensions = checkKeys(value, path, {"model", "chunk"});
    if (const json* v = findMember(value, "model"))
        network.model = readEnum<NetworkModel>(*v, memberPath(path, "model"), "network model",
                                               networkModelFromString, kNetworkModelNames);
    if (const json* v = findMember(value, "chunk")) {
        const std::string at = memberPath(path, "chunk");
        network.chunk = readQuantity(*v, at, Dimension::Bytes);
        if (!(network.chunk.value >= kMinChunkBytes && network.chunk.value <= kMaxOpBytes))
            failAt(at, "must be at least 64 bytes (a flit) and at most 1 PB, got " +
                           (network.chunk.text.empty() ? numberText(network.chunk.value) + " bytes"
                                                       : network.chunk.text));
    }
    return network;
}

} // namespace

DieSpec parseDie(const nlohmann::json& die) {
    return readDie(die, "wafer.die", DieSpec{});
}

Scenario parseScenario(const nlohmann::json& document, const std::filesystem::path& directory) {
    if (!document.is_object())
        failAt("", "expected a JSON object at the top level, got " + jsonTypeName(document));
    Scenario scenario;
    scenario.extensions =
        checkKeys(document, "",
                  {"format", "version", "name", "description", "wafer", "cluster", "system",
                   "workload", "strategy", "traffic", "routing", "tcme", "network"});
    if (const json* v = findMember(document, "format")) {
        const std::string format = readString(*v, "format");
        if (format != "waferscope.scenario")
            failAt("format", "expected \"waferscope.scenario\", got '" + format + "'");
    }
    if (const json* v = findMember(document, "version")) {
        const std::int64_t version = readInteger(*v, "version");
        if (version != 1)
            failAt("version", "unsupported version " + std::to_string(version) +
                                  "; this WaferScope reads version 1");
    }
    if (const json* v = findMember(document, "name"))
        scenario.name = readString(*v, "name");
    if (const json* v = findMember(document, "description"))
        scenario.description = readString(*v, "description");
    const json* cluster = findMember(document, "cluster");
    const json* wafer = findMember(document, "wafer");
    if (cluster && wafer)
        failAt("cluster", "a scenario describes a wafer or a cluster, not both: remove `wafer` "
                          "or `cluster`");
    if (cluster) {
        if (findMember(document, "system"))
            failAt("system", "a system joins wafers; a cluster's nodes are joined by "
                             "cluster.inter");
        ClusterPreset hardware = readCluster(*cluster, "cluster");
        scenario.wafer = std::move(hardware.gpus);
        scenario.cluster = std::move(hardware.cluster);
    } else {
        scenario.wafer = readWafer(requireMember(document, "", "wafer"), "wafer");
    }
    if (const json* v = findMember(document, "system"))
        scenario.system = readSystem(*v, "system", scenario.wafer);
    // Die ids (faults, traffic, routes) number the whole grid: the wafer's, or the system's.
    const std::string whole = scenario.cluster ? "cluster" : scenario.system ? "system" : "wafer";
    // A cluster's faults are its GPUs' (dead and slow; no GPU-to-GPU link exists to fail).
    const std::string faultsPath = cluster ? "cluster.faults" : "wafer.faults";
    if (const json* v = findMember(cluster ? *cluster : *wafer, "faults")) {
        const WaferTopology geometry = buildTopology(scenario.topologySpec(), whole);
        readFaults(*v, faultsPath, DieChecker(geometry, whole), scenario.wafer);
    }
    if (const json* v = findMember(document, "workload"))
        scenario.workload = parseWorkload(*v, directory);
    if (const json* v = findMember(document, "strategy"))
        scenario.strategy = parseStrategy(*v);

    const WaferTopology topology = buildTopology(scenario.topologySpec(), "wafer.faults");
    const DieChecker dies(topology, whole);
    if (const json* v = findMember(document, "traffic"))
        scenario.traffic = readTraffic(*v, "traffic", dies);
    if (const json* v = findMember(document, "routing"))
        scenario.routing = readRouting(*v, "routing", dies);
    if (const json* v = findMember(document, "tcme"))
        scenario.tcme = readTcme(*v, "tcme");
    if (const json* v = findMember(document, "network"))
        scenario.network = readNetwork(*v, "network");
    return scenario;
}

} // namespace ws
