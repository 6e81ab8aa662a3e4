#include "gantt_plottable.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ws {

namespace {

// Indices of GanttPlottable::m_rectsByColour.
constexpr int kFoldedBucket = 4;
// Bars at least this wide (pixels) end one pixel early, so that consecutive bars stay apart.
constexpr int kSeparatedBarPx = 4;

int bucketOf(const DieEvent& event) {
    switch (event.kind) {
    case DieEvent::Kind::Compute:
        if (event.bound == TaskBound::Memory)
            return 5;
        if (event.bound == TaskBound::Overhead)
            return 6;
        return 0;
    case DieEvent::Kind::Send:
        return 1;
    case DieEvent::Kind::Recv:
        return 2;
    case DieEvent::Kind::Idle:
        return 3;
    }
    return 0;
}

constexpr std::array<GanttColor, 7> kBucketColours = {
    GanttColor::Compute, GanttColor::Send,        GanttColor::Recv,         GanttColor::Idle,
    GanttColor::Folded,  GanttColor::MemoryBound, GanttColor::OverheadBound};

} // namespace

QColor ganttColor(GanttColor role) {
    // Blue, orange and green stay apart for the common colour-vision deficiencies; idle is a
    // pale grey that reads as "nothing here"; folded is a dark neutral grey, a mix of kinds.
    switch (role) {
    case GanttColor::Compute:
        return QColor(0x3b, 0x75, 0xaf);
    case GanttColor::Send:
        return QColor(0xef, 0x86, 0x36);
    case GanttColor::Recv:
        return QColor(0x51, 0x9e, 0x3e);
    case GanttColor::Idle:
        return QColor(0xd4, 0xd4, 0xd4);
    case GanttColor::Folded:
        return QColor(0x70, 0x70, 0x70);
    case GanttColor::MemoryBound: // purple and brown: the next two of the same qualitative set
        return QColor(0x94, 0x67, 0xbd);
    case GanttColor::OverheadBound:
        return QColor(0x8c, 0x56, 0x4b);
    case GanttColor::Highlight:
        return QColor(0xe6, 0x00, 0x7e);
    case GanttColor::RoundBoundary:
        return QColor(0x50, 0x50, 0x50);
    case GanttColor::RowShade:
        return QColor(30, 60, 120, 16); // translucent: the time grid shows through
    }
    return Qt::black;
}

GanttColor ganttColorOf(const DieEvent& event) {
    return kBucketColours[static_cast<std::size_t>(bucketOf(event))];
}

QString ganttColorName(GanttColor role) {
    switch (role) {
    case GanttColor::Compute:
        return QStringLiteral("compute");
    case GanttColor::Send:
        return QStringLiteral("send");
    case GanttColor::Recv:
        return QStringLiteral("receive");
    case GanttColor::Idle:
        return QStringLiteral("idle");
    case GanttColor::Folded:
        return QStringLiteral("folded (< 1 px)");
    case GanttColor::MemoryBound:
        return QStringLiteral("HBM-bound");
    case GanttColor::OverheadBound:
        return QStringLiteral("overhead-bound");
    case GanttColor::Highlight:
        return QStringLiteral("selected flow");
    case GanttColor::RoundBoundary:
        return QStringLiteral("round boundary");
    case GanttColor::RowShade:
        return QString();
    }
    return QString();
}

GanttLane ganttLaneOf(DieEvent::Kind kind) {
    switch (kind) {
    case DieEvent::Kind::Send:
        return GanttLane::Send;
    case DieEvent::Kind::Recv:
        return GanttLane::Recv;
    case DieEvent::Kind::Compute:
    case DieEvent::Kind::Idle:
        break;
    }
    return GanttLane::ComputeIdle;
}

GanttPlottable::GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
    setName(QStringLiteral("die events"));
}

GanttPlottable::~GanttPlottable() = default;

