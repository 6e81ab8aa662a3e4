#include "mesh_geometry.h"

#include <algorithm>
#include <cmath>

namespace ws {

QRectF MeshGeometry::contentUnits() const {
    if (cluster)
        return cluster->contentRect();
    return QRectF(-kGap / 2, -kGap / 2, cols * kPitch, rows * kPitch);
}

MeshGeometry MeshGeometry::fitted(int rows, int cols, const QRectF& viewport) {
    MeshGeometry geometry;
    geometry.rows = rows;
    geometry.cols = cols;
    const QRectF content = geometry.contentUnits();
    geometry.scale = std::max(
        0.5, std::min(viewport.width() / content.width(), viewport.height() / content.height()));
    const QPointF contentCentre = content.center() * geometry.scale;
    geometry.offset = viewport.center() - contentCentre;
    return geometry;
}

MeshGeometry MeshGeometry::fitted(const WaferTopology& topology, const QRectF& viewport) {
    if (!topology.isCluster())
        return fitted(topology.rows(), topology.cols(), viewport);
    MeshGeometry geometry;
    geometry.rows = topology.rows();
    geometry.cols = topology.cols();
    geometry.cluster = ClusterLayout(topology);
    const QRectF content = geometry.contentUnits();
    const double fit =
        std::min(viewport.width() / content.width(), viewport.height() / content.height());
    geometry.scale = std::max(kMinClusterScale, fit);
    geometry.offset = viewport.center() - content.center() * geometry.scale;
    if (content.height() * geometry.scale > viewport.height()) // too tall: the first node on top
        geometry.offset.setY(viewport.top() - content.top() * geometry.scale);
    if (content.width() * geometry.scale > viewport.width())
        geometry.offset.setX(viewport.left() - content.left() * geometry.scale);
    return geometry;
}

QRectF MeshGeometry::dieRect(DieCoord coord) const {
    if (cluster)
        return toPixels(cluster->gpuRect(coord));
    return QRectF(toPixels(QPointF(coord.col * kPitch, coord.row * kPitch)), QSizeF(scale, scale));
}

QRectF MeshGeometry::linkRect(DieCoord from, Direction direction, bool wraps) const {
    const double centreX = from.col * kPitch + 0.5;
    const double centreY = from.row * kPitch + 0.5;
    const double half = kBarWidth / 2;
    QRectF units;
    // A bar spans the gap next to the tile; a wrap-around stub spans half of the outer gap.
    const double length = wraps ? kGap / 2 : kGap;
    switch (direction) {
    case Direction::East: {
        const double y = centreY - kBarOffset;
        units = QRectF(from.col * kPitch + 1.0, y - half, length, kBarWidth);
        break;
    }
    case Direction::West: {
        const double y = centreY + kBarOffset;
        units = QRectF(from.col * kPitch - length, y - half, length, kBarWidth);
        break;
    }
    case Direction::South: {
        const double x = centreX + kBarOffset;
        units = QRectF(x - half, from.row * kPitch + 1.0, kBarWidth, length);
        break;
    }
    case Direction::North: {
        const double x = centreX - kBarOffset;
        units = QRectF(x - half, from.row * kPitch - length, kBarWidth, length);
        break;
    }
    }
    return QRectF(toPixels(units.topLeft()), units.size() * scale);
}

LinkDirection linkDirection(const WaferTopology& topology, const LinkProperties& link) {
    const DieCoord from = topology.coord(link.from);
    const DieCoord to = topology.coord(link.to);
    if (from.row == to.row) {
        const int step = to.col - from.col;
        if (step == 1 || step < -1)
            return {Direction::East, step < -1};
        return {Direction::West, step > 1};
    }
    const int step = to.row - from.row;
    if (step == 1 || step < -1)
        return {Direction::South, step < -1};
    return {Direction::North, step > 1};
}

QRectF MeshGeometry::linkRect(const WaferTopology& topology, const LinkProperties& link) const {
    if (cluster)
        return toPixels(cluster->linkRect(topology, link));
    const LinkDirection direction = linkDirection(topology, link);
    return linkRect(topology.coord(link.from), direction.direction, direction.wraps);
}

QRectF MeshGeometry::waferRect(const WaferTopology& topology, int wafer) const {
    const int firstRow = wafer / topology.wafersAcross() * topology.waferRows();
    const int firstCol = wafer % topology.wafersAcross() * topology.waferCols();
    const QRectF first = dieRect({firstRow, firstCol});
    const QRectF last =
        dieRect({firstRow + topology.waferRows() - 1, firstCol + topology.waferCols() - 1});
    const double margin = kWaferMargin * scale;
    return QRectF(first.topLeft(), last.bottomRight()).adjusted(-margin, -margin, margin, margin);
}

std::optional<DieId> MeshGeometry::dieAt(const WaferTopology& topology, QPointF point) const {
    if (cluster)
        return cluster->gpuAt(toUnits(point));
    const QPointF units = toUnits(point);
    const int col = static_cast<int>(std::floor(units.x() / kPitch));
    const int row = static_cast<int>(std::floor(units.y() / kPitch));
    if (row < 0 || col < 0 || row >= topology.rows() || col >= topology.cols())
        return std::nullopt;
    if (units.x() - col * kPitch > 1.0 || units.y() - row * kPitch > 1.0)
        return std::nullopt; // in the gap
    return topology.dieAt({row, col});
}

std::optional<LinkId> MeshGeometry::linkAt(const WaferTopology& topology, QPointF point) const {
    if (cluster) {
        // A few thousand bars at most (64 nodes x 8 GPUs x 4): asked per click and tooltip.
        for (const LinkProperties& link : topology.links())
            if (linkRect(topology, link).adjusted(-1, -1, 1, 1).contains(point))
                return link.id;
        return std::nullopt;
    }
    // Only the up to 4 links of the two nearest tiles can be hit: check the dies around.
    const QPointF units = toUnits(point);
    const int col = static_cast<int>(std::floor(units.x() / kPitch));
    const int row = static_cast<int>(std::floor(units.y() / kPitch));
    for (int r = row - 1; r <= row + 1; ++r)
        for (int c = col - 1; c <= col + 1; ++c) {
            if (r < 0 || c < 0 || r >= topology.rows() || c >= topology.cols())
                continue;
            for (LinkId link : topology.outLinks(topology.dieAt({r, c})))
                if (linkRect(topology, topology.link(link)).adjusted(-1, -1, 1, 1).contains(point))
                    return link;
        }
    return std::nullopt;
}

Direction MeshGeometry::arrowDirection(const WaferTopology& topology,
                                       const LinkProperties& link) const {
    return cluster ? cluster->linkDirection(topology, link)
                   : linkDirection(topology, link).direction;
}

std::vector<QRectF> MeshGeometry::switchRects(const WaferTopology& topology, int vertex) const {
    std::vector<QRectF> rects;
    if (cluster)
        for (const QRectF& units : cluster->switchRects(topology, vertex))
            rects.push_back(toPixels(units));
    return rects;
}

QRectF MeshGeometry::switchLabelRect(const WaferTopology& topology, int vertex) const {
    return cluster ? toPixels(cluster->switchLabelRect(topology, vertex)) : QRectF();
}

std::optional<int> MeshGeometry::switchAt(const WaferTopology& topology, QPointF point) const {
    if (!cluster)
        return std::nullopt;
    // Switch vertices start with the node switches, which are drawn on top.
    for (int vertex = topology.dieCount(); vertex < topology.vertexCount(); ++vertex)
        for (const QRectF& box : switchRects(topology, vertex))
            if (box.contains(point))
                return vertex;
    return std::nullopt;
}

QPolygonF MeshGeometry::pathPoints(const WaferTopology& topology,
                                   const std::vector<DieId>& path) const {
    QPolygonF line;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const DieId vertex = path[i];
        if (!topology.isSwitch(vertex))
            line << dieRect(topology.coord(vertex)).center();
        if (!cluster || i + 1 == path.size())
            continue;
        if (const auto link = topology.linkBetween(vertex, path[i + 1]))
            line << linkRect(topology, topology.link(*link)).center();
    }
    return line;
}

} // namespace ws
