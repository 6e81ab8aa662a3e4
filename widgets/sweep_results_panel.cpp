#include "sweep_results_panel.h"

#include "background_job.h"
#include "frozen_columns_table_view.h"
#include "legend_beside_axes.h"
#include "std_string_text.h"
#include "sweep_results_model.h"

#include "scenario/scenario_error.h"
#include "sweep/fault_sample.h"
#include "sweep/sweep_runner.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace ws {

namespace {

constexpr std::size_t kMaxLines = 8;    // lines drawn, each with a legend entry
constexpr int kMaxCategoryLabels = 24;  // tick labels on a text axis; the rest skipped
constexpr int kScatterPointLimit = 200; // beyond, lines without point markers
constexpr double kCategoryDodge = 0.08; // sideways step between lines' bars, in categories

// Tableau's categorical colours (the fault study's baselines' too), one per line.
constexpr std::array<QRgb, 8> kLineColours{0xff1f77b4, 0xffff7f0e, 0xff2ca02c, 0xff9467bd,
                                           0xff8c564b, 0xffe377c2, 0xff7f7f7f, 0xff17becf};
// Out-of-memory points: a red cross over the line's marker, in the legend of its own.
const QColor kOutOfMemoryColour(214, 39, 40);

QString valueText(const nlohmann::json& value) {
    return qs(value.is_string() ? value.get<std::string>() : value.dump());
}

} // namespace

// What the worker hands over: the output, its axes indexed, and the sweep file beside it.
struct SweepResultsPanel::Loaded {
    QString path;
    std::shared_ptr<const SweepOutput> output;
    std::shared_ptr<const std::vector<SweepAxisValues>> axes;
    std::vector<std::filesystem::path> candidates;
    std::shared_ptr<const SweepSpec> spec; // when exactly one candidate reads
    QString specError;
};

