#include "timeline_view.h"

#include "gantt_plottable.h"
#include "pipeline_schedule_view.h"
#include "time_axis_ticker.h"
#include "units/quantity.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QStackedWidget>
#include <QStringList>
#include <QTabBar>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_set>

namespace ws {

namespace {

// Pointer travel (manhattan, pixels) below which a press and release are a click, not a drag.
constexpr int kClickSlopPx = 4;
// The narrowest x range a zoom may reach, in seconds: below a picosecond nothing differs.
constexpr double kMinSpanS = 1e-12;
// How far (a fraction of the run) the view may pan past either end of the run.
constexpr double kPanMargin = 0.05;
// At most this many links are listed in a transfer's tooltip (a multicast tree has many).
constexpr std::size_t kMaxTooltipLinks = 16;
// The advisor's span: translucent, so that the bars under it keep their colours, and purple as
// its dies and links are on the mesh (mesh_view.cpp: kFinding).
const QColor kSpanEdge(128, 0, 170);
const QColor kSpanFill(128, 0, 170, 40);
// The tabs offered with pipeline stages, overview first, and the stacked pages they show.
constexpr int kPipelineTab = 0;
constexpr int kDieEventsTab = 1;
constexpr int kDieEventsPage = 0;
constexpr int kPipelinePage = 1;

QPixmap swatch(GanttColor role) {
    QPixmap pixmap(14, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    if (role == GanttColor::RoundBoundary) {
        painter.setPen(QPen(ganttColor(role), 1, Qt::DashLine));
        painter.drawLine(7, 0, 7, 11);
    } else {
        painter.setPen(role == GanttColor::Highlight ? QPen(Qt::black, 1) : QPen(Qt::NoPen));
        painter.setBrush(ganttColor(role));
        painter.drawRect(QRect(1, 1, 11, 9));
    }
    return pixmap;
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    m_pages = new QTabBar(this);
    m_pages->setObjectName(QStringLiteral("timelinePages"));
    m_pages->setDocumentMode(true);
    m_pages->setExpanding(false);
    m_pages->insertTab(kPipelineTab, tr("Pipeline (whole step)"));
    m_pages->insertTab(kDieEventsTab, tr("Die events (one micro-batch's window)"));
    m_pages->setTabToolTip(kPipelineTab, tr("The 1F1B schedule of every stage over the step"));
    m_pages->setTabToolTip(kDieEventsTab,
                           tr("Every die's compute, sends and receives in the simulated window"));
    m_pages->hide();
    outer->addWidget(m_pages);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack, 1);
    auto* diePage = new QWidget(m_stack);
    m_pipeline = new PipelineScheduleView(m_stack);
    m_stack->insertWidget(kDieEventsPage, diePage);
    m_stack->insertWidget(kPipelinePage, m_pipeline);
    connect(m_pages, &QTabBar::currentChanged, this, [this](int tab) {
        m_stack->setCurrentIndex(tab == kPipelineTab ? kPipelinePage : kDieEventsPage);
    });

    auto* layout = new QVBoxLayout(diePage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(makeLegend());

    m_plot = new QCustomPlot(diePage);
    m_plot->setMouseTracking(true); // hover tooltips without a button held
    layout->addWidget(m_plot, 1);

    // Horizontal navigation only: every die stays in view, time is what one explores; die 0 on
    // top, as on the mesh.
    setUpTimeRowsAxes(*m_plot, QStringLiteral("time"));
    m_plot->xAxis->grid()->setSubGridVisible(false);

    m_gantt = new GanttPlottable(m_plot->xAxis, m_plot->yAxis);
    // The top margin is the band where the plottable labels round boundaries.
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    m_plot->axisRect()->setMargins(QMargins(0, m_gantt->roundLabelBandPx() + 2, 0, 0));

    m_emptyText = new QCPItemText(m_plot);
    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setPositionAlignment(Qt::AlignCenter);
    m_emptyText->setText(QStringLiteral("no events"));
    m_emptyText->setColor(QColor(0x80, 0x80, 0x80));

    // Over the bars (created after the Gantt plottable, on its layer), across every row.
    m_spanRect = new QCPItemRect(m_plot);
    for (QCPItemPosition* corner : {m_spanRect->topLeft, m_spanRect->bottomRight}) {
        corner->setTypeX(QCPItemPosition::ptPlotCoords);
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_spanRect->setPen(QPen(kSpanEdge, 1, Qt::DashLine));
    m_spanRect->setBrush(kSpanFill);
    m_spanRect->setSelectable(false);
    m_spanRect->setVisible(false);

    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TimelineView::boundXRange);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &TimelineView::updateDieTicks);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] {
        showWholeRun();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });

