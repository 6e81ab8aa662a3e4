#include "pipeline_schedule_view.h"

#include "legend_beside_axes.h"
#include "time_axis_ticker.h"
#include "units/quantity.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// A pass's bar and the hatched row under it take this much of a row (1.0), leaving a gap
// between stages.
constexpr double kBarHeight = 0.7;
// At most this many micro-batch numbers are drawn at once: zoomed out on a long schedule the
// bars are too narrow for any, zoomed in only the visible ones count.
constexpr int kMaxLabels = 400;
// Pixels of bar left free around a number for it to be drawn.
constexpr int kLabelPaddingPx = 4;

QString percentText(double fraction) {
    return QStringLiteral("%1%").arg(fraction * 100.0, 0, 'f', 1);
}

QCPFinancial* passBars(QCustomPlot* plot, const QString& name, const QColor& colour) {
    // Key = stage on the (vertical) y axis, value = time on x: each pass is a box from its
    // start (open, low) to its end (close, high).
    auto* bars = new QCPFinancial(plot->yAxis, plot->xAxis);
    bars->setName(name);
    bars->setChartStyle(QCPFinancial::csCandlestick);
    bars->setWidthType(QCPFinancial::wtPlotCoords);
    bars->setWidth(kBarHeight);
    bars->setTwoColored(false);
    bars->setBrush(colour);
    // A darker edge marks where back-to-back passes of one colour meet (a stage's warm-up).
    bars->setPen(QPen(colour.darker(160), 1));
    bars->setSelectable(QCP::stNone);
    bars->setAntialiased(false); // crisp boxes, as the die timeline's
    return bars;
}

} // namespace

QColor PipelineScheduleView::forwardColor() {
    return QColor(0x3b, 0x75, 0xaf); // the die timeline's compute blue: a forward is compute
}

QColor PipelineScheduleView::backwardColor() {
    // Orange against blue stays apart for the common colour-vision deficiencies.
    return QColor(0xef, 0x86, 0x36);
}

QColor PipelineScheduleView::idleHatchColor() {
    return QColor(0x9a, 0x9a, 0x9a);
}

PipelineScheduleView::PipelineScheduleView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("pipelineCaption"));
    m_caption->setContentsMargins(6, 2, 6, 0);
    m_caption->setToolTip(
        tr("The whole step's 1F1B schedule (strategy.pp, docs/training-model.md \"Pipeline "
           "stages\"): each stage runs its warm-up forwards, then one forward and one backward "
           "in turn, then drains its backwards. Hatched: a stage idle (warm-up, drain, bubble). "
           "The Die events tab shows the simulated window of one micro-batch.\n"
           "Drag to pan, wheel to zoom, double-click for the whole schedule"));
    layout->addWidget(m_caption);
    m_tradeOff = new QLabel(this);
    m_tradeOff->setObjectName(QStringLiteral("pipelineTradeOff"));
    m_tradeOff->setContentsMargins(6, 0, 6, 0);
    // One line, so that a short dock (1280x720) keeps the chart; the whole explanation is its
    // tooltip. Cut at the right rather than widen the dock.
    m_tradeOff->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_tradeOff);

    m_plot = new QCustomPlot(this);
    m_plot->setMouseTracking(true); // hover tooltips without a button held
    layout->addWidget(m_plot, 1);
    setUpTimeRowsAxes(*m_plot, tr("time in the step")); // stage 0 on top, as die 0 is

    // Created first, so drawn under the passes: what shows of it is where a stage is idle.
    m_idle = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_idle->setName(tr("idle: warm-up, drain, bubble"));
    m_idle->setWidthType(QCPBars::wtPlotCoords);
    m_idle->setWidth(kBarHeight);
    m_idle->setBrush(QBrush(idleHatchColor(), Qt::BDiagPattern));
    m_idle->setPen(QPen(idleHatchColor(), 1));
    m_idle->setSelectable(QCP::stNone);
    m_idle->setAntialiased(false);
    m_forward = passBars(m_plot, tr("forward"), forwardColor());
    m_backward = passBars(m_plot, tr("backward"), backwardColor());

    m_plot->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(std::max(7.0, legendFont.pointSizeF() * 0.9));
    placeLegendBesideAxes(*m_plot, legendFont);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setIconSize(14, 12);
    // A financial plottable's own legend icon is a candlestick; the legend shows plain swatches
    // instead, from bars without data that only name the colours. Passes first, as the eye reads
    // the bars before the gaps.
    m_plot->legend->clearItems(); // new plottables join the legend as they are made
    for (QCPAbstractPlottable* bars : {m_forward, m_backward}) {
        auto* swatch = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        swatch->setName(bars->name());
        swatch->setBrush(bars->brush());
        swatch->setPen(bars->pen());
    }
    m_idle->addToLegend(); // after the passes' swatches
    // An empty last row takes the column's spare height, so that the entries stay together at
    // the top instead of spreading down the axes (an empty cell is allowed in a layout grid).
    m_plot->legend->insertRow(m_plot->legend->rowCount());
    m_plot->legend->setRowStretchFactor(m_plot->legend->rowCount() - 1, 1000.0);

    // After the layout, where the bars' pixel widths are known, and before drawing them.
    connect(m_plot, &QCustomPlot::afterLayout, this, &PipelineScheduleView::updateLabels);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton)
            return; // dragging: the view pans, a tooltip would only flicker
        const QString text = toolTipAt(event->position().toPoint());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] {
        showWholeSchedule();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    rebuild();
}