SweepResultsPanel::SweepResultsPanel(QWidget* parent)
    : QWidget(parent), m_job(new BackgroundJob(this)), m_model(new SweepResultsModel(this)),
      m_sorted(new QSortFilterProxyModel(this)) {
    m_chooseSweepFile = [this] {
        return QFileDialog::getOpenFileName(
            this, tr("Choose the sweep file these results came from"),
            QFileInfo(m_path).absolutePath(), tr("Sweep files (*.json);;All files (*)"));
    };
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(tr("No sweep results: File > Open a sweep's output (*.csv, *.jsonl)"));
    m_title->setObjectName(QStringLiteral("sweepResultsTitle"));
    top->addWidget(m_title, 1);
    m_chooseButton = new QPushButton(tr("Sweep file…"));
    m_chooseButton->setObjectName(QStringLiteral("chooseSweepFile"));
    m_chooseButton->setToolTip(tr("Choose the sweep file these results came from: a row's "
                                  "scenario is made from its base and axes"));
    m_openButton = new QPushButton(tr("Open scenario"));
    m_openButton->setObjectName(QStringLiteral("openSweepPoint"));
    m_openButton->setToolTip(tr("Open the selected row's scenario as a new document (or "
                                "double-click the row, or press Enter on it)"));
    top->addWidget(m_chooseButton);
    top->addWidget(m_openButton);
    layout->addLayout(top);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("sweepResultsNote"));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: gray"));
    layout->addWidget(m_note);

    auto* splitter = new QSplitter(Qt::Horizontal);
    m_model->setObjectName(QStringLiteral("sweepResultsModel"));
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(SweepResultsModel::SortRole);
    m_table = new FrozenColumnsTableView;
    m_table->setObjectName(QStringLiteral("sweepResultsTable"));
    m_table->setModel(m_sorted);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The axis columns name the row's point, and stay in view while the figures scroll.
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // the file's order
    m_table->setSortingEnabled(true);
    splitter->addWidget(m_table);

    auto* chartPane = new QWidget;
    auto* chart = new QVBoxLayout(chartPane);
    chart->setContentsMargins(0, 0, 0, 0);
    auto* choices = new QHBoxLayout;
    m_view = new QComboBox;
    m_view->setObjectName(QStringLiteral("sweepView"));
    m_view->addItem(tr("Chart"), static_cast<int>(View::Chart));
    m_view->addItem(tr("Regime map"), static_cast<int>(View::RegimeMap));
    m_view->setToolTip(tr("Regime map: the family whose best strategy wins at each pair of "
                          "values of two axes (a sweep with `search` only)"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("sweepMetric"));
    // Narrow enough to leave the table room in a 1280x720 window; the list shows whole names.
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_metric->setMinimumContentsLength(16);
    for (const SweepMetricInfo& info : sweepMetrics())
        m_metric->addItem(QStringLiteral("%1 (%2)").arg(tr(info.label), info.column),
                          static_cast<int>(info.metric));
    m_axis = new QComboBox;
    m_axis->setObjectName(QStringLiteral("sweepAxis"));
    m_axis->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_mapRows = new QComboBox;
    m_mapRows->setObjectName(QStringLiteral("sweepMapRows"));
    m_mapRows->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_plotLabel = new QLabel(tr("of"));
    m_againstLabel = new QLabel(tr("against"));
    m_andLabel = new QLabel(tr("by"));
    choices->addWidget(m_view);
    choices->addWidget(m_plotLabel);
    choices->addWidget(m_metric);
    choices->addWidget(m_againstLabel);
    choices->addWidget(m_axis);
    choices->addWidget(m_andLabel);
    choices->addWidget(m_mapRows);
    choices->addStretch(1);
    chart->addLayout(choices);
    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("sweepChartCaption"));
    m_caption->setWordWrap(true);
    chart->addWidget(m_caption);
    m_plot = new QCustomPlot;
    m_plot->setMinimumSize(320, 80); // the bottom row is short in a 1280x720 window
    m_plot->yAxis->setNumberFormat(QStringLiteral("gbc"));
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    placeLegendBesideAxes(*m_plot, legendFont);
    chart->addWidget(m_plot, 1);
    splitter->addWidget(chartPane);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    // Half each to start: the table's frozen axis columns need room for figures beside them.
    splitter->setSizes({1000, 1000});
    splitter->setHandleWidth(6); // a handle a user can find and grab
    layout->addWidget(splitter, 1);

    connect(m_view, &QComboBox::currentIndexChanged, this, [this] {
        showViewChoices();
        replot();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_mapRows, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (!m_map)
            return;
        const QString text = regimeToolTipAt(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    // A double-click or Enter on a row (the view's activation) opens its scenario.
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        openRow(index.data(SweepResultsModel::SourceRowRole).toInt());
    });
    connect(m_openButton, &QPushButton::clicked, this, &SweepResultsPanel::openCurrentRow);
    connect(m_chooseButton, &QPushButton::clicked, this, [this] {
        const QString path = m_chooseSweepFile();
        QString error;
        if (!path.isEmpty() && !setSweepFile(path, &error))
            emit statusMessage(error);
    });
    connect(m_job, &BackgroundJob::busyChanged, this, &SweepResultsPanel::busyChanged);
    refreshNote();
    showViewChoices();
    replot();
}

SweepResultsPanel::~SweepResultsPanel() = default;

bool SweepResultsPanel::isBusy() const {
    return m_job->isBusy();
}

bool SweepResultsPanel::waitForIdle(int timeoutMs) {
    return m_job->waitForIdle(timeoutMs);
}

void SweepResultsPanel::setSweepFileChooser(std::function<QString()> choose) {
    m_chooseSweepFile = std::move(choose);
}

void SweepResultsPanel::open(const QString& path) {
    m_loadingPath = path;
    m_title->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    const std::filesystem::path file(QFile::encodeName(path).toStdString());
    using Result = std::shared_ptr<const Loaded>;
    m_job->start<Result>(
        [file, path](const JobToken&) -> Result {
            auto loaded = std::make_shared<Loaded>();
            loaded->path = path;
            auto output = std::make_shared<const SweepOutput>(loadSweepOutput(file));
            loaded->axes =
                std::make_shared<const std::vector<SweepAxisValues>>(sweepAxisValues(*output));
            loaded->candidates = findSweepFiles(file.has_parent_path() ? file.parent_path()
                                                                       : std::filesystem::path("."),
                                                output->axes);
            if (loaded->candidates.size() == 1) {
                try {
                    loaded->spec =
                        std::make_shared<const SweepSpec>(loadSweep(loaded->candidates.front()));
                } catch (const std::exception& problem) {
                    loaded->specError = QString::fromStdString(problem.what());
                }
            }
            loaded->output = std::move(output);
            return loaded;
        },
        [this](Result loaded) { showLoaded(loaded); },
        [this](const QString& error) {
            m_title->setText(m_path.isEmpty() ? tr("No sweep results")
                                              : tr("%1: %2 rows")
                                                    .arg(QFileInfo(m_path).fileName())
                                                    .arg(m_output->rows.size()));
            emit loadFailed(error);
        });
}

