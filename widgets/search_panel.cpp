#include "search_panel.h"

#include "current_strategy_colour.h"
#include "process_events_until.h"
#include "scenario_document.h"
#include "search_results_model.h"
#include "std_string_text.h"
#include "vertical_scroll_area.h"

#include "evaluation/scenario_run.h"
#include "scenario/strategy_spec.h"
#include "search/pareto_front.h"
#include "search/strategy_scoring.h"
#include "topology/wafer_topology.h"
#include "units/quantity.h"

#include <QCheckBox>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <functional>
#include <numeric>

namespace ws {

namespace {

constexpr double kBytesPerGB = 1e9;

QString secondsText(double seconds) {
    return qs(formatSeconds(seconds));
}

// Colours of the scatter: one per kind of point, all named in its legend.
const QColor kCandidateColour(110, 110, 110, 150);
const QColor kOutOfMemoryColour(214, 39, 40, 130);
const QColor kFrontColour(255, 127, 14);
const QColor kBaselineColour(31, 119, 180);
const QColor kBestColour(44, 160, 44);

QCPGraph* addScatterGraph(QCustomPlot* plot, const QString& name, const QColor& colour,
                          QCPScatterStyle::ScatterShape shape, double size) {
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setPen(QPen(colour, 1.5));
    graph->setScatterStyle(QCPScatterStyle(shape, colour, size));
    return graph;
}

} // namespace

SearchPanel::SearchPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_runner(new BackgroundJob(this)) {
    auto* controls = new QWidget;
    auto* form = new QFormLayout;
    m_budget = new QSpinBox;
    m_budget->setRange(50, 200000);
    m_budget->setSingleStep(500);
    m_budget->setValue(SearchOptions{}.budget);
    m_budget->setGroupSeparatorShown(true);
    m_budget->setToolTip(tr("How many distinct strategies the genetic algorithm evaluates with "
                            "the analytical model"));
    form->addRow(tr("Budget"), m_budget);
    m_threads = new QSpinBox;
    m_threads->setRange(1, std::max(1, QThread::idealThreadCount()));
    m_threads->setValue(m_threads->maximum());
    m_threads->setToolTip(
        tr("Worker threads; the answer for a seed is the same whatever the count"));
    form->addRow(tr("Threads"), m_threads);
    m_seed = new QSpinBox;
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(static_cast<int>(SearchOptions{}.seed));
    m_seed->setToolTip(tr("The genetic algorithm's only source of randomness"));
    form->addRow(tr("Seed"), m_seed);
    m_polish = new QCheckBox(tr("Polish the best with TCME"));
    m_polish->setChecked(SearchOptions{}.polishWithTcme);
    form->addRow(m_polish);

    auto* buttons = new QHBoxLayout;
    m_searchButton = new QPushButton(tr("Search"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop the search: the best candidate found so far is kept"));
    m_applyButton = new QPushButton(tr("Apply"));
    for (QPushButton* button : {m_searchButton, m_cancelButton, m_applyButton})
        buttons->addWidget(button);

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("searchProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("not run"));
    m_status = new QLabel(tr("Search the strategies of this scenario's workload."));
    m_status->setObjectName(QStringLiteral("searchStatus"));
    m_status->setWordWrap(true);
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* controlsLayout = new QVBoxLayout(controls);
    controlsLayout->setContentsMargins(4, 2, 4, 2);
    controlsLayout->addLayout(form);
    controlsLayout->addLayout(buttons);
    controlsLayout->addWidget(m_progress);
    // The summary and the search's notes can outgrow a short dock: they scroll.
    auto* statusScroll = new QScrollArea;
    statusScroll->setWidget(m_status);
    statusScroll->setWidgetResizable(true);
    statusScroll->setFrameShape(QFrame::NoFrame);
    statusScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsLayout->addWidget(statusScroll, 1);

    m_scatter = new QCustomPlot;
    m_scatter->setMinimumSize(280, 140);
    m_candidates =
        addScatterGraph(m_scatter, tr("candidate"), kCandidateColour, QCPScatterStyle::ssDisc, 4);
    m_outOfMemory = addScatterGraph(m_scatter, tr("out of memory"), kOutOfMemoryColour,
                                    QCPScatterStyle::ssCross, 5);
    m_front =
        addScatterGraph(m_scatter, tr("Pareto front"), kFrontColour, QCPScatterStyle::ssCircle, 7);
    m_front->setLineStyle(QCPGraph::lsStepLeft);
    m_front->setPen(QPen(kFrontColour, 1.5));
    m_baselines = addScatterGraph(m_scatter, tr("baseline (sim.)"), kBaselineColour,
                                  QCPScatterStyle::ssTriangle, 10);
    m_best =
        addScatterGraph(m_scatter, tr("best (sim.)"), kBestColour, QCPScatterStyle::ssStar, 16);
    m_best->setPen(QPen(kBestColour, 2.5));
    m_current = addScatterGraph(m_scatter, tr("current strategy (sim.)"), kCurrentStrategyColour,
                                QCPScatterStyle::ssDiamond, 12);
    m_current->setPen(QPen(kCurrentStrategyColour, 2.5));
    m_selected = m_scatter->addGraph();
    m_selected->setLineStyle(QCPGraph::lsNone);
    m_selected->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 18));
    m_selected->removeFromLegend();
    m_scatter->xAxis->setLabel(tr("memory per die (GB)"));
    m_scatter->yAxis->setLabel(tr("step time (s)"));
    m_scatter->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    logTicker->setSubTickCount(8);
    m_scatter->yAxis->setTicker(logTicker);
    m_scatter->yAxis->setNumberFormat(QStringLiteral("gb"));
    m_scatter->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_scatter->legend->setFont(legendFont);
    // Below the plot, in rows of three: inside it would cover the points.
    m_scatter->plotLayout()->addElement(1, 0, m_scatter->legend);
    m_scatter->plotLayout()->setRowStretchFactor(1, 0.001);
    m_scatter->legend->setWrap(3);
    m_scatter->legend->setFillOrder(QCPLegend::foColumnsFirst, true); // rearranges by the wrap
    m_scatter->legend->setBorderPen(Qt::NoPen);
    m_scatter->legend->setMargins(QMargins(4, 0, 4, 2));

    m_model = new SearchResultsModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(SearchResultsModel::StrategyColumn,
                                                      QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);

    auto* splitter = new QSplitter(Qt::Horizontal);
    // The controls scroll rather than set the dock's minimum height: the window fits 1280x720
    // (docs/gui.md "Layout").
    splitter->addWidget(verticalScrollArea(controls));
    splitter->addWidget(m_scatter);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    splitter->setSizes({230, 480, 700});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_runner, &BackgroundJob::progressTick, this, &SearchPanel::drainProgress);
    connect(m_searchButton, &QPushButton::clicked, this, &SearchPanel::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &SearchPanel::cancel);
    connect(m_applyButton, &QPushButton::clicked, this, &SearchPanel::apply);
    connect(m_scatter, &QCustomPlot::afterLayout, this, &SearchPanel::placePointLabels);
    connect(m_scatter, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = candidateToolTip(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_scatter);
    });
    connect(m_scatter, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton && m_result)
            pickCandidateAt(event->position());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SearchPanel::highlightSelectedRow);
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &SearchPanel::refreshControls);
    connect(m_document, &ScenarioDocument::documentReplaced, this, &SearchPanel::clear);
    m_status->setText(idleStatus());
    refreshControls();
    replot();
}

