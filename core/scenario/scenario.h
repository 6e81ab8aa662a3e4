#pragma once

#include "scenario/strategy_spec.h"
#include "scenario/workload.h"
#include "topology/network_model.h"
#include "topology/wafer_topology.h"
#include "units/quantity.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// The scenario file of docs/file-format.md, as plain values. Quantities keep the text the user
// wrote so that load -> save -> load gives the same Scenario (operator== compares all of it).
// Keys named "x-..." are kept, in order, in each object's `extensions`.

struct DieSpec {
    Quantity peakFlops{1000e12, "1000 TFLOP/s"}; // FLOP/s
    Quantity sram{80e6, "80 MB"};                // bytes
    Quantity hbm{72e9, "72 GB"};                 // bytes
    Quantity hbmBandwidth{1e12, "1 TB/s"};       // bytes/s
    double efficiency = 1.0;                     // fraction of peak a GEMM reaches, (0, 1]
    // The compute and memory model's keys (docs/compute-model.md, where each default is
    // justified): the fixed cost of every compute task, the compute array's tile edge in
    // elements, and the share of SRAM kept for communication buffers.
    Quantity taskOverhead{1e-6, "1 us"}; // seconds
    int gemmTile = 128;                  // elements, >= 1
    double sramReserve = 0.10;           // fraction of sram, [0, 1)
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const DieSpec&, const DieSpec&) = default;
};

// A collective protocol as a file writes it (docs/file-format.md "Protocols",
// docs/network-model.md section 4.8): a name, a fixed latency per collective, and either the
// share of its tier's line rate its data moves at or the bus bandwidth it reaches (nccl-tests'
// busbw; above the line rate with in-network reduction).
struct ProtocolSpec {
    std::string name;
    Quantity latency{0.0, "0 s"};         // seconds, once per collective
    std::optional<double> efficiency;     // (0, 2]; exactly one of the two is set
    std::optional<Quantity> busBandwidth; // bytes/s
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const ProtocolSpec&, const ProtocolSpec&) = default;

    // On a tier whose line rate is `lineRate` bytes/s per direction.
    CollectiveProtocol resolved(double lineRate) const {
        return {name, latency.value, efficiency ? *efficiency : busBandwidth->value / lineRate};
    }
};

struct EnergySpec {
    double d2dPicojoulesPerBit = 5.0;
    double hbmPicojoulesPerBit = 6.0;
    double flopsPerJoule = 2e12;
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const EnergySpec&, const EnergySpec&) = default;
};

struct LinkRef {
    DieId from = 0;
    DieId to = 0;
    bool bothDirections = false; // written "a-b" rather than "a->b"
    friend bool operator==(const LinkRef&, const LinkRef&) = default;
};

struct WaferSpec {
    // The `wafer.preset` this wafer started from (scenario/wafer_presets.h), kept so that a
    // saved file names it again. The fields below always hold the values in force: the preset's,
    // overridden by every other key the file wrote. Unset: the defaults below, which are the
    // `paper-wsc-per-link` preset's values.
    std::optional<std::string> preset;
    int rows = 6;
    int cols = 8;
    TopologyKind topology = TopologyKind::Mesh;
    Quantity linkBandwidth{4e12, "4 TB/s"}; // bytes/s, per direction per link
    Quantity linkLatency{200e-9, "200 ns"}; // seconds per hop
    DieSpec die;
    EnergySpec energy;
    std::vector<DieId> deadDies;
    std::vector<LinkRef> deadLinks;
    // Degraded dies (`wafer.faults.slow_dies`, docs/compute-model.md section 8): die -> the
    // fraction of its peak FLOP/s it reaches, in (0, 1). Its HBM and links keep their speed. Never
    // a dead die.
    std::map<DieId, double> slowDies;
    // The protocols collectives run with over the die-to-die links (on a cluster, the node
    // switch): docs/network-model.md section 4.8. Empty: the line rate, no latency of their
    // own. A file without `protocols` gets defaultWaferProtocols() (scenario/wafer_presets.h).
    std::vector<ProtocolSpec> protocols;
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const WaferSpec&, const WaferSpec&) = default;

    // The fraction of peak FLOP/s die `id` reaches: its slow_dies entry, else 1.
    double dieSpeed(DieId id) const {
        const auto it = slowDies.find(id);
        return it == slowDies.end() ? 1.0 : it->second;
    }

    // The topology this wafer describes ("a-b" faults expanded to both directions).
    TopologySpec topologySpec() const;

    // The two ratios that decide a strategy's regime (docs/hardware.md): the FLOP a die
    // computes at peak in the time one byte crosses a link, or arrives from HBM. A task that
    // needs fewer FLOP per byte than one of them waits for that link or for HBM.
    double flopsPerLinkByte() const { return die.peakFlops.value / linkBandwidth.value; }
    double flopsPerHbmByte() const { return die.peakFlops.value / die.hbmBandwidth.value; }
};