void SweepResultsPanel::showLoaded(const std::shared_ptr<const Loaded>& loaded) {
    m_path = loaded->path;
    m_output = loaded->output;
    m_axes = loaded->axes;
    m_candidates = loaded->candidates;
    m_candidateError = loaded->specError;
    m_spec = loaded->spec;
    m_specPath = m_spec ? QString::fromStdString(m_candidates.front().string()) : QString();
    m_model->setOutput(m_output);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->resizeColumnsToContents();
    // The point's columns stay in view: its axes, and its sample when points repeat.
    const bool repeated = std::any_of(m_output->rows.begin(), m_output->rows.end(),
                                      [](const SweepRow& row) { return row.point.sample > 0; });
    m_table->setFrozenColumnCount(m_model->column(SweepResultsModel::SampleColumn) +
                                  (repeated ? 1 : 0));
    // The error column is as wide as the room left: its whole text is in the tooltip.
    m_table->horizontalHeader()->setStretchLastSection(true);

    const QSignalBlocker blockAxis(m_axis);
    const QSignalBlocker blockMetric(m_metric);
    const QSignalBlocker blockView(m_view);
    const QSignalBlocker blockMapRows(m_mapRows);
    m_axis->clear();
    m_mapRows->clear();
    for (const std::string& axis : m_output->axes) {
        m_axis->addItem(qs(axis));
        m_mapRows->addItem(qs(axis));
    }
    // The map's rows: the second axis (the first is across).
    m_mapRows->setCurrentIndex(m_output->axes.size() > 1 ? 1 : 0);
    // A search's output answers "which family wins where": the map first.
    m_view->setCurrentIndex(
        m_view->findData(static_cast<int>(canShowRegimeMap() ? View::RegimeMap : View::Chart)));
    showViewChoices();
    // Throughput when the sweep trained a model, else the makespan of its traffic.
    const bool training = std::any_of(m_output->rows.begin(), m_output->rows.end(),
                                      [](const SweepRow& row) { return row.tokensPerSecond; });
    setMetric(training ? SweepMetric::TokensPerSecond : SweepMetric::MakespanS);
    std::size_t failed = 0, oom = 0;
    for (const SweepRow& row : m_output->rows) {
        failed += row.ok ? 0 : 1;
        oom += row.outOfMemory ? 1 : 0;
    }
    m_title->setText(tr("<b>%1</b>: %2 rows over %3 axes · %4 failed · %5 out of memory")
                         .arg(QFileInfo(m_path).fileName().toHtmlEscaped())
                         .arg(m_output->rows.size())
                         .arg(m_output->axes.size())
                         .arg(failed)
                         .arg(oom));
    m_title->setToolTip(m_path);
    refreshNote();
    replot();
    emit outputLoaded(m_path);
}

bool SweepResultsPanel::setSweepFile(const QString& path, QString* error) {
    if (!m_output) {
        *error = tr("Open a sweep's results first");
        return false;
    }
    try {
        auto spec = std::make_shared<const SweepSpec>(
            loadSweep(std::filesystem::path(QFile::encodeName(path).toStdString())));
        std::vector<std::string> axes;
        for (const SweepAxis& axis : spec->axes)
            axes.push_back(axis.key);
        if (axes != m_output->axes) {
            QStringList theirs, ours;
            for (const std::string& axis : axes)
                theirs << qs(axis);
            for (const std::string& axis : m_output->axes)
                ours << qs(axis);
            *error =
                tr("%1: its axes are %2, the results' are %3: not the sweep these results "
                   "came from")
                    .arg(path, theirs.join(QStringLiteral(", ")), ours.join(QStringLiteral(", ")));
            return false;
        }
        m_spec = std::move(spec);
        m_specPath = path;
    } catch (const ScenarioError& problem) {
        *error = path + QStringLiteral(": ") + qs(problem.what());
        return false;
    }
    refreshNote();
    emit statusMessage(tr("Rows of %1 open their scenarios from %2")
                           .arg(QFileInfo(m_path).fileName(), QFileInfo(path).fileName()));
    return true;
}