SearchPanel::~SearchPanel() {
    // m_runner cancels the search in flight; the worker holds only its own copies and the
    // progress buffer, so nothing waits for it here.
}

void SearchPanel::clear() {
    if (isBusy()) {
        m_runner->cancel();
        m_discardRunning = true;
    }
    const bool hadResult = m_result != nullptr;
    m_result.reset();
    m_model->setResult(nullptr);
    m_points.clear();
    m_picked.reset();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("not run"));
    m_status->setText(idleStatus());
    refreshControls();
    replot();
    if (hadResult)
        emit resultChanged(nullptr, m_searched);
}

QString SearchPanel::idleStatus() const {
    if (!m_document->scenario().workload)
        return tr("This scenario has no workload (it is explicit traffic): open a model "
                  "example, such as GPT-3 175B on 6x8, to search its strategies.");
    return tr("Search the strategies of this scenario's workload.");
}

void SearchPanel::setCurrentAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_currentAnalysis = std::move(analysis);
    replot();
}

std::optional<QPointF> SearchPanel::currentPoint() const {
    if (!m_result || !m_currentAnalysis || !m_currentAnalysis->report.step)
        return std::nullopt;
    const Scenario& current = m_currentAnalysis->scenario;
    if (!(current.wafer == m_searched.wafer && current.workload == m_searched.workload))
        return std::nullopt; // another wafer or model: not comparable with the candidates
    // Per die as the search counts it: the largest die's total (strategy_scoring.cpp).
    double memory = 0.0;
    for (const DieReport& die : m_currentAnalysis->report.dies)
        if (die.memory)
            memory = std::max(memory, die.memory->total());
    const double stepS = m_currentAnalysis->report.step->stepS;
    if (stepS <= 0.0)
        return std::nullopt;
    return QPointF(memory / kBytesPerGB, stepS);
}

