#include "advisor_panel.h"

#include "findings_model.h"
#include "scenario_document.h"
#include "std_string_text.h"
#include "vertical_scroll_area.h"

#include "advice/advisor.h"
#include "evaluation/run_options.h"
#include "units/quantity.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ws {

namespace {

// "strategy.balance = "speed"", one key per line (rich text).
QString fixText(const nlohmann::ordered_json& fix) {
    QStringList keys;
    for (auto it = fix.begin(); it != fix.end(); ++it)
        keys << QStringLiteral("<tt>%1 = %2</tt>")
                    .arg(qs(it.key()).toHtmlEscaped(), qs(it.value().dump()).toHtmlEscaped());
    return keys.join(QStringLiteral("<br>"));
}

// "3 findings: 2 warnings, 1 info".
QString countText(const std::vector<Finding>& findings) {
    if (findings.empty())
        return AdvisorPanel::tr("No findings: the simulation shows nothing to fix.");
    int counts[3] = {0, 0, 0}; // error, warning, info
    for (const Finding& finding : findings)
        ++counts[finding.severity == Finding::Severity::Error     ? 0
                 : finding.severity == Finding::Severity::Warning ? 1
                                                                  : 2];
    QStringList parts;
    if (counts[0] > 0)
        parts << (counts[0] == 1 ? AdvisorPanel::tr("1 error")
                                 : AdvisorPanel::tr("%1 errors").arg(counts[0]));
    if (counts[1] > 0)
        parts << (counts[1] == 1 ? AdvisorPanel::tr("1 warning")
                                 : AdvisorPanel::tr("%1 warnings").arg(counts[1]));
    if (counts[2] > 0)
        parts << AdvisorPanel::tr("%1 info").arg(counts[2]);
    return (findings.size() == 1 ? AdvisorPanel::tr("1 finding: %2")
                                 : AdvisorPanel::tr("%1 findings: %2").arg(findings.size()))
        .arg(parts.join(QStringLiteral(", ")));
}

} // namespace

AdvisorPanel::AdvisorPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_job(new BackgroundJob(this)),
      m_model(new FindingsModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    auto* top = new QHBoxLayout;
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("advisorStatus"));
    m_status->setWordWrap(true);
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // the advisor reports no fraction
    m_busy->setMaximumWidth(90);
    m_busy->setFormat(tr("advising"));
    m_busy->hide();
    top->addWidget(m_status, 1);
    top->addWidget(m_busy);
    layout->addLayout(top);

    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("advisorFindings"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTextElideMode(Qt::ElideRight); // the whole message is below, and in the tooltip
    m_view->setMinimumHeight(60);             // a short dock keeps a few rows and the details
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(FindingsModel::SeverityColumn,
                                           QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(FindingsModel::IdColumn, QHeaderView::ResizeToContents);

    auto* details = new QWidget;
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 2, 0, 0);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("advisorMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fix = new QLabel;
    m_fix->setObjectName(QStringLiteral("advisorFix"));
    m_fix->setWordWrap(true);
    m_fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_applyButton = new QPushButton(tr("Apply fix"));
    m_applyButton->setObjectName(QStringLiteral("applyFix"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_applyButton);
    buttons->addStretch(1);
    m_evidence = new QPlainTextEdit;
    m_evidence->setObjectName(QStringLiteral("advisorEvidence"));
    m_evidence->setReadOnly(true);
    m_evidence->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_evidence->setMinimumHeight(40);
    m_evidence->setPlaceholderText(tr("Select a finding to see the figures behind it"));
    m_evidence->setToolTip(tr("The simulation's figures behind the finding (times in seconds, "
                              "sizes in bytes), as `waferscope-cli advise --json` writes them"));
    detailsLayout->addWidget(m_message);
    detailsLayout->addWidget(m_fix);
    detailsLayout->addLayout(buttons);
    detailsLayout->addWidget(new QLabel(tr("Evidence:")));
    detailsLayout->addWidget(m_evidence, 1);

    // In a short dock (1280x720) the details scroll rather than cut the message off; the list
    // keeps at least a few rows.
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_view);
    splitter->addWidget(verticalScrollArea(details));
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);

    connect(m_job, &BackgroundJob::busyChanged, this, [this](bool busy) {
        m_busy->setVisible(busy);
        refreshControls();
        emit busyChanged(busy);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AdvisorPanel::showSelection);
    connect(m_applyButton, &QPushButton::clicked, this, &AdvisorPanel::applyFix);
    connect(m_document, &ScenarioDocument::scenarioChanged, this, [this] {
        // The run in flight is of a scenario the document no longer has: stop it, so that the
        // edit's re-simulation has the cores; that simulation's analysis starts a fresh run.
        if (m_running && !(m_running->scenario == m_document->scenario()))
            m_job->cancel();
        refreshControls();
    });
    connect(m_document, &ScenarioDocument::documentReplaced, this, &AdvisorPanel::clear);
    m_summary = tr("Waiting for the simulation…");
    showSelection();
}

AdvisorPanel::~AdvisorPanel() {
    // m_job cancels the run in flight; the worker holds only its own copy of the scenario.
}

void AdvisorPanel::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_latest = std::move(analysis);
    if (m_active)
        start();
    else
        refreshControls(); // says the list is of an earlier version
}

