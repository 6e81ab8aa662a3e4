#include "charts_panel.h"

#include "gantt_plottable.h"
#include "std_string_text.h"
#include "units/quantity.h"

#include <QFileInfo>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace ws {

namespace {

// A decimal byte unit for an axis whose values reach `largest` bytes.
struct ByteUnit {
    double bytes;
    const char* name;
};

ByteUnit byteUnitFor(double largest) {
    constexpr std::array<ByteUnit, 4> units{{{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}}};
    for (const ByteUnit& unit : units)
        if (largest >= unit.bytes)
            return unit;
    return {1.0, "B"};
}

// A time unit for an axis whose values reach `largest` seconds.
struct TimeUnit {
    double seconds;
    const char* name;
};

TimeUnit timeUnitFor(double largest) {
    constexpr std::array<TimeUnit, 3> units{{{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}}};
    for (const TimeUnit& unit : units)
        if (largest >= unit.seconds)
            return unit;
    return {1e-9, "ns"};
}

// The smallest of 1, 2, 2.5 and 5 x 10^k not below `raw`.
double niceStep(double raw) {
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (factor * magnitude >= raw * (1 - 1e-12))
            return factor * magnitude;
    return 10 * magnitude;
}

// Tableau 10: distinguishable, and readable when printed in grey.
const QColor kBlue(78, 121, 167);
const QColor kOrange(242, 142, 43);
const QColor kGreen(89, 161, 79);
const QColor kPurple(176, 122, 161);
const QColor kTeal(118, 183, 178);
const QColor kGrey(186, 176, 172);
const QColor kRed(214, 39, 40);

struct MemoryTerm {
    const char* name;
    QColor color;
    double MemoryBreakdown::*bytes;
};

const std::array<MemoryTerm, 6> kMemoryTerms{{
    {"weights", kBlue, &MemoryBreakdown::weights},
    {"gradients", kOrange, &MemoryBreakdown::gradients},
    {"optimizer state", kGreen, &MemoryBreakdown::optimizer},
    {"activations", kPurple, &MemoryBreakdown::activations},
    {"stream buffers", kTeal, &MemoryBreakdown::streamBuffers},
    {"comm reserve", kGrey, &MemoryBreakdown::commReserve},
}};

QCustomPlot* makePlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(480, 150); // a 1280x720 window's bottom row (docs/gui.md "Layout")
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    // Title on top, legend to the right of the axis rect, so neither hides a bar.
    plot->plotLayout()->insertRow(0);
    QFont titleFont = plot->font();
    titleFont.setBold(true);
    auto* title = new QCPTextElement(plot, QString(), titleFont);
    title->setMargins(QMargins(4, 4, 4, 0));
    plot->plotLayout()->addElement(0, 0, title);
    plot->legend->setVisible(true);
    plot->legend->setFont(small);
    plot->legend->setRowSpacing(0);
    plot->legend->setIconSize(14, 10);
    // The legend sits at the top of a side column; an empty element below keeps it compact.
    auto* side = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 1, side);
    plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    side->setMargins(QMargins(0, 10, 8, 10));
    side->addElement(0, 0, plot->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot));
    side->setRowStretchFactor(0, 0.001);
    plot->legend->setLayer(QStringLiteral("legend"));
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setTickLabelFont(small);
        axis->setLabelFont(plot->font());
    }
    plot->yAxis->grid()->setSubGridVisible(false);
    plot->xAxis->grid()->setVisible(false);
    return plot;
}

void setTitle(QCustomPlot* plot, const QString& text) {
    if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)))
        title->setText(text);
}

void clearPlot(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->yAxis->setTickLabels(true);
}

// Whole-number ticks (die ids, link counts), thinned to multiples when crowded.
QSharedPointer<QCPAxisTickerFixed> integerTicker() {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

void addCentredNote(QCustomPlot* plot, const QString& text) {
    auto* note = new QCPItemText(plot);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
    note->setPositionAlignment(Qt::AlignCenter);
    note->setText(text);
    note->setColor(QColor(90, 90, 90));
    QFont font = plot->font();
    font.setItalic(true);
    note->setFont(font);
}

// A level under this fraction of the axis's height is drawn on the axis line itself.
constexpr double kOnTheAxis = 0.03;

// A horizontal line across the plot at `value`, drawn as a graph so that it has a legend entry.
void addLevel(QCustomPlot* plot, double from, double to, double value, const QString& name,
              const QPen& pen) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(pen);
    graph->setData({from, to}, {value, value}, true);
}

} // namespace

