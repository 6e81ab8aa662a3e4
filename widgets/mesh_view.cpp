#include "mesh_view.h"

#include "die_drag.h"
#include "std_string_text.h"

#include "edit/scenario_edits.h"
#include "report/report_comparison.h"
#include "units/quantity.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QDrag>
#include <QHelpEvent>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace ws {

namespace {

// DP groups fill the tiles with light tints (ColorBrewer Set3), TATP groups colour the borders
// with saturated ones (ColorBrewer Dark2): two qualitative families that stay distinguishable
// when combined.
constexpr std::array<QRgb, 12> kDpFills{0xff8dd3c7, 0xffffffb3, 0xffbebada, 0xfffb8072,
                                        0xff80b1d3, 0xfffdb462, 0xffb3de69, 0xfffccde5,
                                        0xffd9d9d9, 0xffbc80bd, 0xffccebc5, 0xffffed6f};
constexpr std::array<QRgb, 8> kTatpBorders{0xff1b9e77, 0xffd95f02, 0xff7570b3, 0xffe7298a,
                                           0xff66a61e, 0xffe6ab02, 0xffa6761d, 0xff666666};
const QColor kUnusedFill(252, 252, 252);
const QColor kNoDpFill(222, 228, 236); // a die of a TATP group in no DP group (dp 1)
const QColor kDeadFill(120, 120, 120);
const QColor kSelection(0, 90, 220);
const QColor kHotLink(220, 20, 20);
const QColor kOldPath(110, 110, 110);
const QColor kNewPath(255, 120, 0);
const QColor kFlowPath(200, 0, 160, 170); // a collective's flow through the selected link
const QColor kTatpPath(0, 150, 140, 190); // a TATP transfer through it
// A slow die's hatch and badge: amber, hatched the other way from a dead die's grey, over the
// die's own group fill (a slow die still belongs to its groups).
const QColor kSlowHatch(176, 96, 0);
const QColor kFinding(128, 0, 170); // the advisor's finding: its dies and links
// A system of wafers (docs/gui.md "The mesh"): each wafer outlined in slate, thicker than any die
// border, and the off-wafer links edged in the same slate, so that a link that leaves a wafer reads
// as part of the boundary it crosses while its fill keeps the heatmap colour of its load.
const QColor kWaferEdge(38, 50, 72);
// The background of a pipeline stage's "stage k" label (tests/widgets/mesh_view_test.cpp).
const QColor kStageLabelFill(255, 246, 214);
// A cluster's switches (docs/gui.md "The mesh"), dark so that their white names read, in hues apart
// from the heatmap's viridis (whose low end is a slate blue) and from the overlays: grey node
// switches (NVSwitch), umber rail or leaf switches, a charcoal spine. Each link is edged in
// the colour of the switch it joins, which is how the legend tells the three link tiers apart
// while their fill is their load.
const QColor kNodeSwitch(104, 104, 112);
const QColor kNetworkSwitch(130, 88, 56);
const QColor kSpineSwitch(40, 40, 40);

QColor switchColor(SwitchKind kind) {
    switch (kind) {
    case SwitchKind::Node:
        return kNodeSwitch;
    case SwitchKind::Rail:
    case SwitchKind::Leaf:
        return kNetworkSwitch;
    case SwitchKind::Spine:
        return kSpineSwitch;
    }
    return kNodeSwitch;
}

// Pixels: at least 2, so that the boundary shows at every zoom; at most 4, so that it never
// hides a die.
double waferEdgeWidth(double tilePixels) {
    return std::clamp(tilePixels * 0.06, 2.0, 4.0);
}

QPen offWaferLinkPen(double tilePixels) {
    return QPen(kWaferEdge, tilePixels >= 30 ? 2.0 : 1.0, Qt::SolidLine, Qt::SquareCap,
                Qt::MiterJoin);
}

// The edge of a cluster link's bar: the colour of the switch at its upper end, as wide as an
// off-wafer link's edge.
QPen tierEdgePen(LinkTier tier, double tilePixels) {
    QPen pen = offWaferLinkPen(tilePixels);
    pen.setColor(tier == LinkTier::NodeSwitch ? kNodeSwitch
                 : tier == LinkTier::Nic      ? kNetworkSwitch
                                              : kSpineSwitch);
    return pen;
}

// Bytes per second of each direction of `link`: its tier's (a system's off-wafer link, a
// cluster's NIC or uplink), else the wafer's (a die-to-die link, a cluster's node-switch link).
double bandwidthOf(const Scenario& scenario, const LinkProperties& link) {
    return scenario.linkSpeed(link.tier).bandwidth;
}

// "40%", "33.3%": a die's speed as its badge and menu show it.
QString speedText(double speed) {
    return QString::number(speed * 100, 'g', 3) + QLatin1Char('%');
}

// The pipeline stage of the rank on `die`, -1 for none (one stage, or an unused die).
int stageOf(const ScenarioAnalysis& analysis, DieId die) {
    return die >= 0 && die < static_cast<DieId>(analysis.stageOfDie.size())
               ? analysis.stageOfDie[static_cast<std::size_t>(die)]
               : -1;
}

QColor dpFill(int group) {
    return group < 0 ? kUnusedFill
                     : QColor(kDpFills[static_cast<std::size_t>(group) % kDpFills.size()]);
}

QColor tatpBorder(int group) {
    return QColor(kTatpBorders[static_cast<std::size_t>(group) % kTatpBorders.size()]);
}

// The groups the tiles' borders mark: the TATP groups, or with none (tatp 1) Megatron's TP
// groups, so that a TP strategy's groups show on the mesh too (docs/gui.md "The mesh").
struct BorderGroups {
    const std::vector<std::vector<DieId>>* groups = nullptr;
    const std::vector<int>* ofDie = nullptr;
    bool tp = false;
    QString prefix; // of a group's name: "T0" (TATP), "P0" (TP)

    int of(DieId die) const {
        return ofDie->empty() ? -1 : (*ofDie)[static_cast<std::size_t>(die)];
    }
    bool empty() const { return groups->empty(); }
};

BorderGroups borderGroups(const DieGroups& groups) {
    if (groups.tatp.empty() && !groups.tp.empty())
        return {&groups.tp, &groups.tpOfDie, true, QStringLiteral("P")};
    return {&groups.tatp, &groups.tatpOfDie, false, QStringLiteral("T")};
}

} // namespace

MeshView::MeshView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 260);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void MeshView::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    // A cluster is the same picture only with the same switches too (its layout).
    const auto layoutOf = [](const WaferTopology& topology) {
        return topology.isCluster() ? std::optional<ClusterLayout>(topology) : std::nullopt;
    };
    const bool sameWafer = m_analysis && analysis &&
                           m_analysis->topology->rows() == analysis->topology->rows() &&
                           m_analysis->topology->cols() == analysis->topology->cols() &&
                           layoutOf(*m_analysis->topology) == layoutOf(*analysis->topology);
    m_analysis = std::move(analysis);
    m_highlightedFlow = -1;
    recomputeScale();
    if (!sameWafer) {
        m_userNavigated = false;
        m_selectedLink.reset();
        m_selectedDies.clear();
        zoomToFit();
    }
    update();
}

void MeshView::setMetric(LinkMetric metric) {
    m_metric = metric;
    recomputeScale();
    update();
}

void MeshView::setLinkLoadOverride(std::optional<LinkLoadOverride> loads) {
    m_override = std::move(loads);
    recomputeScale();
    update();
}

void MeshView::setLinkDifference(std::optional<LinkDifference> difference) {
    m_difference = std::move(difference);
    recomputeScale();
    update();
}

void MeshView::setTcmeOverlay(std::optional<TcmeOverlay> overlay) {
    m_tcme = std::move(overlay);
    update();
}

void MeshView::setBanner(const QString& text, bool isError) {
    m_banner = text;
    m_bannerIsError = isError;
    update();
}

void MeshView::selectLink(std::optional<LinkId> link) {
    m_selectedLink = link;
    update();
    emit linkSelected(link.value_or(-1));
}

void MeshView::selectDie(std::optional<DieId> die) {
    m_selectedDies.clear();
    if (die)
        m_selectedDies.append(*die);
    update();
    emit dieSelected(die.value_or(-1));
}

void MeshView::highlightFlow(int flowIndex) {
    m_highlightedFlow = flowIndex;
    update();
}

void MeshView::setFindingHighlight(std::optional<FindingHighlight> highlight) {
    m_finding = std::move(highlight);
    update();
}

QRectF MeshView::meshArea() const {
    return QRectF(0, 0, std::max(1, width() - kLegendWidth), height());
}

void MeshView::zoomToFit() {
    if (!m_analysis)
        return;
    m_geometry = MeshGeometry::fitted(*m_analysis->topology, meshArea().adjusted(8, 8, -8, -8));
    m_userNavigated = false;
    update();
}

