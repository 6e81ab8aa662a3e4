#include "scenario/scenario.h"

#include <array>
#include <utility>

namespace ws {
namespace {

// One table per enum, so the writer and the reader can never disagree on a spelling.
constexpr std::array<std::pair<OpKind, const char*>, 6> kOpKinds = {{
    {OpKind::P2P, "p2p"},
    {OpKind::AllGather, "allgather"},
    {OpKind::ReduceScatter, "reducescatter"},
    {OpKind::AllReduce, "allreduce"},
    {OpKind::Broadcast, "broadcast"},
    {OpKind::AllToAll, "alltoall"},
}};

constexpr std::array<std::pair<Algorithm, const char*>, 6> kAlgorithms = {{
    {Algorithm::Ring, "ring"},
    {Algorithm::Multicast, "multicast"},
    {Algorithm::Hierarchical, "hierarchical"},
    {Algorithm::Direct, "direct"},
    {Algorithm::Tree, "tree"},
    {Algorithm::BidirectionalRing, "bidirectional_ring"},
}};

constexpr std::array<std::pair<RoutingMode, const char*>, 4> kRoutingModes = {{
    {RoutingMode::XY, "xy"},
    {RoutingMode::YX, "yx"},
    {RoutingMode::Shortest, "shortest"},
    {RoutingMode::Adaptive, "adaptive"},
}};

constexpr std::array<std::pair<TopologyKind, const char*>, 3> kTopologyKinds = {{
    {TopologyKind::Mesh, "mesh"},
    {TopologyKind::Torus, "torus"},
    {TopologyKind::Cluster, "cluster"},
}};

constexpr std::array<std::pair<NetworkModel, const char*>, 2> kNetworkModels = {{
    {NetworkModel::Fluid, "fluid"},
    {NetworkModel::StoreAndForward, "store_and_forward"},
}};

constexpr std::array<std::pair<ClusterNetwork, const char*>, 2> kClusterNetworks = {{
    {ClusterNetwork::Rail, "rail"},
    {ClusterNetwork::FatTree, "fat_tree"},
}};

template <typename Enum, std::size_t N>
std::string nameOf(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
    for (const auto& [candidate, name] : table)
        if (candidate == value)
            return name;
    return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, const char*>, N>& table,
                            const std::string& text) {
    for (const auto& [value, name] : table)
        if (text == name)
            return value;
    return std::nullopt;
}

} // namespace

std::string toString(OpKind kind) {
    return nameOf(kOpKinds, kind);
}
std::string toString(Algorithm algorithm) {
    return nameOf(kAlgorithms, algorithm);
}
std::string toString(RoutingMode mode) {
    return nameOf(kRoutingModes, mode);
}
std::string toString(TopologyKind kind) {
    return nameOf(kTopologyKinds, kind);
}
std::string toString(NetworkModel model) {
    return nameOf(kNetworkModels, model);
}
std::string toString(ClusterNetwork network) {
    return nameOf(kClusterNetworks, network);
}
std::optional<ClusterNetwork> clusterNetworkFromString(const std::string& text) {
    return valueOf(kClusterNetworks, text);
}

std::optional<OpKind> opKindFromString(const std::string& text) {
    return valueOf(kOpKinds, text);
}
std::optional<Algorithm> algorithmFromString(const std::string& text) {
    return valueOf(kAlgorithms, text);
}
std::optional<RoutingMode> routingModeFromString(const std::string& text) {
    return valueOf(kRoutingModes, text);
}
std::optional<TopologyKind> topologyKindFromString(const std::string& text) {
    return valueOf(kTopologyKinds, text);
}
std::optional<NetworkModel> networkModelFromString(const std::string& text) {
    return valueOf(kNetworkModels, text);
}

TopologySpec WaferSpec::topologySpec() const {
    TopologySpec spec;
    spec.rows = rows;
    spec.cols = cols;
    spec.kind = topology;
    spec.deadDies = deadDies;
    spec.deadLinks.reserve(deadLinks.size() * 2);
    for (const LinkRef& link : deadLinks) {
        spec.deadLinks.emplace_back(link.from, link.to);
        if (link.bothDirections)
            spec.deadLinks.emplace_back(link.to, link.from);
    }
    return spec;
}

LinkTierSpeeds Scenario::linkTierSpeeds() const {
    LinkTierSpeeds tiers;
    if (system)
        tiers.offWafer = LinkSpeed{system->linkBandwidth.value, system->linkLatency.value};
    if (cluster) {
        tiers.nic = LinkSpeed{cluster->nicBandwidth.value, cluster->interLatency.value};
        tiers.uplink = LinkSpeed{cluster->uplinkBandwidth(wafer.cols), cluster->interLatency.value};
    }
    return tiers;
}

namespace {

std::vector<CollectiveProtocol> resolvedProtocols(const std::vector<ProtocolSpec>& specs,
                                                  double lineRate) {
    std::vector<CollectiveProtocol> protocols;
    protocols.reserve(specs.size());
    for (const ProtocolSpec& spec : specs)
        protocols.push_back(spec.resolved(lineRate));
    return protocols;
}

} // namespace

TierProtocols Scenario::tierProtocols() const {
    TierProtocols tiers;
    tiers.wafer = resolvedProtocols(wafer.protocols, wafer.linkBandwidth.value);
    if (system)
        tiers.offWafer = resolvedProtocols(system->protocols, system->linkBandwidth.value);
    if (cluster)
        tiers.network = resolvedProtocols(cluster->interProtocols, cluster->nicBandwidth.value);
    return tiers;
}

TopologySpec Scenario::topologySpec() const {
    TopologySpec spec = wafer.topologySpec();
    if (cluster) {
        spec.kind = TopologyKind::Cluster;
        spec.cluster = ClusterTopologySpec{cluster->network, cluster->nodesPerLeaf};
    }
    if (system) {
        spec.rows = gridRows();
        spec.cols = gridCols();
        spec.waferRows = wafer.rows;
        spec.waferCols = wafer.cols;
        spec.linksPerEdge = system->linksPerEdge.value_or(0);
    }
    return spec;
}

} // namespace ws
