#pragma once

#include "cluster_layout.h"

#include "topology/wafer_topology.h"

#include <QPointF>
#include <QPolygonF>
#include <QRectF>

#include <optional>
#include <vector>

namespace ws {

// Where the mesh view draws each die and link, in widget pixels, for a zoom and pan. Pure and
// cheap to copy, so hit tests and painting agree by construction.
//
// Layout (in "tile units", then scaled by `scale` pixels per unit and shifted by `offset`):
// die (r, c) is the unit square at (c * kPitch, r * kPitch); the kGap between tiles holds the
// links. A link is a bar in that gap: eastward bars sit above the row's centre line and westward
// bars below it; southward bars right of the column's centre and northward bars left of it, so
// both directions of a link are visible side by side. Torus wrap-around links are drawn as
// stubs beyond the outer tiles.
//
// A GPU cluster (docs/gui.md "The mesh") is laid out by `cluster` instead (cluster_layout.h): a row
// per node, its switches as bars, a bar per GPU-to-switch link; the functions below then answer
// from that layout, and the neighbour-bar functions (linkRect by direction) do not apply.
struct MeshGeometry {
    static constexpr double kGap = 0.56; // tile units between tiles
    static constexpr double kPitch = 1.0 + kGap;
    static constexpr double kBarOffset = 0.17; // tile units from the centre line to a bar's axis
    static constexpr double kBarWidth = 0.18;  // tile units across a bar
    static constexpr double kWaferMargin = kGap * 0.2; // tile units around a wafer's dies

    int rows = 1;
    int cols = 1;
    double scale = 60.0;                  // pixels per tile unit
    QPointF offset{20, 20};               // pixel position of tile unit (0, 0)
    std::optional<ClusterLayout> cluster; // set for a cluster topology

    // Pixels per tile unit below which a fitted cluster is not shrunk further (a link bar of
    // 2 pixels, the tiles' borders on), but shown from its first node down to be panned: 64
    // nodes fit no window.
    static constexpr double kMinClusterScale = 12.0;

    // The whole mesh in tile units (tiles plus a half gap of margin for wrap stubs).
    QRectF contentUnits() const;
    // Scale and offset that fit the mesh into `viewport` (pixels), centred.
    static MeshGeometry fitted(int rows, int cols, const QRectF& viewport);
    // The same for any topology: a cluster is fitted by its own layout.
    static MeshGeometry fitted(const WaferTopology& topology, const QRectF& viewport);

    QRectF dieRect(DieCoord coord) const;
    // The bar of a directed link between neighbours, by direction from `from`.
    QRectF linkRect(DieCoord from, Direction direction, bool wraps) const;
    QRectF linkRect(const WaferTopology& topology, const LinkProperties& link) const;

    // Wafer `wafer` of a system (WaferTopology::waferOf numbering): its block of dies plus
    // kWaferMargin on every side, so that the outlines of two neighbouring wafers stay apart
    // (kGap - 2 kWaferMargin between them) with the off-wafer links crossing that channel.
    QRectF waferRect(const WaferTopology& topology, int wafer) const;

    std::optional<DieId> dieAt(const WaferTopology& topology, QPointF point) const;
    std::optional<LinkId> linkAt(const WaferTopology& topology, QPointF point) const;

    // Which way a link's arrowhead points.
    Direction arrowDirection(const WaferTopology& topology, const LinkProperties& link) const;
    // A cluster's switch (ClusterLayout::switchRects), its label's place, and the switch at a
    // point (the node switches first: they are drawn over the rails and tines they cross).
    std::vector<QRectF> switchRects(const WaferTopology& topology, int vertex) const;
    QRectF switchLabelRect(const WaferTopology& topology, int vertex) const;
    std::optional<int> switchAt(const WaferTopology& topology, QPointF point) const;
    // The polyline of a route through `path` (vertex ids): the dies' centres; on a cluster a
    // hop to or from a switch passes through its link's bar, so that the line runs along the
    // switch between the bars it enters and leaves by.
    QPolygonF pathPoints(const WaferTopology& topology, const std::vector<DieId>& path) const;

    double tilePixels() const { return scale; }
    QPointF toPixels(QPointF units) const { return offset + units * scale; }
    QPointF toUnits(QPointF pixels) const { return (pixels - offset) / scale; }
    QRectF toPixels(const QRectF& units) const {
        return QRectF(toPixels(units.topLeft()), units.size() * scale);
    }
};

// The direction from one die to its neighbour, and whether the link wraps around a torus edge.
struct LinkDirection {
    Direction direction = Direction::East;
    bool wraps = false;
};
LinkDirection linkDirection(const WaferTopology& topology, const LinkProperties& link);

} // namespace ws