void MeshView::zoomIn() {
    zoomBy(1.25, meshArea().center());
}

void MeshView::zoomOut() {
    zoomBy(0.8, meshArea().center());
}

void MeshView::zoomToReadableIds() {
    const double tile = m_geometry.tilePixels();
    if (!m_analysis || tile <= 0 || tile >= kIdTilePixels)
        return;
    QPointF anchor = meshArea().center();
    if (!m_selectedDies.isEmpty())
        anchor = m_geometry.dieRect(m_analysis->topology->coord(m_selectedDies.front())).center();
    // A little over the threshold, so that rounding never leaves the ids one pixel short.
    zoomBy(kIdTilePixels * 1.1 / tile, anchor);
    // Bring the anchor to the middle: the zoom kept it where it was, perhaps at an edge.
    m_geometry.offset += meshArea().center() - anchor;
    update();
}

void MeshView::zoomBy(double factor, QPointF anchor) {
    const double scale = std::clamp(m_geometry.scale * factor, 2.0, 600.0);
    const QPointF units = m_geometry.toUnits(anchor);
    m_geometry.scale = scale;
    m_geometry.offset = anchor - units * scale; // the point under the cursor stays put
    m_userNavigated = true;
    update();
}

double MeshView::reportedValue(const SimulationReport& report, LinkId link) const {
    const LinkReport& load = report.links[static_cast<std::size_t>(link)];
    switch (m_metric) {
    case LinkMetric::Bytes:
        return load.bytes;
    case LinkMetric::Utilization:
        return load.utilization;
    case LinkMetric::Conflicts:
        return load.flowCount;
    }
    return 0;
}

double MeshView::linkValue(LinkId link) const {
    const auto index = static_cast<std::size_t>(link);
    const SimulationReport& report = m_analysis->report;
    if (showsDifference())
        return reportedValue(report, link) - reportedValue(m_difference->pinned->report, link);
    return m_override ? linkValueOf(link, m_override->bytes[index], m_override->makespanS)
                      : linkValueOf(link, report.links[index].bytes, report.makespanS);
}

double MeshView::linkValueOf(LinkId link, double bytes, double makespan) const {
    const auto index = static_cast<std::size_t>(link);
    const SimulationReport& report = m_analysis->report;
    switch (m_metric) {
    case LinkMetric::Bytes:
        return bytes;
    case LinkMetric::Utilization: {
        // An off-wafer link has the system's bandwidth, not the wafer's.
        const double busy =
            report.links[index].bytes > 0
                ? report.links[index].busyS / report.links[index].bytes
                : 1.0 / bandwidthOf(m_analysis->scenario, m_analysis->topology->link(link));
        return makespan > 0 ? bytes * busy / makespan : 0.0; // busy: seconds per byte
    }
    case LinkMetric::Conflicts:
        return report.links[index].flowCount;
    }
    return 0;
}

double MeshView::maxLinkValue() const {
    double best = 0;
    if (!m_analysis)
        return best;
    const bool compared =
        m_override && m_override->comparedBytes.size() == m_override->bytes.size();
    const bool difference = showsDifference(); // its scale is symmetric about 0
    for (LinkId link = 0; link < m_analysis->topology->linkCount(); ++link) {
        best = std::max(best, difference ? std::abs(linkValue(link)) : linkValue(link));
        if (difference)
            continue;
        if (compared)
            best = std::max(
                best, linkValueOf(link, m_override->comparedBytes[static_cast<std::size_t>(link)],
                                  m_override->comparedMakespanS));
    }
    return best;
}

void MeshView::recomputeScale() {
    m_showsDifference = m_difference && m_difference->pinned && m_analysis &&
                        sameLinks(m_difference->pinned->report, m_analysis->report);
    m_maxValue = maxLinkValue();
}

double MeshView::linkFraction(LinkId link) const {
    return m_maxValue > 0 ? linkValue(link) / m_maxValue : 0.0;
}

QString MeshView::formatValue(double value) const {
    switch (m_metric) {
    case LinkMetric::Bytes:
        return qs(formatBytes(value));
    case LinkMetric::Utilization:
        return QString::number(value * 100, 'f', value < 0.1 ? 1 : 0) + QLatin1Char('%');
    case LinkMetric::Conflicts:
        return QString::number(std::lround(value));
    }
    return {};
}

// ---- painting ----

void MeshView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    render(painter, rect());
}

void MeshView::render(QPainter& painter, const QRect& area) const {
    painter.fillRect(area, Qt::white);
    if (!m_analysis) {
        painter.setPen(Qt::darkGray);
        painter.drawText(area.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                         m_banner.isEmpty() ? tr("No scenario") : m_banner);
        return;
    }
    const QRectF mesh(area.left(), area.top(), std::max(1, area.width() - kLegendWidth),
                      area.height());
    painter.save();
    painter.setClipRect(mesh);
    painter.setRenderHint(QPainter::Antialiasing, false); // boxes: crisp and fast
    paintTiles(painter, mesh);
    paintWafers(painter, mesh); // over the tiles' edges when tiny, under the links crossing it
    paintSwitches(painter, mesh);
    paintLinks(painter, mesh);
    paintOverlays(painter);
    paintLabels(painter, mesh); // over the paths, so that no overlay hides a badge (item 6)
    paintStageLabels(painter, mesh);
    painter.restore();

    paintLegend(painter,
                QRect(area.right() - kLegendWidth + 1, area.top(), kLegendWidth, area.height()));
    if (!m_banner.isEmpty()) {
        QFont font = painter.font();
        font.setBold(true);
        painter.setFont(font);
        // Wrapped to at most kBannerLines lines (the whole text is the banner's tooltip).
        const int lineHeight = painter.fontMetrics().lineSpacing();
        const QRectF room(mesh.left() + 16, mesh.top() + 12, std::max(1.0, mesh.width() - 32),
                          kBannerLines * lineHeight);
        const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
        const QRectF text = painter.boundingRect(room, flags, m_banner).intersected(room);
        m_bannerRect = QRectF(mesh.left() + 8, mesh.top() + 8, mesh.width() - 16,
                              std::max<double>(26, text.height() + 8));
        painter.fillRect(m_bannerRect,
                         m_bannerIsError ? QColor(255, 225, 225, 235) : QColor(255, 250, 210, 235));
        painter.setPen(m_bannerIsError ? QColor(160, 0, 0) : QColor(90, 70, 0));
        painter.setClipRect(room);
        painter.drawText(room, flags, m_banner);
        painter.setClipping(false);
    } else {
        m_bannerRect = QRectF();
    }
}

void MeshView::paintTiles(QPainter& painter, const QRectF& visible) const {
    const WaferTopology& topology = *m_analysis->topology;
    const DieGroups& groups = m_analysis->groups;
    const BorderGroups bordered = borderGroups(groups);
    const double tile = m_geometry.tilePixels();
    const bool detailed = tile >= 14; // borders and group colours
    // Batch by fill colour: one drawRects per colour.
    std::vector<std::pair<QRgb, std::vector<QRectF>>> fills;
    std::vector<QRectF> dead;
    std::vector<QRectF> slow;
    std::vector<std::pair<int, std::vector<QRectF>>> borders; // by TATP group
    const WaferSpec& wafer = m_analysis->scenario.wafer;
    for (DieId die = 0; die < topology.dieCount(); ++die) {
        const QRectF box = m_geometry.dieRect(topology.coord(die));
        if (!box.intersects(visible))
            continue;
        if (!topology.isAlive(die)) {
            dead.push_back(box);
            continue;
        }
        const int dp = groups.dpOfDie[static_cast<std::size_t>(die)];
        const bool grouped = bordered.of(die) >= 0;
        const QRgb fill = (dp >= 0 ? dpFill(dp) : grouped ? kNoDpFill : kUnusedFill).rgb();
        auto bucket = std::find_if(fills.begin(), fills.end(),
                                   [&](const auto& entry) { return entry.first == fill; });
        if (bucket == fills.end())
            bucket = fills.insert(fills.end(), {fill, {}});
        bucket->second.push_back(box);
        if (wafer.dieSpeed(die) < 1.0)
            slow.push_back(box);
        const int tatp = bordered.of(die);
        if (detailed) {
            auto border = std::find_if(borders.begin(), borders.end(),
                                       [&](const auto& entry) { return entry.first == tatp; });
            if (border == borders.end())
                border = borders.insert(borders.end(), {tatp, {}});
            border->second.push_back(box);
        }
    }
    painter.setPen(Qt::NoPen);
    for (const auto& [fill, boxes] : fills) {
        painter.setBrush(QColor(fill));
        painter.drawRects(boxes.data(), static_cast<int>(boxes.size()));
    }
    if (!slow.empty()) {
        painter.setBrush(QBrush(kSlowHatch, Qt::FDiagPattern));
        painter.drawRects(slow.data(), static_cast<int>(slow.size()));
    }
    if (!dead.empty()) {
        painter.setBrush(QColor(200, 200, 200));
        painter.drawRects(dead.data(), static_cast<int>(dead.size()));
        painter.setBrush(QBrush(kDeadFill, Qt::BDiagPattern));
        painter.drawRects(dead.data(), static_cast<int>(dead.size()));
    }
    painter.setBrush(Qt::NoBrush);
    for (auto& [tatp, boxes] : borders) {
        if (tatp < 0) {
            painter.setPen(QPen(QColor(150, 150, 150), 1));
        } else {
            const double width = std::clamp(tile * 0.07, 2.0, 6.0);
            painter.setPen(
                QPen(tatpBorder(tatp), width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
            for (QRectF& box : boxes) // keep the thick border inside the tile
                box.adjust(width / 2, width / 2, -width / 2, -width / 2);
        }
        painter.drawRects(boxes.data(), static_cast<int>(boxes.size()));
    }
}

void MeshView::paintWafers(QPainter& painter, const QRectF& visible) const {
    const WaferTopology& topology = *m_analysis->topology;
    if (topology.waferCount() <= 1)
        return;
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kWaferEdge, waferEdgeWidth(m_geometry.tilePixels()), Qt::SolidLine,
                        Qt::SquareCap, Qt::MiterJoin));
    for (int wafer = 0; wafer < topology.waferCount(); ++wafer)
        if (const QRectF box = m_geometry.waferRect(topology, wafer); box.intersects(visible))
            painter.drawRect(box);
}