LinkLoadHistogram linkLoadHistogram(const SimulationReport& report, int maxBins) {
    LinkLoadHistogram histogram;
    double largest = 0;
    int busy = 0;
    for (const LinkReport& link : report.links) {
        if (!link.alive)
            ++histogram.dead;
        else if (link.bytes <= 0)
            ++histogram.idle;
        else {
            ++busy;
            largest = std::max(largest, link.bytes);
        }
    }
    if (busy == 0)
        return histogram;
    const int bins = std::clamp(static_cast<int>(std::ceil(std::sqrt(busy))), 1, maxBins);
    histogram.binWidthBytes = niceStep(largest / bins);
    const int count =
        std::max(1, static_cast<int>(std::ceil(largest / histogram.binWidthBytes - 1e-9)));
    histogram.counts.assign(static_cast<std::size_t>(count), 0);
    for (const LinkReport& link : report.links) {
        if (!link.alive || link.bytes <= 0)
            continue;
        const int bin = std::min(count - 1, static_cast<int>(link.bytes / histogram.binWidthBytes));
        ++histogram.counts[static_cast<std::size_t>(bin)];
    }
    return histogram;
}

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_linkLoads = makePlot(m_tabs);
    m_memory = makePlot(m_tabs);
    m_utilization = makePlot(m_tabs);
    m_hbmTraffic = makePlot(m_tabs);
    m_stepBreakdown = makePlot(m_tabs);
    m_tabs->addTab(m_linkLoads, tr("Link loads"));
    m_tabs->addTab(m_memory, tr("Memory per die"));
    m_tabs->addTab(m_utilization, tr("Utilisation per die"));
    m_tabs->addTab(m_hbmTraffic, tr("HBM traffic per die"));
    m_tabs->addTab(m_stepBreakdown, tr("Step breakdown"));
    layout->addWidget(m_tabs);
    rebuildLinkLoads();
    rebuildMemory();
    rebuildUtilization();
    rebuildHbmTraffic();
    rebuildStepBreakdown();
}

ChartsPanel::~ChartsPanel() = default;

void ChartsPanel::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_analysis = std::move(analysis);
    rebuildLinkLoads();
    rebuildMemory();
    rebuildUtilization();
    rebuildHbmTraffic();
    rebuildStepBreakdown();
}

int ChartsPanel::chartCount() const {
    return m_tabs->count();
}

QCustomPlot* ChartsPanel::chart(int index) const {
    return qobject_cast<QCustomPlot*>(m_tabs->widget(index));
}

QString ChartsPanel::chartName(int index) const {
    return m_tabs->tabText(index);
}

int ChartsPanel::currentChart() const {
    return m_tabs->currentIndex();
}

void ChartsPanel::setCurrentChart(int index) {
    m_tabs->setCurrentIndex(index);
}

