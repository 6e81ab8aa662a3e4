// parseScenario(const nlohmann::json&): the validating reader of docs/file-format.md.
//
// Every check throws ScenarioError(keyPath, problem) for the first problem found, so a message
// always names one key. Objects are checked in a fixed order: unknown keys first, then the
// fields in the order the documentation lists them; wafer comes before traffic and routing
// because their die ids are checked against the wafer.

#include "io/scenario_io.h"

#include "io/json_text.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>

namespace ws {
namespace {

using nlohmann::json;

constexpr double kMaxLinkBandwidth = 1e15; // bytes/s: 1 PB/s, far beyond any real link
constexpr double kMaxLinkLatency = 1.0;    // seconds per hop
constexpr double kMaxBytes = 1e15;         // bytes: 1 PB per op is a typo, not a workload
constexpr double kMaxStart = 1e6;          // seconds: about 11.6 days
constexpr int kMaxWaferSide = 256;

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
    throw ScenarioError(path, problem);
}

std::string member(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

std::string element(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

bool isExtensionKey(const std::string& key) {
    return key.rfind("x-", 0) == 0;
}

// Rejects unknown keys (suggesting the closest known one) and returns the "x-..." ones.
json checkKeys(const json& object, const std::string& path, const std::vector<std::string>& known) {
    json extensions = json::object();
    for (const auto& [key, value] : object.items()) {
        if (isExtensionKey(key)) {
            extensions[key] = value;
            continue;
        }
        if (std::find(known.begin(), known.end(), key) == known.end())
            fail(member(path, key), "unknown key '" + key + "'" + didYouMean(key, known));
    }
    return extensions;
}

const json* find(const json& object, const std::string& key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const json& require(const json& object, const std::string& path, const std::string& key) {
    const json* value = find(object, key);
    if (value == nullptr)
        fail(member(path, key), "required key '" + key + "' is missing");
    return *value;
}

const json& expectObject(const json& value, const std::string& path) {
    if (!value.is_object())
        fail(path, "expected an object, got " + jsonTypeName(value));
    return value;
}

const json& expectArray(const json& value, const std::string& path) {
    if (!value.is_array())
        fail(path, "expected an array, got " + jsonTypeName(value));
    return value;
}

std::string readString(const json& value, const std::string& path) {
    if (!value.is_string())
        fail(path, "expected a string, got " + jsonTypeName(value));
    return value.get<std::string>();
}

// Integers may be written 5 or 5.0 (some JSON writers emit every number as a double), but
// not 5.5. Values beyond 2^53 are rejected rather than silently rounded.
std::int64_t readInteger(const json& value, const std::string& path) {
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (value.is_number_integer() && !value.is_number_unsigned())
        return value.get<std::int64_t>();
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(kExact))
            fail(path, "the integer " + value.dump() + " is too large");
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (!std::isfinite(number) || std::trunc(number) != number)
            fail(path, "expected an integer, got " + numberText(number));
        if (std::fabs(number) > kExact)
            fail(path, "the integer " + numberText(number) + " is too large");
        return static_cast<std::int64_t>(number);
    }
    fail(path, "expected an integer, got " + jsonTypeName(value));
}

int readIntInRange(const json& value, const std::string& path, int low, int high) {
    const std::int64_t number = readInteger(value, path);
    if (number < low || number > high)
        fail(path, "must be " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                       std::to_string(number));
    return static_cast<int>(number);
}

double readNumber(const json& value, const std::string& path) {
    if (!value.is_number())
        fail(path, "expected a number, got " + jsonTypeName(value));
    const double number = value.get<double>();
    if (!std::isfinite(number))
        fail(path, "expected a finite number");
    return number;
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
            fail(path, numberText(number) + " is negative");
        return Quantity{number, {}};
    }
    if (!value.is_string())
        fail(path, "expected " + dimensionName(dimension) + " (a number in " + baseUnit(dimension) +
                       " or a string with a unit), got " + jsonTypeName(value));
    Quantity quantity;
    quantity.text = value.get<std::string>();
    try {
        quantity.value = parseQuantity(quantity.text, dimension);
    } catch (const UnitError& error) {
        fail(path, error.what());
    }
    return quantity;
}

// How the user wrote a quantity, for messages: "'4 TB/s'" or "4e+15".
std::string shown(const Quantity& quantity) {
    return quantity.text.empty() ? numberText(quantity.value) : "'" + quantity.text + "'";
}

void checkPositive(const Quantity& quantity, const std::string& path) {
    if (!(quantity.value > 0))
        fail(path, "must be greater than 0, got " + shown(quantity));
}

void checkAtMost(const Quantity& quantity, const std::string& path, double limit,
                 const std::string& limitText) {
    if (quantity.value > limit)
        fail(path, shown(quantity) + " is absurd: more than " + limitText);
}

// The enum spellings for messages: "p2p, allgather, ...".
template <typename Enum> std::vector<std::string> spellings(std::initializer_list<Enum> values) {
    std::vector<std::string> names;
    for (Enum value : values)
        names.push_back(toString(value));
    return names;
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

template <typename Enum, typename FromString>
Enum readEnum(const json& value, const std::string& path, const std::string& what,
              FromString fromString, const std::vector<std::string>& names) {
    const std::string text = readString(value, path);
    const std::optional<Enum> parsed = fromString(text);
    if (!parsed)
        fail(path, "unknown " + what + " '" + text + "'; expected one of " + joined(names) +
                       didYouMean(text, names));
    return *parsed;
}

const std::vector<std::string> kOpNames =
    spellings({OpKind::P2P, OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllReduce,
               OpKind::Broadcast, OpKind::AllToAll});
const std::vector<std::string> kAlgorithmNames =
    spellings({Algorithm::Ring, Algorithm::Multicast, Algorithm::Hierarchical, Algorithm::Direct});
const std::vector<std::string> kRoutingModeNames =
    spellings({RoutingMode::XY, RoutingMode::YX, RoutingMode::Shortest, RoutingMode::Adaptive});
const std::vector<std::string> kTopologyNames =
    spellings({TopologyKind::Mesh, TopologyKind::Torus});

// Die ids checked against the wafer read so far.
class DieChecker {
public:
    explicit DieChecker(const WaferTopology& topology) : m_topology(topology) {}

    // An integer naming a die of this wafer (dead or alive).
    DieId inRange(const json& value, const std::string& path) const {
        const std::int64_t id = readInteger(value, path);
        if (id < 0 || id >= m_topology.dieCount())
            fail(path, "die " + std::to_string(id) + " is out of range (this wafer has dies 0 to " +
                           std::to_string(m_topology.dieCount() - 1) + ")");
        return static_cast<DieId>(id);
    }

    // A die that can send, receive or forward traffic.
    DieId alive(const json& value, const std::string& path) const {
        const DieId die = inRange(value, path);
        if (!m_topology.isAlive(die))
            fail(path, "die " + std::to_string(die) + " is dead (wafer.faults.dies)");
        return die;
    }

    // The live link from -> to, for pinned routes; `path` names the entry holding `to`.
    void liveLink(DieId from, DieId to, const std::string& path) const {
        const std::optional<LinkId> link = m_topology.linkBetween(from, to);
        if (!link)
            fail(path, "dies " + std::to_string(from) + " and " + std::to_string(to) +
                           " are not neighbours, so no link joins them");
        if (!m_topology.link(*link).alive)
            fail(path,
                 "the link " + linkName(m_topology.link(*link)) + " is dead (wafer.faults.links)");
    }

    const WaferTopology& topology() const { return m_topology; }

private:
    const WaferTopology& m_topology;
};

DieSpec readDie(const json& value, const std::string& path) {
    expectObject(value, path);
    DieSpec die;
    die.extensions =
        checkKeys(value, path, {"peak_flops", "sram", "hbm", "hbm_bandwidth", "efficiency"});
    if (const json* v = find(value, "peak_flops")) {
        die.peakFlops = readQuantity(*v, member(path, "peak_flops"), Dimension::FlopsPerSecond);
        checkPositive(die.peakFlops, member(path, "peak_flops"));
    }
    if (const json* v = find(value, "sram")) {
        die.sram = readQuantity(*v, member(path, "sram"), Dimension::Bytes);
        checkPositive(die.sram, member(path, "sram"));
    }
    if (const json* v = find(value, "hbm"))
        die.hbm = readQuantity(*v, member(path, "hbm"), Dimension::Bytes);
    if (const json* v = find(value, "hbm_bandwidth")) {
        die.hbmBandwidth =
            readQuantity(*v, member(path, "hbm_bandwidth"), Dimension::BytesPerSecond);
        checkPositive(die.hbmBandwidth, member(path, "hbm_bandwidth"));
    }
    if (const json* v = find(value, "efficiency")) {
        die.efficiency = readNumber(*v, member(path, "efficiency"));
        if (!(die.efficiency > 0 && die.efficiency <= 1))
            fail(member(path, "efficiency"),
                 "must be greater than 0 and at most 1, got " + numberText(die.efficiency));
    }
    return die;
}

EnergySpec readEnergy(const json& value, const std::string& path) {
    expectObject(value, path);
    EnergySpec energy;
    energy.extensions =
        checkKeys(value, path, {"d2d_pj_per_bit", "hbm_pj_per_bit", "flops_per_joule"});
    const auto nonNegative = [&](const char* key, double& field) {
        if (const json* v = find(value, key)) {
            field = readNumber(*v, member(path, key));
            if (field < 0)
                fail(member(path, key), "must be at least 0, got " + numberText(field));
        }
    };
    nonNegative("d2d_pj_per_bit", energy.d2dPicojoulesPerBit);
    nonNegative("hbm_pj_per_bit", energy.hbmPicojoulesPerBit);
    if (const json* v = find(value, "flops_per_joule")) {
        energy.flopsPerJoule = readNumber(*v, member(path, "flops_per_joule"));
        if (!(energy.flopsPerJoule > 0))
            fail(member(path, "flops_per_joule"),
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

// "a->b" (one direction) or "a-b" (both), between 4-neighbours of this wafer's geometry.
LinkRef readLink(const json& value, const std::string& path, const WaferTopology& geometry) {
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
        fail(path, "expected a link such as \"1->2\" (one direction) or \"1-2\" (both), got '" +
                       text + "'");
    };
    if (split == std::string::npos)
        badSyntax();
    const auto from = parseDieNumber(std::string_view(text).substr(0, split));
    const auto to = parseDieNumber(std::string_view(text).substr(split + separatorLength));
    if (!from || !to)
        badSyntax();
    for (const std::int64_t die : {*from, *to})
        if (die < 0 || die >= geometry.dieCount())
            fail(path, "die " + std::to_string(die) +
                           " is out of range (this wafer has dies 0 to " +
                           std::to_string(geometry.dieCount() - 1) + ")");
    link.from = static_cast<DieId>(*from);
    link.to = static_cast<DieId>(*to);
    if (!geometry.linkBetween(link.from, link.to))
        fail(path, "dies " + std::to_string(link.from) + " and " + std::to_string(link.to) +
                       " are not neighbours on this " + std::to_string(geometry.rows()) + "x" +
                       std::to_string(geometry.cols()) + " " + toString(geometry.kind()) +
                       ", so no link joins them");
    return link;
}

void readFaults(const json& value, const std::string& path, WaferSpec& wafer) {
    expectObject(value, path);
    // A "faults" object has no struct of its own: its "x-..." keys are accepted but not kept.
    checkKeys(value, path, {"dies", "links"});
    const WaferTopology geometry(TopologySpec{wafer.rows, wafer.cols, wafer.topology, {}, {}});
    const DieChecker dies(geometry);
    if (const json* list = find(value, "dies")) {
        const std::string listPath = member(path, "dies");
        expectArray(*list, listPath);
        std::map<DieId, std::size_t> seen;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const DieId die = dies.inRange((*list)[i], element(listPath, i));
            if (const auto it = seen.find(die); it != seen.end())
                fail(element(listPath, i), "die " + std::to_string(die) +
                                               " is listed twice (also at " +
                                               element(listPath, it->second) + ")");
            seen.emplace(die, i);
            wafer.deadDies.push_back(die);
        }
    }
    if (const json* list = find(value, "links")) {
        const std::string listPath = member(path, "links");
        expectArray(*list, listPath);
        std::map<std::pair<DieId, DieId>, std::size_t> seen; // directed link -> list index
        for (std::size_t i = 0; i < list->size(); ++i) {
            const LinkRef link = readLink((*list)[i], element(listPath, i), geometry);
            std::vector<std::pair<DieId, DieId>> directed{{link.from, link.to}};
            if (link.bothDirections)
                directed.emplace_back(link.to, link.from);
            for (const auto& d : directed) {
                if (const auto it = seen.find(d); it != seen.end())
                    fail(element(listPath, i),
                         "the link " + std::to_string(d.first) + "->" + std::to_string(d.second) +
                             " is listed twice (also at " + element(listPath, it->second) + ")");
                seen.emplace(d, i);
            }
            wafer.deadLinks.push_back(link);
        }
    }
}

WaferSpec readWafer(const json& value, const std::string& path) {
    expectObject(value, path);
    WaferSpec wafer;
    wafer.extensions = checkKeys(
        value, path,
        {"rows", "cols", "topology", "link_bandwidth", "link_latency", "die", "energy", "faults"});
    wafer.rows =
        readIntInRange(require(value, path, "rows"), member(path, "rows"), 1, kMaxWaferSide);
    wafer.cols =
        readIntInRange(require(value, path, "cols"), member(path, "cols"), 1, kMaxWaferSide);
    if (const json* v = find(value, "topology"))
        wafer.topology = readEnum<TopologyKind>(*v, member(path, "topology"), "topology",
                                                topologyKindFromString, kTopologyNames);
    if (const json* v = find(value, "link_bandwidth")) {
        const std::string at = member(path, "link_bandwidth");
        wafer.linkBandwidth = readQuantity(*v, at, Dimension::BytesPerSecond);
        checkPositive(wafer.linkBandwidth, at);
        checkAtMost(wafer.linkBandwidth, at, kMaxLinkBandwidth, "1 PB/s");
    }
    if (const json* v = find(value, "link_latency")) {
        const std::string at = member(path, "link_latency");
        wafer.linkLatency = readQuantity(*v, at, Dimension::Seconds);
        checkAtMost(wafer.linkLatency, at, kMaxLinkLatency, "1 s per hop");
    }
    if (const json* v = find(value, "die"))
        wafer.die = readDie(*v, member(path, "die"));
    if (const json* v = find(value, "energy"))
        wafer.energy = readEnergy(*v, member(path, "energy"));
    if (const json* v = find(value, "faults"))
        readFaults(*v, member(path, "faults"), wafer);
    return wafer;
}

// Reads a group; `path` is "traffic[i].group".
std::vector<DieId> readGroup(const json& value, const std::string& path, const DieChecker& dies) {
    expectArray(value, path);
    if (value.empty())
        fail(path, "the group is empty; a collective needs at least 2 dies");
    std::vector<DieId> group;
    std::map<DieId, std::size_t> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const DieId die = dies.alive(value[i], element(path, i));
        if (const auto it = seen.find(die); it != seen.end())
            fail(element(path, i), "die " + std::to_string(die) +
                                       " appears twice in the group (also at " +
                                       element(path, it->second) + ")");
        seen.emplace(die, i);
        group.push_back(die);
    }
    if (group.size() < 2)
        fail(path, "a collective needs at least 2 dies, got 1");
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
        fail(path, "algorithm 'hierarchical' needs a group that fills a rectangle of dies "
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
        fail(path, "algorithm '" + toString(*op.algorithm) + "' is not defined for " + kind +
                       " (use " + alternatives + ")");
    };
    switch (*op.algorithm) {
    case Algorithm::Multicast:
        if (op.kind == OpKind::ReduceScatter)
            notFor("ring, hierarchical or direct");
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
    case Algorithm::Ring:
    case Algorithm::Direct:
        break;
    }
}

// Reads traffic[i] except the meaning of `after`, which needs every op id.
TrafficOp readOp(const json& value, const std::string& path, const DieChecker& dies) {
    expectObject(value, path);
    TrafficOp op;
    op.extensions = checkKeys(
        value, path,
        {"id", "op", "src", "dst", "group", "root", "bytes", "algorithm", "start", "after"});
    op.id = readString(require(value, path, "id"), member(path, "id"));
    if (op.id.empty())
        fail(member(path, "id"), "the op id is empty");
    if (op.id.find('/') != std::string::npos)
        fail(member(path, "id"), "op id '" + op.id +
                                     "' contains '/', which separates the parts of flow ids "
                                     "(\"<op id>/s<step>/r<rank>\")");
    op.kind = readEnum<OpKind>(require(value, path, "op"), member(path, "op"), "op",
                               opKindFromString, kOpNames);
    const std::string kind = toString(op.kind);
    if (op.kind == OpKind::P2P) {
        for (const char* key : {"group", "root"})
            if (find(value, key))
                fail(member(path, key),
                     "'" + std::string(key) + "' does not apply to a p2p op (it has src and dst)");
        op.src = dies.alive(require(value, path, "src"), member(path, "src"));
        op.dst = dies.alive(require(value, path, "dst"), member(path, "dst"));
        if (op.src == op.dst)
            fail(member(path, "dst"), "a p2p op needs two different dies, but src and dst are "
                                      "both die " +
                                          std::to_string(op.src));
    } else {
        for (const char* key : {"src", "dst"})
            if (find(value, key))
                fail(member(path, key), "'" + std::string(key) +
                                            "' applies only to a p2p op, not to " + kind +
                                            " (which has a group)");
        op.group = readGroup(require(value, path, "group"), member(path, "group"), dies);
        if (const json* v = find(value, "root")) {
            if (op.kind != OpKind::Broadcast)
                fail(member(path, "root"), "'root' applies only to a broadcast, not to " + kind);
            op.root = dies.alive(*v, member(path, "root"));
            if (std::find(op.group.begin(), op.group.end(), *op.root) == op.group.end())
                fail(member(path, "root"),
                     "the root, die " + std::to_string(*op.root) + ", is not in the group");
        }
    }
    {
        const std::string at = member(path, "bytes");
        op.bytes = readQuantity(require(value, path, "bytes"), at, Dimension::Bytes);
        checkPositive(op.bytes, at);
        checkAtMost(op.bytes, at, kMaxBytes, "1 PB");
    }
    if (const json* v = find(value, "algorithm")) {
        const std::string at = member(path, "algorithm");
        if (op.kind == OpKind::P2P)
            fail(at, "'algorithm' applies only to collectives, not to a p2p op");
        op.algorithm =
            readEnum<Algorithm>(*v, at, "algorithm", algorithmFromString, kAlgorithmNames);
        checkAlgorithm(op, at, dies.topology());
    }
    if (const json* v = find(value, "start")) {
        const std::string at = member(path, "start");
        op.start = readQuantity(*v, at, Dimension::Seconds);
        checkAtMost(*op.start, at, kMaxStart, "1e6 s (11.6 days)");
    }
    if (const json* v = find(value, "after")) {
        const std::string at = member(path, "after");
        expectArray(*v, at);
        for (std::size_t i = 0; i < v->size(); ++i)
            op.after.push_back(readString((*v)[i], element(at, i)));
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
        const std::string afterPath = member(element(path, i), "after");
        std::map<std::string, std::size_t> seen;
        for (std::size_t k = 0; k < traffic[i].after.size(); ++k) {
            const std::string& id = traffic[i].after[k];
            const std::string at = element(afterPath, k);
            if (id == traffic[i].id)
                fail(at, "op '" + id + "' cannot wait for itself");
            const auto target = indexById.find(id);
            if (target == indexById.end()) {
                std::vector<std::string> ids;
                for (const auto& entry : indexById)
                    ids.push_back(entry.first);
                fail(at, "unknown op id '" + id + "'" + didYouMean(id, ids));
            }
            if (const auto it = seen.find(id); it != seen.end())
                fail(at, "op '" + id + "' is listed twice (also at " +
                             element(afterPath, it->second) + ")");
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
                fail(member(element(path, next), "after"), "dependency cycle " + cycle);
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
        TrafficOp op = readOp(value[i], element(path, i), dies);
        if (const auto it = indexById.find(op.id); it != indexById.end())
            fail(member(element(path, i), "id"), "duplicate op id '" + op.id + "' (also " +
                                                     member(element(path, it->second), "id") + ")");
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
        fail(path, "a pinned path needs at least 2 dies, got " + std::to_string(value.size()));
    std::vector<DieId> dieList;
    std::map<DieId, std::size_t> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = element(path, i);
        const DieId die = dies.alive(value[i], at);
        if (const auto it = seen.find(die); it != seen.end())
            fail(at, "die " + std::to_string(die) + " is visited twice (also at " +
                         element(path, it->second) + ")");
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
        const std::string at = element(path, i);
        const json& pair = value[i];
        if (!pair.is_array() || pair.size() != 2)
            fail(at, "expected a [from, to] pair of dies (every entry of a multicast tree is "
                     "one), got " +
                         (pair.is_array() ? "an array of " + std::to_string(pair.size())
                                          : jsonTypeName(pair)));
        const DieId from = dies.alive(pair[0], element(at, 0));
        const DieId to = dies.alive(pair[1], element(at, 1));
        dies.liveLink(from, to, at);
        if (const auto it = seen.find({from, to}); it != seen.end())
            fail(at, "the edge " + std::to_string(from) + "->" + std::to_string(to) +
                         " is listed twice (also at " + element(path, it->second) + ")");
        seen.emplace(std::pair{from, to}, i);
        edges.emplace_back(from, to);
    }
    return edges;
}

RoutingSpec readRouting(const json& value, const std::string& path, const DieChecker& dies) {
    expectObject(value, path);
    RoutingSpec routing;
    routing.extensions = checkKeys(value, path, {"mode", "paths"});
    if (const json* v = find(value, "mode"))
        routing.mode = readEnum<RoutingMode>(*v, member(path, "mode"), "routing mode",
                                             routingModeFromString, kRoutingModeNames);
    if (const json* v = find(value, "paths")) {
        const std::string pathsPath = member(path, "paths");
        expectObject(*v, pathsPath);
        // Keys here are flow ids ("ag/s0/r1"), not schema keys: "x-..." is not special.
        for (const auto& [flowId, route] : v->items()) {
            const std::string at = member(pathsPath, flowId);
            if (flowId.empty())
                fail(at, "the flow id is empty");
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
    tcme.extensions =
        checkKeys(value, path, {"max_iter", "min_gain", "patience", "target_utilization"});
    if (const json* v = find(value, "max_iter"))
        tcme.maxIter = readIntInRange(*v, member(path, "max_iter"), 1, 1000);
    if (const json* v = find(value, "min_gain")) {
        tcme.minGain = readNumber(*v, member(path, "min_gain"));
        if (!(tcme.minGain >= 0 && tcme.minGain < 1))
            fail(member(path, "min_gain"),
                 "must be at least 0 and less than 1, got " + numberText(tcme.minGain));
    }
    if (const json* v = find(value, "patience"))
        tcme.patience = readIntInRange(*v, member(path, "patience"), 1, 1000);
    if (const json* v = find(value, "target_utilization")) {
        tcme.targetUtilization = readNumber(*v, member(path, "target_utilization"));
        if (!(tcme.targetUtilization > 0 && tcme.targetUtilization <= 10))
            fail(member(path, "target_utilization"), "must be greater than 0 and at most 10, got " +
                                                         numberText(tcme.targetUtilization));
    }
    return tcme;
}

} // namespace

Scenario parseScenario(const nlohmann::json& document, const std::filesystem::path& directory) {
    if (!document.is_object())
        fail("", "expected a JSON object at the top level, got " + jsonTypeName(document));
    Scenario scenario;
    scenario.extensions = checkKeys(document, "",
                                    {"format", "version", "name", "description", "wafer",
                                     "workload", "strategy", "traffic", "routing", "tcme"});
    if (const json* v = find(document, "format")) {
        const std::string format = readString(*v, "format");
        if (format != "waferscope.scenario")
            fail("format", "expected \"waferscope.scenario\", got '" + format + "'");
    }
    if (const json* v = find(document, "version")) {
        const std::int64_t version = readInteger(*v, "version");
        if (version != 1)
            fail("version", "unsupported version " + std::to_string(version) +
                                "; this WaferScope reads version 1");
    }
    if (const json* v = find(document, "name"))
        scenario.name = readString(*v, "name");
    if (const json* v = find(document, "description"))
        scenario.description = readString(*v, "description");
    scenario.wafer = readWafer(require(document, "", "wafer"), "wafer");
    if (const json* v = find(document, "workload"))
        scenario.workload = parseWorkload(*v, directory);
    if (const json* v = find(document, "strategy"))
        scenario.strategy = parseStrategy(*v);

    const WaferTopology topology(scenario.wafer.topologySpec());
    const DieChecker dies(topology);
    if (const json* v = find(document, "traffic"))
        scenario.traffic = readTraffic(*v, "traffic", dies);
    if (const json* v = find(document, "routing"))
        scenario.routing = readRouting(*v, "routing", dies);
    if (const json* v = find(document, "tcme"))
        scenario.tcme = readTcme(*v, "tcme");
    return scenario;
}

} // namespace ws