void MeshView::paintSwitches(QPainter& painter, const QRectF& visible) const {
    const WaferTopology& topology = *m_analysis->topology;
    if (!topology.isCluster())
        return;
    const double tile = m_geometry.tilePixels();
    // The network's switches first, then the node switches over the rails and tines that cross
    // them, outlined in white so that the crossing reads as one passing under the other.
    std::vector<int> order;
    for (int vertex = topology.nodeSwitch(topology.rows() - 1) + 1; vertex < topology.vertexCount();
         ++vertex)
        order.push_back(vertex);
    for (int node = 0; node < topology.rows(); ++node)
        order.push_back(topology.nodeSwitch(node));
    for (int vertex : order) {
        const SwitchKind kind = topology.switchKind(vertex);
        painter.setPen(kind == SwitchKind::Node && tile >= 14 ? QPen(Qt::white, 2)
                                                              : QPen(Qt::NoPen));
        painter.setBrush(switchColor(kind));
        for (const QRectF& box : m_geometry.switchRects(topology, vertex))
            if (box.intersects(visible))
                painter.drawRect(box);
    }
    if (tile < kIdTilePixels)
        return; // names only once the GPUs' ids show too
    QFont font = painter.font();
    font.setPixelSize(static_cast<int>(std::clamp(tile * 0.22, 9.0, 13.0)));
    painter.setFont(font);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    const QFontMetrics metrics(font);
    for (int vertex = topology.dieCount(); vertex < topology.vertexCount(); ++vertex) {
        const QRectF box = m_geometry.switchLabelRect(topology, vertex);
        const QString name = qs(topology.vertexName(vertex));
        if (!box.intersects(visible) || box.height() < metrics.height() - 2 ||
            box.width() < metrics.horizontalAdvance(name) + 8)
            continue;
        const SwitchKind kind = topology.switchKind(vertex);
        const bool inside = kind == SwitchKind::Node || kind == SwitchKind::Leaf;
        painter.setPen(inside ? QColor(Qt::white) : switchColor(kind));
        painter.drawText(box.adjusted(inside ? 6 : 0, 0, 0, 0),
                         (inside ? Qt::AlignLeft : Qt::AlignHCenter) | Qt::AlignVCenter, name);
    }
}

void MeshView::paintStageLabels(QPainter& painter, const QRectF& visible) const {
    const std::vector<int>& stageOfDie = m_analysis->stageOfDie;
    if (stageOfDie.empty())
        return;
    const WaferTopology& topology = *m_analysis->topology;
    // Each stage's dies span a rectangle (its wafers or its band: core/strategy/pipeline_stages.h).
    std::vector<QRectF> boxes;
    for (DieId die = 0; die < static_cast<DieId>(stageOfDie.size()); ++die) {
        const int stage = stageOfDie[static_cast<std::size_t>(die)];
        if (stage < 0)
            continue;
        if (static_cast<std::size_t>(stage) >= boxes.size())
            boxes.resize(static_cast<std::size_t>(stage) + 1);
        QRectF& box = boxes[static_cast<std::size_t>(stage)];
        const QRectF tile = m_geometry.dieRect(topology.coord(die));
        box = box.isNull() ? tile : box.united(tile);
    }
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const QFontMetrics metrics(font);
    for (std::size_t stage = 0; stage < boxes.size(); ++stage) {
        if (boxes[stage].isNull() || !boxes[stage].intersects(visible))
            continue;
        const QString text = tr("stage %1").arg(stage);
        const QRectF label(boxes[stage].topLeft() + QPointF(4, 4),
                           QSizeF(metrics.horizontalAdvance(text) + 10, metrics.height() + 4));
        painter.fillRect(label, kStageLabelFill);
        painter.setPen(QColor(30, 30, 30));
        painter.drawRect(label);
        painter.drawText(label, Qt::AlignCenter, text);
    }
    font.setBold(false);
    painter.setFont(font);
}

void MeshView::paintLinks(QPainter& painter, const QRectF& visible) const {
    const WaferTopology& topology = *m_analysis->topology;
    const double tile = m_geometry.tilePixels();
    std::array<std::vector<QRectF>, kLoadBuckets> buckets;
    std::vector<QRectF> idle;
    std::vector<QRectF> dead;
    std::vector<QRectF> offWafer; // alive ones, edged after the fills: a few per wafer edge
    // A cluster's bars edged in their switch's colour, by LinkTier, once the edge leaves room.
    std::array<std::vector<QRectF>, 5> tierEdges;
    const bool edgeTiers = topology.isCluster() && tile >= 14;
    const bool arrows = tile >= 44;
    const bool difference = showsDifference();
    std::array<QPainterPath, kLoadBuckets> arrowHeads;
    QPainterPath idleHeads;
    for (const LinkProperties& link : topology.links()) {
        const QRectF bar = m_geometry.linkRect(topology, link);
        if (!bar.intersects(visible))
            continue;
        if (!link.alive) {
            dead.push_back(bar);
            continue;
        }
        if (link.offWafer()) { // edged outside the bar, so that all of its fill shows at any zoom
            const double edge = offWaferLinkPen(tile).widthF() / 2;
            offWafer.push_back(bar.adjusted(-edge, -edge, edge, edge));
        }
        if (edgeTiers) { // outside the bar, as an off-wafer link's edge
            const double edge = tierEdgePen(link.tier, tile).widthF() / 2;
            tierEdges[static_cast<std::size_t>(link.tier)].push_back(
                bar.adjusted(-edge, -edge, edge, edge));
        }
        const double value = linkValue(link.id);
        const double fraction = m_maxValue > 0 ? value / m_maxValue : 0.0;
        const int bucket = difference ? differenceBucket(fraction) : loadBucket(fraction);
        if (difference ? value == 0 : value <= 0) // idle, or unchanged
            idle.push_back(bar);
        else
            buckets[static_cast<std::size_t>(bucket)].push_back(bar);
        if (arrows) {
            // A small arrowhead past the bar's end shows the direction.
            const Direction direction = m_geometry.arrowDirection(topology, link);
            const double head = bar.width() < bar.height() ? bar.width() : bar.height();
            QPolygonF triangle;
            switch (direction) {
            case Direction::East:
                triangle << bar.topRight() << QPointF(bar.right() + head * 0.7, bar.center().y())
                         << bar.bottomRight();
                break;
            case Direction::West:
                triangle << bar.topLeft() << QPointF(bar.left() - head * 0.7, bar.center().y())
                         << bar.bottomLeft();
                break;
            case Direction::South:
                triangle << bar.bottomLeft() << QPointF(bar.center().x(), bar.bottom() + head * 0.7)
                         << bar.bottomRight();
                break;
            case Direction::North:
                triangle << bar.topLeft() << QPointF(bar.center().x(), bar.top() - head * 0.7)
                         << bar.topRight();
                break;
            }
            ((difference ? value == 0 : value <= 0) ? idleHeads
                                                    : arrowHeads[static_cast<std::size_t>(bucket)])
                .addPolygon(triangle);
        }
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(idleLinkColor());
    painter.drawRects(idle.data(), static_cast<int>(idle.size()));
    painter.drawPath(idleHeads);
    for (int bucket = 0; bucket < kLoadBuckets; ++bucket) {
        const auto& bars = buckets[static_cast<std::size_t>(bucket)];
        if (bars.empty())
            continue;
        painter.setBrush(difference ? differenceBucketColor(bucket) : bucketColor(bucket));
        painter.drawRects(bars.data(), static_cast<int>(bars.size()));
        painter.drawPath(arrowHeads[static_cast<std::size_t>(bucket)]);
    }
    if (!offWafer.empty()) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(offWaferLinkPen(tile));
        painter.drawRects(offWafer.data(), static_cast<int>(offWafer.size()));
    }
    for (std::size_t tier = 0; tier < tierEdges.size(); ++tier) {
        if (tierEdges[tier].empty())
            continue;
        painter.setBrush(Qt::NoBrush);
        painter.setPen(tierEdgePen(static_cast<LinkTier>(tier), tile));
        painter.drawRects(tierEdges[tier].data(), static_cast<int>(tierEdges[tier].size()));
    }
    if (!dead.empty()) {
        painter.setBrush(QBrush(QColor(60, 60, 60), Qt::DiagCrossPattern));
        painter.setPen(QPen(QColor(60, 60, 60), 1));
        painter.drawRects(dead.data(), static_cast<int>(dead.size()));
    }
}