void SearchPanel::setBudget(int evaluations) {
    m_budget->setValue(evaluations);
}

void SearchPanel::setThreads(int threads) {
    m_threads->setValue(threads);
}

bool SearchPanel::resultMatchesDocument() const {
    const Scenario& current = m_document->scenario();
    return m_result && current.wafer == m_searched.wafer && current.workload == m_searched.workload;
}

void SearchPanel::refreshControls() {
    const bool hasWorkload = m_document->scenario().workload.has_value();
    m_searchButton->setEnabled(!isBusy() && hasWorkload);
    m_cancelButton->setEnabled(isBusy());
    m_applyButton->setEnabled(!isBusy() && resultMatchesDocument());
    for (QWidget* input : {static_cast<QWidget*>(m_budget), static_cast<QWidget*>(m_threads),
                           static_cast<QWidget*>(m_seed), static_cast<QWidget*>(m_polish)})
        input->setEnabled(!isBusy());
    if (!isBusy() && !hasWorkload)
        m_searchButton->setToolTip(
            tr("This scenario is explicit traffic: the search needs a workload "
               "(open a model example, such as GPT-3 175B on 6x8)"));
    else
        m_searchButton->setToolTip(
            tr("Search strategies for this workload on this wafer (off the GUI thread)"));
    if (m_result && !isBusy() && !resultMatchesDocument())
        m_applyButton->setToolTip(
            tr("The wafer or the workload changed since this search: search again"));
    else
        m_applyButton->setToolTip(
            tr("Write the candidate clicked on the scatter, else the selected row's strategy "
               "(the best if none is selected), into the scenario as one undo step"));
}

void SearchPanel::start() {
    if (isBusy())
        return;
    const Scenario scenario = m_document->scenario();
    if (!scenario.workload) {
        m_status->setText(idleStatus());
        emit statusMessage(tr("The search needs a workload"));
        return;
    }
    SearchOptions options;
    options.budget = m_budget->value();
    options.threads = m_threads->value();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    options.polishWithTcme = m_polish->isChecked();

    m_searched = scenario;
    if (m_result)
        emit resultChanged(nullptr, m_searched);
    m_result.reset();
    m_model->setResult(nullptr);
    m_points.clear();
    m_picked.reset();
    m_sramGB = scenario.wafer.die.sram.value / kBytesPerGB;
    m_sramHbmGB = (scenario.wafer.die.sram.value + scenario.wafer.die.hbm.value) / kBytesPerGB;
    // Busy without a count while level 1 and the baselines run: the bar counts the genetic
    // search's evaluations against its budget, which start after them.
    m_runBudget = options.budget;
    m_progress->setRange(0, 0);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v / %m evaluations"));
    m_status->setText(tr("Searching: level 1 (segments) and the baselines first…"));
    m_buffer = std::make_shared<ProgressBuffer>();
    std::shared_ptr<ProgressBuffer> buffer = m_buffer;
    using Result = std::shared_ptr<const SearchResult>;
    m_runner->start<Result>(
        [buffer, scenario, options](const JobToken& token) -> Result {
            // The overrides the CLI's search applies (evaluation/scenario_run.h).
            Scenario overridden = scenario;
            applyRunEnvironment(overridden, frontEndRunOptions());
            const WaferTopology topology(overridden.topologySpec());
            return std::make_shared<SearchResult>(searchStrategies(
                overridden, topology, options, token.predicate(),
                [buffer](const SearchProgress& progress) {
                    const std::lock_guard lock(buffer->mutex);
                    buffer->latest = progress;
                    buffer->latest.newCandidates.clear();
                    buffer->pending.insert(buffer->pending.end(), progress.newCandidates.begin(),
                                           progress.newCandidates.end());
                }));
        },
        [this](Result result) { finish(std::move(result), {}, false); },
        [this](const QString& error) { finish(nullptr, error, false); },
        [this](std::optional<Result> result) { finish(result.value_or(nullptr), {}, true); });
    refreshControls();
    replot();
    emit busyChanged(true);
    emit statusMessage(tr("Strategy search started (%1 evaluations, %2 threads, seed %3)")
                           .arg(options.budget)
                           .arg(options.threads)
                           .arg(options.seed));
}

