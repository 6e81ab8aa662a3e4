#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

using DieId = int;  // row-major: die r * cols + c, die 0 at the top left
using LinkId = int; // dense, stable: see WaferTopology

// Cluster: GPUs in nodes behind switches, a row per node (docs/network-model.md section 12).
enum class TopologyKind { Mesh, Torus, Cluster };

struct DieCoord {
    int row = 0;
    int col = 0;
    friend bool operator==(const DieCoord&, const DieCoord&) = default;
};

struct DieProperties {
    DieId id = 0;
    DieCoord coord;
    bool alive = true;
};

// Which kind of hardware a link is, and so whose bandwidth and latency it has (LinkTierSpeeds):
// - Wafer: a die-to-die link of a wafer (the wafer's link_bandwidth);
// - OffWafer: joins two wafers of a system (docs/network-model.md section 11), the system's speed
//   and energy;
// - NodeSwitch: a cluster GPU's link to its node's switch (NVLink/NVSwitch; cluster.intra);
// - Nic: a cluster GPU's network card to its rail or leaf switch (cluster.inter);
// - Uplink: a fat tree's leaf switch to its spine, all of that leaf's uplinks as one link
//   (cluster.inter, divided by the oversubscription).
enum class LinkTier { Wafer, OffWafer, NodeSwitch, Nic, Uplink };

// A directed link between two vertices: dies, or on a cluster also switches (vertex ids from
// dieCount() on). `alive` is false when the link itself is faulty or either die is.
struct LinkProperties {
    LinkId id = 0;
    DieId from = 0;
    DieId to = 0;
    bool alive = true;
    LinkTier tier = LinkTier::Wafer;

    bool offWafer() const { return tier == LinkTier::OffWafer; }
};

// A cluster's inter-node network (docs/file-format.md `cluster`): one switch per rail (GPU g of
// every node on rail switch g), or a two-level fat tree (a leaf switch per `nodesPerLeaf` nodes,
// one spine).
enum class ClusterNetwork { Rail, FatTree };

struct ClusterTopologySpec {
    ClusterNetwork network = ClusterNetwork::Rail;
    int nodesPerLeaf = 4; // fat tree only
    friend bool operator==(const ClusterTopologySpec&, const ClusterTopologySpec&) = default;
};

// The switches of a cluster, which are vertices of the topology but not devices.
enum class SwitchKind { Node, Rail, Leaf, Spine };

// The four neighbour directions, in the order link ids are assigned.
enum class Direction { East = 0, West = 1, South = 2, North = 3 };

struct TopologySpec {
    int rows = 1;
    int cols = 1;
    TopologyKind kind = TopologyKind::Mesh;
    std::vector<DieId> deadDies;
    std::vector<std::pair<DieId, DieId>> deadLinks; // directed (from, to); must be linked
    // A system of wafers (docs/file-format.md `system`): the grid is cut into wafers of waferRows x
    // waferCols dies (0: the whole grid is one wafer), and across each edge two neighbouring wafers
    // share, only `linksPerEdge` die pairs (0: every pair) are linked, spread evenly along it.
    int waferRows = 0;
    int waferCols = 0;
    int linksPerEdge = 0;
    // A cluster (docs/network-model.md section 12): rows are its nodes, cols the GPUs per node, and
    // `kind` must be Cluster. Its GPUs are the dies, numbered node-major; its switches are added
    // after them.
    std::optional<ClusterTopologySpec> cluster = std::nullopt;
};

// The wafer as an immutable directed Boost.Graph: one vertex per die (dead ones included, so
// vertex index == DieId) and one edge per directed link between 4-neighbours (plus wrap-around
// on a torus). Link ids are dense and stable: links are numbered by source die, then by
// direction East, West, South, North; a direction that has no neighbour, or whose neighbour is
// already linked in an earlier direction (a torus of side 2), gets no id.
//
// Example: a 1x3 mesh has links 0: 0->1, 1: 1->2, 2: 1->0, 3: 2->1.
//
// A system of wafers is one grid with some links missing: the die pairs of a shared wafer edge
// that are not joined get no link (neighbour() still names them; linkBetween() does not), so
// routes detour to the joined pairs as they detour around faults. Of an edge of E die pairs,
// the K joined ones are at positions floor((2i + 1) E / 2K), i = 0 .. K-1 (evenly spread, the
// middle one for K = 1). Example: a [1, 2] system of 4x4 wafers with K = 2 is a 4x8 grid whose
// only off-wafer links join dies 11-12 and 27-28 (rows 1 and 3).
//
// A cluster (docs/network-model.md section 12) is a grid of nodes x GPUs with no link between GPUs:
// every GPU has a link each way to its node's switch and to its rail switch (rail network) or its
// leaf switch (fat tree); each leaf has a link each way to the spine (none with one leaf). Switch
// vertices follow the GPUs: the node switches, then the rails or the leaves, then the spine.
// Links are numbered GPU by GPU (up to its node switch, up to its rail or leaf), then switch
// by switch (down to each GPU in id order; a leaf up to the spine), then the spine down.
class WaferTopology {
public:
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                        DieProperties, LinkProperties>;

