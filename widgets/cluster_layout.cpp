#include "cluster_layout.h"

#include "mesh_geometry.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// The GPU end of a link of a cluster: every link but an uplink has a GPU at one end.
DieId gpuOf(const WaferTopology& topology, const LinkProperties& link) {
    return topology.isSwitch(link.from) ? link.to : link.from;
}

// Whether a link climbs the network: from a GPU to a switch, or from a leaf to the spine.
bool climbs(const WaferTopology& topology, const LinkProperties& link) {
    return !topology.isSwitch(link.from) ||
           (link.tier == LinkTier::Uplink && topology.switchKind(link.from) == SwitchKind::Leaf);
}

} // namespace

ClusterLayout::ClusterLayout(const WaferTopology& topology)
    : m_nodes(topology.rows()), m_gpus(topology.cols()), m_network(topology.clusterNetwork()),
      m_nodesPerLeaf(topology.nodesPerLeaf()), m_leaves(topology.leafCount()),
      m_spine(topology.clusterNetwork() == ClusterNetwork::FatTree && topology.leafCount() > 1) {}

double ClusterLayout::nodeTop(int node) const {
    // A fat tree's leaf back, under the last node of each leaf, adds to the pitch.
    return node * kNodePitch + leafOfNode(node) * (kBackGap + kLeafBackHeight);
}

QRectF ClusterLayout::gpuRect(DieCoord coord) const {
    return QRectF(coord.col * kColumnPitch, nodeTop(coord.row), 1.0, 1.0);
}

QRectF ClusterLayout::nodeSwitchRect(int node) const {
    return QRectF(0, nodeTop(node) + 1.0 + kNodeLinkLength, gpuRight(m_gpus - 1),
                  kNodeSwitchHeight);
}

double ClusterLayout::railLeft(int gpu) const {
    return gpuRight(gpu) + kNicLength;
}

double ClusterLayout::networkRight() const {
    return railLeft(m_gpus - 1) + kRailWidth;
}

QRectF ClusterLayout::backRect(int leaf) const {
    const int last = std::min(m_nodes, (leaf + 1) * m_nodesPerLeaf) - 1;
    return QRectF(0, nodeSwitchRect(last).bottom() + kBackGap, networkRight(), kLeafBackHeight);
}

QRectF ClusterLayout::tineRect(int leaf, int gpu) const {
    const double top = nodeTop(leaf * m_nodesPerLeaf) - kOverhang;
    return QRectF(railLeft(gpu), top, kRailWidth, backRect(leaf).top() - top);
}

QRectF ClusterLayout::spineRect() const {
    const double left = networkRight() + kUplinkLength;
    return QRectF(left, -kOverhang, kRailWidth * 1.5, backRect(m_leaves - 1).bottom() + kOverhang);
}

QRectF ClusterLayout::contentRect() const {
    double right = networkRight();
    double bottom = nodeSwitchRect(m_nodes - 1).bottom() + kOverhang;
    if (m_network == ClusterNetwork::FatTree)
        bottom = backRect(m_leaves - 1).bottom();
    if (m_spine)
        right = spineRect().right();
    return QRectF(QPointF(-kMargin, -kHeader - kMargin / 2),
                  QPointF(right + kMargin, bottom + kMargin));
}

std::vector<QRectF> ClusterLayout::switchRects(const WaferTopology& topology, int vertex) const {
    const int index = topology.switchIndex(vertex);
    switch (topology.switchKind(vertex)) {
    case SwitchKind::Node:
        return {nodeSwitchRect(index)};
    case SwitchKind::Rail:
        return {QRectF(railLeft(index), -kOverhang, kRailWidth,
                       nodeSwitchRect(m_nodes - 1).bottom() + 2 * kOverhang)};
    case SwitchKind::Leaf: {
        std::vector<QRectF> rects;
        for (int gpu = 0; gpu < m_gpus; ++gpu)
            rects.push_back(tineRect(index, gpu));
        rects.push_back(backRect(index));
        return rects;
    }
    case SwitchKind::Spine:
        return {spineRect()};
    }
    return {};
}

QRectF ClusterLayout::switchLabelRect(const WaferTopology& topology, int vertex) const {
    const QRectF box = switchRects(topology, vertex).back();
    switch (topology.switchKind(vertex)) {
    case SwitchKind::Node:
    case SwitchKind::Leaf:
        return box;
    case SwitchKind::Rail:
    case SwitchKind::Spine:
        // Centred above the bar, in the header, as wide as a column.
        return QRectF(box.center().x() - kColumnPitch / 2, -kHeader, kColumnPitch,
                      kHeader - kOverhang);
    }
    return box;
}

QRectF ClusterLayout::linkRect(const WaferTopology& topology, const LinkProperties& link) const {
    const double half = MeshGeometry::kBarWidth / 2;
    const double offset = MeshGeometry::kBarOffset;
    const bool up = climbs(topology, link);
    switch (link.tier) {
    case LinkTier::NodeSwitch: {
        const QRectF gpu = gpuRect(topology.coord(gpuOf(topology, link)));
        const double x = gpu.center().x() + (up ? offset : -offset);
        return QRectF(x - half, gpu.bottom(), MeshGeometry::kBarWidth, kNodeLinkLength);
    }
    case LinkTier::Nic: {
        const QRectF gpu = gpuRect(topology.coord(gpuOf(topology, link)));
        const double y = gpu.center().y() + (up ? -offset : offset);
        return QRectF(gpu.right(), y - half, kNicLength, MeshGeometry::kBarWidth);
    }
    case LinkTier::Uplink: {
        const int leaf = topology.switchIndex(up ? link.from : link.to);
        const QRectF back = backRect(leaf);
        const double y = back.center().y() + (up ? -offset : offset);
        return QRectF(back.right(), y - half, kUplinkLength, MeshGeometry::kBarWidth);
    }
    case LinkTier::Wafer:
    case LinkTier::OffWafer:
        break; // no such link on a cluster
    }
    return {};
}

Direction ClusterLayout::linkDirection(const WaferTopology& topology,
                                       const LinkProperties& link) const {
    // Climbing is towards the switch: down to a node switch, right to a rail, tine or spine.
    const bool up = climbs(topology, link);
    if (link.tier == LinkTier::NodeSwitch)
        return up ? Direction::South : Direction::North;
    return up ? Direction::East : Direction::West;
}

std::optional<DieId> ClusterLayout::gpuAt(QPointF units) const {
    const int gpu = static_cast<int>(std::floor(units.x() / kColumnPitch));
    if (gpu < 0 || gpu >= m_gpus || units.x() - gpu * kColumnPitch > 1.0)
        return std::nullopt;
    // Nodes are evenly spaced within a leaf; a rail network is one leaf for this purpose.
    const int perLeaf = m_network == ClusterNetwork::Rail ? m_nodes : m_nodesPerLeaf;
    const double leafPitch = perLeaf * kNodePitch + kBackGap + kLeafBackHeight;
    const int leaf = static_cast<int>(std::floor(units.y() / leafPitch));
    const int within = static_cast<int>(std::floor((units.y() - leaf * leafPitch) / kNodePitch));
    const int node = leaf * perLeaf + within;
    if (units.y() < 0 || within >= perLeaf || node >= m_nodes || units.y() - nodeTop(node) > 1.0)
        return std::nullopt;
    return node * m_gpus + gpu;
}

} // namespace ws