void ChartsPanel::rebuildLinkLoads() {
    QCustomPlot* plot = m_linkLoads;
    clearPlot(plot);
    plot->yAxis->setLabel(tr("links"));
    plot->yAxis->setTicker(integerTicker());
    if (!m_analysis) {
        setTitle(plot, tr("Link loads"));
        plot->xAxis->setLabel(tr("bytes carried per link"));
        addCentredNote(plot, tr("no scenario simulated"));
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const SimulationReport& report = m_analysis->report;
    const LinkLoadHistogram histogram = linkLoadHistogram(report);
    const int busy = static_cast<int>(report.links.size()) - histogram.idle - histogram.dead;
    const double width = histogram.binWidthBytes;
    const ByteUnit unit = byteUnitFor(width * static_cast<double>(histogram.counts.size()));
    const double step = width / unit.bytes; // bin width in axis units

    QString title = tr("Link loads: %1 live links, %2 busy, %3 idle")
                        .arg(busy + histogram.idle)
                        .arg(busy)
                        .arg(histogram.idle);
    if (histogram.dead > 0)
        title += tr(", %1 dead").arg(histogram.dead);
    if (const std::string hottest = hottestLinkText(report, *m_analysis->topology);
        !hottest.empty())
        title += QStringLiteral("; ") + qs(hottest);
    setTitle(plot, title);
    plot->xAxis->setLabel(tr("bytes carried per link (%1); bins of %2")
                              .arg(QLatin1String(unit.name), qs(formatBytes(width))));

    // The idle bar sits one bin left of zero, on its own labelled tick.
    const double slot = step > 0 ? step : 1.0;
    const double idleKey = -slot;
    auto* idle = new QCPBars(plot->xAxis, plot->yAxis);
    idle->setName(tr("idle links (0 B): %1").arg(histogram.idle));
    idle->setWidth(slot * 0.8);
    idle->setPen(QPen(kGrey.darker(140)));
    idle->setBrush(kGrey);
    idle->setData({idleKey}, {static_cast<double>(histogram.idle)}, true);

    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(tr("busy links per bin: %1").arg(busy));
    bars->setWidth(slot * 0.92);
    bars->setPen(QPen(kBlue.darker(140)));
    bars->setBrush(kBlue);
    QVector<double> keys, counts;
    for (std::size_t bin = 0; bin < histogram.counts.size(); ++bin) {
        keys << (static_cast<double>(bin) + 0.5) * step;
        counts << histogram.counts[bin];
    }
    bars->setData(keys, counts, true);

    // Bin edges as ticks, at most about ten of them, plus "idle".
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(idleKey, tr("idle"));
    const int bins = static_cast<int>(histogram.counts.size());
    const int every = std::max(1, static_cast<int>(std::ceil(bins / 10.0)));
    for (int edge = 0; edge <= bins; edge += every)
        ticker->addTick(edge * step, QString::number(edge * step, 'g', 4));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(idleKey - slot * 0.7, std::max(1, bins) * slot + slot * 0.3);
    const int tallest = std::max(
        histogram.idle,
        counts.isEmpty() ? 0 : static_cast<int>(*std::max_element(counts.begin(), counts.end())));
    plot->yAxis->setRange(0, std::max(1.0, tallest * 1.12));
    if (busy + histogram.idle == 0)
        addCentredNote(plot, tr("no live links"));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartsPanel::rebuildMemory() {
    QCustomPlot* plot = m_memory;
    clearPlot(plot);
    plot->xAxis->setLabel(tr("die"));
    plot->xAxis->setTicker(integerTicker());
    std::vector<const DieReport*> used;
    if (m_analysis)
        for (const DieReport& die : m_analysis->report.dies)
            if (die.memory)
                used.push_back(&die);
    if (used.empty()) {
        setTitle(plot, tr("Memory per die"));
        plot->yAxis->setLabel(tr("memory per die"));
        plot->xAxis->setRange(
            0, m_analysis ? std::max<double>(1, static_cast<double>(m_analysis->report.dies.size()))
                          : 1);
        plot->yAxis->setRange(0, 1);
        plot->yAxis->setTickLabels(false); // nothing to measure
        addCentredNote(plot, m_analysis ? tr("no training step: no memory model")
                                        : tr("no scenario simulated"));
        plot->legend->setVisible(false);
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    plot->legend->setVisible(true);
    double largest = 0, sram = 0, capacity = 0;
    int outOfMemory = 0, inSram = 0;
    for (const DieReport* die : used) {
        largest = std::max(largest, die->memory->total());
        sram = std::max(sram, die->memory->sramCapacity);
        capacity = std::max(capacity, die->memory->sramCapacity + die->memory->hbmCapacity);
        outOfMemory += die->memory->outOfMemory() ? 1 : 0;
        inSram += die->memory->fitsInSram() ? 1 : 0;
    }
    const ByteUnit unit = byteUnitFor(std::max(largest, capacity));
    m_memoryUnitBytes = unit.bytes;
    plot->yAxis->setLabel(tr("memory per die (%1)").arg(QLatin1String(unit.name)));

    QVector<double> keys;
    for (const DieReport* die : used)
        keys << die->id;
    QCPBars* below = nullptr;
    for (const MemoryTerm& term : kMemoryTerms) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(tr(term.name));
        bars->setWidth(0.75);
        bars->setPen(QPen(term.color.darker(130), 0));
        bars->setBrush(term.color);
        bars->setStackingGap(0);
        QVector<double> values;
        for (const DieReport* die : used)
            values << (*die->memory).*term.bytes / unit.bytes;
        bars->setData(keys, values, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    if (outOfMemory > 0) {
        // Not stacked: a red outline and tint over the whole stack of each die out of memory.
        auto* oom = new QCPBars(plot->xAxis, plot->yAxis);
        oom->setName(tr("out of memory: %1 dies").arg(outOfMemory));
        oom->setWidth(0.85);
        oom->setPen(QPen(kRed, 2.5));
        oom->setBrush(
            QColor(kRed.red(), kRed.green(), kRed.blue(), 45)); // a tint: terms stay legible
        QVector<double> oomKeys, totals;
        for (const DieReport* die : used)
            if (die->memory->outOfMemory()) {
                oomKeys << die->id;
                totals << die->memory->total() / unit.bytes;
            }
        oom->setData(oomKeys, totals, true);
    }
    const double left = keys.front() - 0.8;
    const double right = keys.back() + 0.8;
    addLevel(plot, left, right, sram / unit.bytes,
             tr("SRAM capacity %1").arg(qs(formatBytes(sram))),
             QPen(QColor(20, 60, 160), 1.5, Qt::DashLine));
    addLevel(plot, left, right, capacity / unit.bytes,
             tr("SRAM + HBM %1").arg(qs(formatBytes(capacity))),
             QPen(Qt::black, 1.5, Qt::DashDotLine));
    const double top = std::max(largest, capacity) / unit.bytes * 1.1;
    plot->xAxis->setRange(left, right);
    plot->yAxis->setRange(0, top);
    if (sram / unit.bytes < kOnTheAxis * top) {
        // The SRAM line lies on the axis at this scale: name it where it is.
        auto* label = new QCPItemText(plot);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(right, sram / unit.bytes);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setText(tr("SRAM %1 ↓").arg(qs(formatBytes(sram))));
        label->setColor(QColor(20, 60, 160));
        label->setBrush(QColor(255, 255, 255, 220));
        label->setPadding(QMargins(3, 1, 3, 1));
    }

    QString title = tr("Memory per die: %1 dies used, largest %2")
                        .arg(used.size())
                        .arg(qs(formatBytes(largest)));
    if (outOfMemory > 0)
        title += tr(", %1 out of memory").arg(outOfMemory);
    else
        title += inSram == static_cast<int>(used.size()) ? tr(", all fit in SRAM")
                                                         : tr(", spills to HBM");
    setTitle(plot, title);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartsPanel::rebuildUtilization() {
    QCustomPlot* plot = m_utilization;
    clearPlot(plot);
    plot->xAxis->setLabel(tr("die"));
    plot->xAxis->setTicker(integerTicker());
    if (!m_analysis) {
        plot->yAxis->setLabel(tr("compute time (%)"));
        setTitle(plot, tr("Utilisation per die"));
        addCentredNote(plot, tr("no scenario simulated"));
        plot->legend->setVisible(false);
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    plot->legend->setVisible(true);
    const SimulationReport& report = m_analysis->report;
    // The report's utilisation: compute over the makespan, or for a training step the step's
    // compute over the step time (the simulated layer scaled to the whole step).
    const bool step = report.step.has_value();
    plot->yAxis->setLabel(step ? tr("compute / step time (%)") : tr("compute / makespan (%)"));
    QVector<double> keys, values;
    double sum = 0, top = 0;
    int computing = 0;
    for (const DieReport& die : report.dies) {
        if (!die.alive)
            continue;
        keys << die.id;
        values << die.utilization * 100;
        top = std::max(top, die.utilization * 100);
        if (die.computeS > 0) {
            sum += die.utilization * 100;
            ++computing;
        }
    }
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(step ? tr("compute time / step time") : tr("compute time / makespan"));
    bars->setWidth(0.75);
    bars->setPen(QPen(kBlue.darker(130), 0));
    bars->setBrush(kBlue);
    bars->setData(keys, values, true);
    const double left = keys.isEmpty() ? 0 : keys.front() - 0.8;
    const double right = keys.isEmpty() ? 1 : keys.back() + 0.8;
    if (computing > 0)
        addLevel(
            plot, left, right, sum / computing,
            tr("mean over %1 computing dies: %2%").arg(computing).arg(sum / computing, 0, 'f', 1),
            QPen(kOrange.darker(120), 1.5, Qt::DashLine));
    else
        addCentredNote(plot, tr("no compute: a pure network experiment"));
    plot->xAxis->setRange(left, right);
    plot->yAxis->setRange(0, std::max(5.0, top * 1.12));
    setTitle(plot, step ? tr("Utilisation per die over the step of %1")
                              .arg(qs(formatSeconds(report.step->stepS)))
                        : tr("Utilisation per die over the makespan of %1")
                              .arg(qs(formatSeconds(report.makespanS))));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartsPanel::rebuildHbmTraffic() {
    QCustomPlot* plot = m_hbmTraffic;
    clearPlot(plot);
    plot->xAxis->setLabel(tr("die"));
    plot->xAxis->setTicker(integerTicker());
    const bool step = m_analysis && m_analysis->report.step.has_value();
    if (!step) {
        setTitle(plot, tr("HBM traffic per die"));
        plot->yAxis->setLabel(tr("HBM traffic per step"));
        plot->xAxis->setRange(0, 1);
        plot->yAxis->setRange(0, 1);
        plot->yAxis->setTickLabels(false); // nothing to measure
        addCentredNote(plot, m_analysis ? tr("no training step: no compute model")
                                        : tr("no scenario simulated"));
        plot->legend->setVisible(false);
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const SimulationReport& report = m_analysis->report;
    QVector<double> keys, bytes;
    double largest = 0, total = 0;
    for (const DieReport& die : report.dies) {
        if (!die.memory) // not used by the strategy
            continue;
        keys << die.id;
        bytes << die.hbmBytes;
        largest = std::max(largest, die.hbmBytes);
        total += die.hbmBytes;
    }
    const double bandwidth = m_analysis->scenario.wafer.die.hbmBandwidth.value;
    if (largest <= 0) {
        setTitle(plot, tr("HBM traffic per die: none, the step fits in SRAM"));
        plot->yAxis->setLabel(tr("HBM traffic per step"));
        plot->yAxis->setRange(0, 1);
        plot->yAxis->setTickLabels(false);
        addCentredNote(plot, tr("every tensor stays in SRAM: no task reads or writes HBM"));
        plot->legend->setVisible(false);
    } else {
        plot->legend->setVisible(true);
        const ByteUnit unit = byteUnitFor(largest);
        QVector<double> values;
        for (double b : bytes)
            values << b / unit.bytes;
        plot->yAxis->setLabel(tr("HBM traffic per step (%1)").arg(QLatin1String(unit.name)));
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(tr("read + written per step; the busiest die needs %1 of HBM time at %2")
                          .arg(qs(formatSeconds(largest / bandwidth)))
                          .arg(qs(formatBytesPerSecond(bandwidth))));
        bars->setWidth(0.75);
        bars->setPen(QPen(kPurple.darker(130), 0));
        bars->setBrush(kPurple);
        bars->setData(keys, values, true);
        plot->yAxis->setRange(0, largest / unit.bytes * 1.15);
        setTitle(plot,
                 tr("HBM traffic per die over the step: %1 in all, %2 memory-bound tasks")
                     .arg(qs(formatBytes(total)))
                     .arg(report.step->tasks > 0 ? QString::number(report.step->memoryBoundTasks /
                                                                       report.step->tasks * 100,
                                                                   'f', 1) +
                                                       QLatin1Char('%')
                                                 : QStringLiteral("0%")));
    }
    const double left = keys.isEmpty() ? 0 : keys.front() - 0.8;
    const double right = keys.isEmpty() ? 1 : keys.back() + 0.8;
    plot->xAxis->setRange(left, right);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartsPanel::rebuildStepBreakdown() {
    QCustomPlot* plot = m_stepBreakdown;
    clearPlot(plot);
    // One horizontal bar: the step, cut into the five terms of StepMetrics that add up to it.
    plot->yAxis->setTickLabels(false);
    plot->yAxis->setTicks(false);
    plot->yAxis->grid()->setVisible(false);
    plot->xAxis->grid()->setVisible(true);
    const bool step = m_analysis && m_analysis->report.step.has_value();
    if (!step) {
        setTitle(plot, tr("Step breakdown"));
        plot->xAxis->setLabel(tr("time per step"));
        plot->xAxis->setRange(0, 1);
        plot->xAxis->setTickLabels(false);
        plot->yAxis->setRange(0, 1);
        addCentredNote(plot, m_analysis ? tr("no training step: no step to break down")
                                        : tr("no scenario simulated"));
        plot->legend->setVisible(false);
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    plot->xAxis->setTickLabels(true);
    plot->legend->setVisible(true);
    const StepMetrics& metrics = *m_analysis->report.step;
    // The timeline's colours for the same things (gantt_plottable.h): compute, HBM-bound and
    // overhead-bound tasks, and communication (sending).
    struct Term {
        QString name;
        double seconds;
        QColor color;
    };
    const std::array<Term, 5> terms{{
        {tr("compute at the array's rate"), metrics.computeS, ganttColor(GanttColor::Compute)},
        {tr("HBM stalls"), metrics.hbmStallS, ganttColor(GanttColor::MemoryBound)},
        {tr("task overhead"), metrics.overheadS, ganttColor(GanttColor::OverheadBound)},
        {tr("optimizer update"), metrics.optimizerS, kTeal},
        {tr("exposed communication and waiting"), metrics.exposedS, ganttColor(GanttColor::Send)},
    }};
    const double stepS = metrics.stepS;
    const TimeUnit unit = timeUnitFor(stepS);
    QCPBars* below = nullptr;
    for (const Term& term : terms) {
        auto* bars = new QCPBars(plot->yAxis, plot->xAxis); // keys up the side, time along
        bars->setName(tr("%1: %2 (%3%)")
                          .arg(term.name)
                          .arg(qs(formatSeconds(term.seconds)))
                          .arg(stepS > 0 ? term.seconds / stepS * 100 : 0.0, 0, 'f', 1));
        bars->setWidth(0.6);
        bars->setPen(QPen(term.color.darker(130), 0));
        bars->setBrush(term.color);
        bars->setStackingGap(0);
        bars->setData({0.0}, {term.seconds / unit.seconds}, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    plot->xAxis->setLabel(
        tr("time per step on the average die used (%1)").arg(QLatin1String(unit.name)));
    plot->xAxis->setRange(0, stepS / unit.seconds * 1.02);
    plot->yAxis->setRange(-0.6, 0.6);
    setTitle(plot, tr("Step breakdown: %1 per step, MFU %2%, over %3 dies")
                       .arg(qs(formatSeconds(stepS)))
                       .arg(metrics.mfu * 100, 0, 'f', 1)
                       .arg(metrics.diesUsed));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

bool ChartsPanel::exportChart(int index, const QString& path, QString* error) const {
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    QCustomPlot* plot = chart(index);
    if (!plot)
        return fail(tr("no chart %1").arg(index));
    // Every tab has the size of the visible one; a panel never shown has no size yet.
    const QSize size = isVisible() ? m_tabs->currentWidget()->size() : QSize(900, 300);
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = plot->savePng(path, size.width(), size.height());
    } else if (suffix == QLatin1String("pdf")) {
        ok = plot->savePdf(path, size.width(), size.height(), QCP::epAllowCosmetic,
                           QStringLiteral("WaferScope"), chartName(index));
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setResolution(96); // one pixel of the chart is one CSS pixel
        svg.setTitle(chartName(index));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, size.width(), size.height());
            ok = painter.end();
        }
    } else {
        return fail(tr("%1: unknown image type; use .png, .svg or .pdf").arg(path));
    }
    return ok ? true : fail(tr("could not write %1").arg(path));
}

} // namespace ws
