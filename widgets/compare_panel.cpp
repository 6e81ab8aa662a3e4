#include "compare_panel.h"

#include "elided_label.h"
#include "std_string_text.h"

#include "report/report_comparison.h"
#include "units/quantity.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ws {

namespace {

QString formatFigure(ReportFigure::Unit unit, double value) {
    switch (unit) {
    case ReportFigure::Unit::Seconds:
        return qs(formatSeconds(value));
    case ReportFigure::Unit::Bytes:
        return qs(formatBytes(value));
    case ReportFigure::Unit::Joules:
        return QStringLiteral("%1 J").arg(value, 0, 'g', 4);
    case ReportFigure::Unit::TokensPerSecond:
        return QStringLiteral("%1 tokens/s").arg(value, 0, 'g', 4);
    case ReportFigure::Unit::Fraction:
        return QStringLiteral("%1%").arg(value * 100, 0, 'f', 1);
    case ReportFigure::Unit::Count:
        return QString::number(value, 'f', 0);
    }
    return {};
}

const QColor kBetter(20, 120, 40);
const QColor kWorse(190, 30, 30);

} // namespace

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent) {
    // Wide and short, as the bottom dock area is: the controls on the left, the table beside.
    auto* layout = new QHBoxLayout(this);
    auto* controls = new QVBoxLayout;
    auto* buttons = new QHBoxLayout;
    m_pinButton = new QPushButton(tr("Pin this result"));
    m_pinButton->setObjectName(QStringLiteral("pinResult"));
    m_pinButton->setToolTip(tr("Keep the result on screen, then change the strategy to compare "
                               "(View > Pin result to compare, Ctrl+Shift+P)"));
    m_unpinButton = new QPushButton(tr("Unpin"));
    m_unpinButton->setObjectName(QStringLiteral("unpinResult"));
    m_difference = new QCheckBox(tr("Heatmap: difference"));
    m_difference->setObjectName(QStringLiteral("showDifference"));
    m_difference->setToolTip(tr("Colour every link by its load now minus its load in the pinned "
                                "result: red carries more now, blue less, one scale"));
    buttons->addWidget(m_pinButton);
    buttons->addWidget(m_unpinButton);
    buttons->addWidget(m_difference);
    buttons->addStretch(1);
    controls->addLayout(buttons);
    m_pinnedLine = new ElidedLabel;
    m_currentLine = new ElidedLabel;
    controls->addWidget(m_pinnedLine);
    controls->addWidget(m_currentLine);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    controls->addWidget(m_status);
    controls->addStretch(1);
    auto* controlsPane = new QWidget;
    controlsPane->setLayout(controls);
    controlsPane->setMaximumWidth(460);
    layout->addWidget(controlsPane, 2);
    m_table = new QTableWidget(0, 4);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setHorizontalHeaderLabels({tr("Figure"), tr("Pinned"), tr("Current"), tr("Change")});
    m_table->horizontalHeaderItem(3)->setToolTip(
        tr("(current − pinned) / pinned; green where the current result is better"));
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(m_table, 3);

    connect(m_pinButton, &QPushButton::clicked, this, &ComparePanel::pin);
    connect(m_unpinButton, &QPushButton::clicked, this, &ComparePanel::unpin);
    connect(m_difference, &QCheckBox::toggled, this, [this] { publishDifference(); });
    refresh();
}

QString ComparePanel::headline(const ScenarioAnalysis& analysis) {
    const SimulationReport& report = analysis.report;
    return report.step ? tr("step %1").arg(qs(formatSeconds(report.step->stepS)))
                       : tr("makespan %1").arg(qs(formatSeconds(report.makespanS)));
}

QString ComparePanel::hardwareText(const ScenarioAnalysis& analysis) {
    const Scenario& scenario = analysis.scenario;
    const HardwareSummary& hardware = analysis.report.hardware;
    QString text;
    if (scenario.cluster)
        text = tr("%1 nodes of %2 GPUs").arg(hardware.nodes).arg(hardware.gpusPerNode);
    else if (hardware.wafers)
        text = tr("%1 x %2 wafers of %3 x %4 dies")
                   .arg(hardware.wafers->first)
                   .arg(hardware.wafers->second)
                   .arg(scenario.wafer.rows)
                   .arg(scenario.wafer.cols);
    else
        text = tr("a %1 x %2 wafer").arg(scenario.wafer.rows).arg(scenario.wafer.cols);
    if (hardware.preset)
        text += QStringLiteral(" (%1)").arg(qs(*hardware.preset));
    return text;
}

QString ComparePanel::usedText(const ScenarioAnalysis& analysis) {
    if (!analysis.report.step)
        return {};
    const int total = analysis.topology ? analysis.topology->dieCount() : 0;
    const QString unit = analysis.scenario.cluster ? tr("GPUs") : tr("dies");
    return tr("%1 of %2 %3 used").arg(analysis.report.step->diesUsed).arg(total).arg(unit);
}