void AdvisorPanel::setActive(bool active) {
    m_active = active;
    if (!active)
        m_view->clearSelection(); // hidden, it points at nothing on the mesh or the timeline
    // Catch up with the edits made while hidden, once their simulation is in (an analysis of an
    // earlier document waits for the next one).
    if (active && m_latest && m_latest != m_advised && m_latest != m_running &&
        m_latest->scenario == m_document->scenario())
        start();
}

void AdvisorPanel::start() {
    if (!m_latest)
        return;
    m_running = m_latest;
    const Scenario scenario = m_latest->scenario;
    m_job->start<Findings>(
        [scenario](const JobToken& token) -> Findings {
            // As `waferscope-cli advise` runs it: the environment's overrides applied.
            RunOptions options = frontEndRunOptions();
            options.cancel = token.predicate();
            return std::make_shared<const std::vector<Finding>>(adviseScenario(scenario, options));
        },
        [this](Findings findings) { finish(findings, {}); },
        [this](const QString& error) { finish(nullptr, error); },
        [this](const std::optional<Findings>&) {
            m_running.reset();
            refreshControls();
        });
    refreshControls();
}

void AdvisorPanel::finish(const Findings& findings, const QString& error) {
    m_advised = std::exchange(m_running, nullptr);
    m_view->clearSelection();
    m_model->setFindings(findings ? *findings : std::vector<Finding>{});
    m_summary =
        findings ? countText(*findings)
                 : tr("<span style='color:#b00'>The advisor cannot run on this scenario: %1</span>")
                       .arg(error.toHtmlEscaped());
    // A strategy that does not fit: the nearest one that does is selected, one click from
    // applied (docs/gui.md "When a strategy no longer fits").
    if (m_model->rowOf("strategy_does_not_fit") >= 0 || m_model->rowOf("out_of_memory") >= 0)
        selectFinding(QStringLiteral("nearest_fitting_strategy"));
    showSelection();
    emit findingsChanged();
}

void AdvisorPanel::clear() {
    m_job->cancel(); // for the old document: its answer is not wanted
    m_latest.reset();
    m_running.reset();
    m_advised.reset();
    m_model->setFindings({});
    m_summary = tr("Waiting for the simulation…");
    showSelection();
    emit findingsChanged();
}

bool AdvisorPanel::isCurrent() const {
    return m_advised && !isBusy() && m_advised->scenario == m_document->scenario();
}

const Finding* AdvisorPanel::selectedFinding() const {
    // The selection, not the current index: selectionChanged comes before the current index
    // moves to a clicked row.
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? nullptr : m_model->findingAt(rows.front().row());
}