    rebuild();
    showWholeRun();
}

TimelineView::~TimelineView() = default;

QWidget* TimelineView::makeLegend() {
    auto* legend = new QWidget(this);
    auto* row = new QHBoxLayout(legend);
    row->setContentsMargins(6, 2, 6, 0);
    row->setSpacing(4);
    for (GanttColor role : {GanttColor::Compute, GanttColor::MemoryBound, GanttColor::OverheadBound,
                            GanttColor::Send, GanttColor::Recv, GanttColor::Idle,
                            GanttColor::Folded, GanttColor::Highlight, GanttColor::RoundBoundary}) {
        auto* icon = new QLabel(legend);
        icon->setPixmap(swatch(role));
        row->addWidget(icon);
        row->addWidget(new QLabel(ganttColorName(role), legend));
        row->addSpacing(8);
    }
    // The advisor's span, named while it is shown.
    m_spanLegend = new QWidget(legend);
    auto* spanRow = new QHBoxLayout(m_spanLegend);
    spanRow->setContentsMargins(0, 0, 0, 0);
    spanRow->setSpacing(4);
    QPixmap spanSwatch(14, 12);
    spanSwatch.fill(Qt::transparent);
    {
        QPainter painter(&spanSwatch);
        painter.setPen(QPen(kSpanEdge, 1, Qt::DashLine));
        painter.setBrush(kSpanFill);
        painter.drawRect(QRect(1, 1, 11, 9));
    }
    auto* spanIcon = new QLabel(m_spanLegend);
    spanIcon->setPixmap(spanSwatch);
    spanRow->addWidget(spanIcon);
    m_spanCaption = new QLabel(m_spanLegend);
    spanRow->addWidget(m_spanCaption);
    m_spanLegend->hide();
    row->addWidget(m_spanLegend);
    row->addStretch(1);
    m_filterLabel = new QLabel(legend);
    row->addWidget(m_filterLabel);
    legend->setToolTip(
        QStringLiteral("Drag to pan, wheel to zoom, double-click for the whole run"));
    return legend;
}

bool TimelineView::offersPipeline() const {
    return !m_pages->isHidden();
}

bool TimelineView::showsPipeline() const {
    return m_stack->currentIndex() == kPipelinePage;
}

void TimelineView::showPipeline(bool pipeline) {
    if (pipeline && !offersPipeline())
        return;
    m_pages->setCurrentIndex(pipeline ? kPipelineTab : kDieEventsTab);
    m_stack->setCurrentIndex(pipeline ? kPipelinePage : kDieEventsPage);
}

