#include "fault_study_panel.h"

#include "current_strategy_colour.h"
#include "legend_beside_axes.h"
#include "scenario_document.h"
#include "std_string_text.h"
#include "vertical_scroll_area.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QThreadPool>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ws {

namespace {

constexpr int kListedFailures = 6; // failure notes under the buttons, the rest counted

// One colour per line, all in the legend: the current strategy in the Search dock's "current"
// purple, the baselines in Tableau's categorical colours.
constexpr std::array<QRgb, 7> kBaselineColours{0xff1f77b4, 0xffff7f0e, 0xff2ca02c, 0xffd62728,
                                               0xff8c564b, 0xffe377c2, 0xff7f7f7f};

QColor curveColour(std::size_t curve) {
    return curve == 0 ? kCurrentStrategyColour
                      : QColor(kBaselineColours[(curve - 1) % kBaselineColours.size()]);
}

// On a GPU cluster its dies are GPUs, and the study says so (docs/gui.md "Hardware").
QString kindNoun(FaultKind kind, bool cluster) {
    if (kind == FaultKind::Links)
        return FaultStudyPanel::tr("dead links");
    return cluster ? FaultStudyPanel::tr("dead GPUs") : FaultStudyPanel::tr("dead dies");
}

} // namespace

FaultStudyPanel::FaultStudyPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_job(new BackgroundJob(this)) {
    // Wide and short, as the bottom dock area is: the controls on the left, the plot beside.
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* controls = new QVBoxLayout;
    auto* form = new QFormLayout;
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("faultKind"));
    m_kind->addItem(tr("dead links"));
    m_kind->addItem(tr("dead dies")); // named for the hardware by useHardwareWords()
    form->addRow(tr("Faults"), m_kind);
    m_maxRate = new QDoubleSpinBox;
    m_maxRate->setObjectName(QStringLiteral("faultMaxRate"));
    m_maxRate->setRange(0.0, 0.95);
    m_maxRate->setDecimals(3);
    m_maxRate->setSingleStep(0.05);
    m_maxRate->setValue(0.4);

    form->addRow(tr("Up to rate"), m_maxRate);
    m_step = new QDoubleSpinBox;
    m_step->setObjectName(QStringLiteral("faultStep"));
    m_step->setRange(0.005, 0.5);
    m_step->setDecimals(3);
    m_step->setSingleStep(0.01);
    m_step->setValue(0.05);
    m_step->setToolTip(tr("The rates studied: 0, step, 2 x step, ... up to the largest"));
    form->addRow(tr("Step"), m_step);
    m_samples = new QSpinBox;
    m_samples->setObjectName(QStringLiteral("faultSamples"));
    m_samples->setRange(1, 1000);
    m_samples->setValue(5);
    m_samples->setToolTip(tr("Random fault draws per rate; the plot's bars span their "
                             "throughputs"));
    form->addRow(tr("Samples"), m_samples);
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("faultSeed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The draws' only source of randomness: `waferscope-cli sweep` with this "
                          "seed and samples draws the same faults"));
    form->addRow(tr("Seed"), m_seed);
    controls->addLayout(form);
    auto* buttons = new QHBoxLayout;
    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setObjectName(QStringLiteral("runFaultStudy"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("cancelFaultStudy"));
    m_cancelButton->setToolTip(tr("Stop the study at its next simulation"));
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch(1);
    controls->addLayout(buttons);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("faultStudyProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("not run"));
    controls->addWidget(m_progress);
    m_hint = new QLabel;
    m_hint->setObjectName(QStringLiteral("faultStudyHint"));
    m_hint->setWordWrap(true);
    m_hint->setStyleSheet(QStringLiteral("color: gray"));
    controls->addWidget(m_hint);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("faultStudyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    controls->addWidget(m_status, 1);
    auto* controlsPane = new QWidget;
    controlsPane->setLayout(controls);
    // The controls scroll rather than make the bottom dock area taller than its other tabs
    // (the timeline's 260 px), and are as wide as they need, with room for the scroll bar.
    QScrollArea* scroll = verticalScrollArea(controlsPane);
    scroll->setMaximumWidth(360);
    layout->addWidget(scroll, 2);

    m_plot = new QCustomPlot;
    m_plot->setMinimumSize(320, 140);
    m_plot->yAxis->setLabel(tr("throughput (tokens/s)"));
    m_plot->yAxis->setNumberFormat(QStringLiteral("gbc"));
    m_plot->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    placeLegendBesideAxes(*m_plot, legendFont);
    m_plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(m_plot, QString(), legendFont);
    m_plot->plotLayout()->addElement(0, 0, title);
    layout->addWidget(m_plot, 5);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = pointToolTipAt(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });

    connect(m_runButton, &QPushButton::clicked, this, &FaultStudyPanel::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &FaultStudyPanel::cancel);
    connect(m_job, &BackgroundJob::progressTick, this, &FaultStudyPanel::drainProgress);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_document, &ScenarioDocument::scenarioChanged, this,
            &FaultStudyPanel::refreshControls);
    connect(m_document, &ScenarioDocument::documentReplaced, this, &FaultStudyPanel::clear);
    connect(m_document, &ScenarioDocument::scenarioChanged, this,
            &FaultStudyPanel::useHardwareWords);
    useHardwareWords();
    refreshControls();
    replot();
}