void SearchPanel::cancel() {
    if (!isBusy())
        return;
    m_runner->cancel();
    m_cancelButton->setEnabled(false);
    m_status->setText(tr("Cancelling: keeping the best candidate found so far…"));
}

void SearchPanel::drainProgress() {
    if (!m_buffer)
        return;
    SearchProgress progress;
    std::vector<StrategyScore> fresh;
    {
        const std::lock_guard lock(m_buffer->mutex);
        progress = m_buffer->latest;
        fresh.swap(m_buffer->pending);
    }
    if (progress.budget == 0) // level 1 and the baselines are still running
        return;
    showProgress(progress);
    if (!fresh.empty()) {
        addPoints(fresh);
        replot();
    }
}

void SearchPanel::showProgress(const SearchProgress& progress) {
    if (m_progress->maximum() != progress.budget)
        m_progress->setRange(0, progress.budget);
    m_progress->setValue(std::min(progress.evaluations, m_progress->maximum()));
    QString text = tr("%1 of %2 evaluations").arg(progress.evaluations).arg(progress.budget);
    if (progress.bestStepS > 0.0)
        text += tr(" · best so far %1 (model)").arg(secondsText(progress.bestStepS));
    if (m_runner->isCancelling())
        text = tr("Cancelling: keeping the best candidate found so far…");
    else if (progress.evaluations < progress.budget)
        text += tr(" · about %1 left").arg(secondsText(progress.remainingS));
    else
        text += tr(" · simulating the best candidates and the baselines…");
    m_status->setText(text);
}

void SearchPanel::addPoints(const std::vector<StrategyScore>& scores) {
    for (const StrategyScore& score : scores)
        m_points.push_back(
            {score.memoryPerDieBytes / kBytesPerGB, score.analyticStepS, score.outOfMemory, score});
}

int SearchPanel::candidateAt(const QPointF& pixel) const {
    constexpr double kReachPx = 6.0;
    int nearest = -1;
    double nearestSquared = kReachPx * kReachPx;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const Point& p = m_points[i];
        if (p.stepS <= 0.0)
            continue;
        const double dx = m_scatter->xAxis->coordToPixel(p.memoryGB) - pixel.x();
        const double dy = m_scatter->yAxis->coordToPixel(p.stepS) - pixel.y();
        if (dx * dx + dy * dy <= nearestSquared) {
            nearestSquared = dx * dx + dy * dy;
            nearest = static_cast<int>(i);
        }
    }
    return nearest;
}

bool SearchPanel::pickCandidateAt(const QPointF& pixel) {
    const int index = candidateAt(pixel);
    if (index < 0)
        return false;
    m_table->clearSelection(); // a picked point and a selected row exclude each other
    m_picked = m_points[static_cast<std::size_t>(index)].score;
    highlightSelectedRow();
    emit statusMessage(tr("Picked %1 (%2, model): Apply writes it into the scenario")
                           .arg(qs(m_picked->label), secondsText(m_picked->analyticStepS)));
    return true;
}

QString SearchPanel::candidateToolTip(const QPointF& pixel) const {
    const int index = candidateAt(pixel);
    if (index < 0)
        return {};
    const Point* nearest = &m_points[static_cast<std::size_t>(index)];
    return tr("%1\n%2 per step (model), %3 per die%4")
        .arg(qs(nearest->score.label), secondsText(nearest->stepS),
             qs(formatBytes(nearest->memoryGB * kBytesPerGB)),
             nearest->outOfMemory ? tr(": out of memory") : QString());
}

int SearchPanel::paretoPoints() const {
    return m_front->dataCount();
}