void SweepResultsPanel::refreshNote() {
    const bool shown = m_output != nullptr;
    m_openButton->setEnabled(shown);
    m_chooseButton->setEnabled(shown);
    if (!shown) {
        m_note->setText(tr("Run a sweep with `waferscope-cli sweep SWEEP.json -o OUT.csv`, then "
                           "open OUT.csv: a table of its rows and a chart of any figure "
                           "against any axis."));
        return;
    }
    QString note;
    if (m_spec) {
        note = tr("Sweep file: %1. Double-click a row, press Enter on it or Open scenario to "
                  "open its scenario as a new document.")
                   .arg(QFileInfo(m_specPath).fileName());
    } else if (m_candidates.empty()) {
        note = tr("No sweep file with these axes beside the results: Open scenario will ask for "
                  "the sweep file these results came from (its base scenario and axes).");
    } else if (m_candidates.size() == 1) {
        note = tr("%1 has these axes but cannot be read (%2): Open scenario will ask for the "
                  "sweep file.")
                   .arg(qs(m_candidates.front().filename().string()), m_candidateError);
    } else {
        QStringList names;
        for (const std::filesystem::path& candidate : m_candidates)
            names << qs(candidate.filename().string());
        note = tr("Several sweep files beside the results have these axes (%1): Open scenario "
                  "will ask which one they came from.")
                   .arg(names.join(QStringLiteral(", ")));
    }
    if (m_output->droppedCutLine)
        note += tr(" The last line was cut short (a sweep interrupted or still running): left "
                   "out.");
    m_note->setText(note);
}

QString SweepResultsPanel::captionText() const {
    return m_caption->text();
}

QString SweepResultsPanel::noteText() const {
    return m_note->text();
}

void SweepResultsPanel::setView(View view) {
    m_view->setCurrentIndex(m_view->findData(static_cast<int>(view)));
}

SweepResultsPanel::View SweepResultsPanel::view() const {
    return static_cast<View>(m_view->currentData().toInt());
}

bool SweepResultsPanel::canShowRegimeMap() const {
    return m_output && hasRegimeMap(*m_output);
}

void SweepResultsPanel::showViewChoices() {
    const bool canMap = canShowRegimeMap();
    const bool map = canMap && view() == View::RegimeMap;
    m_view->setVisible(canMap);
    m_plotLabel->setText(canMap ? tr("of") : tr("Plot"));
    m_plotLabel->setVisible(!map);
    m_metric->setVisible(!map);
    m_againstLabel->setText(map ? tr("winning family across") : tr("against"));
    m_andLabel->setVisible(map);
    m_mapRows->setVisible(map);
}

void SweepResultsPanel::setMapRows(int axis) {
    m_mapRows->setCurrentIndex(axis);
}

int SweepResultsPanel::mapRows() const {
    return m_mapRows->currentIndex();
}

void SweepResultsPanel::setMetric(SweepMetric metric) {
    m_metric->setCurrentIndex(m_metric->findData(static_cast<int>(metric)));
}

void SweepResultsPanel::setAxis(int axis) {
    m_axis->setCurrentIndex(axis);
}

SweepMetric SweepResultsPanel::sweepMetric() const {
    return static_cast<SweepMetric>(m_metric->currentData().toInt());
}

int SweepResultsPanel::axis() const {
    return m_axis->currentIndex();
}

void SweepResultsPanel::openCurrentRow() {
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        emit statusMessage(tr("Select a row of the sweep results to open its scenario"));
        return;
    }
    openRow(current.data(SweepResultsModel::SourceRowRole).toInt());
}