bool FaultStudyPanel::onCluster() const {
    return m_document->scenario().cluster.has_value();
}

void FaultStudyPanel::useHardwareWords() {
    const bool cluster = onCluster();
    m_kind->setItemText(1, kindNoun(FaultKind::Dies, cluster));
    m_kind->setToolTip(cluster ? tr("What fails at random: directed links (faults.link_rate) or "
                                    "GPUs (faults.die_rate; the strategy's dp shrinks to fit the "
                                    "live GPUs)")
                               : tr("What fails at random: directed links (faults.link_rate) or "
                                    "dies (faults.die_rate; the strategy's dp shrinks to fit the "
                                    "live dies)"));
    m_maxRate->setToolTip(cluster ? tr("The largest fraction of the live links (or GPUs) killed")
                                  : tr("The largest fraction of the live links (or dies) killed"));
}

FaultStudyPanel::~FaultStudyPanel() {
    // m_job cancels the study in flight; the worker holds only its own copies.
}

void FaultStudyPanel::setSearchResult(std::shared_ptr<const SearchResult> result,
                                      const Scenario& searched) {
    m_search = std::move(result);
    m_searched = searched;
    refreshControls();
}

void FaultStudyPanel::setKind(FaultKind kind) {
    m_kind->setCurrentIndex(kind == FaultKind::Dies ? 1 : 0);
}

void FaultStudyPanel::setRates(double maxRate, double step) {
    m_maxRate->setValue(maxRate);
    m_step->setValue(step);
}

void FaultStudyPanel::setSamples(int samples) {
    m_samples->setValue(samples);
}

std::vector<FaultStudyStrategy> FaultStudyPanel::strategiesToStudy() const {
    std::vector<FaultStudyStrategy> strategies{{tr("current strategy").toStdString(), {}}};
    const Scenario& current = m_document->scenario();
    // A baseline is a strategy for the searched wafer and model: elsewhere it means nothing.
    if (m_search && current.wafer == m_searched.wafer && current.workload == m_searched.workload)
        for (const BaselineScore& baseline : m_search->baselines)
            if (baseline.score)
                strategies.push_back({baseline.name, baseline.score->strategy});
    return strategies;
}

QString FaultStudyPanel::hintText() const {
    return m_hint->text();
}

QString FaultStudyPanel::statusText() const {
    return m_status->text();
}

void FaultStudyPanel::refreshControls() {
    const Scenario& current = m_document->scenario();
    const bool workload = current.workload.has_value();
    m_runButton->setEnabled(!isBusy() && workload);
    m_runButton->setToolTip(workload ? tr("Simulate every strategy at every rate (off the GUI "
                                          "thread)")
                                     : tr("The study measures a training step's tokens per "
                                          "second: this scenario has no workload"));
    m_cancelButton->setEnabled(isBusy() && !m_job->isCancelling());
    for (QWidget* input :
         std::initializer_list<QWidget*>{m_kind, m_maxRate, m_step, m_samples, m_seed})
        input->setEnabled(!isBusy());

    QStringList hint;
    if (!workload) {
        hint << tr("This scenario is explicit traffic: the fault study measures a training "
                   "step's tokens per second. Open a model example, such as GPT-3 175B on 6x8.");
    } else if (!m_search) {
        hint << tr("Only the current strategy: run a strategy search (Search dock) to add its "
                   "baselines (Megatron, FSDP) as lines of their own.");
    } else if (!(current.wafer == m_searched.wafer && current.workload == m_searched.workload)) {
        hint << tr("The last search was for another wafer or model: search again to add its "
                   "baselines.");
    } else {
        QStringList names, without;
        for (const BaselineScore& baseline : m_search->baselines)
            (baseline.score ? names : without) << qs(baseline.name);
        hint << (names.isEmpty() ? tr("The last search's baselines have no configuration that "
                                      "fits: only the current strategy.")
                                 : tr("With the last search's baselines: %1.")
                                       .arg(names.join(QStringLiteral(", "))));
        if (!names.isEmpty() && !without.isEmpty())
            hint << tr("Left out (no configuration fits): %1.")
                        .arg(without.join(QStringLiteral(", ")));
    }
    if (m_result && !isBusy() && !(m_studied == current))
        hint << tr("The plot is of an earlier version of the scenario: Run again for this one.");
    m_hint->setText(hint.join(QLatin1Char(' ')));
}