void SearchPanel::replot() {
    QVector<double> fitX, fitY, oomX, oomY;
    std::vector<std::pair<double, double>> fitting;
    for (const Point& p : m_points) {
        if (p.stepS <= 0.0) // not on a log axis; the analytical model gives positive times
            continue;
        if (p.outOfMemory) {
            oomX << p.memoryGB;
            oomY << p.stepS;
        } else {
            fitX << p.memoryGB;
            fitY << p.stepS;
            fitting.emplace_back(p.memoryGB, p.stepS);
        }
    }
    // Not sorted by memory: QCPGraph sorts them (it finds the visible range by key).
    m_candidates->setData(fitX, fitY);
    m_outOfMemory->setData(oomX, oomY);
    QVector<double> frontX, frontY;
    for (std::size_t i : paretoFront(fitting)) {
        frontX << fitting[i].first;
        frontY << fitting[i].second;
    }
    m_front->setData(frontX, frontY, true); // paretoFront: by ascending memory
    plotResultMarkers();

    m_scatter->clearItems();
    m_limitLabels.clear();
    m_pointLabels.clear();
    m_offAxisNote = nullptr;
    // The view: every strategy that fits, the baselines and the best, and memory up to twice
    // SRAM + HBM (out-of-memory strategies can need a thousand times more; beyond that they are
    // off the axis, and a note says how many).
    const double memoryShownGB = std::max(2.0 * m_sramHbmGB, 1.0);
    double xMin = std::numeric_limits<double>::infinity(), xMax = 0.0,
           yMin = std::numeric_limits<double>::infinity(), yMax = 0.0;
    int offAxis = 0;
    auto include = [&](double memoryGB, double stepS) {
        xMin = std::min(xMin, memoryGB);
        xMax = std::max(xMax, memoryGB);
        yMin = std::min(yMin, stepS);
        yMax = std::max(yMax, stepS);
    };
    for (const Point& p : m_points) {
        if (p.stepS <= 0.0)
            continue;
        if (p.memoryGB > memoryShownGB)
            ++offAxis;
        else if (!p.outOfMemory)
            include(p.memoryGB, p.stepS);
    }
    for (QCPGraph* graph : {m_baselines, m_best, m_current})
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            include(it->key, it->value);
    if (yMax <= 0.0) { // nothing fits (yet): show what there is below the memory cut
        for (const Point& p : m_points)
            if (p.stepS > 0.0 && p.memoryGB <= memoryShownGB)
                include(p.memoryGB, p.stepS);
    }
    if (yMax <= 0.0) {
        yMin = 0.1;
        yMax = 10.0;
        xMin = 0.0;
        xMax = m_sramHbmGB;
    }
    xMax = std::max(xMax, m_sramHbmGB); // the limit is always in view
    // The memory limits, so that "out of memory" has a place on the axis.
    const std::pair<double, QString> limits[] = {{m_sramGB, tr("SRAM")},
                                                 {m_sramHbmGB, tr("SRAM + HBM")}};
    for (const auto& [limitGB, name] : limits) {
        if (limitGB <= 0.0)
            continue;
        auto* line = new QCPItemStraightLine(m_scatter);
        line->setPen(QPen(QColor(150, 40, 40), 1, Qt::DashLine));
        line->point1->setCoords(limitGB, 1.0);
        line->point2->setCoords(limitGB, 2.0);
        auto* label = new QCPItemText(m_scatter);
        label->setText(name);
        label->setColor(QColor(150, 40, 40));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(limitGB, 1.0);
        label->setRotation(-90);
        label->setPadding(QMargins(2, 0, 2, 2));
        m_limitLabels.push_back(label);
    }
    // The named points: baselines, the best and the current strategy. Those at one simulated
    // point (Megatron-1 and -3 often pick the same tp-only configuration) share one label.
    struct Named {
        QPointF point;
        QStringList names;
        QColor colour;
    };
    std::vector<Named> labels;
    auto name = [&](const QPointF& point, const QString& text, const QColor& colour) {
        auto same = std::find_if(labels.begin(), labels.end(),
                                 [&](const Named& l) { return l.point == point; });
        if (same == labels.end())
            labels.push_back({point, {text}, colour});
        else
            same->names << text;
    };
    if (m_result) {
        name(QPointF(m_result->best.memoryPerDieBytes / kBytesPerGB,
                     SearchResultsModel::stepTime(m_result->best)),
             tr("best"), kBestColour.darker(130));
        for (const BaselineScore& baseline : m_result->baselines)
            if (baseline.score)
                name(QPointF(baseline.score->memoryPerDieBytes / kBytesPerGB,
                             SearchResultsModel::stepTime(*baseline.score)),
                     qs(baseline.name), kBaselineColour);
    }
    if (const std::optional<QPointF> current = currentPoint())
        name(*current, tr("current"), kCurrentStrategyColour.darker(120));
    // Zoomed on the candidates (they often differ by tens of percent, far from 0).
    const double span = std::max(std::min(memoryShownGB, xMax) - xMin, 1e-3);
    const QCPRange x(std::max(0.0, xMin - 0.08 * span),
                     std::min(memoryShownGB, xMax) + 0.08 * span);
    // Placed in pixels after each layout (placePointLabels), so that a resized dock keeps them
    // apart.
    auto placedLabel = [this](const QString& text, const QColor& colour) {
        auto* label = new QCPItemText(m_scatter);
        label->setText(text);
        label->setColor(colour);
        label->setClipToAxisRect(false);
        label->setBrush(QColor(255, 255, 255, 190)); // readable over the candidates
        label->setPadding(QMargins());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setType(QCPItemPosition::ptAbsolute);
        return label;
    };
    if (offAxis > 0) // in the top right corner
        m_offAxisNote =
            placedLabel(tr("%1 more out of memory →").arg(offAxis), kOutOfMemoryColour.darker(130));
    // Log axis: room above and below, in ratio, so that no marker sits on the frame (the
    // best is the lowest point, and its star is 16 px wide).
    const QCPRange y(yMin / 1.4, yMax * 1.4);
    m_scatter->xAxis->setRange(x);
    m_scatter->yAxis->setRange(y);
    for (const Named& named : labels)
        m_pointLabels.push_back(
            {placedLabel(named.names.join(QStringLiteral(" = ")), named.colour), named.point});
    m_scatter->replot(QCustomPlot::rpQueuedReplot);
}