bool SweepResultsPanel::openRow(int row) {
    if (!m_output || row < 0 || row >= static_cast<int>(m_output->rows.size()))
        return false;
    if (!m_spec) {
        const QString path = m_chooseSweepFile();
        if (path.isEmpty()) {
            emit statusMessage(tr("A row's scenario needs the sweep file the results came from "
                                  "(Sweep file…)"));
            return false;
        }
        QString error;
        if (!setSweepFile(path, &error)) {
            emit statusMessage(error);
            return false;
        }
    }
    const SweepRow& result = m_output->rows[static_cast<std::size_t>(row)];
    const std::optional<SweepPoint> point =
        sweepPointOf(*m_spec, result.point.values, result.point.sample);
    QStringList values;
    for (std::size_t a = 0; a < m_output->axes.size(); ++a)
        values << QStringLiteral("%1 %2").arg(qs(m_output->axes[a]),
                                              valueText(result.point.values[a]));
    if (!point) {
        emit statusMessage(tr("Row %1 (%2, sample %3) is not a point of %4: not the sweep these "
                              "results came from")
                               .arg(row + 1)
                               .arg(values.join(QStringLiteral(", ")))
                               .arg(result.point.sample)
                               .arg(QFileInfo(m_specPath).fileName()));
        return false;
    }
    FaultedScenario scenario;
    try {
        scenario = scenarioAt(*m_spec, *point);
    } catch (const std::exception& problem) {
        emit statusMessage(
            tr("Cannot make the scenario of row %1: %2").arg(row + 1).arg(qs(problem.what())));
        return false;
    }
    const QString name = QStringLiteral("%1_point%2.json")
                             .arg(QFileInfo(m_specPath).completeBaseName())
                             .arg(point->index);
    emit pointScenarioRequested(scenario.scenario, name);
    QString text = tr("Point %1 of %2: %3, sample %4")
                       .arg(point->index)
                       .arg(QFileInfo(m_specPath).fileName(), values.join(QStringLiteral(", ")))
                       .arg(point->sample);
    if (scenario.diesKilled + scenario.linksKilled + scenario.diesCutOff > 0)
        text += tr(" · faults drawn: %1 dies, %2 links, %3 dies cut off")
                    .arg(scenario.diesKilled)
                    .arg(scenario.linksKilled)
                    .arg(scenario.diesCutOff);
    if (!scenario.note.empty())
        text += QStringLiteral(" · ") + qs(scenario.note);
    emit statusMessage(text);
    return true;
}

void SweepResultsPanel::replot() {
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_map.reset();
    // The map's text tickers and fixed ranges undone: the chart sets its own x axis.
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->xAxis->setTickLabelRotation(0);
    m_plot->xAxis->grid()->setVisible(true);
    m_plot->yAxis->grid()->setVisible(true);
    if (canShowRegimeMap() && view() == View::RegimeMap)
        drawRegimeMap();
    else
        drawChart();
}