void FaultStudyPanel::start() {
    if (isBusy())
        return;
    const Scenario scenario = m_document->scenario();
    if (!scenario.workload) {
        emit statusMessage(tr("The fault study needs a workload"));
        return;
    }
    FaultStudySpec spec;
    spec.scenario = scenario;
    spec.strategies = strategiesToStudy();
    spec.kind = m_kind->currentIndex() == 1 ? FaultKind::Dies : FaultKind::Links;
    try {
        spec.rates = faultRates(m_maxRate->value(), m_step->value());
    } catch (const std::invalid_argument& problem) {
        emit statusMessage(tr("Cannot run the fault study: %1").arg(qs(problem.what())));
        return;
    }
    spec.samples = m_samples->value();
    spec.seed = static_cast<std::uint64_t>(m_seed->value());
    const int total = static_cast<int>(spec.strategies.size() * spec.rates.size()) * spec.samples;

    m_studied = scenario;
    m_studiedSamples = spec.samples;
    m_result.reset();
    m_progressShared = std::make_shared<Progress>();
    m_progressShared->total = total;
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v / %m simulations"));
    m_status->setText(tr("Simulating %1 strategies at %2 rates, %3 samples each…")
                          .arg(spec.strategies.size())
                          .arg(spec.rates.size())
                          .arg(spec.samples));
    std::shared_ptr<Progress> progress = m_progressShared;
    m_job->start<Result>(
        [spec, progress](const JobToken& token) -> Result {
            // A study takes minutes: it gives its place in the shared pool back while it runs
            // (QThreadPool::releaseThread raises the pool's capacity by one), so that the
            // re-simulation of an edit never queues behind it.
            QThreadPool::globalInstance()->releaseThread();
            struct Restore {
                ~Restore() { QThreadPool::globalInstance()->reserveThread(); }
            } restore;
            return std::make_shared<const FaultStudyResult>(
                runFaultStudy(spec, token.predicate(), [progress](int done, int all) {
                    progress->done = done;
                    progress->total = all;
                }));
        },
        [this](Result result) { finish(std::move(result), {}, false); },
        [this](const QString& error) { finish(nullptr, error, false); },
        [this](const std::optional<Result>&) { finish(nullptr, {}, true); });
    replot();
    refreshControls();
    emit busyChanged(true);
    emit statusMessage(tr("Fault study started: %1 simulations").arg(total));
}

void FaultStudyPanel::cancel() {
    if (!isBusy())
        return;
    m_job->cancel();
    m_status->setText(tr("Cancelling: stopping at the next simulation…"));
    refreshControls();
}

void FaultStudyPanel::drainProgress() {
    if (!m_progressShared)
        return;
    m_progress->setValue(std::min(m_progressShared->done.load(), m_progress->maximum()));
}

void FaultStudyPanel::finish(Result result, const QString& error, bool cancelled) {
    drainProgress();
    const int done = m_progressShared ? m_progressShared->done.load() : 0;
    m_progressShared.reset();
    if (m_discardRunning) { // for a document no longer open
        m_discardRunning = false;
        clear();
        emit busyChanged(false);
        return;
    }
    if (cancelled) {
        m_progress->setFormat(
            tr("cancelled at %1 / %2 simulations").arg(done).arg(m_progress->maximum()));
        m_status->setText(tr("Cancelled: nothing is plotted (a study is compared only whole)."));
        emit statusMessage(tr("Fault study cancelled"));
    } else if (!result) {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("failed"));
        m_status->setText(tr("<span style='color:#c00'>The study could not run: %1</span>")
                              .arg(error.toHtmlEscaped()));
        emit statusMessage(tr("Fault study failed: %1").arg(error));
    } else {
        m_result = std::move(result);
        m_progress->setValue(m_progress->maximum());
        m_progress->setFormat(tr("done: %v simulations"));
        const QString notes = failureNotes();
        m_status->setText(notes.isEmpty() ? tr("Every sample simulated.") : notes);
        emit statusMessage(tr("Fault study done: %1 strategies against %2")
                               .arg(m_result->curves.size())
                               .arg(kindNoun(m_result->kind, onCluster())));
    }
    replot();
    refreshControls();
    emit busyChanged(false);
}