namespace {

// The pixel box of a text item as drawn (rotated or not): the box around its four corners.
QRectF drawnBox(const QCPItemText& text) {
    double left = std::numeric_limits<double>::infinity(), top = left;
    double right = -left, bottom = -left;
    for (const QCPItemAnchor* corner :
         {text.topLeft, text.topRight, text.bottomLeft, text.bottomRight}) {
        const QPointF at = corner->pixelPosition();
        left = std::min(left, at.x());
        right = std::max(right, at.x());
        top = std::min(top, at.y());
        bottom = std::max(bottom, at.y());
    }
    return QRectF(QPointF(left, top), QPointF(right, bottom));
}

} // namespace

void SearchPanel::placePointLabels() {
    const QRectF area = m_scatter->axisRect()->rect();
    if (area.height() <= 0.0)
        return; // not laid out yet: afterLayout places them
    // What a label must not cover: the limit lines' labels and every named point's marker
    // (the best's star is 16 px wide).
    std::vector<QRectF> taken;
    for (const QCPItemText* limit : m_limitLabels)
        taken.push_back(drawnBox(*limit));
    constexpr double kMarkerHalf = 8.0; // px
    constexpr double kGap = 9.0;        // px between a marker's centre and its label
    constexpr double kCorner = 2.0;     // px between the off-axis note and the frame
    constexpr double kShiftPx = 12.0;   // one step sideways
    std::vector<QPointF> anchors;
    for (const PointLabel& label : m_pointLabels) {
        const QPointF at(m_scatter->xAxis->coordToPixel(label.point.x()),
                         m_scatter->yAxis->coordToPixel(label.point.y()));
        anchors.push_back(at);
        taken.emplace_back(at - QPointF(kMarkerHalf, kMarkerHalf),
                           QSizeF(2 * kMarkerHalf, 2 * kMarkerHalf));
    }
    auto isFree = [&](const QRectF& box) {
        return area.contains(box) &&
               std::none_of(taken.begin(), taken.end(),
                            [&](const QRectF& other) { return other.intersects(box); });
    };
    // Each label takes the free place nearest its natural one, in pixels moved (half a line up
    // or down at a time, a few steps sideways, a side switch counting as a step); with none
    // free it stays at the natural place.
    auto place = [&](QCPItemText& label, const std::function<QRectF(int, int, bool)>& boxAt,
                     bool bothWays) {
        const QFontMetricsF metrics(label.font());
        const double halfLine = metrics.height() / 2;
        const int maxHalfLines = static_cast<int>(area.height() / halfLine) + 1;
        constexpr int kShifts = 8;
        QRectF chosen = boxAt(0, 0, false);
        double chosenCost = std::numeric_limits<double>::infinity();
        for (int half = bothWays ? -maxHalfLines : 0; half <= maxHalfLines; ++half)
            for (int shift = 0; shift < kShifts; ++shift)
                for (bool switched : {false, true}) {
                    const double cost =
                        std::abs(half) * halfLine + shift * kShiftPx + (switched ? kShiftPx : 0.0);
                    if (cost >= chosenCost)
                        continue;
                    const QRectF box = boxAt(half, shift, switched);
                    if (isFree(box)) {
                        chosen = box;
                        chosenCost = cost;
                    }
                }
        label.position->setCoords(chosen.topLeft());
        taken.push_back(chosen);
    };
    auto sizeOf = [](const QCPItemText& label) {
        const QFontMetricsF metrics(label.font());
        return QSizeF(metrics.horizontalAdvance(label.text()), metrics.height());
    };
    if (m_offAxisNote) { // top right, moving left or down
        const QSizeF size = sizeOf(*m_offAxisNote);
        place(
            *m_offAxisNote,
            [&](int half, int shift, bool) { // one side only: the frame's
                const double x = area.right() - kCorner - size.width() - shift * kShiftPx;
                return QRectF(QPointF(x, area.top() + kCorner + half * size.height() / 2), size);
            },
            false);
    }
    // Top first, each towards the middle of the plot unless that side is taken.
    std::vector<std::size_t> order(m_pointLabels.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return anchors[a].y() < anchors[b].y(); });
    for (std::size_t i : order) {
        QCPItemText& label = *m_pointLabels[i].item;
        const QPointF at = anchors[i];
        const QSizeF size = sizeOf(label);
        const bool towardsLeft = at.x() > area.center().x();
        place(
            label,
            [&](int half, int shift, bool switched) {
                const bool left = towardsLeft != switched;
                const double x = left ? at.x() - kGap - size.width() - shift * kShiftPx
                                      : at.x() + kGap + shift * kShiftPx;
                return QRectF(QPointF(x, at.y() - size.height() / 2 + half * size.height() / 2),
                              size);
            },
            true);
    }
}