enum class OpKind { P2P, AllGather, ReduceScatter, AllReduce, Broadcast, AllToAll };
// docs/file-format.md: `tree` is a reduction tree per rank for reduce-scatter (and all-reduce, then
// a multicast tree back), and the same as `multicast` for all-gather and broadcast.
// `bidirectional_ring` splits an all-gather, reduce-scatter or all-reduce into two rings in
// opposite directions, each on half of the buffer (docs/network-model.md section 4.7).
enum class Algorithm { Ring, Multicast, Hierarchical, Direct, Tree, BidirectionalRing };

struct TrafficOp {
    std::string id;
    OpKind kind = OpKind::P2P;
    DieId src = 0;             // p2p only
    DieId dst = 0;             // p2p only
    std::vector<DieId> group;  // collectives: ring order
    std::optional<DieId> root; // broadcast: defaults to group[0]
    Quantity bytes;            // docs/file-format.md: the whole buffer (nccl-tests' "size")
    std::optional<Algorithm> algorithm; // unset: ring for collectives
    std::optional<Quantity> start;      // seconds
    std::vector<std::string> after;     // op ids that must finish first
    // The buffer cut into `split` equal parts, each carried out by the algorithm on its own and
    // all at once, on its own routes (docs/file-format.md, `split`). 1: not split.
    int split = 1;
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const TrafficOp&, const TrafficOp&) = default;

    Algorithm effectiveAlgorithm() const { return algorithm.value_or(Algorithm::Ring); }
    DieId effectiveRoot() const { return root.value_or(group.empty() ? 0 : group.front()); }
};

enum class RoutingMode { XY, YX, Shortest, Adaptive };

// A pinned route: a unicast path (list of dies) or, for a multicast flow, tree edges.
struct PinnedRoute {
    std::vector<DieId> path;
    std::vector<std::pair<DieId, DieId>> treeEdges;
    friend bool operator==(const PinnedRoute&, const PinnedRoute&) = default;
};

struct RoutingSpec {
    RoutingMode mode = RoutingMode::XY;
    std::map<std::string, PinnedRoute> paths; // by flow id
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const RoutingSpec&, const RoutingSpec&) = default;
};

struct TcmeSpec {
    int maxIter = 10;
    double minGain = 0.05;
    int patience = 3;
    double targetUtilization = 0.7;
    // Candidates (e) of docs/tcme.md: a hot op's transfer split over two routes. Off, TCME stops
    // at whole trees (the "balanced whole trees" figures of the yardstick).
    bool splitTransfers = true;
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const TcmeSpec&, const TcmeSpec&) = default;
};

// The `network` key (docs/file-format.md): which network model moves the flows
// (docs/network-model.md sections 2 and 10), and the store-and-forward chunk size.
struct NetworkSpec {
    NetworkModel model = NetworkModel::Fluid;
    Quantity chunk{1048576.0, "1 MiB"}; // bytes per chunk (store_and_forward)
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const NetworkSpec&, const NetworkSpec&) = default;

    NetworkSettings settings() const { return {model, chunk.value}; }
};

// The `system` key (docs/file-format.md): R x C copies of the wafer side by side,
// neighbouring wafers joined by off-wafer links. Dies are numbered row-major over the whole grid
// of dies; `wafer.faults` name dies and links of that grid.
struct SystemSpec {
    int waferRows = 1; // R of "wafers": [R, C]
    int waferCols = 1; // C
    // Required in a file (docs/file-format.md `system` gives them no default); the values here only
    // make a default-constructed SystemSpec valid.
    Quantity linkBandwidth{100e9, "100 GB/s"}; // bytes/s, per direction per off-wafer link
    Quantity linkLatency{1e-6, "1 us"};        // seconds per off-wafer hop
    // Die pairs joined across each shared wafer edge, spread evenly; unset: every pair.
    std::optional<int> linksPerEdge;
    // pJ per bit an off-wafer link spends; unset: the wafer's energy.d2d_pj_per_bit.
    std::optional<double> picojoulesPerBit;
    // The protocols of the off-wafer links (docs/network-model.md section 4.8).
    std::vector<ProtocolSpec> protocols;
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const SystemSpec&, const SystemSpec&) = default;

    int waferCount() const { return waferRows * waferCols; }
};