PipelineScheduleView::~PipelineScheduleView() = default;

bool PipelineScheduleView::hasSchedule(const SimulationReport* report) {
    return report && report->step && report->step->pp > 1 && !report->step->pipeline.empty();
}

const std::vector<PipelinePass>& PipelineScheduleView::passes() const {
    static const std::vector<PipelinePass> kNone;
    return hasSchedule(m_report.get()) ? m_report->step->pipeline : kNone;
}

void PipelineScheduleView::setReport(std::shared_ptr<const SimulationReport> report) {
    m_report = std::move(report);
    rebuild();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString PipelineScheduleView::caption() const {
    if (!hasSchedule(m_report.get()))
        return {};
    return tr("pp %1, 1F1B over %2 micro-batches, bubble %3")
        .arg(m_stages)
        .arg(m_microBatches)
        .arg(percentText(m_report->step->ppBubbleFraction));
}

QStringList PipelineScheduleView::stepShares() const {
    const StepMetrics& step = *m_report->step;
    QStringList shares;
    for (const double seconds :
         {step.computeS, step.hbmStallS, step.overheadS, step.optimizerS, step.exposedS})
        shares << percentText(seconds / step.stepS);
    return shares;
}

QString PipelineScheduleView::idealBubbleText() const {
    const int p = m_stages;
    const int m = m_microBatches;
    return QStringLiteral("%1/%2 = %3")
        .arg(p - 1)
        .arg(m + p - 1)
        .arg(percentText(static_cast<double>(p - 1) / (m + p - 1)));
}

QString PipelineScheduleView::tradeOffText() const {
    if (!hasSchedule(m_report.get()) || m_report->step->stepS <= 0.0)
        return {};
    const QStringList shares = stepShares();
    return tr("Where the step goes: compute %1, HBM stalls %2, task overheads %3, optimizer %4, "
              "communication and waiting %5 (Step breakdown). More micro-batches shrink the "
              "bubble, ideally (p − 1) / (m + p − 1) = %6 here (simulated %7), but each is "
              "smaller: every micro-batch reads its layers' weights from HBM again and pays each "
              "task's overhead again, so those terms grow with m. The fastest m balances the two.")
        .arg(shares[0], shares[1], shares[2], shares[3], shares[4], idealBubbleText(),
             percentText(m_report->step->ppBubbleFraction));
}

QString PipelineScheduleView::tradeOffSummary() const {
    if (!hasSchedule(m_report.get()) || m_report->step->stepS <= 0.0)
        return {};
    const QStringList shares = stepShares();
    return tr("Step: compute %1 · HBM stalls %2 · overheads %3 · optimizer %4 · communication "
              "and waiting %5. Ideal bubble %6: more micro-batches shrink it but add HBM stalls "
              "and overheads (hover for why)")
        .arg(shares[0], shares[1], shares[2], shares[3], shares[4], idealBubbleText());
}

int PipelineScheduleView::forwardBarCount() const {
    return m_forward->data()->size();
}

int PipelineScheduleView::backwardBarCount() const {
    return m_backward->data()->size();
}

QStringList PipelineScheduleView::legendNames() const {
    QStringList names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

int PipelineScheduleView::shownLabelCount() const {
    return m_shownLabels;
}

void PipelineScheduleView::rebuild() {
    const std::vector<PipelinePass>& all = passes();
    m_stages = hasSchedule(m_report.get()) ? m_report->step->pp : 0;
    m_microBatches = 0;
    m_endS = 0.0;
    QVector<double> keys[2], starts[2], ends[2]; // [backward, forward]
    for (const PipelinePass& pass : all) {
        const int kind = pass.forward ? 1 : 0;
        keys[kind].push_back(pass.stage);
        starts[kind].push_back(pass.startS);
        ends[kind].push_back(pass.endS);
        m_microBatches = std::max(m_microBatches, pass.microBatch + 1);
        m_endS = std::max(m_endS, pass.endS);
    }
    m_forward->setData(keys[1], starts[1], ends[1], starts[1], ends[1]);
    m_backward->setData(keys[0], starts[0], ends[0], starts[0], ends[0]);
    QVector<double> stages, idleEnds;
    for (int stage = 0; stage < m_stages; ++stage) {
        stages.push_back(stage);
        idleEnds.push_back(m_endS);
    }
    m_idle->setData(stages, idleEnds, true);

    auto ticker = qSharedPointerCast<QCPAxisTickerText>(m_plot->yAxis->ticker());
    ticker->clear();
    for (int stage = 0; stage < m_stages; ++stage)
        ticker->addTick(stage, tr("stage %1").arg(stage));
    m_plot->yAxis->setRange(-0.5, std::max(1, m_stages) - 0.5);
    m_caption->setText(m_stages > 0
                           ? tr("%1 — the whole step; schedule %2")
                                 .arg(caption(), QString::fromStdString(formatSeconds(m_endS)))
                           : tr("No pipeline stages (strategy.pp is 1)"));
    m_tradeOff->setToolTip(tradeOffText());
    m_tradeOff->setText(tradeOffSummary());
    m_tradeOff->setVisible(!m_tradeOff->text().isEmpty());
    showWholeSchedule();
}

void PipelineScheduleView::showWholeSchedule() {
    m_plot->xAxis->setRange(0.0, m_endS > 0.0 ? m_endS : 1e-6);
}

void PipelineScheduleView::updateLabels() {
    const std::vector<PipelinePass>& all = passes();
    const QFontMetrics metrics(m_plot->font());
    const QCPRange shown = m_plot->xAxis->range();
    std::size_t used = 0;
    for (std::size_t i = 0; i < all.size() && used < static_cast<std::size_t>(kMaxLabels); ++i) {
        const PipelinePass& pass = all[i];
        if (pass.endS < shown.lower || pass.startS > shown.upper)
            continue;
        const QRectF box = passRect(static_cast<int>(i));
        const QString text = QString::number(pass.microBatch);
        if (box.width() < metrics.horizontalAdvance(text) + 2 * kLabelPaddingPx ||
            box.height() < metrics.height())
            continue;
        if (used == m_labels.size()) {
            auto* label = new QCPItemText(m_plot); // created after the bars: drawn on them
            label->setPositionAlignment(Qt::AlignCenter);
            label->setSelectable(false);
            label->setClipToAxisRect(true);
            m_labels.push_back(label);
        }
        QCPItemText* label = m_labels[used++];
        label->setText(text);
        // White on the dark blue, near-black on the light orange.
        label->setColor(pass.forward ? Qt::white : QColor(0x20, 0x20, 0x20));
        label->position->setCoords(0.5 * (pass.startS + pass.endS), pass.stage);
        label->setVisible(true);
    }
    m_shownLabels = static_cast<int>(used);
    for (std::size_t i = used; i < m_labels.size(); ++i)
        m_labels[i]->setVisible(false);
}

QRectF PipelineScheduleView::passRect(int index) const {
    const std::vector<PipelinePass>& all = passes();
    if (index < 0 || index >= static_cast<int>(all.size()))
        return {};
    const PipelinePass& pass = all[static_cast<std::size_t>(index)];
    const double left = m_plot->xAxis->coordToPixel(pass.startS);
    const double right = m_plot->xAxis->coordToPixel(pass.endS);
    const double top = m_plot->yAxis->coordToPixel(pass.stage - 0.5 * kBarHeight);
    const double bottom = m_plot->yAxis->coordToPixel(pass.stage + 0.5 * kBarHeight);
    return QRectF(QPointF(left, std::min(top, bottom)), QPointF(right, std::max(top, bottom)));
}

int PipelineScheduleView::passAt(const QPoint& plotPos) const {
    if (!m_plot->axisRect()->rect().contains(plotPos))
        return -1;
    const std::vector<PipelinePass>& all = passes();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (passRect(static_cast<int>(i)).adjusted(-0.5, 0, 0.5, 0).contains(plotPos))
            return static_cast<int>(i);
    return -1;
}

QString PipelineScheduleView::toolTipAt(const QPoint& plotPos) const {
    const int index = passAt(plotPos);
    if (index < 0)
        return {};
    const PipelinePass& pass = passes()[static_cast<std::size_t>(index)];
    return tr("stage %1: %2 of micro-batch %3\nstart %4, duration %5")
        .arg(pass.stage)
        .arg(pass.forward ? tr("forward") : tr("backward"))
        .arg(pass.microBatch)
        .arg(QString::fromStdString(formatSeconds(pass.startS)),
             QString::fromStdString(formatSeconds(pass.endS - pass.startS)));
}

} // namespace ws