void SearchPanel::plotResultMarkers() {
    QVector<double> baselineX, baselineY, bestX, bestY;
    if (m_result) {
        for (const BaselineScore& baseline : m_result->baselines)
            if (baseline.score) {
                baselineX << baseline.score->memoryPerDieBytes / kBytesPerGB;
                baselineY << SearchResultsModel::stepTime(*baseline.score);
            }
        bestX << m_result->best.memoryPerDieBytes / kBytesPerGB;
        bestY << SearchResultsModel::stepTime(m_result->best);
    }
    m_baselines->setData(baselineX, baselineY);
    m_best->setData(bestX, bestY, true);
    QVector<double> currentX, currentY;
    if (const std::optional<QPointF> current = currentPoint()) {
        currentX << current->x();
        currentY << current->y();
    }
    m_current->setData(currentX, currentY, true);
    highlightSelectedRow();
}

void SearchPanel::highlightSelectedRow() {
    QVector<double> x, y;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        m_picked.reset(); // a table row replaces a point picked on the scatter
    if (m_picked) {
        x << m_picked->memoryPerDieBytes / kBytesPerGB;
        y << m_picked->analyticStepS;
    } else if (!rows.isEmpty())
        if (const std::optional<StrategyScore> score = m_model->scoreAt(rows.front().row())) {
            x << score->memoryPerDieBytes / kBytesPerGB;
            y << SearchResultsModel::stepTime(*score);
        }
    m_selected->setData(x, y, true);
    m_scatter->replot(QCustomPlot::rpQueuedReplot);
}