bool AdvisorPanel::selectFinding(const QString& id) {
    const int row = m_model->rowOf(id.toStdString());
    if (row < 0)
        return false;
    m_view->selectionModel()->setCurrentIndex(
        m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(m_model->index(row, 0));
    return true;
}

void AdvisorPanel::showSelection() {
    const Finding* finding = selectedFinding();
    std::optional<MeshView::FindingHighlight> highlight;
    std::optional<TimelineView::ShadedSpan> span;
    if (!finding) {
        m_message->setText(m_model->rowCount() > 0 ? tr("Select a finding.") : QString());
        m_fix->clear();
        m_evidence->clear();
    } else {
        const QString id = qs(finding->id);
        m_message->setText(QStringLiteral("<b style='color:%1'>%2</b> %3")
                               .arg(FindingsModel::severityColor(finding->severity).name(), id,
                                    qs(finding->message).toHtmlEscaped()));
        QString fix = finding->fix ? tr("<b>Fix:</b> %1").arg(fixText(*finding->fix))
                                   : tr("<i>No fix is known to help: the message says where to "
                                        "look.</i>");
        if (finding->fix && finding->fixBeforeS && finding->fixAfterS)
            fix += tr("<br>Simulated with the fix: %1 instead of %2.")
                       .arg(qs(formatSeconds(*finding->fixAfterS)),
                            qs(formatSeconds(*finding->fixBeforeS)));
        m_fix->setText(fix);
        m_evidence->setPlainText(qs(finding->evidence.dump(2)));
        // Links by their ends, as the advisor names them, on the topology the findings are for.
        MeshView::FindingHighlight shown{finding->dies, {}, id};
        if (m_advised)
            for (const auto& [from, to] : finding->links)
                if (m_advised->topology->contains(from) && m_advised->topology->contains(to))
                    if (const std::optional<LinkId> link =
                            m_advised->topology->linkBetween(from, to))
                        shown.links.push_back(*link);
        if (!shown.dies.empty() || !shown.links.empty())
            highlight = std::move(shown);
        if (finding->timeSpan)
            span = TimelineView::ShadedSpan{finding->timeSpan->first, finding->timeSpan->second,
                                            tr("advisor: %1").arg(id)};
    }
    refreshControls();
    emit meshHighlightChanged(highlight);
    emit timeSpanChanged(span);
}

void AdvisorPanel::refreshControls() {
    QString status = m_summary;
    if (isBusy())
        status = m_advised ? tr("Advising the latest edit… (the list is of the previous one)")
                           : tr("Advising…");
    else if (m_advised && !(m_advised->scenario == m_document->scenario()))
        status += tr("<br><i>These findings are for an earlier version of the scenario: they "
                     "are refreshed after its next simulation.</i>");
    m_status->setText(status);
    const Finding* finding = selectedFinding();
    const bool fixable = finding && finding->fix && isCurrent();
    m_applyButton->setEnabled(fixable);
    m_applyButton->setText(finding && finding->fix ? tr("Apply fix: %1").arg(qs(finding->id))
                                                   : tr("Apply fix"));
    m_applyButton->setToolTip(
        !finding        ? tr("Select a finding with a fix")
        : !finding->fix ? tr("This finding has no fix that a simulation showed to help")
        : !isCurrent()  ? tr("The findings are for an earlier version of the scenario")
                        : tr("Write the fix's keys into the scenario as one undo step"));
}

QString AdvisorPanel::statusText() const {
    return m_status->text();
}

void AdvisorPanel::applyFix() {
    const Finding* finding = selectedFinding();
    if (!finding || !finding->fix || !isCurrent())
        return;
    const QString id = qs(finding->id);
    const nlohmann::ordered_json fix = *finding->fix; // the document's edit resets the list
    QString reason;
    if (m_document->applyFix(id, fix, &reason))
        emit statusMessage(tr("Applied the fix of %1: %2").arg(id, qs(fix.dump())));
    else
        emit statusMessage(tr("Fix not applied: %1").arg(reason));
}

bool AdvisorPanel::waitForIdle(int timeoutMs) {
    return m_job->waitForIdle(timeoutMs);
}

} // namespace ws
