#include "mesh_geometry.h"

#include <algorithm>
#include <cmath>

namespace ws {

QRectF MeshGeometry::contentUnits() const {
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

QRectF MeshGeometry::dieRect(DieCoord coord) const {
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

} // namespace ws