void SweepResultsPanel::drawChart() {
    if (!m_output || m_axis->currentIndex() < 0) {
        m_caption->setText(QString());
        m_plot->xAxis->setLabel(QString());
        m_plot->yAxis->setLabel(QString());
        m_plot->legend->setVisible(false);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const SweepMetricInfo& info = sweepMetricInfo(sweepMetric());
    const auto axisIndex = static_cast<std::size_t>(m_axis->currentIndex());
    const SweepChartData chart =
        sweepChartData(*m_output, *m_axes, info.metric, axisIndex, kMaxLines);
    const QString axisName = qs(m_output->axes[axisIndex]);
    const std::size_t lines = chart.series.size();
    double low = std::numeric_limits<double>::infinity();
    double high = -low, top = 0.0;
    QVector<double> oomX, oomY;
    int drawn = 0;
    for (std::size_t s = 0; s < lines; ++s) {
        const SweepChartSeries& series = chart.series[s];
        if (series.points.empty())
            continue; // every row of the combination failed: counted in the caption
        const QColor colour(kLineColours[s % kLineColours.size()]);
        const double dodge =
            chart.numericAxis || lines < 2 || chart.mostSamples < 2
                ? 0.0
                : (static_cast<double>(s) - static_cast<double>(lines - 1) / 2.0) * kCategoryDodge;
        QVector<double> x, mean, below, above;
        for (const SweepChartPoint& point : series.points) {
            x << point.x + dodge;
            mean << point.mean * info.scale;
            below << (point.mean - point.min) * info.scale;
            above << (point.max - point.mean) * info.scale;
            low = std::min(low, point.x);
            high = std::max(high, point.x);
            top = std::max(top, point.max * info.scale);
            if (point.outOfMemory) {
                oomX << point.x + dodge;
                oomY << point.mean * info.scale;
            }
        }
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(series.name.empty() ? tr(info.label) : qs(series.name));
        graph->setPen(QPen(colour, 2));
        if (series.points.size() <= static_cast<std::size_t>(kScatterPointLimit))
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
        graph->setData(x, mean, true);
        if (chart.mostSamples > 1) {
            auto* bars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
            bars->removeFromLegend(); // the caption says what the bars are
            bars->setDataPlottable(graph);
            bars->setErrorType(QCPErrorBars::etValueError);
            bars->setPen(QPen(colour, 1.2));
            bars->setWhiskerWidth(6);
            bars->setData(below, above);
        }
        ++drawn;
    }
    if (!oomX.isEmpty()) {
        QCPGraph* oom = m_plot->addGraph();
        oom->setName(tr("out of memory (%1)").arg(oomX.size()));
        oom->setLineStyle(QCPGraph::lsNone);
        oom->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross,
                                             QPen(kOutOfMemoryColour, 2.5), Qt::NoBrush, 12));
        oom->setData(oomX, oomY, true);
    }

    m_plot->xAxis->setLabel(axisName);
    m_plot->yAxis->setLabel(tr(info.label));
    if (chart.numericAxis) {
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        if (low > high) {
            low = 0.0;
            high = 1.0;
        }
        const double margin = (high > low ? high - low : std::max(std::abs(high), 1.0)) * 0.06;
        m_plot->xAxis->setRange(low - margin, high + margin);
    } else {
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        const int count = static_cast<int>(chart.categories.size());
        const int every = std::max(1, (count + kMaxCategoryLabels - 1) / kMaxCategoryLabels);
        for (int c = 0; c < count; c += every)
            ticker->addTick(c, qs(chart.categories[static_cast<std::size_t>(c)]));
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setTickLabelRotation(count > 8 ? 30 : 0);
        m_plot->xAxis->setRange(-0.5, std::max(count, 1) - 0.5);
    }
    // From 0: a sweep compares sizes (what a faster link or a larger tatp buys).
    m_plot->yAxis->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    m_plot->legend->setVisible(m_plot->graphCount() > 1 ||
                               (m_plot->graphCount() == 1 && !chart.series.front().name.empty()));

    QStringList caption;
    caption << tr("<b>%1</b> against <b>%2</b>")
                   .arg(tr(info.label).toHtmlEscaped(), axisName.toHtmlEscaped());
    if (chart.combinations > 1)
        caption << tr("one line per combination of the other axes");
    if (chart.mostSamples > 1)
        caption << tr("the mean of up to %1 samples, bars from the lowest to the highest")
                       .arg(chart.mostSamples);
    if (chart.combinations > kMaxLines)
        caption << tr("<span style='color:#a00000'>the first %1 of %2 combinations drawn: plot "
                      "against another axis to see the rest</span>")
                       .arg(kMaxLines)
                       .arg(chart.combinations);
    if (chart.failedRows > 0)
        caption << (chart.failedRows == 1
                        ? tr("1 failed row left out (grey in the table)")
                        : tr("%1 failed rows left out (grey in the table)").arg(chart.failedRows));
    if (chart.rowsWithoutValue > 0)
        caption << tr("%1 rows without %2 left out (no training step)")
                       .arg(chart.rowsWithoutValue)
                       .arg(info.column);
    if (chart.outOfMemoryPoints > 0)
        caption << tr("red crosses: points with a die out of memory");
    if (drawn == 0)
        caption << tr("nothing to draw");
    m_caption->setText(caption.join(QStringLiteral(" · ")));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