void GanttPlottable::setReport(std::shared_ptr<const SimulationReport> report,
                               const std::optional<std::unordered_set<std::string>>& visibleFlows) {
    m_report = std::move(report);
    m_visibleFlows = visibleFlows;
    m_rows.clear();
    m_rowDie.clear();
    m_roundStarts.clear();
    m_shownEventCount = 0;
    m_endS = 0.0;
    if (m_report) {
        m_endS = m_report->makespanS;
        std::map<int, double> roundStarts;
        for (std::size_t die = 0; die < m_report->dies.size(); ++die)
            if (!m_report->dies[die].events.empty())
                m_rowDie.push_back(static_cast<int>(die));
        if (m_rowDie.empty())
            for (std::size_t die = 0; die < m_report->dies.size(); ++die)
                m_rowDie.push_back(static_cast<int>(die));
        m_rows.resize(m_rowDie.size());
        for (std::size_t row = 0; row < m_rowDie.size(); ++row) {
            const std::vector<DieEvent>& events =
                m_report->dies[static_cast<std::size_t>(m_rowDie[row])].events;
            std::array<std::vector<BarEvent>, kGanttLaneCount> lanes;
            for (std::size_t i = 0; i < events.size(); ++i) {
                const DieEvent& event = events[i];
                if (event.round >= 0) {
                    auto [it, inserted] = roundStarts.emplace(event.round, event.startS);
                    if (!inserted)
                        it->second = std::min(it->second, event.startS);
                }
                if (m_visibleFlows && isTransfer(event.kind) &&
                    !m_visibleFlows->contains(event.label))
                    continue;
                m_endS = std::max(m_endS, event.endS);
                lanes[static_cast<std::size_t>(ganttLaneOf(event.kind))].push_back(
                    BarEvent{event.startS, event.endS, event.kind, static_cast<int>(i)});
                ++m_shownEventCount;
            }
            for (std::size_t lane = 0; lane < lanes.size(); ++lane)
                m_rows[row].lanes[lane] = makeBarRow(std::move(lanes[lane]));
        }
        m_roundStarts.assign(roundStarts.begin(), roundStarts.end());
    }
    collectHighlighted();
}

void GanttPlottable::setHighlightedFlow(const std::string& flowId) {
    m_highlightedFlow = flowId;
    collectHighlighted();
}

void GanttPlottable::collectHighlighted() {
    m_highlighted.clear();
    if (!m_report || m_highlightedFlow.empty())
        return;
    if (m_visibleFlows && !m_visibleFlows->contains(m_highlightedFlow))
        return; // filtered out: nothing of it is drawn
    for (std::size_t die = 0; die < m_report->dies.size(); ++die) {
        const std::vector<DieEvent>& events = m_report->dies[die].events;
        for (std::size_t i = 0; i < events.size(); ++i)
            if (isTransfer(events[i].kind) && events[i].label == m_highlightedFlow)
                m_highlighted.emplace_back(static_cast<int>(die), static_cast<int>(i));
    }
}

int GanttPlottable::rowOfDie(int die) const {
    const auto it = std::lower_bound(m_rowDie.begin(), m_rowDie.end(), die); // ascending
    return it != m_rowDie.end() && *it == die ? static_cast<int>(it - m_rowDie.begin()) : -1;
}

QCPRange GanttPlottable::laneRange(int row, GanttLane lane) {
    // Fractions of a row (1.0 per row): compute/idle 0.50, send 0.17, receive 0.17, with gaps
    // so that lanes and neighbouring rows never touch.
    const double centre = static_cast<double>(row);
    switch (lane) {
    case GanttLane::ComputeIdle:
        return QCPRange(centre - 0.45, centre + 0.05);
    case GanttLane::Send:
        return QCPRange(centre + 0.08, centre + 0.25);
    case GanttLane::Recv:
        return QCPRange(centre + 0.28, centre + 0.45);
    }
    return QCPRange(centre - 0.45, centre + 0.45);
}

std::pair<int, int> GanttPlottable::lanePixels(int row, GanttLane lane) const {
    const QCPRange range = laneRange(row, lane);
    const double a = mValueAxis->coordToPixel(range.lower);
    const double b = mValueAxis->coordToPixel(range.upper);
    const int top = static_cast<int>(std::lround(std::min(a, b)));
    const int bottom = static_cast<int>(std::lround(std::max(a, b)));
    return {top, std::max(1, bottom - top)};
}

TimeAxisMapping GanttPlottable::mapping() const {
    const QCPRange range = mKeyAxis->range();
    const QRect rect = mKeyAxis->axisRect()->rect();
    TimeAxisMapping map{range.lower, range.upper, static_cast<double>(rect.left()),
                        static_cast<double>(rect.width())};
    if (mKeyAxis->rangeReversed()) // not used by the timeline; keep the map honest anyway
        map = TimeAxisMapping{};
    return map;
}