void TimelineView::setReport(std::shared_ptr<const SimulationReport> report,
                             std::shared_ptr<const WaferTopology> topology) {
    m_report = std::move(report);
    m_topology = std::move(topology);
    // The schedule is what a pipelined step adds: shown first when the tabs appear, and the
    // user's tab kept from one pipelined report to the next.
    const bool offered = PipelineScheduleView::hasSchedule(m_report.get());
    const bool appearing = offered && !offersPipeline();
    m_pages->setVisible(offered);
    m_pipeline->setReport(m_report);
    if (appearing)
        showPipeline(true);
    else if (!offered)
        showPipeline(false);
    m_flowIndex.clear();
    if (m_report)
        for (std::size_t i = 0; i < m_report->flows.size(); ++i)
            m_flowIndex.emplace(m_report->flows[i].id, i);
    m_gantt->setHighlightedFlow({});
    rebuild();
    showWholeRun();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setLinkFilter(std::optional<LinkId> link) {
    m_linkFilter = link;
    if (link)
        showPipeline(false);
    rebuild();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::highlightFlow(const QString& flowId) {
    if (!flowId.isEmpty())
        showPipeline(false);
    m_gantt->setHighlightedFlow(flowId.toStdString());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setShadedSpan(std::optional<ShadedSpan> span) {
    m_span = std::move(span);
    if (m_span)
        showPipeline(false);
    m_spanRect->setVisible(m_span.has_value());
    m_spanLegend->setVisible(m_span.has_value());
    if (m_span) {
        m_spanRect->topLeft->setCoords(m_span->startS, 0.0);
        m_spanRect->bottomRight->setCoords(m_span->endS, 1.0);
        m_spanCaption->setText(m_span->caption);
        // Into view when it is not: the whole run, which holds every span of it.
        const QCPRange shown = m_plot->xAxis->range();
        if (m_span->endS < shown.lower || m_span->startS > shown.upper)
            showWholeRun();
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString TimelineView::highlightedFlow() const {
    return QString::fromStdString(m_gantt->highlightedFlow());
}

int TimelineView::shownEventCount() const {
    return m_gantt->shownEventCount();
}

QRectF TimelineView::eventRect(int die, int eventIndex) const {
    return m_gantt->eventRect(die, eventIndex);
}

void TimelineView::rebuild() {
    std::optional<std::unordered_set<std::string>> flows;
    int crossingCount = 0;
    if (m_report && m_linkFilter) {
        flows.emplace();
        for (const FlowReport& flow : m_report->flows)
            if (std::find(flow.route.links.begin(), flow.route.links.end(), *m_linkFilter) !=
                flow.route.links.end())
                flows->insert(flow.id);
        crossingCount = static_cast<int>(flows->size());
    }
    m_gantt->setReport(m_report, flows);
    m_emptyText->setVisible(m_gantt->shownEventCount() == 0);

    const int rows = std::max(1, m_gantt->rowCount());
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    m_dieTickStep = 0; // the row count may have changed

    if (!m_linkFilter) {
        m_filterLabel->clear();
        return;
    }
    QString link = QStringLiteral("link %1").arg(*m_linkFilter);
    if (m_report && *m_linkFilter >= 0 &&
        *m_linkFilter < static_cast<LinkId>(m_report->links.size())) {
        const LinkReport& report = m_report->links[static_cast<std::size_t>(*m_linkFilter)];
        link += QStringLiteral(" (%1->%2)").arg(report.from).arg(report.to);
    }
    m_filterLabel->setText(
        crossingCount == 1
            ? QStringLiteral("transfers of the 1 flow crossing %1").arg(link)
            : QStringLiteral("transfers of the %1 flows crossing %2").arg(crossingCount).arg(link));
}

void TimelineView::showWholeRun() {
    bool found = false;
    const QCPRange keys = m_gantt->getKeyRange(found);
    const double endS = found && keys.upper > 0.0 ? keys.upper : 1e-6;
    m_plot->xAxis->setRange(0.0, endS);
}

// Keeps zoom and pan near the run: at most the run plus a margin each side, at least kMinSpanS.
void TimelineView::boundXRange(const QCPRange& range) {
    bool found = false;
    const QCPRange keys = m_gantt->getKeyRange(found);
    const double runS = found && keys.upper > 0.0 ? keys.upper : 1e-6;
    const double minS = -kPanMargin * runS;
    const double maxS = (1.0 + kPanMargin) * runS;
    double lower = range.lower;
    double upper = range.upper;
    if (upper - lower < kMinSpanS) {
        const double centre = 0.5 * (lower + upper);
        lower = centre - 0.5 * kMinSpanS;
        upper = centre + 0.5 * kMinSpanS;
    }
    if (upper - lower > maxS - minS) {
        lower = minS;
        upper = maxS;
    } else if (lower < minS) {
        upper += minS - lower;
        lower = minS;
    } else if (upper > maxS) {
        lower -= upper - maxS;
        upper = maxS;
    }
    if (lower != range.lower || upper != range.upper)
        m_plot->xAxis->setRange(lower, upper); // re-enters once, then nothing changes
}

// A "die N" label on every row when rows are tall enough for the text, else on every 2nd, 4th...
// Runs before each replot, where the plot's current height is known.
void TimelineView::updateDieTicks() {
    const int rows = m_gantt->rowCount();
    // The axis rect is the plot less the round band and the time axis (about 3 text lines).
    const int labelPx = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    const double rowsPx = std::max(1, m_plot->height() - 3 * labelPx - 12);
    const double rowPx = rowsPx / std::max(1, rows);
    int step = 1;
    while (step * rowPx < labelPx && step < rows)
        step *= 2;
    if (step == m_dieTickStep)
        return;
    m_dieTickStep = step;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(m_plot->yAxis->ticker());
    ticker->clear();
    for (int row = 0; row < rows; row += step)
        ticker->addTick(row, QStringLiteral("die %1").arg(m_gantt->dieOfRow(row)));
}

void TimelineView::onMousePress(QMouseEvent* event) {
    m_pressPos = event->position().toPoint();
    m_pressed = event->button() == Qt::LeftButton;
    QToolTip::hideText();
}

void TimelineView::onMouseMove(QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton)
        return; // dragging: the view pans, a tooltip would only flicker
    const QString text = toolTipAt(event->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void TimelineView::onMouseRelease(QMouseEvent* event) {
    if (!m_pressed || event->button() != Qt::LeftButton)
        return;
    m_pressed = false;
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() > kClickSlopPx)
        return; // a drag that panned
    const GanttPlottable::Hit hit = m_gantt->hitTest(pos);
    if (hit.die < 0)
        return;
    if (hit.eventIndex >= 0) {
        const DieEvent& clicked = m_report->dies[static_cast<std::size_t>(hit.die)]
                                      .events[static_cast<std::size_t>(hit.eventIndex)];
        if (isTransfer(clicked.kind)) {
            const QString flowId = QString::fromStdString(clicked.label);
            highlightFlow(flowId);
            emit flowActivated(flowId);
            return;
        }
    }
    emit dieActivated(hit.die);
}

QString TimelineView::toolTipAt(const QPoint& plotPos) const {
    const GanttPlottable::Hit hit = m_gantt->hitTest(plotPos);
    if (hit.die < 0)
        return {};
    if (hit.foldedCount > 1)
        return QStringLiteral("die %1: %2 events narrower than a pixel, folded\nzoom in to tell "
                              "them apart")
            .arg(hit.die)
            .arg(hit.foldedCount);
    if (hit.eventIndex < 0)
        return {};
    return eventText(hit.die, hit.eventIndex);
}

QString TimelineView::eventText(int die, int eventIndex) const {
    const DieReport& dieReport = m_report->dies[static_cast<std::size_t>(die)];
    const DieEvent& event = dieReport.events[static_cast<std::size_t>(eventIndex)];
    const QString label = QString::fromStdString(event.label);
    QStringList lines;
    lines << QStringLiteral("%1 on die %2").arg(ganttColorName(ganttColorOf(event))).arg(die);
    if (event.kind == DieEvent::Kind::Compute) {
        lines << QStringLiteral("task %1").arg(label);
        if (m_report->step)
            lines << QStringLiteral("%1 FLOP, %2 to or from HBM")
                         .arg(event.flops, 0, 'g', 4)
                         .arg(QString::fromStdString(formatBytes(event.hbmBytes)));
        // The die's sub-tensors of that GEMM: a compute label names its GEMM as one word
        // ("fwd qkv blk 0" is GEMM "qkv").
        const QStringList words = label.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const TensorReport& tensor : dieReport.tensors) {
            if (!words.contains(QString::fromStdString(tensor.gemm)))
                continue;
            lines << QString::fromStdString(tensor.input) << QString::fromStdString(tensor.weight)
                  << QString::fromStdString(tensor.output);
            break;
        }
    } else if (isTransfer(event.kind)) {
        lines << QStringLiteral("flow %1").arg(label);
    }
    lines << QStringLiteral("start %1, duration %2")
                 .arg(QString::fromStdString(formatSeconds(event.startS)))
                 .arg(QString::fromStdString(formatSeconds(event.endS - event.startS)));
    if (event.round >= 0)
        lines << QStringLiteral("round %1").arg(event.round);
    if (isTransfer(event.kind)) {
        const auto found = m_flowIndex.find(event.label);
        if (found != m_flowIndex.end()) {
            const FlowReport& flow = m_report->flows[found->second];
            lines << QStringLiteral("%1, %2").arg(QString::fromStdString(formatBytes(flow.bytes)),
                                                  QString::fromStdString(flow.opKind));
            QStringList links;
            for (std::size_t i = 0; i < flow.route.links.size() && i < kMaxTooltipLinks; ++i) {
                const LinkId id = flow.route.links[i];
                if (id >= 0 && id < static_cast<LinkId>(m_report->links.size())) {
                    const LinkReport& link = m_report->links[static_cast<std::size_t>(id)];
                    links << (m_topology ? QString::fromStdString(
                                               linkName(*m_topology, link.from, link.to))
                                         : QStringLiteral("%1->%2").arg(link.from).arg(link.to));
                } else {
                    links << QStringLiteral("#%1").arg(id);
                }
            }
            if (flow.route.links.size() > kMaxTooltipLinks)
                links << QStringLiteral("... (%1 in all)").arg(flow.route.links.size());
            if (!links.isEmpty())
                lines << QStringLiteral("links %1").arg(links.join(QStringLiteral(", ")));
        }
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace ws