void MeshView::paintLabels(QPainter& painter, const QRectF& visible) const {
    const double tile = m_geometry.tilePixels();
    if (tile < kIdTilePixels)
        return;
    const WaferTopology& topology = *m_analysis->topology;
    const DieGroups& groups = m_analysis->groups;
    QFont font = painter.font();
    font.setPixelSize(static_cast<int>(std::clamp(tile * 0.2, 9.0, 15.0)));
    painter.setFont(font);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    const bool badges = tile >= 60;
    // With paths drawn across the tiles, each label gets a pale backing so that it stays legible.
    const bool overlaid = m_selectedLink || m_tcme || m_highlightedFlow >= 0 || m_finding;
    const auto backed = [&](const QRectF& inner, int flags, const QString& text) {
        if (overlaid)
            painter.fillRect(painter.boundingRect(inner, flags, text).adjusted(-2, 0, 2, 0),
                             QColor(255, 255, 255, 200));
        painter.drawText(inner, flags, text);
    };
    for (DieId die = 0; die < topology.dieCount(); ++die) {
        const QRectF box = m_geometry.dieRect(topology.coord(die));
        if (!box.intersects(visible))
            continue;
        const QRectF inner = box.adjusted(tile * 0.1, tile * 0.08, -tile * 0.1, -tile * 0.08);
        painter.setPen(topology.isAlive(die) ? QColor(20, 20, 20) : QColor(245, 245, 245));
        if (topology.isAlive(die))
            backed(inner, Qt::AlignLeft | Qt::AlignTop, QString::number(die));
        else
            painter.drawText(inner, Qt::AlignLeft | Qt::AlignTop, QString::number(die));
        if (const double speed = m_analysis->scenario.wafer.dieSpeed(die);
            speed < 1.0 && topology.isAlive(die)) {
            // Always backed: the hatch under it would make it hard to read.
            const QString text = speedText(speed);
            const int flags = Qt::AlignRight | Qt::AlignTop;
            painter.fillRect(painter.boundingRect(inner, flags, text).adjusted(-2, 0, 2, 0),
                             QColor(255, 255, 255, 215));
            painter.setPen(kSlowHatch.darker(140));
            painter.drawText(inner, flags, text);
            painter.setPen(QColor(20, 20, 20));
        }
        if (!badges || !topology.isAlive(die))
            continue;
        QStringList badge;
        if (const int stage = stageOf(*m_analysis, die); stage >= 0)
            badge << QStringLiteral("S%1").arg(stage);
        const int dp = groups.dpOfDie[static_cast<std::size_t>(die)];
        const BorderGroups bordered = borderGroups(groups);
        const int tatp = bordered.of(die);
        if (dp >= 0)
            badge << QStringLiteral("D%1").arg(dp);
        if (tatp >= 0) { // "T0.1": TATP group 0, stream position 1; "P0.1": TP group 0, rank 1
            const auto& members = (*bordered.groups)[static_cast<std::size_t>(tatp)];
            const auto position = std::find(members.begin(), members.end(), die) - members.begin();
            badge << QStringLiteral("%1%2.%3").arg(bordered.prefix).arg(tatp).arg(position);
        }
        if (!badge.isEmpty()) {
            painter.setPen(QColor(50, 50, 50));
            backed(inner, Qt::AlignHCenter | Qt::AlignBottom, badge.join(QLatin1Char(' ')));
        }
    }
}

void MeshView::paintPath(QPainter& painter, const std::vector<DieId>& path) const {
    painter.drawPolyline(m_geometry.pathPoints(*m_analysis->topology, path));
}