GanttPlottable::Hit GanttPlottable::hitTest(const QPointF& pixel) const {
    Hit hit;
    if (!m_report || m_rows.empty() || !mKeyAxis || !mValueAxis)
        return hit;
    if (!mKeyAxis->axisRect()->rect().contains(pixel.toPoint()))
        return hit;
    const long rowIndex = std::lround(mValueAxis->pixelToCoord(pixel.y()));
    if (rowIndex < 0 || rowIndex >= static_cast<long>(m_rows.size()))
        return hit;
    hit.die = m_rowDie[static_cast<std::size_t>(rowIndex)];
    std::optional<GanttLane> lane;
    for (int l = 0; l < kGanttLaneCount; ++l) {
        const auto [top, height] =
            lanePixels(static_cast<int>(rowIndex), static_cast<GanttLane>(l));
        if (pixel.y() >= top - 0.5 && pixel.y() < top + height + 0.5)
            lane = static_cast<GanttLane>(l);
    }
    if (!lane)
        return hit;
    const BarRow& row =
        m_rows[static_cast<std::size_t>(rowIndex)].lanes[static_cast<std::size_t>(*lane)];
    const std::vector<FoldedBar> bars = foldBars(row, mapping());
    // The bar under the pointer, else one within a pixel of it (one-pixel bars are hard to hit).
    const FoldedBar* best = nullptr;
    double bestDistance = 1.5;
    for (const FoldedBar& bar : bars) {
        const double distance = pixel.x() < bar.leftPx
                                    ? bar.leftPx - pixel.x()
                                    : (pixel.x() > bar.rightPx ? pixel.x() - bar.rightPx : 0.0);
        if (distance < bestDistance || (distance == 0.0 && best && bestDistance == 0.0 &&
                                        bar.rightPx - bar.leftPx < best->rightPx - best->leftPx)) {
            best = &bar;
            bestDistance = distance;
        }
    }
    if (!best)
        return hit;
    hit.foldedCount = best->count;
    if (!best->isFolded())
        hit.eventIndex = row.events[static_cast<std::size_t>(best->first)].index;
    return hit;
}

QRectF GanttPlottable::eventRect(int die, int eventIndex) const {
    const int row = m_report ? rowOfDie(die) : -1;
    if (row < 0)
        return {};
    const std::vector<DieEvent>& events = m_report->dies[static_cast<std::size_t>(die)].events;
    if (eventIndex < 0 || eventIndex >= static_cast<int>(events.size()))
        return {};
    const DieEvent& event = events[static_cast<std::size_t>(eventIndex)];
    const double left = mKeyAxis->coordToPixel(event.startS);
    const double right = mKeyAxis->coordToPixel(event.endS);
    const auto [top, height] = lanePixels(row, ganttLaneOf(event.kind));
    return QRectF(left, top, right - left, height);
}

double GanttPlottable::selectTest(const QPointF& /*pos*/, bool /*onlySelectable*/,
                                  QVariant* /*details*/) const {
    return -1.0;
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain /*inSignDomain*/) const {
    foundRange = m_endS > 0.0;
    return QCPRange(0.0, m_endS);
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain /*inSignDomain*/,
                                       const QCPRange& /*inKeyRange*/) const {
    foundRange = !m_rows.empty();
    return QCPRange(-0.5, static_cast<double>(m_rows.size()) - 0.5);
}