void FaultStudyPanel::clear() {
    if (isBusy()) {
        m_job->cancel();
        m_discardRunning = true;
    }
    m_result.reset();
    m_search.reset(); // the search was of the old document too
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("not run"));
    m_status->clear();
    replot();
    refreshControls();
}

QString FaultStudyPanel::failureNotes() const {
    QStringList notes;
    int more = 0;
    for (const FaultStudyCurve& curve : m_result->curves)
        for (const FaultStudyPoint& point : curve.points) {
            if (point.failed == 0)
                continue;
            if (notes.size() >= kListedFailures) {
                ++more;
                continue;
            }
            // One arg() call: a name or an error with a "%1" in it is not read as a marker.
            notes << tr("<b>%1</b> at %2: %3 of %4 samples did not simulate (%5 out of memory, "
                        "not averaged): %6")
                         .arg(qs(curve.name).toHtmlEscaped(), QString::number(point.rate),
                              QString::number(point.failed),
                              QString::number(point.failed + point.simulated),
                              QString::number(point.outOfMemory),
                              qs(point.firstError).toHtmlEscaped());
        }
    if (more > 0)
        notes << tr("… and %1 more rates with failed samples.").arg(more);
    return notes.join(QStringLiteral("<br>"));
}

void FaultStudyPanel::replot() {
    m_plot->clearPlottables(); // graphs and their error bars
    const FaultKind kind = m_result
                               ? m_result->kind
                               : (m_kind->currentIndex() == 1 ? FaultKind::Dies : FaultKind::Links);
    m_plot->xAxis->setLabel(
        kind == FaultKind::Dies
            ? (onCluster() ? tr("dead GPUs (fraction of the live GPUs: faults.die_rate)")
                           : tr("dead dies (fraction of the live dies: faults.die_rate)"))
            : tr("dead links (fraction of the live directed links: faults.link_rate)"));
    auto* title = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->element(0, 0));
    double top = 0.0;
    double maxRate = m_maxRate->value();
    if (m_result) {
        for (std::size_t c = 0; c < m_result->curves.size(); ++c) {
            const FaultStudyCurve& curve = m_result->curves[c];
            QVector<double> x, mean, below, above;
            QVector<double> oomX; // rates where a sample ran out of memory: marked, not averaged
            int failed = 0, samples = 0, changed = 0;
            for (const FaultStudyPoint& point : curve.points) {
                failed += point.failed;
                samples += point.failed + point.simulated;
                changed += point.changed;
                x << drawnRate(c, point.rate);
                if (point.outOfMemory > 0)
                    oomX << drawnRate(c, point.rate);
                if (!point.spread) { // nothing simulated: a gap in the line
                    mean << std::numeric_limits<double>::quiet_NaN();
                    below << 0.0;
                    above << 0.0;
                    continue;
                }
                mean << point.spread->mean;
                below << point.spread->mean - point.spread->min;
                above << point.spread->max - point.spread->mean;
                top = std::max(top, point.spread->max);
                maxRate = std::max(maxRate, point.rate);
            }
            const QColor colour = curveColour(c);
            QCPGraph* graph = m_plot->addGraph();
            QString name = failed == 0 ? qs(curve.name)
                                       : tr("%1 (%2 of %3 samples failed)")
                                             .arg(qs(curve.name), QString::number(failed),
                                                  QString::number(samples));
            if (changed > 0)
                name += tr("; strategy re-planned at %1 samples").arg(changed);
            graph->setName(name);
            graph->setPen(QPen(colour, 2));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
            graph->setData(x, mean, true);
            auto* bars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
            bars->removeFromLegend(); // named by the title: the spread over the samples
            bars->setDataPlottable(graph);
            bars->setErrorType(QCPErrorBars::etValueError);
            bars->setPen(QPen(colour, 1.2));
            bars->setWhiskerWidth(6);
            bars->setData(below, above);
            if (!oomX.isEmpty()) {
                // Out of memory after the faults: a cross on the axis, in the curve's colour.
                QCPGraph* oom = m_plot->addGraph();
                oom->setName(
                    tr("%1: out of memory after the faults (not averaged)").arg(qs(curve.name)));
                oom->setLineStyle(QCPGraph::lsNone);
                oom->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, colour, 11));
                oom->setData(oomX, QVector<double>(oomX.size(), 0.0));
            }
        }
        title->setText(tr("Throughput against %1: the mean of %2 samples per rate, bars from the "
                          "lowest to the highest")
                           .arg(kindNoun(m_result->kind, onCluster()))
                           .arg(m_studiedSamples));
    } else {
        title->setText(
            isBusy() ? tr("Simulating…")
                     : tr("Run the study: throughput against %1").arg(kindNoun(kind, onCluster())));
    }
    const double margin = std::max(maxRate, 0.05) * 0.05;
    m_plot->xAxis->setRange(-margin, std::max(maxRate, 0.05) + margin);
    // From 0: what matters is the share of the throughput the faults take away.
    m_plot->yAxis->setRange(0.0, top > 0.0 ? top * 1.12 : 1.0);
    m_plot->legend->setVisible(m_plot->graphCount() > 0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double FaultStudyPanel::drawnRate(std::size_t curve, double rate) const {
    const std::vector<FaultStudyPoint>& first = m_result->curves.front().points;
    const double step = first.size() > 1 ? first[1].rate : std::max(m_maxRate->value(), 0.05);
    const double curves = static_cast<double>(m_result->curves.size());
    return rate + (static_cast<double>(curve) - (curves - 1.0) / 2.0) * 0.04 * step;
}

QString FaultStudyPanel::pointToolTipAt(const QPointF& pixel) const {
    if (!m_result)
        return {};
    constexpr double kReachPixels = 8.0;
    const FaultStudyCurve* nearestCurve = nullptr;
    const FaultStudyPoint* nearest = nullptr;
    double best = kReachPixels;
    for (std::size_t c = 0; c < m_result->curves.size(); ++c)
        for (const FaultStudyPoint& point : m_result->curves[c].points) {
            const double x = m_plot->xAxis->coordToPixel(drawnRate(c, point.rate));
            // A rate where nothing ran is drawn as its out-of-memory cross on the axis.
            const double y = m_plot->yAxis->coordToPixel(point.spread ? point.spread->mean : 0.0);
            const double distance = std::hypot(x - pixel.x(), y - pixel.y());
            if (distance <= best) {
                best = distance;
                nearestCurve = &m_result->curves[c];
                nearest = &point;
            }
        }
    if (!nearest)
        return {};
    const FaultStudyPoint& point = *nearest;
    const QLocale locale;
    const auto tokens = [&](double value) { return locale.toString(value, 'f', 0); };
    QStringList lines;
    lines << tr("<b>%1</b> at %2 %3")
                 .arg(qs(nearestCurve->name).toHtmlEscaped(),
                      m_result->kind == FaultKind::Dies ? QStringLiteral("faults.die_rate")
                                                        : QStringLiteral("faults.link_rate"),
                      QString::number(point.rate));
    const int samples = point.simulated + point.failed;
    if (point.spread)
        lines << tr("%1 tokens/s, the mean of the %2 of %3 samples that ran (%4 to %5)")
                     .arg(tokens(point.spread->mean))
                     .arg(point.simulated)
                     .arg(samples)
                     .arg(tokens(point.spread->min), tokens(point.spread->max));
    else
        lines << tr("none of the %1 samples ran").arg(samples);
    if (point.outOfMemory > 0)
        lines << tr("%1 out of memory after the faults: not averaged").arg(point.outOfMemory);
    if (point.changed > 0)
        lines << tr("re-planned at %1 samples; the first: %2")
                     .arg(point.changed)
                     .arg(qs(point.firstChange).toHtmlEscaped());
    if (point.failed > 0)
        lines << tr("the first failure: %1").arg(qs(point.firstError).toHtmlEscaped());
    return lines.join(QStringLiteral("<br>"));
}

bool FaultStudyPanel::waitForIdle(int timeoutMs) {
    return m_job->waitForIdle(timeoutMs);
}

} // namespace ws