void MeshView::paintOverlays(QPainter& painter) const {
    const WaferTopology& topology = *m_analysis->topology;
    const SimulationReport& report = m_analysis->report;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    const double width = std::clamp(m_geometry.tilePixels() * 0.06, 2.0, 5.0);
    auto flowPath = [&](const FlowReport& flow) {
        if (!flow.route.path.empty()) {
            paintPath(painter, flow.route.path);
        } else {
            for (const auto& [from, to] : flow.route.edges)
                paintPath(painter, {from, to});
        }
    };
    if (m_selectedLink) {
        // Collectives' flows (and pipeline sends), then TATP transfers over them: the kinds
        // that collide.
        for (const bool tatp : {false, true}) {
            painter.setPen(QPen(tatp ? kTatpPath : kFlowPath, width, Qt::SolidLine, Qt::RoundCap,
                                Qt::RoundJoin));
            for (int index : m_analysis->flowsOnLink[static_cast<std::size_t>(*m_selectedLink)]) {
                const FlowReport& flow = report.flows[static_cast<std::size_t>(index)];
                if (isTatpTransfer(flow) == tatp)
                    flowPath(flow);
            }
        }
    }
    if (m_highlightedFlow >= 0 && m_highlightedFlow < static_cast<int>(report.flows.size())) {
        painter.setPen(QPen(kSelection, width * 1.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        flowPath(report.flows[static_cast<std::size_t>(m_highlightedFlow)]);
    }
    if (m_tcme) {
        painter.setPen(QPen(kOldPath, width, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
        for (const auto& path : m_tcme->oldPaths)
            paintPath(painter, path);
        painter.setPen(QPen(kNewPath, width * 1.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        for (const auto& path : m_tcme->newPaths)
            paintPath(painter, path);
        if (m_tcme->hotLink >= 0 && m_tcme->hotLink < topology.linkCount()) {
            painter.setPen(QPen(kHotLink, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
            painter.drawRect(m_geometry.linkRect(topology, topology.link(m_tcme->hotLink))
                                 .adjusted(-width, -width, width, width));
        }
    }
    if (m_selectedLink) {
        painter.setPen(QPen(Qt::black, 2));
        painter.drawRect(
            m_geometry.linkRect(topology, topology.link(*m_selectedLink)).adjusted(-2, -2, 2, 2));
    }
    if (m_finding) {
        painter.setPen(QPen(kFinding, 3, Qt::DashLine, Qt::SquareCap, Qt::MiterJoin));
        for (DieId die : m_finding->dies)
            if (topology.contains(die))
                painter.drawRect(m_geometry.dieRect(topology.coord(die)).adjusted(-6, -6, 6, 6));
        painter.setPen(QPen(kFinding, 2.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        for (LinkId link : m_finding->links)
            if (link >= 0 && link < topology.linkCount())
                painter.drawRect(
                    m_geometry.linkRect(topology, topology.link(link)).adjusted(-3, -3, 3, 3));
    }
    painter.setPen(QPen(kSelection, 3));
    for (int die : m_selectedDies)
        painter.drawRect(m_geometry.dieRect(topology.coord(die)).adjusted(-3, -3, 3, 3));
    if (m_gesture == Gesture::DraggingDies && m_dropTarget) {
        painter.setPen(QPen(kSelection, 3, Qt::DashLine));
        painter.setBrush(QColor(0, 90, 220, 40));
        painter.drawRect(m_geometry.dieRect(topology.coord(*m_dropTarget)).adjusted(-4, -4, 4, 4));
    }
}

void MeshView::paintLegend(QPainter& painter, const QRect& area) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(area, QColor(248, 248, 248));
    painter.setPen(QColor(210, 210, 210));
    painter.drawLine(area.topLeft(), area.bottomLeft());
    QFont font = painter.font();
    font.setPixelSize(12);
    painter.setFont(font);
    const QFontMetrics metrics(font);
    const int left = area.left() + 12;
    const int line = metrics.height() + 3;
    int y = area.top() + 10;
    auto heading = [&](const QString& text) {
        QFont bold = font;
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(QColor(30, 30, 30));
        painter.drawText(QRect(left, y, area.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetrics(bold).elidedText(text, Qt::ElideRight, area.width() - 20));
        painter.setFont(font);
        y += line;
    };
    auto swatch = [&](const QBrush& brush, const QPen& pen, const QString& text) {
        painter.setPen(pen);
        painter.setBrush(brush);
        painter.drawRect(QRect(left, y + 2, 22, line - 6));
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QRect(left + 30, y, area.width() - 44, line),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(text, Qt::ElideRight, area.width() - 44));
        y += line;
    };

    const bool difference = showsDifference();
    heading(difference ? tr("Link %1: change").arg(toDisplayString(m_metric).toLower())
                       : tr("Link %1").arg(toDisplayString(m_metric).toLower()));
    const QString caption = difference   ? m_difference->caption
                            : m_override ? m_override->caption
                                         : QString();
    if (!caption.isEmpty()) {
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QRect(left, y, area.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(caption, Qt::ElideRight, area.width() - 20));
        y += line;
    }
    // The scale: kLoadBuckets steps, top = max, exactly the colours the links are drawn in.
    const int barHeight = 150;
    const int step = barHeight / kLoadBuckets;
    for (int bucket = 0; bucket < kLoadBuckets; ++bucket)
        painter.fillRect(QRect(left, y + (kLoadBuckets - 1 - bucket) * step, 22, step),
                         difference ? differenceBucketColor(bucket) : bucketColor(bucket));
    painter.setPen(QColor(40, 40, 40));
    const QRect top(left + 30, y - 2, area.width() - 44, line);
    const QRect bottom(left + 30, y + kLoadBuckets * step - line + 2, area.width() - 44, line);
    if (difference) {
        painter.drawText(top, Qt::AlignLeft | Qt::AlignTop,
                         tr("+%1 (more now)").arg(formatValue(m_maxValue)));
        painter.drawText(
            QRect(left + 30, y + kLoadBuckets * step / 2 - line / 2, area.width() - 44, line),
            Qt::AlignLeft | Qt::AlignVCenter, formatValue(0));
        painter.drawText(bottom, Qt::AlignLeft | Qt::AlignBottom,
                         tr("−%1 (less now)").arg(formatValue(m_maxValue)));
    } else {
        painter.drawText(top, Qt::AlignLeft | Qt::AlignTop,
                         formatValue(m_maxValue) + (m_override && !m_override->comparedBytes.empty()
                                                        ? tr(" (max of both)")
                                                        : tr(" (max)")));
        painter.drawText(bottom, Qt::AlignLeft | Qt::AlignBottom, formatValue(0));
    }
    y += kLoadBuckets * step + 8;
    swatch(idleLinkColor(), Qt::NoPen, difference ? tr("no change") : tr("no traffic"));
    swatch(QBrush(QColor(60, 60, 60), Qt::DiagCrossPattern), QPen(QColor(60, 60, 60)),
           tr("dead link"));
    const bool cluster = m_analysis->topology->isCluster(); // its dies are GPUs
    swatch(QBrush(kDeadFill, Qt::BDiagPattern), QPen(QColor(120, 120, 120)),
           cluster ? tr("dead GPU") : tr("dead die"));
    if (!m_analysis->scenario.wafer.slowDies.empty())
        swatch(QBrush(kSlowHatch, Qt::FDiagPattern), QPen(kSlowHatch),
               cluster ? tr("slow GPU (% of peak)") : tr("slow die (% of peak)"));
    m_legendRows.clear();
    if (m_analysis->topology->waferCount() > 1) {
        const auto [boundary, link] = systemLegendToolTips();
        m_legendRows.push_back({QRect(area.left(), y, area.width(), line), boundary});
        swatch(Qt::NoBrush, QPen(kWaferEdge, 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin),
               tr("wafer boundary"));
        m_legendRows.push_back({QRect(area.left(), y, area.width(), line), link});
        swatch(bucketColor(kLoadBuckets / 2), offWaferLinkPen(30), tr("off-wafer link"));
    }
    if (m_analysis->topology->isCluster()) {
        y += 6;
        heading(tr("Cluster"));
        for (const LegendEntry& entry : clusterLegend()) {
            m_legendRows.push_back({QRect(area.left(), y, area.width(), line), entry.toolTip});
            swatch(entry.brush, entry.pen, entry.text);
        }
    }
    if (!m_analysis->stageOfDie.empty()) {
        // Text, not a colour: the fills and borders already say DP and TATP group.
        const int pp = m_analysis->scenario.strategy->pp;
        const int wafers = m_analysis->topology->waferCount();
        m_legendRows.push_back(
            {QRect(area.left(), y, area.width(), line),
             tr("Pipeline: %1 stages (strategy.pp), each on %2, labelled \"stage k\" at its "
                "top-left corner; a die's tooltip, and its badge Sn when zoomed in, names its "
                "stage")
                 .arg(pp)
                 .arg(wafers > 1 && wafers % pp == 0 ? tr("whole wafers of the system")
                                                     : tr("a band of the grid"))});
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QRect(left, y, area.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(tr("pipeline: %1 stages, badge Sn").arg(pp),
                                            Qt::ElideRight, area.width() - 20));
        y += line;
    }
    y += 6;

    // One row per colour in use, at any number of groups: past the palette a colour is shared,
    // and its row names every group it marks ("D0, D12, D24"), all of them in its tooltip.
    const auto colourRows = [&](int groupCount, int colours, const QString& prefix,
                                const QString& what, const auto& draw) {
        for (int colour = 0; colour < std::min(groupCount, colours); ++colour) {
            QStringList names;
            for (int g = colour; g < groupCount; g += colours)
                names << prefix + QString::number(g);
            const QString joined = names.join(QStringLiteral(", "));
            m_legendRows.push_back({QRect(area.left(), y, area.width(), line), what.arg(joined)});
            draw(colour, joined);
        }
    };
    // Folded, when one row per colour would run past the legend's foot (a cluster's tiers and
    // a pipeline's line above them in a 1280x720 window): each kind on one strip of its colours,
    // in group order, the names in the strip's tooltip.
    const DieGroups& groups = m_analysis->groups;
    const auto rowsOf = [](std::size_t groupCount, std::size_t colours) {
        return static_cast<int>(std::min(groupCount, colours));
    };
    const BorderGroups bordered = borderGroups(groups);
    const int unfoldedRows =
        (groups.dp.empty() ? 0 : 1 + rowsOf(groups.dp.size(), kDpFills.size())) +
        (bordered.empty() ? 0 : 2 + rowsOf(bordered.groups->size(), kTatpBorders.size())) +
        1; // unused die
    const bool fold = y + unfoldedRows * line > area.bottom();
    const auto strip = [&](int groupCount, int colours, const QString& prefix, const QString& what,
                           const auto& drawSwatch) {
        const int shown = std::min(groupCount, colours);
        const int width = std::max(6, std::min(14, (area.width() - 28) / std::max(1, shown) - 2));
        for (int colour = 0; colour < shown; ++colour)
            drawSwatch(QRect(left + colour * (width + 2), y + 2, width, line - 6), colour);
        QStringList names;
        for (int g = 0; g < groupCount; ++g)
            names << prefix + QString::number(g);
        m_legendRows.push_back({QRect(area.left(), y, area.width(), line),
                                what.arg(groupCount).arg(names.join(QStringLiteral(", ")))});
        y += line;
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(
            QRect(left, y, area.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(
                tr("%1%2 … %1%3: %4 groups").arg(prefix).arg(0).arg(groupCount - 1).arg(groupCount),
                Qt::ElideRight, area.width() - 20));
        y += line;
    };
    if (!groups.dp.empty()) {
        heading(tr("Fill: DP group"));
        if (fold)
            strip(static_cast<int>(groups.dp.size()), static_cast<int>(kDpFills.size()),
                  QStringLiteral("D"), tr("%1 DP groups, filled in these colours in turn: %2"),
                  [&](const QRect& box, int colour) {
                      painter.setPen(QPen(QColor(150, 150, 150)));
                      painter.setBrush(dpFill(colour));
                      painter.drawRect(box);
                  });
        else
            colourRows(static_cast<int>(groups.dp.size()), static_cast<int>(kDpFills.size()),
                       QStringLiteral("D"), tr("DP groups filled in this colour: %1"),
                       [&](int colour, const QString& names) {
                           swatch(dpFill(colour), QPen(QColor(150, 150, 150)), names);
                       });
    }
    if (!bordered.empty()) {
        const int count = static_cast<int>(bordered.groups->size());
        heading(bordered.tp ? tr("Border: TP group") : tr("Border: TATP group"));
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QRect(left, y, area.width() - 20, line), Qt::AlignLeft | Qt::AlignVCenter,
                         bordered.tp ? tr("badge Pg.i: group g, rank i")
                                     : tr("badge Tg.i: group g, position i"));
        y += line;
        if (fold)
            strip(count, static_cast<int>(kTatpBorders.size()), bordered.prefix,
                  bordered.tp ? tr("%1 TP groups, bordered in these colours in turn: %2")
                              : tr("%1 TATP groups, bordered in these colours in turn: %2"),
                  [&](const QRect& box, int colour) {
                      painter.setPen(QPen(tatpBorder(colour), 3));
                      painter.setBrush(Qt::white);
                      painter.drawRect(box);
                  });
        else
            colourRows(count, static_cast<int>(kTatpBorders.size()), bordered.prefix,
                       bordered.tp ? tr("TP groups bordered in this colour: %1")
                                   : tr("TATP groups bordered in this colour: %1"),
                       [&](int colour, const QString& names) {
                           swatch(Qt::white, QPen(tatpBorder(colour), 3), names);
                       });
        if (groups.dp.empty())
            swatch(kNoDpFill, QPen(QColor(150, 150, 150)), tr("in no DP group"));
    }
    swatch(kUnusedFill, QPen(QColor(150, 150, 150)), cluster ? tr("unused GPU") : tr("unused die"));
    if (m_tcme || m_selectedLink || m_finding) {
        y += 6;
        heading(tr("Overlays"));
        if (m_finding)
            swatch(Qt::NoBrush, QPen(kFinding, 3, Qt::DashLine),
                   tr("advisor: %1").arg(m_finding->caption));
        if (m_tcme) {
            swatch(Qt::NoBrush, QPen(kHotLink, 3), tr("TCME's target link"));
            swatch(kOldPath, Qt::NoPen, tr("route before TCME"));
            swatch(kNewPath, Qt::NoPen, tr("route after TCME"));
        }
        if (m_selectedLink) {
            const auto& onLink = m_analysis->flowsOnLink[static_cast<std::size_t>(*m_selectedLink)];
            const auto tatpCount = std::count_if(onLink.begin(), onLink.end(), [&](int index) {
                return isTatpTransfer(m_analysis->report.flows[static_cast<std::size_t>(index)]);
            });
            if (tatpCount > 0)
                swatch(kTatpPath, Qt::NoPen, tr("TATP on selected link"));
            if (tatpCount < static_cast<long>(onLink.size()))
                swatch(kFlowPath, Qt::NoPen, tr("other flows on selected link"));
        }
    }
    painter.restore();
}

std::vector<MeshView::LegendEntry> MeshView::clusterLegend() const {
    const WaferTopology& topology = *m_analysis->topology;
    const Scenario& scenario = m_analysis->scenario;
    const auto speed = [&](LinkTier tier) {
        const LinkSpeed link = scenario.linkSpeed(tier);
        return tr("%1 and %2 per link each way")
            .arg(qs(formatBytesPerSecond(link.bandwidth)), qs(formatSeconds(link.latencyS)));
    };
    const bool rail = topology.clusterNetwork() == ClusterNetwork::Rail;
    const bool spine = !rail && topology.leafCount() > 1;
    const QBrush loaded = bucketColor(kLoadBuckets / 2); // a link's fill is its load
    std::vector<LegendEntry> entries{
        {kNodeSwitch, Qt::NoPen, tr("node switch (NVSwitch)"),
         tr("Node switch (NVSwitch): joins the %1 GPUs of its node, the bar under them")
             .arg(topology.cols())},
        rail ? LegendEntry{kNetworkSwitch, Qt::NoPen, tr("rail switch"),
                           tr("Rail switch g: joins GPU g of every node (cluster.inter.kind "
                              "\"rail\"), the bar right of that column of GPUs, named above "
                              "it")}
             : LegendEntry{kNetworkSwitch, Qt::NoPen, tr("leaf switch"),
                           tr("Leaf switch: joins every GPU of its %1 nodes (cluster.inter.kind "
                              "\"fat_tree\"), drawn as a comb: a tine right of each column of "
                              "GPUs, joined under the nodes by a bar with its name")
                               .arg(topology.nodesPerLeaf())}};
    if (spine)
        entries.push_back({kSpineSwitch, Qt::NoPen, tr("spine switch"),
                           tr("Spine switch: joins the %1 leaves, the bar on the right")
                               .arg(topology.leafCount())});
    entries.push_back({loaded, tierEdgePen(LinkTier::NodeSwitch, 30), tr("NVSwitch link"),
                       tr("NVSwitch link: a GPU to its node switch (the bar right of the GPU's "
                          "centre) and back (left of it), %1 (cluster.intra); filled by its "
                          "load, edged in the node switch's colour")
                           .arg(speed(LinkTier::NodeSwitch))});
    entries.push_back(
        {loaded, tierEdgePen(LinkTier::Nic, 30),
         rail ? tr("NIC link to a rail") : tr("NIC link to a leaf"),
         tr("NIC link: a GPU's network card to its %1 (the upper bar right of the "
            "GPU) and back (the lower one), %2 (cluster.inter); filled by its "
            "load, edged in the %1's colour")
             .arg(rail ? tr("rail switch") : tr("leaf switch"), speed(LinkTier::Nic))});
    if (spine)
        entries.push_back({loaded, tierEdgePen(LinkTier::Uplink, 30), tr("uplink leaf to spine"),
                           tr("Uplink: all of a leaf's uplinks to the spine as one link (the "
                              "upper bar) and back (the lower one), %1 (cluster.inter divided "
                              "by its oversubscription); filled by its load, edged in the "
                              "spine's colour")
                               .arg(speed(LinkTier::Uplink))});
    return entries;
}

std::pair<QString, QString> MeshView::systemLegendToolTips() const {
    const WaferTopology& topology = *m_analysis->topology;
    const Scenario& scenario = m_analysis->scenario;
    QString boundary = tr("Wafer boundary: %1 x %2 wafers of %3 x %4 dies (system.wafers)")
                           .arg(topology.wafersDown())
                           .arg(topology.wafersAcross())
                           .arg(topology.waferRows())
                           .arg(topology.waferCols());
    QString link = tr("Off-wafer link: joins two wafers; coloured by its load like any link");
    if (scenario.system) {
        const SystemSpec& system = *scenario.system;
        const int joined = system.linksPerEdge.value_or(0);
        boundary += joined == 0   ? tr("; every die pair of a shared edge is joined")
                    : joined == 1 ? tr("; 1 die pair of each shared edge is joined")
                                  : tr("; %1 die pairs of each shared edge are joined").arg(joined);
        link = tr("Off-wafer link: joins two wafers, %1 and %2 per hop (system.link_bandwidth, "
                  "link_latency; a die-to-die link: %3 and %4); coloured by its load like any "
                  "link")
                   .arg(qs(formatBytesPerSecond(system.linkBandwidth.value)),
                        qs(formatSeconds(system.linkLatency.value)),
                        qs(formatBytesPerSecond(scenario.wafer.linkBandwidth.value)),
                        qs(formatSeconds(scenario.wafer.linkLatency.value)));
    }
    return {boundary, link};
}

// ---- interaction ----

void MeshView::resizeEvent(QResizeEvent*) {
    if (!m_userNavigated)
        zoomToFit(); // the wafer stays fitted as the window changes until the user zooms or pans
}

void MeshView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.2, steps), event->position());
    event->accept();
}

void MeshView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        zoomToFit();
        break;
    case Qt::Key_Escape:
        selectLink(std::nullopt);
        selectDie(std::nullopt);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void MeshView::mousePressEvent(QMouseEvent* event) {
    setFocus();
    m_pressPosition = event->position().toPoint();
    m_pressButton = event->button();
    m_panStartOffset = m_geometry.offset;
    m_pressedDie.reset();
    if (!m_analysis)
        return;
    m_pressedDie = m_geometry.dieAt(*m_analysis->topology, event->position());
    if (event->button() == Qt::MiddleButton || event->button() == Qt::RightButton) {
        m_gesture = Gesture::Panning; // a right click that does not move opens the die's menu
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    m_gesture = Gesture::Pressed;
}

void MeshView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint position = event->position().toPoint();
    if (m_gesture == Gesture::Pressed &&
        (position - m_pressPosition).manhattanLength() >= QApplication::startDragDistance()) {
        if (m_pressedDie && m_analysis->topology->isAlive(*m_pressedDie)) {
            if (!m_selectedDies.contains(*m_pressedDie)) {
                m_selectedDies = {*m_pressedDie};
                emit dieSelected(*m_pressedDie);
            }
            m_gesture = Gesture::DraggingDies;
            setCursor(Qt::DragMoveCursor);
        } else {
            m_gesture = Gesture::Panning;
            setCursor(Qt::ClosedHandCursor);
        }
    }
    if (m_gesture == Gesture::Panning) {
        m_geometry.offset = m_panStartOffset + (position - m_pressPosition);
        m_userNavigated = true;
        update();
    } else if (m_gesture == Gesture::DraggingDies) {
        if (!rect().contains(position)) {
            startExternalDrag(); // onto the group panel
            return;
        }
        const auto target = m_geometry.dieAt(*m_analysis->topology, event->position());
        // Valid targets: those core would accept the drop on (asked once per new target).
        std::optional<DieId> next;
        if (target && target == m_hoveredTarget)
            next = m_dropTarget;
        else if (target && !m_selectedDies.contains(*target) && dropIsValid(*target))
            next = target;
        m_hoveredTarget = target;
        if (next != m_dropTarget) {
            m_dropTarget = next;
            update();
        }
    }
}

void MeshView::mouseReleaseEvent(QMouseEvent* event) {
    const Gesture gesture = m_gesture;
    m_gesture = Gesture::None;
    unsetCursor();
    if (!m_analysis)
        return;
    if (gesture == Gesture::DraggingDies) {
        const auto target = m_geometry.dieAt(*m_analysis->topology, event->position());
        m_dropTarget.reset();
        m_hoveredTarget.reset();
        update();
        if (!target) {
            emit statusMessage(tr("Drop the dies on another die to swap them"));
            return;
        }
        QString text;
        const QList<QPair<int, int>> swaps = swapsForDrop(*target, &text);
        if (swaps.isEmpty()) {
            emit statusMessage(text);
            return;
        }
        emit dieSwapRequested(swaps, text);
        return;
    }
    if (gesture == Gesture::Panning && m_pressButton == Qt::RightButton &&
        (event->position().toPoint() - m_pressPosition).manhattanLength() <
            QApplication::startDragDistance()) {
        // A click, not a pan: a link's menu first, as a left click selects a link first (its
        // bar lies between two dies' tiles), else the die's.
        const auto link = m_geometry.linkAt(*m_analysis->topology, event->position());
        if (link || m_pressedDie) {
            m_geometry.offset = m_panStartOffset; // the view stays put
            if (link)
                showLinkMenu(*link, event->globalPosition().toPoint());
            else
                showDieMenu(*m_pressedDie, event->globalPosition().toPoint());
            return;
        }
    }
    if (gesture != Gesture::Pressed)
        return;
    // A click: a link first (bars are small, so they win), else a die, else clear.
    if (const auto link = m_geometry.linkAt(*m_analysis->topology, event->position())) {
        selectLink(link);
        return;
    }
    if (m_pressedDie) {
        if (event->modifiers() & Qt::ControlModifier) {
            if (!m_selectedDies.removeOne(*m_pressedDie))
                m_selectedDies.append(*m_pressedDie);
            update();
            emit dieSelected(*m_pressedDie);
        } else {
            selectDie(*m_pressedDie);
        }
        return;
    }
    selectLink(std::nullopt);
    selectDie(std::nullopt);
}

std::vector<DieId> MeshView::dragSelection() const {
    return {m_selectedDies.begin(), m_selectedDies.end()};
}

DieId MeshView::dragAnchor(DieId target) const {
    return m_pressedDie.value_or(m_selectedDies.value(0, target));
}

bool MeshView::dropIsValid(DieId target) const {
    try {
        moveDies(m_analysis->scenario, *m_analysis->topology, dragSelection(), dragAnchor(target),
                 target);
        return true;
    } catch (const EditRefused&) {
        return false;
    } catch (const std::exception&) { // a hover never fails: the drop will say what is wrong
        return false;
    }
}

QList<QPair<int, int>> MeshView::swapsForDrop(DieId target, QString* text) const {
    QList<QPair<int, int>> swaps;
    try {
        const DieMove move =
            planDieMove(*m_analysis->topology, dragSelection(), dragAnchor(target), target);
        for (const auto& [a, b] : move.swaps)
            swaps.append({a, b});
        *text =
            swaps.size() == 1
                ? tr("Swap die %1 with die %2").arg(swaps[0].first).arg(swaps[0].second)
                : tr("Move %1 dies by (%2, %3)").arg(swaps.size()).arg(move.rows).arg(move.cols);
    } catch (const EditRefused& refused) {
        QString sentence = QString::fromStdString(refused.what());
        if (!sentence.isEmpty())
            sentence[0] = sentence[0].toUpper();
        *text = sentence;
    }
    return swaps;
}

void MeshView::startExternalDrag() {
    m_gesture = Gesture::None;
    m_dropTarget.reset();
    unsetCursor();
    update();
    auto* mime = new QMimeData;
    mime->setData(kDieMimeType, encodeDies(m_selectedDies));
    mime->setText(tr("dies %1").arg(QString::fromLatin1(encodeDies(m_selectedDies))));
    auto* drag = new QDrag(this);
    drag->setMimeData(mime);
    drag->exec(Qt::MoveAction);
}

void MeshView::contextMenuEvent(QContextMenuEvent* event) {
    // A right click opens the die's or link's menu on release (mouseReleaseEvent), so that a drag
    // with the right button still pans; the Menu key opens it for the selected die or link.
    event->accept();
    if (event->reason() != QContextMenuEvent::Keyboard || !m_analysis)
        return;
    if (m_selectedDies.isEmpty() && m_selectedLink) {
        const LinkProperties& link = m_analysis->topology->link(*m_selectedLink);
        showLinkMenu(
            *m_selectedLink,
            mapToGlobal(m_geometry.linkRect(*m_analysis->topology, link).center().toPoint()));
        return;
    }
    if (m_selectedDies.isEmpty())
        return;
    const DieId die = m_selectedDies.front();
    const QPointF centre = m_geometry.dieRect(m_analysis->topology->coord(die)).center();
    showDieMenu(die, mapToGlobal(centre.toPoint()));
}

void MeshView::showDieMenu(DieId die, const QPoint& globalPosition) {
    if (!m_analysis || !m_analysis->topology->contains(die))
        return;
    const bool alive = m_analysis->topology->isAlive(die);
    const double speed = m_analysis->scenario.wafer.dieSpeed(die);
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("dieMenu"));
    menu.setToolTipsVisible(true);
    menu.addSection(alive && speed < 1.0 ? tr("Die %1 (%2 of peak)").arg(die).arg(speedText(speed))
                                         : tr("Die %1").arg(die));
    QAction* setSpeed = menu.addAction(tr("Die speed…"));
    setSpeed->setEnabled(alive);
    setSpeed->setToolTip(alive ? tr("The share of its peak FLOP/s this die reaches "
                                    "(wafer.faults.slow_dies)")
                               : tr("A dead die computes nothing"));
    QAction* fullSpeed = alive && speed < 1.0 ? menu.addAction(tr("Full speed (100%)")) : nullptr;
    menu.addSeparator();
    QAction* deadDie =
        menu.addAction(m_analysis->topology->isCluster() ? tr("Dead GPU") : tr("Dead die"));
    deadDie->setCheckable(true);
    deadDie->setChecked(!alive);
    deadDie->setToolTip(alive ? tr("Take it out of the run (wafer.faults.dies): the strategy "
                                   "must fit the dies left")
                              : tr("Bring it back (wafer.faults.dies)"));
    QAction* chosen = menu.exec(globalPosition);
    if (chosen == nullptr)
        return;
    if (chosen == setSpeed)
        askDieSpeed(die);
    else if (chosen == fullSpeed)
        emit dieSpeedRequested(die, 1.0);
    else if (chosen == deadDie)
        emit dieDeadRequested(die, alive);
}

void MeshView::showLinkMenu(LinkId link, const QPoint& globalPosition) {
    const WaferTopology& topology = *m_analysis->topology;
    const LinkProperties& props = topology.link(link);
    const bool endsAlive = topology.contains(props.from) && topology.contains(props.to) &&
                           topology.isAlive(props.from) && topology.isAlive(props.to);
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("linkMenu"));
    menu.setToolTipsVisible(true);
    menu.addSection(tr("Link %1").arg(qs(linkName(topology, props))));
    QAction* deadLink = menu.addAction(tr("Dead link"));
    deadLink->setCheckable(true);
    deadLink->setChecked(!props.alive);
    // A cluster's links join GPUs to switches, and its faults are its GPUs' (docs/gui.md "The
    // mesh"); a link out of a dead die is dead with it.
    deadLink->setEnabled(!topology.isCluster() && endsAlive);
    deadLink->setToolTip(topology.isCluster() ? tr("A cluster's faults are its GPUs'")
                         : !endsAlive         ? tr("A link of a dead die is dead with it")
                         : props.alive        ? tr("This direction only (wafer.faults.links)")
                                              : tr("Bring it back (wafer.faults.links)"));
    if (menu.exec(globalPosition) == deadLink)
        emit linkDeadRequested(props.from, props.to, props.alive);
}

void MeshView::askDieSpeed(DieId die) {
    QInputDialog dialog(this);
    dialog.setObjectName(QStringLiteral("dieSpeedDialog"));
    dialog.setWindowTitle(tr("Die speed"));
    dialog.setLabelText(tr("Die %1 computes at this percentage of its peak FLOP/s; its HBM and "
                           "links keep their speed.\n100% is full speed "
                           "(wafer.faults.slow_dies).")
                            .arg(die));
    dialog.setInputMode(QInputDialog::DoubleInput);
    dialog.setDoubleRange(0.1, 100.0);
    dialog.setDoubleDecimals(1);
    dialog.setDoubleStep(5.0);
    dialog.setDoubleValue(m_analysis->scenario.wafer.dieSpeed(die) * 100);
    dialog.setOkButtonText(tr("Set speed"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    emit dieSpeedRequested(die, dialog.doubleValue() / 100.0);
}

bool MeshView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && m_analysis) {
        const auto* help = static_cast<QHelpEvent*>(event);
        QString text;
        const auto row = std::find_if(m_legendRows.begin(), m_legendRows.end(),
                                      [&](const auto& r) { return r.first.contains(help->pos()); });
        if (!m_banner.isEmpty() && m_bannerRect.contains(help->pos()))
            text = m_banner; // a long banner is cut at kBannerLines lines
        else if (row != m_legendRows.end())
            text = row->second;
        else if (const auto link = m_geometry.linkAt(*m_analysis->topology, help->pos()))
            text = linkToolTip(*link);
        else if (const auto die = m_geometry.dieAt(*m_analysis->topology, help->pos()))
            text = dieToolTip(*die);
        else if (const auto node = m_geometry.switchAt(*m_analysis->topology, help->pos()))
            text = switchToolTip(*node);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString MeshView::linkToolTip(LinkId link) const {
    const LinkReport& report = m_analysis->report.links[static_cast<std::size_t>(link)];
    const WaferTopology& topology = *m_analysis->topology;
    QString text = tr("<b>Link %1: die %2 → die %3</b>").arg(link).arg(report.from).arg(report.to);
    if (topology.isCluster())
        text = tr("<b>Link %1: %2</b><br>%3, %4")
                   .arg(link)
                   .arg(qs(linkName(topology, topology.link(link)))
                            .replace(QLatin1String("->"), QStringLiteral(" → "))
                            .toHtmlEscaped())
                   .arg(tierName(topology.link(link).tier),
                        qs(formatBytesPerSecond(
                            bandwidthOf(m_analysis->scenario, topology.link(link)))));
    if (topology.link(link).offWafer())
        text += tr("<br>off-wafer: wafer %1 → wafer %2, %3")
                    .arg(topology.waferOf(report.from))
                    .arg(topology.waferOf(report.to))
                    .arg(qs(formatBytesPerSecond(
                        bandwidthOf(m_analysis->scenario, topology.link(link)))));
    if (!report.alive)
        return text + tr("<br>dead link");
    text += tr("<br>%1 carried, busy %2, utilisation %3%")
                .arg(qs(formatBytes(report.bytes)), qs(formatSeconds(report.busyS)))
                .arg(report.utilization * 100, 0, 'f', 1);
    if (showsDifference()) {
        const double pinned =
            m_difference->pinned->report.links[static_cast<std::size_t>(link)].bytes;
        text += tr("<br>pinned result: %1 carried (change %2%3)")
                    .arg(qs(formatBytes(pinned)), report.bytes >= pinned ? "+" : "−",
                         qs(formatBytes(std::abs(report.bytes - pinned))));
    } else if (m_override) {
        text += tr("<br>%1: %2")
                    .arg(m_override->caption,
                         qs(formatBytes(m_override->bytes[static_cast<std::size_t>(link)])));
    }
    const auto& flows = m_analysis->flowsOnLink[static_cast<std::size_t>(link)];
    text += flows.size() == 1 ? tr("<br>1 flow:") : tr("<br>%1 flows:").arg(flows.size());
    constexpr int kListed = 8;
    for (int i = 0; i < std::min<int>(kListed, static_cast<int>(flows.size())); ++i) {
        const FlowReport& flow =
            m_analysis->report.flows[static_cast<std::size_t>(flows[static_cast<std::size_t>(i)])];
        text += QStringLiteral("<br>&nbsp;&nbsp;%1 (%2, %3)")
                    .arg(qs(flow.id).toHtmlEscaped(), qs(flow.opKind), qs(formatBytes(flow.bytes)));
    }
    if (flows.size() > kListed)
        text += tr("<br>&nbsp;&nbsp;… and %1 more (click the link to list them)")
                    .arg(flows.size() - kListed);
    return text;
}

QString MeshView::dieToolTip(DieId die) const {
    const WaferTopology& topology = *m_analysis->topology;
    const DieCoord coord = topology.coord(die);
    QString text =
        topology.isCluster()
            ? tr("<b>GPU %1</b> (node %2, GPU %3 of the node)")
                  .arg(die)
                  .arg(coord.row)
                  .arg(coord.col)
            : tr("<b>Die %1</b> (row %2, column %3)").arg(die).arg(coord.row).arg(coord.col);
    if (topology.waferCount() > 1)
        text += tr(", wafer %1").arg(topology.waferOf(die));
    if (!topology.isAlive(die))
        return text + tr("<br>dead");
    const DieGroups& groups = m_analysis->groups;
    const int dp = groups.dpOfDie[static_cast<std::size_t>(die)];
    const int tatp = groups.tatpOfDie[static_cast<std::size_t>(die)];
    if (dp >= 0)
        text += tr("<br>DP group D%1").arg(dp);
    if (tatp >= 0)
        text += tr("<br>TATP group T%1").arg(tatp);
    if (!groups.tp.empty() && groups.tpOfDie[static_cast<std::size_t>(die)] >= 0)
        text += tr("<br>TP group P%1").arg(groups.tpOfDie[static_cast<std::size_t>(die)]);
    if (const int stage = stageOf(*m_analysis, die); stage >= 0)
        text += tr("<br>pipeline stage S%1 of %2 (strategy.pp)")
                    .arg(stage)
                    .arg(m_analysis->scenario.strategy->pp);
    if (const double speed = m_analysis->scenario.wafer.dieSpeed(die); speed < 1.0)
        text +=
            tr("<br>slow: %1 of its peak FLOP/s (wafer.faults.slow_dies)").arg(speedText(speed));
    const DieReport& report = m_analysis->report.dies[static_cast<std::size_t>(die)];
    if (report.computeS > 0)
        text += tr("<br>compute %1 (%2% of the window)")
                    .arg(qs(formatSeconds(report.computeS)))
                    .arg(report.utilization * 100, 0, 'f', 1);
    return text + tr("<br><i>Drag onto another die to swap them; right-click for its speed</i>");
}

QString MeshView::tierName(LinkTier tier) {
    switch (tier) {
    case LinkTier::Wafer:
        return tr("die-to-die link");
    case LinkTier::OffWafer:
        return tr("off-wafer link");
    case LinkTier::NodeSwitch:
        return tr("NVSwitch link");
    case LinkTier::Nic:
        return tr("NIC link");
    case LinkTier::Uplink:
        return tr("uplink");
    }
    return {};
}

QString MeshView::switchToolTip(int vertex) const {
    const WaferTopology& topology = *m_analysis->topology;
    QString text = tr("<b>%1</b>").arg(qs(topology.vertexName(vertex)));
    switch (topology.switchKind(vertex)) {
    case SwitchKind::Node:
        text += tr(" (NVSwitch): joins the %1 GPUs of node %2")
                    .arg(topology.cols())
                    .arg(topology.switchIndex(vertex));
        break;
    case SwitchKind::Rail:
        text += tr(": joins GPU %1 of each of the %2 nodes")
                    .arg(topology.switchIndex(vertex))
                    .arg(topology.rows());
        break;
    case SwitchKind::Leaf:
        text +=
            tr(" switch: joins the GPUs of %1 nodes, and the spine").arg(topology.nodesPerLeaf());
        break;
    case SwitchKind::Spine:
        text += tr(" switch: joins the %1 leaves").arg(topology.leafCount());
        break;
    }
    // What went through it, from the links at its ports.
    double in = 0;
    double out = 0;
    int links = 0;
    for (const LinkReport& link : m_analysis->report.links) {
        in += link.to == vertex ? link.bytes : 0.0;
        out += link.from == vertex ? link.bytes : 0.0;
        links += link.to == vertex ? 1 : 0;
    }
    return text + tr("<br>%1 ports; %2 in, %3 out; a switch is not a device and cannot be "
                     "dragged")
                      .arg(links)
                      .arg(qs(formatBytes(in)), qs(formatBytes(out)));
}

} // namespace ws