// The `cluster` key (docs/file-format.md): nodes of GPUs, each node's GPUs behind
// one non-blocking switch, the nodes joined by a rail-optimised or fat-tree network. What a
// cluster shares with a wafer lives in Scenario::wafer, which then describes the grid of GPUs
// (rows = nodes, cols = gpus_per_node, topology mesh but no die-to-die link): `gpu` is
// wafer.die, `intra` is wafer.link_bandwidth and link_latency (per GPU per direction, per link
// crossed), `energy` is wafer.energy (its d2d_pj_per_bit for every link). This holds the rest.
struct ClusterSpec {
    // The `cluster.preset` it started from (scenario/cluster_presets.h), kept so that a saved
    // file names it again; the fields always hold the values in force.
    std::optional<std::string> preset;
    ClusterNetwork network = ClusterNetwork::Rail; // inter.kind
    Quantity nicBandwidth{25e9, "25 GB/s"};        // bytes/s per GPU per direction
    Quantity interLatency{2e-6, "2 us"};           // seconds per link of the inter network
    double oversubscription = 1.0;                 // fat tree: leaf down / up bandwidth, >= 1
    int nodesPerLeaf = 4;                          // fat tree: nodes behind one leaf switch
    // The protocols of the network between nodes (docs/network-model.md section 4.8).
    std::vector<ProtocolSpec> interProtocols;
    nlohmann::json interExtensions = nlohmann::json::object();
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const ClusterSpec&, const ClusterSpec&) = default;

    // A fat tree leaf's uplink to the spine, all its uplinks as one link (WaferTopology): the
    // NIC bandwidth of every GPU under the leaf, divided by the oversubscription.
    double uplinkBandwidth(int gpusPerNode) const {
        return nicBandwidth.value * nodesPerLeaf * gpusPerNode / oversubscription;
    }
};

struct Scenario {
    std::string name;
    std::string description;
    WaferSpec wafer; // on a cluster: its grid of GPUs (ClusterSpec)
    // Parsed with the file; what needs both (divisibility) or the wafer (placement) is checked
    // when a step is built.
    std::optional<Workload> workload;
    std::optional<StrategySpec> strategy;
    std::vector<TrafficOp> traffic;
    std::optional<RoutingSpec> routing;
    std::optional<TcmeSpec> tcme;
    std::optional<NetworkSpec> network; // unset: the fluid model
    std::optional<SystemSpec> system;   // unset: one wafer
    std::optional<ClusterSpec> cluster; // set: a GPU cluster, never with `system`
    nlohmann::json extensions = nlohmann::json::object();
    friend bool operator==(const Scenario&, const Scenario&) = default;

    // The grid of dies: the wafer's, times the system's wafers.
    int gridRows() const { return wafer.rows * (system ? system->waferRows : 1); }
    int gridCols() const { return wafer.cols * (system ? system->waferCols : 1); }
    int dieCount() const { return gridRows() * gridCols(); }
    // The topology of the whole grid (every wafer, the off-wafer links, the faults): what every
    // run, edit and view builds.
    TopologySpec topologySpec() const;

    RoutingMode routingMode() const { return routing ? routing->mode : RoutingMode::XY; }
    NetworkSettings networkSettings() const {
        return network ? network->settings() : NetworkSettings{};
    }
    // The speeds of the links that are not the wafer's: a system's off-wafer links, a
    // cluster's network cards and fat-tree uplinks.
    LinkTierSpeeds linkTierSpeeds() const;
    // The protocols of each link tier, their efficiencies over each tier's line rate.
    TierProtocols tierProtocols() const;
    // The bandwidth (bytes/s) and latency (s) of a link of `tier`.
    LinkSpeed linkSpeed(LinkTier tier) const {
        return linkTierSpeeds().of(tier, {wafer.linkBandwidth.value, wafer.linkLatency.value});
    }
};

// Names as written in files ("allgather", "ring", "xy", ...).
std::string toString(OpKind kind);
std::string toString(Algorithm algorithm);
std::string toString(RoutingMode mode);
std::string toString(TopologyKind kind);
std::string toString(NetworkModel model);
std::string toString(ClusterNetwork network); // "rail", "fat_tree"
std::optional<OpKind> opKindFromString(const std::string& text);
std::optional<Algorithm> algorithmFromString(const std::string& text);
std::optional<RoutingMode> routingModeFromString(const std::string& text);
std::optional<TopologyKind> topologyKindFromString(const std::string& text);
std::optional<NetworkModel> networkModelFromString(const std::string& text);
std::optional<ClusterNetwork> clusterNetworkFromString(const std::string& text);

} // namespace ws
