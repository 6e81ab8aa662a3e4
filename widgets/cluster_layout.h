#pragma once

#include "topology/wafer_topology.h"

#include <QRectF>

#include <optional>
#include <vector>

namespace ws {

// Where the mesh view draws a GPU cluster (docs/gui.md "The mesh"), in tile units (a GPU is the
// unit square), before MeshGeometry scales and shifts it to pixels. Pure and cheap to copy.
//
// A cluster has no GPU-to-GPU link, so the wafer's grid of neighbour bars does not apply. Each
// node is a row of its GPUs; under the row lies its node switch (NVSwitch), a bar as wide as
// the row, and each GPU's two links to it are vertical bars in the channel between (upward
// one right of the GPU's centre, downward one left of it, as a mesh's south and north bars).
// Right of every GPU column runs its network switch, a vertical bar: on a rail network rail g,
// spanning every node, labelled in a header above the first node; on a fat tree a leaf's
// "comb": one tine per column over that leaf's nodes, joined by a bar (the leaf's back, with
// its name) under them; the spine is a vertical bar right of all backs, joined to each back by
// its two uplinks. A GPU's NIC links are horizontal bars between it and the tine or rail right
// of it (upward one above the centre line, downward one below, as a mesh's east and west
// bars). Rails and tines cross the node switch bars; the view draws the node switches over
// them, set off by a white outline, so the crossing reads as one passing under the other.
//
// Example: 4 nodes x 8 GPUs on rails is 8 x kColumnPitch = 13.6 units wide and 4 x kNodePitch
// + header = 8.2 units tall, a GPU of 46 pixels in a 700 x 600 area.
class ClusterLayout {
public:
    static constexpr double kNicLength = 0.30;     // tile units: GPU to its rail or tine
    static constexpr double kRailWidth = 0.18;     // across a rail, a tine or the spine
    static constexpr double kColumnGap = 0.22;     // between a rail and the next GPU
    static constexpr double kNodeLinkLength = 0.3; // GPU to its node switch
    static constexpr double kNodeSwitchHeight = 0.3;
    static constexpr double kNodeGap = 0.35;        // between a node switch and the next node
    static constexpr double kBackGap = 0.15;        // between a leaf's last node switch and back
    static constexpr double kLeafBackHeight = 0.56; // holds both uplinks side by side
    static constexpr double kUplinkLength = 0.5;
    static constexpr double kHeader = 0.45;   // above the first node: rail and spine names
    static constexpr double kOverhang = 0.12; // a rail or tine beyond the GPUs it serves
    static constexpr double kMargin = 0.25;   // around everything
    static constexpr double kColumnPitch = 1.0 + kNicLength + kRailWidth + kColumnGap;
    static constexpr double kNodePitch = 1.0 + kNodeLinkLength + kNodeSwitchHeight + kNodeGap;

    // `topology` must be a cluster.
    explicit ClusterLayout(const WaferTopology& topology);

    // Everything drawn, margin included.
    QRectF contentRect() const;
    QRectF gpuRect(DieCoord coord) const;
    // The boxes a switch is drawn as: one bar, or a leaf's tines and back (back last).
    std::vector<QRectF> switchRects(const WaferTopology& topology, int vertex) const;
    // Where a switch's name goes: inside a node switch or a leaf's back, above a rail or spine.
    QRectF switchLabelRect(const WaferTopology& topology, int vertex) const;
    QRectF linkRect(const WaferTopology& topology, const LinkProperties& link) const;
    // The way a link's bar points, from its source to its target (for its arrowhead).
    Direction linkDirection(const WaferTopology& topology, const LinkProperties& link) const;
    std::optional<DieId> gpuAt(QPointF units) const;

    friend bool operator==(const ClusterLayout&, const ClusterLayout&) = default;

private:
    int m_nodes;
    int m_gpus;
    ClusterNetwork m_network;
    int m_nodesPerLeaf;
    int m_leaves;
    bool m_spine;

    int leafOfNode(int node) const {
        return m_network == ClusterNetwork::Rail ? 0 : node / m_nodesPerLeaf;
    }
    double nodeTop(int node) const;
    QRectF nodeSwitchRect(int node) const;
    double railLeft(int gpu) const; // a rail's or a tine's left edge
    double gpuRight(int gpu) const { return gpu * kColumnPitch + 1.0; }
    QRectF tineRect(int leaf, int gpu) const;
    QRectF backRect(int leaf) const;
    QRectF spineRect() const;
    double networkRight() const; // the right edge of the last rail or tine
};

} // namespace ws
