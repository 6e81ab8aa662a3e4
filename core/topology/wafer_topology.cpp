#include "topology/wafer_topology.h"

#include <cstdlib>
#include <stdexcept>

namespace ws {

namespace {

// Whether position `at` (0 .. edge-1) of a wafer edge of `edge` die pairs is one of the
// `joined` evenly spread pairs (0: all): floor((2i + 1) edge / 2 joined) for some i.
bool isJoinedPair(int at, int edge, int joined) {
    if (joined == 0)
        return true;
    for (int i = 0; i < joined; ++i)
        if ((2 * i + 1) * edge / (2 * joined) == at)
            return true;
    return false;
}

} // namespace

WaferTopology::WaferTopology(const TopologySpec& spec)
    : m_rows(spec.rows), m_cols(spec.cols), m_kind(spec.kind),
      m_waferRows(spec.waferRows > 0 ? spec.waferRows : spec.rows),
      m_waferCols(spec.waferCols > 0 ? spec.waferCols : spec.cols),
      m_cluster(spec.cluster.value_or(ClusterTopologySpec{})) {
    if (m_rows < 1 || m_rows > 256 || m_cols < 1 || m_cols > 256)
        throw std::invalid_argument("rows and cols must be 1 to 256");
    if (spec.cluster.has_value() != (m_kind == TopologyKind::Cluster))
        throw std::invalid_argument("a cluster topology needs its cluster spec and only it");
    if (m_kind == TopologyKind::Cluster &&
        (m_cluster.nodesPerLeaf < 1 || spec.waferRows > 0 || spec.waferCols > 0))
        throw std::invalid_argument("a cluster needs 1 or more nodes per leaf and no wafers");
    if (m_waferRows < 1 || m_waferCols < 1 || m_rows % m_waferRows != 0 ||
        m_cols % m_waferCols != 0)
        throw std::invalid_argument("wafers of " + std::to_string(m_waferRows) + "x" +
                                    std::to_string(m_waferCols) + " dies do not tile a " +
                                    std::to_string(m_rows) + "x" + std::to_string(m_cols) +
                                    " grid");
    const bool severalWafers = waferCount() > 1;
    if (severalWafers && m_kind == TopologyKind::Torus)
        throw std::invalid_argument("a system of several wafers is a mesh of wafers: a torus "
                                    "wafer cannot be part of one");
    if (spec.linksPerEdge < 0 ||
        (severalWafers && ((wafersAcross() > 1 && spec.linksPerEdge > m_waferRows) ||
                           (wafersDown() > 1 && spec.linksPerEdge > m_waferCols))))
        throw std::invalid_argument(
            "links per edge must be 1 to the die pairs of a shared wafer edge (" +
            std::to_string(wafersAcross() > 1 ? m_waferRows : m_waferCols) + "), got " +
            std::to_string(spec.linksPerEdge));
    const int dies = dieCount();
    m_dieAlive.assign(static_cast<std::size_t>(dies), true);
    for (DieId dead : spec.deadDies) {
        if (!contains(dead))
            throw std::invalid_argument("dead die " + std::to_string(dead) + " is out of range");
        m_dieAlive[static_cast<std::size_t>(dead)] = false;
    }

    if (isCluster())
        m_switchCount = m_rows + (m_cluster.network == ClusterNetwork::Rail
                                      ? m_cols
                                      : leafCount() + (leafCount() > 1 ? 1 : 0));
    m_outLinks.resize(static_cast<std::size_t>(vertexCount()));
    m_graph = Graph(static_cast<std::size_t>(vertexCount()));
    for (int vertex = 0; vertex < vertexCount(); ++vertex) {
        auto& props = m_graph[static_cast<std::size_t>(vertex)];
        props.id = vertex;
        props.coord = isSwitch(vertex) ? DieCoord{-1, -1} : coord(vertex);
        props.alive = isSwitch(vertex) || isAlive(vertex);
    }
    if (isCluster())
        buildCluster();
    for (DieId die = 0; die < dies && !isCluster(); ++die) {
        for (int d = 0; d < 4; ++d) {
            const auto target = neighbour(die, static_cast<Direction>(d));
            if (!target || *target == die || linkBetween(die, *target))
                continue;
            const bool offWafer = waferOf(die) != waferOf(*target);
            if (offWafer) {
                // Across a vertical edge the pairs run down the rows, across a horizontal one
                // along the columns.
                const DieCoord c = coord(die);
                const bool acrossColumns = d == static_cast<int>(Direction::East) ||
                                           d == static_cast<int>(Direction::West);
                const int at = acrossColumns ? c.row % m_waferRows : c.col % m_waferCols;
                const int edge = acrossColumns ? m_waferRows : m_waferCols;
                if (!isJoinedPair(at, edge, spec.linksPerEdge))
                    continue;
            }
            addLink(die, *target, offWafer ? LinkTier::OffWafer : LinkTier::Wafer);
        }
    }
    for (const auto& [from, to] : spec.deadLinks) {
        if (!contains(from) || !contains(to))
            throw std::invalid_argument("dead link " + std::to_string(from) + "->" +
                                        std::to_string(to) + " names a die out of range");
        const auto id = linkBetween(from, to);
        if (!id)
            throw std::invalid_argument(
                "dead link " + std::to_string(from) + "->" + std::to_string(to) +
                (manhattanDistance(from, to) == 1 && waferOf(from) != waferOf(to)
                     ? " joins wafers where no off-wafer link is"
                     : " joins dies that are not neighbours"));
        m_links[static_cast<std::size_t>(*id)].alive = false;
    }
    for (const LinkProperties& props : m_links)
        boost::add_edge(static_cast<std::size_t>(props.from), static_cast<std::size_t>(props.to),
                        props, m_graph);
}

std::optional<DieId> WaferTopology::neighbour(DieId die, Direction direction) const {
    if (isCluster())
        return std::nullopt; // GPUs are joined only through switches
    DieCoord c = coord(die);
    const bool torus = m_kind == TopologyKind::Torus;
    switch (direction) {
    case Direction::East:
        if (c.col + 1 < m_cols)
            ++c.col;
        else if (torus && m_cols > 1)
            c.col = 0;
        else
            return std::nullopt;
        break;
    case Direction::West:
        if (c.col > 0)
            --c.col;
        else if (torus && m_cols > 1)
            c.col = m_cols - 1;
        else
            return std::nullopt;
        break;
    case Direction::South:
        if (c.row + 1 < m_rows)
            ++c.row;
        else if (torus && m_rows > 1)
            c.row = 0;
        else
            return std::nullopt;
        break;
    case Direction::North:
        if (c.row > 0)
            --c.row;
        else if (torus && m_rows > 1)
            c.row = m_rows - 1;
        else
            return std::nullopt;
        break;
    }
    return dieAt(c);
}

void WaferTopology::addLink(int from, int to, LinkTier tier) {
    LinkProperties props;
    props.id = static_cast<LinkId>(m_links.size());
    props.from = from;
    props.to = to;
    props.alive = (isSwitch(from) || isAlive(from)) && (isSwitch(to) || isAlive(to));
    props.tier = tier;
    m_links.push_back(props);
    m_outLinks[static_cast<std::size_t>(from)].push_back(props.id);
}

void WaferTopology::buildCluster() {
    const bool rail = m_cluster.network == ClusterNetwork::Rail;
    const auto networkSwitchOf = [&](DieId gpu) {
        return rail ? railSwitch(coord(gpu).col) : leafSwitch(leafOf(gpu));
    };
    for (DieId gpu = 0; gpu < dieCount(); ++gpu) {
        addLink(gpu, nodeSwitch(coord(gpu).row), LinkTier::NodeSwitch);
        addLink(gpu, networkSwitchOf(gpu), LinkTier::Nic);
    }
    for (int node = 0; node < m_rows; ++node)
        for (int g = 0; g < m_cols; ++g)
            addLink(nodeSwitch(node), dieAt({node, g}), LinkTier::NodeSwitch);
    const int networkSwitches = rail ? m_cols : leafCount();
    for (int s = 0; s < networkSwitches; ++s) {
        const int vertex = rail ? railSwitch(s) : leafSwitch(s);
        for (DieId gpu = 0; gpu < dieCount(); ++gpu)
            if (networkSwitchOf(gpu) == vertex)
                addLink(vertex, gpu, LinkTier::Nic);
        if (!rail && leafCount() > 1)
            addLink(vertex, spineSwitch(), LinkTier::Uplink);
    }
    if (!rail && leafCount() > 1)
        for (int leaf = 0; leaf < leafCount(); ++leaf)
            addLink(spineSwitch(), leafSwitch(leaf), LinkTier::Uplink);
}

int WaferTopology::leafCount() const {
    return (m_rows + m_cluster.nodesPerLeaf - 1) / m_cluster.nodesPerLeaf;
}

SwitchKind WaferTopology::switchKind(int vertex) const {
    const int at = vertex - dieCount();
    if (at < m_rows)
        return SwitchKind::Node;
    if (m_cluster.network == ClusterNetwork::Rail)
        return SwitchKind::Rail;
    return at - m_rows < leafCount() ? SwitchKind::Leaf : SwitchKind::Spine;
}

int WaferTopology::switchIndex(int vertex) const {
    const int at = vertex - dieCount();
    if (at < m_rows)
        return at;
    return switchKind(vertex) == SwitchKind::Spine ? 0 : at - m_rows;
}

std::string WaferTopology::vertexName(int vertex) const {
    if (!isSwitch(vertex))
        return std::to_string(vertex);
    const std::string index = std::to_string(switchIndex(vertex));
    switch (switchKind(vertex)) {
    case SwitchKind::Node:
        return "node " + index + " switch";
    case SwitchKind::Rail:
        return "rail " + index;
    case SwitchKind::Leaf:
        return "leaf " + index;
    case SwitchKind::Spine:
        return "spine";
    }
    return index;
}

std::optional<LinkId> WaferTopology::linkBetween(DieId from, DieId to) const {
    if (from < 0 || from >= vertexCount() || to < 0 || to >= vertexCount())
        return std::nullopt;
    for (LinkId id : m_outLinks[static_cast<std::size_t>(from)])
        if (m_links[static_cast<std::size_t>(id)].to == to)
            return id;
    return std::nullopt;
}

int WaferTopology::manhattanDistance(DieId a, DieId b) const {
    const DieCoord ca = coord(a);
    const DieCoord cb = coord(b);
    if (isCluster()) {
        if (a == b)
            return 0;
        const bool sameNetworkSwitch = m_cluster.network == ClusterNetwork::Rail
                                           ? ca.col == cb.col
                                           : leafOf(a) == leafOf(b) || leafCount() == 1;
        return ca.row == cb.row || sameNetworkSwitch ? 2 : 4;
    }
    int dr = std::abs(ca.row - cb.row);
    int dc = std::abs(ca.col - cb.col);
    if (m_kind == TopologyKind::Torus) {
        dr = std::min(dr, m_rows - dr);
        dc = std::min(dc, m_cols - dc);
    }
    return dr + dc;
}

std::string linkName(const LinkProperties& link) {
    return std::to_string(link.from) + "->" + std::to_string(link.to);
}

std::string linkName(const WaferTopology& topology, const LinkProperties& link) {
    return linkName(topology, link.from, link.to);
}

std::string linkName(const WaferTopology& topology, int from, int to) {
    return topology.vertexName(from) + "->" + topology.vertexName(to);
}

} // namespace ws