QString ComparePanel::describe(const ScenarioAnalysis& analysis) {
    // Most telling first, the scenario's (often long) name last: a narrow dock elides the end.
    QStringList parts{headline(analysis)};
    if (analysis.report.step)
        parts << usedText(analysis) << qs(analysis.report.step->strategy);
    parts << hardwareText(analysis)
          << (analysis.scenario.name.empty() ? tr("untitled") : qs(analysis.scenario.name));
    return parts.join(QStringLiteral(" · "));
}

void ComparePanel::setCurrentAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_current = std::move(analysis);
    m_currentStale = false;
    refresh();
    publishDifference();
}

void ComparePanel::setCurrentStale(bool stale) {
    if (m_currentStale == stale)
        return;
    m_currentStale = stale;
    refresh();
}

void ComparePanel::pin() {
    if (!m_current || m_currentStale) {
        emit statusMessage(tr("Nothing to pin: wait for the simulation to finish"));
        return;
    }
    m_pinned = m_current;
    emit statusMessage(tr("Pinned (%1): change the strategy to compare").arg(describe(*m_pinned)));
    refresh();
    publishDifference();
}

void ComparePanel::unpin() {
    m_pinned.reset();
    m_difference->setChecked(false);
    refresh();
    publishDifference();
}

void ComparePanel::setShowDifference(bool show) {
    m_difference->setChecked(show);
}

bool ComparePanel::showsDifference() const {
    return m_pinned && m_current && m_difference->isChecked() &&
           sameLinks(m_pinned->report, m_current->report);
}

QString ComparePanel::statusText() const {
    return QStringList{m_pinnedLine->fullText(), m_currentLine->fullText(), m_status->text()}.join(
        QLatin1Char('\n'));
}

void ComparePanel::publishDifference() {
    if (!showsDifference()) {
        emit differenceChanged(std::nullopt);
        return;
    }
    emit differenceChanged(
        MeshView::LinkDifference{m_pinned, tr("now − pinned (%1)").arg(headline(*m_pinned))});
}

void ComparePanel::refresh() {
    m_unpinButton->setEnabled(m_pinned != nullptr);
    m_pinButton->setEnabled(m_current && !m_currentStale);
    const bool comparable = m_pinned && m_current && sameLinks(m_pinned->report, m_current->report);
    m_difference->setEnabled(comparable);
    m_table->setRowCount(0);
    m_pinnedLine->setFullText(m_pinned ? tr("Pinned: %1").arg(describe(*m_pinned)) : QString());
    m_currentLine->setFullText(m_pinned && m_current ? tr("Current: %1").arg(describe(*m_current))
                                                     : QString());
    if (!m_pinned) {
        m_status->setText(tr("Pin a result, then change the strategy (or open another file): "
                             "the two are set side by side here."));
        return;
    }
    QStringList notes;
    if (m_currentStale)
        notes << tr("<i>Current: the previous result, while the edit is simulated…</i>");
    if (m_current && !comparable)
        notes << tr("Other hardware: no link-by-link difference.");
    // Fewer dies can raise MFU (per die used) while the rest sit idle: said, not coloured.
    if (m_current && m_current->report.step && m_current->topology &&
        m_current->report.step->diesUsed < m_current->topology->dieCount())
        notes << tr("<span style='color:#b35900'>Current leaves %1 of its %2 %3 idle.</span>")
                     .arg(m_current->topology->dieCount() - m_current->report.step->diesUsed)
                     .arg(m_current->topology->dieCount())
                     .arg(m_current->scenario.cluster ? tr("GPUs") : tr("dies"));
    m_status->setText(notes.join(QStringLiteral("<br>")));
    if (!m_current)
        return;
    const std::vector<FigureComparison> rows = compareReports(m_pinned->report, m_current->report);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const FigureComparison& row = rows[static_cast<std::size_t>(r)];
        auto cell = [&](int column, const QString& value) {
            auto* item = new QTableWidgetItem(value);
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, column, item);
            return item;
        };
        // The hardware's own word: GPUs on a cluster (docs/gui.md "Compare").
        const bool gpus = m_current->scenario.cluster.has_value();
        QString name = qs(row.name);
        if (gpus && row.name == "dies used")
            name = tr("GPUs used");
        else if (gpus && row.name == "D2D energy")
            name = tr("NVLink and network energy"); // a cluster has no die-to-die links
        cell(0, name)->setToolTip(row.lowerIsBetter ? tr("lower is better")
                                                    : tr("higher is better"));
        cell(1, row.pinned ? formatFigure(row.unit, *row.pinned) : tr("—"));
        cell(2, row.current ? formatFigure(row.unit, *row.current) : tr("—"));
        const std::optional<double> change = row.relativeChange();
        QTableWidgetItem* changed =
            cell(3, !change          ? tr("—")
                    : *change == 0.0 ? tr("same")
                                     : QStringLiteral("%1%2%")
                                           .arg(*change > 0 ? "+" : "−")
                                           .arg(std::abs(*change) * 100, 0, 'f',
                                                std::abs(*change) < 0.01 ? 2 : 1));
        if (row.verdict() != 0)
            changed->setForeground(row.verdict() > 0 ? kBetter : kWorse);
        if (m_currentStale)
            m_table->item(r, 2)->setForeground(QColor(140, 140, 140));
    }
}

} // namespace ws