    // Throws std::invalid_argument for sizes out of 1..256, ids out of range, a dead link
    // between dies that no link joins, wafers that do not tile the grid, a torus of several
    // wafers, or more joined pairs than an edge has.
    explicit WaferTopology(const TopologySpec& spec);

    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    TopologyKind kind() const { return m_kind; }
    int dieCount() const { return m_rows * m_cols; }
    // Dies and, on a cluster, switches: every vertex of graph(), ids 0 .. vertexCount() - 1.
    int vertexCount() const { return dieCount() + m_switchCount; }
    bool isSwitch(int vertex) const { return vertex >= dieCount(); }
    // A vertex a route may cross: a live die, or a switch (switches do not fail).
    bool isLiveVertex(int vertex) const {
        return vertex >= 0 && vertex < vertexCount() && (isSwitch(vertex) || isAlive(vertex));
    }
    int linkCount() const { return static_cast<int>(m_links.size()); }

    bool contains(DieId die) const { return die >= 0 && die < dieCount(); }
    DieCoord coord(DieId die) const { return {die / m_cols, die % m_cols}; }
    DieId dieAt(DieCoord coord) const { return coord.row * m_cols + coord.col; }
    bool isAlive(DieId die) const { return m_dieAlive[static_cast<std::size_t>(die)]; }

    const LinkProperties& link(LinkId id) const { return m_links[static_cast<std::size_t>(id)]; }
    const std::vector<LinkProperties>& links() const { return m_links; }
    // The link from vertex `from` to vertex `to`, or nullopt if no link joins them.
    std::optional<LinkId> linkBetween(DieId from, DieId to) const;
    // The neighbour of `die` in a direction (wrapping on a torus), or nullopt at a mesh edge
    // (always on a cluster).
    std::optional<DieId> neighbour(DieId die, Direction direction) const;
    // Outgoing links of a die, in direction order.
    const std::vector<LinkId>& outLinks(DieId die) const {
        return m_outLinks[static_cast<std::size_t>(die)];
    }

    // The system's wafers (one, unless the spec cut the grid): dies per wafer side, wafers per
    // grid side, and the wafer a die is on (row-major over the wafers).
    int waferRows() const { return m_waferRows; }
    int waferCols() const { return m_waferCols; }
    int wafersDown() const { return m_rows / m_waferRows; }
    int wafersAcross() const { return m_cols / m_waferCols; }
    int waferCount() const { return wafersDown() * wafersAcross(); }
    int waferOf(DieId die) const {
        const DieCoord c = coord(die);
        return (c.row / m_waferRows) * wafersAcross() + c.col / m_waferCols;
    }

    // Hops of the shortest path on the full (fault-free) geometry. On a cluster: 2 inside a node
    // or between nodes on one rail switch or leaf, 4 otherwise (docs/network-model.md section 12).
    int manhattanDistance(DieId a, DieId b) const;

    // A cluster's shape (nodes are rows(), GPUs per node cols()) and switches.
    bool isCluster() const { return m_kind == TopologyKind::Cluster; }
    ClusterNetwork clusterNetwork() const { return m_cluster.network; }
    int nodesPerLeaf() const { return m_cluster.nodesPerLeaf; }
    int leafCount() const;
    int nodeSwitch(int node) const { return dieCount() + node; }
    int railSwitch(int rail) const { return dieCount() + m_rows + rail; }
    int leafSwitch(int leaf) const { return dieCount() + m_rows + leaf; }
    int spineSwitch() const { return dieCount() + m_rows + leafCount(); } // if leafCount() > 1
    int leafOf(DieId die) const { return coord(die).row / m_cluster.nodesPerLeaf; }
    SwitchKind switchKind(int vertex) const;
    int switchIndex(int vertex) const; // the node, rail or leaf it serves (0 for the spine)
    // "12" for a die, "node 1 switch", "rail 3", "leaf 0" or "spine" for a switch.
    std::string vertexName(int vertex) const;

    const Graph& graph() const { return m_graph; }

private:
    int m_rows;
    int m_cols;
    TopologyKind m_kind;
    int m_waferRows;
    int m_waferCols;
    ClusterTopologySpec m_cluster;
    int m_switchCount = 0;
    std::vector<bool> m_dieAlive;
    std::vector<LinkProperties> m_links;
    std::vector<std::vector<LinkId>> m_outLinks; // by vertex
    Graph m_graph;

    void addLink(int from, int to, LinkTier tier);
    void buildCluster();
};

std::string linkName(const LinkProperties& link); // "3->4"
// "3->4" between dies; a switch end by its name: "3->node 0 switch".
std::string linkName(const WaferTopology& topology, const LinkProperties& link);
std::string linkName(const WaferTopology& topology, int from, int to);

} // namespace ws