namespace {

// A family's colour on the map: Tableau's, as the chart's lines, fixed per family so that maps
// of different sweeps read alike. Unknown families (a newer file) are pink.
QColor familyColour(const std::string& family) {
    static const std::array<std::pair<const char*, QRgb>, 6> colours{{{"tatp", 0xff1f77b4},
                                                                      {"fsdp_hybrid", 0xffff7f0e},
                                                                      {"tp_sp", 0xff2ca02c},
                                                                      {"sp", 0xff9467bd},
                                                                      {"pp", 0xff8c564b},
                                                                      {"dp", 0xff7f7f7f}}};
    for (const auto& [name, rgb] : colours)
        if (family == name)
            return QColor(rgb);
    return QColor(0xffe377c2);
}

// The margin at which a cell is drawn in its family's full colour; closer calls are paler.
constexpr double kFullColourMargin = 0.25;
constexpr double kPalestShade = 0.3; // a margin of 0: 30% colour, 70% white
constexpr std::size_t kMostLabelledCells = 100;

QColor shaded(const QColor& colour, const std::optional<double>& margin) {
    // One family alone fits: as decided as a win can be.
    const double share =
        margin ? kPalestShade + (1.0 - kPalestShade) * std::min(1.0, *margin / kFullColourMargin)
               : 1.0;
    auto mix = [share](int channel) {
        return static_cast<int>(std::lround(255.0 * (1.0 - share) + channel * share));
    };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

QString mapSeconds(double value) {
    return QStringLiteral("%1 s").arg(value, 0, 'g', 4);
}

QString marginPercent(double fraction) {
    return QStringLiteral("%1%").arg(100.0 * fraction, 0, 'f', fraction < 0.1 ? 1 : 0);
}

} // namespace

void SweepResultsPanel::drawRegimeMap() {
    const auto xAxis = static_cast<std::size_t>(std::max(0, m_axis->currentIndex()));
    const auto yAxis = static_cast<std::size_t>(std::max(0, m_mapRows->currentIndex()));
    const QString xName = qs(m_output->axes[xAxis]);
    const QString yName = qs(m_output->axes[yAxis]);
    m_plot->legend->setVisible(false);
    if (xAxis == yAxis) {
        m_caption->setText(tr("<b>Winning family</b>: choose two different axes (across %1 by "
                              "%1 is not a map)")
                               .arg(xName.toHtmlEscaped()));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_map = sweepRegimeMap(*m_output, *m_axes, xAxis, yAxis);
    const SweepRegimeMap& map = *m_map;

    std::map<std::string, int> cellsWon;
    int nothingFits = 0;
    const bool labelled = map.cells.size() <= kMostLabelledCells;
    for (const SweepRegimeCell& cell : map.cells) {
        if (cell.samples == 0)
            continue; // no row at this pair of values (an interrupted sweep)
        auto* rect = new QCPItemRect(m_plot);
        rect->topLeft->setCoords(cell.column - 0.5, cell.row + 0.5);
        rect->bottomRight->setCoords(cell.column + 0.5, cell.row - 0.5);
        rect->setPen(QPen(Qt::white, 1.5));
        rect->setSelectable(false);
        if (cell.bestFamily.empty()) {
            ++nothingFits;
            rect->setBrush(QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
            continue;
        }
        ++cellsWon[cell.bestFamily];
        const QColor fill = shaded(familyColour(cell.bestFamily), cell.margin);
        rect->setBrush(fill);
        if (!labelled)
            continue;
        auto* text = new QCPItemText(m_plot);
        text->position->setCoords(cell.column, cell.row);
        text->setText(cell.margin ? QStringLiteral("+") + marginPercent(*cell.margin)
                                  : tr("alone"));
        text->setColor(fill.lightnessF() < 0.55 ? Qt::white : Qt::black);
        text->setSelectable(false);
    }

    // Swatches: bars without data that only name the colours, as the pipeline view's legend.
    for (const std::string& family : map.families) {
        auto* swatch = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        const int won = cellsWon[family];
        swatch->setName(won == 1 ? tr("%1 (1 cell)").arg(qs(family))
                                 : tr("%1 (%2 cells)").arg(qs(family)).arg(won));
        swatch->setBrush(familyColour(family));
        swatch->setPen(Qt::NoPen);
    }
    if (nothingFits > 0) {
        auto* swatch = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        swatch->setName(tr("nothing fits (%1)").arg(nothingFits));
        swatch->setBrush(QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
        swatch->setPen(QPen(QColor(150, 150, 150)));
    }
    m_plot->legend->setVisible(m_plot->plottableCount() > 0);

    auto textTicker = [](const std::vector<std::string>& values) {
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        const int count = static_cast<int>(values.size());
        const int every = std::max(1, (count + kMaxCategoryLabels - 1) / kMaxCategoryLabels);
        for (int v = 0; v < count; v += every)
            ticker->addTick(v, qs(values[static_cast<std::size_t>(v)]));
        return ticker;
    };
    m_plot->xAxis->setTicker(textTicker(map.columns));
    m_plot->yAxis->setTicker(textTicker(map.rows));
    m_plot->xAxis->setTickLabelRotation(map.columns.size() > 8 ? 30 : 0);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setRange(
        -0.5, static_cast<double>(std::max<std::size_t>(map.columns.size(), 1)) - 0.5);
    m_plot->yAxis->setRange(-0.5,
                            static_cast<double>(std::max<std::size_t>(map.rows.size(), 1)) - 0.5);
    m_plot->xAxis->setLabel(xName);
    m_plot->yAxis->setLabel(yName);

    QStringList caption;
    caption << tr("<b>Winning family</b> across <b>%1</b> by <b>%2</b>: the family whose best "
                  "strategy (searched, then simulated) is fastest")
                   .arg(xName.toHtmlEscaped(), yName.toHtmlEscaped());
    caption << tr("the figure: how much slower the runner-up family's best is; paler, a "
                  "closer call (full colour from +%1)")
                   .arg(marginPercent(kFullColourMargin));
    caption << tr("hover a cell for both families");
    if (!map.heldAxes.empty()) {
        QStringList held;
        for (const std::string& axis : map.heldAxes)
            held << qs(axis).toHtmlEscaped();
        const QString at = held.join(QStringLiteral(", "));
        if (map.rowsLeftOut == 0)
            caption << tr("at %1").arg(at);
        else if (map.rowsLeftOut == 1)
            caption << tr("at %1 (1 row at another value left out: choose other axes to see it)")
                           .arg(at);
        else
            caption << tr("at %1 (%2 rows at other values left out: choose other axes to see "
                          "them)")
                           .arg(at)
                           .arg(map.rowsLeftOut);
    }
    if (nothingFits > 0)
        caption << tr("hatched: no strategy fits in memory");
    m_caption->setText(caption.join(QStringLiteral(" · ")));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString SweepResultsPanel::regimeToolTipAt(const QPointF& pixel) const {
    if (!m_map)
        return QString();
    const double x = m_plot->xAxis->pixelToCoord(pixel.x());
    const double y = m_plot->yAxis->pixelToCoord(pixel.y());
    const auto column = static_cast<long>(std::lround(x));
    const auto row = static_cast<long>(std::lround(y));
    if (column < 0 || row < 0 || column >= static_cast<long>(m_map->columns.size()) ||
        row >= static_cast<long>(m_map->rows.size()))
        return QString();
    return regimeCellToolTip(static_cast<int>(column), static_cast<int>(row));
}

QString SweepResultsPanel::regimeCellToolTip(int column, int row) const {
    if (!m_map || column < 0 || row < 0 || column >= static_cast<int>(m_map->columns.size()) ||
        row >= static_cast<int>(m_map->rows.size()))
        return QString();
    const SweepRegimeMap& map = *m_map;
    const SweepRegimeCell& cell =
        map.at(static_cast<std::size_t>(column), static_cast<std::size_t>(row));
    if (cell.samples == 0)
        return QString();
    QStringList lines;
    lines << QStringLiteral("<b>%1 %2, %3 %4</b>")
                 .arg(qs(m_output->axes[map.xAxis]).toHtmlEscaped(),
                      qs(map.columns[static_cast<std::size_t>(column)]).toHtmlEscaped(),
                      qs(m_output->axes[map.yAxis]).toHtmlEscaped(),
                      qs(map.rows[static_cast<std::size_t>(row)]).toHtmlEscaped());
    if (cell.bestFamily.empty()) {
        lines << tr("No strategy fits in memory");
        return lines.join(QStringLiteral("<br>"));
    }
    lines << tr("Wins: <b>%1</b>, %2 step (%3)")
                 .arg(qs(cell.bestFamily), mapSeconds(cell.bestStepS),
                      qs(cell.bestStrategy).toHtmlEscaped());
    if (cell.runnerUpStepS && cell.margin)
        lines << tr("Runner-up: <b>%1</b>, %2 step (+%3)")
                     .arg(qs(cell.runnerUpFamily), mapSeconds(*cell.runnerUpStepS),
                          marginPercent(*cell.margin));
    else
        lines << tr("Runner-up: none (no other family fits in memory)");
    if (cell.samples > 1)
        lines << tr("%1 won %2 of %3 samples; step times are the means of those it won")
                     .arg(qs(cell.bestFamily))
                     .arg(cell.wins)
                     .arg(cell.samples);
    if (cell.failed > 0)
        lines << tr("%1 of %2 samples: nothing fits").arg(cell.failed).arg(cell.samples);
    return lines.join(QStringLiteral("<br>"));
}

} // namespace ws