void GanttPlottable::draw(QCPPainter* painter) {
    if (!m_report || m_rows.empty() || !mKeyAxis || !mValueAxis)
        return;
    const TimeAxisMapping map = mapping();
    if (!map.isValid())
        return;
    const QRect axisRect = mKeyAxis->axisRect()->rect();
    // Crisp, pixel-aligned boxes: antialiasing would blur one-pixel bars into two half-tones.
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);

    const QCPRange values = mValueAxis->range();
    const int rowCount = static_cast<int>(m_rows.size());
    const int firstRow = std::clamp(static_cast<int>(std::floor(values.lower)), 0, rowCount - 1);
    const int lastRow = std::clamp(static_cast<int>(std::ceil(values.upper)), 0, rowCount - 1);

    // Every other row shaded, so that a bar is easy to follow to its die label.
    painter->setBrush(ganttColor(GanttColor::RowShade));
    for (int row = firstRow | 1; row <= lastRow; row += 2) {
        const double a = mValueAxis->coordToPixel(row - 0.5);
        const double b = mValueAxis->coordToPixel(row + 0.5);
        const int top = static_cast<int>(std::lround(std::min(a, b)));
        const int bottom = static_cast<int>(std::lround(std::max(a, b)));
        painter->drawRect(QRect(axisRect.left(), top, axisRect.width(), bottom - top));
    }

    for (QVector<QRect>& rects : m_rectsByColour)
        rects.clear();
    for (int row = firstRow; row <= lastRow; ++row) {
        const std::vector<DieEvent>& dieEvents =
            m_report->dies[static_cast<std::size_t>(m_rowDie[static_cast<std::size_t>(row)])]
                .events;
        for (int lane = 0; lane < kGanttLaneCount; ++lane) {
            m_bars.clear();
            foldBars(m_rows[static_cast<std::size_t>(row)].lanes[static_cast<std::size_t>(lane)],
                     map, m_bars);
            if (m_bars.empty())
                continue;
            const auto [top, height] = lanePixels(row, static_cast<GanttLane>(lane));
            for (const FoldedBar& bar : m_bars) {
                const int left = static_cast<int>(std::floor(bar.leftPx));
                int right = std::max(left + 1, static_cast<int>(std::lround(bar.rightPx)));
                // Back-to-back events (a die's GEMMs) would merge into one long bar: a bar
                // wide enough keeps a one-pixel gap at its end to show where the next starts.
                if (right - left >= kSeparatedBarPx)
                    --right;
                const BarRow& barRow =
                    m_rows[static_cast<std::size_t>(row)].lanes[static_cast<std::size_t>(lane)];
                const DieEvent& first = dieEvents[static_cast<std::size_t>(
                    barRow.events[static_cast<std::size_t>(bar.first)].index)];
                const int bucket = bar.isFolded() ? kFoldedBucket : bucketOf(first);
                m_rectsByColour[static_cast<std::size_t>(bucket)].append(
                    QRect(left, top, right - left, height));
            }
        }
    }
    // One drawRects per colour: a brush change per bar would cost more than the bars.
    for (std::size_t bucket = 0; bucket < m_rectsByColour.size(); ++bucket) {
        const QVector<QRect>& rects = m_rectsByColour[bucket];
        if (rects.isEmpty())
            continue;
        painter->setBrush(ganttColor(kBucketColours[bucket]));
        painter->drawRects(rects.constData(), static_cast<int>(rects.size()));
    }

    drawRoundBoundaries(painter);

    // The selected flow on top, at least 3 px wide and outlined, so it shows at any zoom.
    if (!m_highlighted.empty()) {
        painter->setPen(QPen(Qt::black, 1));
        painter->setBrush(ganttColor(GanttColor::Highlight));
        for (const auto& [die, index] : m_highlighted) {
            const int row = rowOfDie(die);
            if (row < firstRow || row > lastRow)
                continue;
            const DieEvent& event = m_report->dies[static_cast<std::size_t>(die)]
                                        .events[static_cast<std::size_t>(index)];
            if (event.endS < map.startS || event.startS > map.endS)
                continue;
            const double leftPx = std::max(map.toPixel(event.startS), map.leftPx - 2.0);
            const double rightPx =
                std::min(map.toPixel(event.endS), map.leftPx + map.widthPx + 2.0);
            int left = static_cast<int>(std::floor(leftPx));
            int right = static_cast<int>(std::lround(rightPx));
            if (right - left < 3) {
                const int centre = (left + right) / 2;
                left = centre - 1;
                right = centre + 2;
            }
            const auto [top, height] = lanePixels(row, ganttLaneOf(event.kind));
            // drawRect with a 1 px pen covers one pixel more on the right and bottom.
            painter->drawRect(QRect(left, top - 1, right - left - 1, height + 1));
        }
    }
}

QFont GanttPlottable::roundLabelFont() const {
    QFont font = mParentPlot ? mParentPlot->font() : QFont();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    return font;
}

int GanttPlottable::roundLabelBandPx() const {
    return QFontMetrics(roundLabelFont()).height() + 2;
}

QRect GanttPlottable::clipRect() const {
    QRect rect = QCPAbstractPlottable::clipRect();
    rect.setTop(rect.top() - roundLabelBandPx());
    return rect;
}

void GanttPlottable::drawRoundBoundaries(QCPPainter* painter) const {
    if (m_roundStarts.empty())
        return;
    const QRect axisRect = mKeyAxis->axisRect()->rect();
    const QCPRange keys = mKeyAxis->range();
    const QPen linePen(ganttColor(GanttColor::RoundBoundary), 1, Qt::DashLine);
    const QPen textPen(ganttColor(GanttColor::RoundBoundary));
    painter->setBrush(Qt::NoBrush);
    const QFont font = roundLabelFont();
    painter->setFont(font);
    const QFontMetrics metrics(font);
    const int bandTop = axisRect.top() - roundLabelBandPx();
    int lastLabelRight = std::numeric_limits<int>::min();
    for (const auto& [round, startS] : m_roundStarts) {
        if (!keys.contains(startS))
            continue;
        const int x = static_cast<int>(std::lround(mKeyAxis->coordToPixel(startS)));
        painter->setPen(linePen);
        painter->drawLine(QPoint(x, bandTop + 2), QPoint(x, axisRect.bottom()));
        // A label only where it does not run into the previous one (rounds are dense when
        // zoomed out); the line alone still marks the boundary.
        const QString text = QStringLiteral("r%1").arg(round);
        const int width = metrics.horizontalAdvance(text);
        if (x + 2 <= lastLabelRight || x + 2 + width > axisRect.right())
            continue;
        painter->setPen(textPen);
        painter->drawText(QRect(x + 2, bandTop, width + 2, metrics.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, text);
        lastLabelRight = x + 2 + width + 4;
    }
}

void GanttPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(ganttColor(GanttColor::Compute));
    painter->drawRect(rect.adjusted(0, rect.height() * 0.25, 0, -rect.height() * 0.25));
}

} // namespace ws