void SearchPanel::finish(std::shared_ptr<const SearchResult> result, const QString& error,
                         bool cancelled) {
    drainProgress();
    m_buffer.reset();
    if (m_discardRunning) { // for a scenario no longer open
        m_discardRunning = false;
        clear();
        emit busyChanged(false);
        return;
    }
    if (!result) { // no count to show: stop the busy bar
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(cancelled ? tr("cancelled") : tr("failed"));
    }
    if (!result && cancelled) {
        m_status->setText(tr("Search cancelled before any strategy was evaluated."));
        emit statusMessage(tr("Search cancelled"));
    } else if (!result) {
        m_status->setText(tr("<span style='color:#c00'>The search could not run: %1</span>")
                              .arg(error.toHtmlEscaped()));
        emit statusMessage(tr("Search failed: %1").arg(error));
    } else {
        m_result = std::move(result);
        m_points.clear(); // the final list also has level 1's and the baselines' strategies
        addPoints(m_result->candidates);
        m_model->setResult(m_result);
        emit resultChanged(m_result, m_searched);
        // The bar, the text and the status line give the same counts: the genetic search's
        // evaluations against its budget, and beside them level 1's and the baselines'.
        const int genetic = m_result->evaluations;
        m_progress->setRange(0, std::max(1, m_runBudget));
        if (m_result->cancelled) {
            m_progress->setValue(std::min(genetic, m_progress->maximum()));
            m_progress->setFormat(
                tr("cancelled at %1 / %2 evaluations").arg(genetic).arg(m_runBudget));
        } else { // the GA may stop short of the budget once no new strategy turns up
            m_progress->setValue(m_progress->maximum());
            m_progress->setFormat(
                genetic < m_runBudget
                    ? tr("done: %1 / %2 evaluations (no new strategy left)")
                          .arg(genetic)
                          .arg(m_runBudget)
                    : tr("done: %1 / %2 evaluations").arg(genetic).arg(m_runBudget));
        }
        const StrategyScore& best = m_result->best;
        QString text = tr("<b>Best:</b> %1, %2 %3")
                           .arg(qs(best.label).toHtmlEscaped(),
                                secondsText(SearchResultsModel::stepTime(best)),
                                best.simulatedStepS ? tr("(simulated)") : tr("(model)"));
        QStringList speedups;
        for (const BaselineScore& baseline : m_result->baselines)
            if (baseline.score && SearchResultsModel::stepTime(best) > 0.0)
                speedups << tr("%1× over %2")
                                .arg(SearchResultsModel::stepTime(*baseline.score) /
                                         SearchResultsModel::stepTime(best),
                                     0, 'f', 2)
                                .arg(qs(baseline.name).toHtmlEscaped());
        if (!speedups.isEmpty())
            text += tr("<br>Speed-up: %1.").arg(speedups.join(QStringLiteral(", ")));
        text += tr("<br>%1 strategies evaluated (%2 of the genetic search's budget of %3, %4 by "
                   "level 1 and the baselines), %5 simulated.")
                    .arg(genetic + m_result->otherEvaluations)
                    .arg(genetic)
                    .arg(m_runBudget)
                    .arg(m_result->otherEvaluations)
                    .arg(m_result->simulations);
        for (const std::string& note : m_result->notes)
            text += QStringLiteral("<br><i>%1</i>").arg(qs(note).toHtmlEscaped());
        m_status->setText(text);
        emit statusMessage(
            cancelled || m_result->cancelled
                ? tr("Search cancelled: the best analytical candidate so far is %1")
                      .arg(qs(best.label))
                : tr("Search done: best %1, %2")
                      .arg(qs(best.label), secondsText(SearchResultsModel::stepTime(best))));
    }
    replot();
    refreshControls();
    emit busyChanged(false);
}

void SearchPanel::apply() {
    if (isBusy() || !resultMatchesDocument())
        return;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const int row = m_picked ? -1 : (rows.isEmpty() ? 0 : rows.front().row());
    const std::optional<StrategyScore> score = m_picked ? m_picked : m_model->scoreAt(row);
    if (!score) {
        emit statusMessage(tr("This baseline has no strategy to apply"));
        return;
    }
    const QString text =
        tr("Apply searched strategy: %1 (%2)")
            .arg(qs(score->label), secondsText(SearchResultsModel::stepTime(*score)));
    QString reason;
    if (m_document->applySearchedStrategy(m_searched, m_result->bestScenario, score->strategy, text,
                                          &reason))
        emit statusMessage(text);
    else
        emit statusMessage(tr("Not applied: %1").arg(reason));
}

bool SearchPanel::searchBlocking(int timeoutMs) {
    start();
    return m_runner->waitForIdle(timeoutMs) && m_result != nullptr;
}

} // namespace ws
