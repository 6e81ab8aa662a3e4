#include "main_window.h"

#include "advisor_panel.h"
#include "builtin_scenarios.h"
#include "charts_panel.h"
#include "compare_panel.h"
#include "die_inspector.h"
#include "elided_label.h"
#include "evaluation_runner.h"
#include "export_actions.h"
#include "fault_study_panel.h"
#include "focus_ring.h"
#include "group_panel.h"
#include "hardware_panel.h"
#include "link_flows_model.h"
#include "mesh_view.h"
#include "message_log.h"
#include "process_events_until.h"
#include "round_heatmap_control.h"
#include "scenario_document.h"
#include "search_panel.h"
#include "std_string_text.h"
#include "strategy_panel.h"
#include "sweep_results_panel.h"
#include "tcme_panel.h"
#include "timeline_view.h"
#include "vertical_scroll_area.h"
#include "walkthrough_panel.h"

#include "report/report_formats.h"
#include "units/quantity.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>
#include <QUndoView>
#include <QUrl>
#include <QVBoxLayout>

namespace ws {

namespace {

constexpr int kAutosaveIntervalMs = 60'000;
constexpr int kBusyIndicatorDelayMs = 150; // quick re-simulations should not flash a banner

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new ScenarioDocument(this)),
      m_runner(new EvaluationRunner(this)), m_mesh(new MeshView) {
    setCentralWidget(m_mesh);
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    createDocks();
    m_exports = new ExportActions(this, m_settings, m_document, m_mesh, m_charts, m_tcme);
    connect(m_exports, &ExportActions::statusMessage, this, &MainWindow::showStatus);
    createMenus();
    m_focusRing = new FocusRing(this); // every focus stop shows where Tab went

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("resultSummary"));
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // indeterminate: the simulator reports no fraction
    m_busy->setMaximumWidth(120);
    m_busy->setFormat(tr("simulating"));
    m_busy->hide();
    auto* cancel = new QPushButton(tr("Cancel"));
    cancel->setToolTip(tr("Stop waiting for this simulation and keep showing the previous result"));
    cancel->hide();
    cancel->setObjectName(QStringLiteral("cancelSimulation"));
    m_rerun = new QPushButton(tr("Re-run"));
    m_rerun->setObjectName(QStringLiteral("rerunSimulation"));
    m_rerun->setToolTip(tr("Simulate the document as it is now"));
    m_rerun->hide();
    // The latest message takes the room the figures leave, cut with "…" (all of it in its
    // tooltip and the Messages dock, which a click opens).
    m_message = new ElidedLabel;
    m_message->setObjectName(QStringLiteral("statusMessage"));
    connect(m_message, &ElidedLabel::clicked, this,
            [this] { showView(QStringLiteral("messages")); });
    statusBar()->addWidget(m_message, 1);
    statusBar()->addPermanentWidget(m_summary);
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(cancel);
    statusBar()->addPermanentWidget(m_rerun);
    connect(cancel, &QPushButton::clicked, m_runner, &EvaluationRunner::cancel);
    connect(m_rerun, &QPushButton::clicked, this, [this] {
        m_rerun->hide();
        m_runner->evaluate(m_document->scenario());
    });
    connect(m_runner, &EvaluationRunner::evaluationCancelled, this, [this, cancel] {
        m_busyDelay->stop();
        m_busy->hide();
        cancel->hide();
        m_mesh->setBanner(tr("Simulation cancelled: showing the previous result, which does not "
                             "include the latest edit"),
                          true);
        markResultStale(tr("cancelled, without the latest edit"));
        m_rerun->show();
        showStatus(tr("Simulation cancelled: Re-run simulates the document as it is now"));
    });
    m_busyDelay = new QTimer(this);
    m_busyDelay->setSingleShot(true);
    m_busyDelay->setInterval(kBusyIndicatorDelayMs);
    connect(m_busyDelay, &QTimer::timeout, this, [this, cancel] {
        m_busy->show();
        cancel->show();
        m_rerun->hide();
        m_mesh->setBanner(tr("Simulating…"));
        markResultStale(tr("simulating the latest edit"));
    });
    connect(m_runner, &EvaluationRunner::busyChanged, this, [this, cancel](bool busy) {
        if (busy) {
            m_busyDelay->start();
        } else {
            m_busyDelay->stop();
            m_busy->hide();
            cancel->hide();
        }
    });
    connect(m_runner, &EvaluationRunner::analysisReady, this, &MainWindow::onAnalysisReady);
    connect(m_runner, &EvaluationRunner::analysisFailed, this, &MainWindow::onAnalysisFailed);

    connect(m_document, &ScenarioDocument::scenarioChanged, this, [this] {
        // A refusal or an "Applied ..." was about the scenario before this change (an edit, an
        // undo): it would now be stale. The Messages dock keeps it.
        m_message->setStyleSheet(QString());
        m_message->setFullText(QString());
        m_runner->evaluate(m_document->scenario());
    });
    connect(m_document, &ScenarioDocument::documentReplaced, this, [this] {
        m_mesh->setTcmeOverlay(std::nullopt);
        m_mesh->setLinkLoadOverride(std::nullopt);
        m_mesh->setFindingHighlight(std::nullopt);
        m_timeline->setShadedSpan(std::nullopt);
        m_history->setEmptyLabel(tr("<opened>")); // the figure of the file before is gone
        updateTitle();
    });
    connect(m_document, &ScenarioDocument::modifiedChanged, this, [this] { updateTitle(); });
    connect(m_document, &ScenarioDocument::filePathChanged, this, [this] { updateTitle(); });

    connect(m_mesh, &MeshView::dieSwapRequested, this, &MainWindow::requestSwap);
    connect(m_mesh, &MeshView::dieSpeedRequested, this, [this](int die, double speed) {
        QString reason;
        if (m_document->setDieSpeed(die, speed, &reason))
            showStatus(
                speed == 1.0
                    ? tr("Die %1 runs at full speed").arg(die)
                    : tr("Die %1 runs at %2% of its peak").arg(die).arg(speed * 100, 0, 'g', 4));
        else
            showError(tr("Cannot set the speed: %1").arg(reason));
    });
    connect(m_mesh, &MeshView::dieDeadRequested, this, [this](int die, bool dead) {
        QString reason;
        if (m_document->setDieDead(die, dead, &reason))
            showStatus(dead ? tr("Die %1 is dead").arg(die) : tr("Die %1 is back").arg(die));
        else
            showError(tr("Cannot change die %1: %2").arg(die).arg(reason));
    });
    connect(m_mesh, &MeshView::linkDeadRequested, this, [this](int from, int to, bool dead) {
        QString reason;
        const auto analysis = m_mesh->analysis();
        if (analysis && m_document->setLinkDead(*analysis->topology, from, to, dead, &reason))
            showStatus(dead ? tr("Link %1->%2 is dead").arg(from).arg(to)
                            : tr("Link %1->%2 is back").arg(from).arg(to));
        else if (analysis)
            showError(tr("Cannot change link %1->%2: %3").arg(from).arg(to).arg(reason));
    });
    connect(m_mesh, &MeshView::statusMessage, this, &MainWindow::showStatus);
    connect(m_mesh, &MeshView::dieSelected, this, [this](int die) {
        m_dieInspector->showDie(die);
        if (die >= 0)
            m_inspectorTabs->setCurrentWidget(m_dieInspector);
    });
    connect(m_mesh, &MeshView::linkSelected, this, [this](int link) {
        m_linkFlows->setLink(m_mesh->analysis(), link);
        m_timeline->setLinkFilter(link >= 0 ? std::optional<LinkId>(link) : std::nullopt);
        if (link >= 0) {
            m_inspectorTabs->setCurrentWidget(m_linkFlowsView);
            m_linkFlowsView->resizeColumnsToContents();
        }
    });

    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setInterval(kAutosaveIntervalMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosave);
    m_autosaveTimer->start();

    resize(1440, 900);
    m_defaultLayout = saveState(); // before the last session's layout replaces it
    restoreGeometry(m_settings.windowGeometry());
    restoreState(m_settings.windowState());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
    auto dock = [this](const QString& title, const QString& name, QWidget* widget,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name); // for saveState
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    // Each form scrolls rather than make the window taller than a laptop screen (the whole
    // form's 943 px minimum once made the window 1,316 px tall), and is as wide as it needs,
    // with room for the vertical scroll bar: never cut on the right.
    m_strategy = new StrategyPanel(m_document);
    connect(m_strategy, &StrategyPanel::statusMessage, this, &MainWindow::showStatus);
    m_strategyDock = dock(tr("Strategy"), QStringLiteral("strategyDock"),
                          verticalScrollArea(m_strategy), Qt::LeftDockWidgetArea);
    m_hardware = new HardwarePanel(m_document);
    connect(m_hardware, &HardwarePanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_hardware, &HardwarePanel::compareNetworkModelsChanged, this, [this](bool compare) {
        m_runner->setCompareNetworkModels(compare);
        m_runner->evaluate(m_document->scenario());
    });
    m_hardwareDock = dock(tr("Hardware"), QStringLiteral("hardwareDock"),
                          verticalScrollArea(m_hardware), Qt::LeftDockWidgetArea);
    tabifyDockWidget(m_strategyDock, m_hardwareDock);

    m_groups = new GroupPanel;
    connect(m_groups, &GroupPanel::dieSwapRequested, this, &MainWindow::requestSwap);
    connect(m_groups, &GroupPanel::statusMessage, this, &MainWindow::showStatus);
    m_groupsDock =
        dock(tr("Groups"), QStringLiteral("groupsDock"), m_groups, Qt::LeftDockWidgetArea);
    tabifyDockWidget(m_hardwareDock, m_groupsDock);
    m_strategyDock->raise();

    m_tcme = new TcmePanel(m_document);
    connect(m_tcme, &TcmePanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_tcme, &TcmePanel::overlayChanged, this,
            [this](const std::optional<MeshView::TcmeOverlay>& overlay,
                   const std::optional<MeshView::LinkLoadOverride>& loads) {
                m_mesh->setTcmeOverlay(overlay);
                m_mesh->setLinkLoadOverride(loads);
            });
    m_tcmeDock =
        dock(tr("TCME optimizer"), QStringLiteral("tcmeDock"), m_tcme, Qt::RightDockWidgetArea);
    // The advisor beside TCME on the right, so that the mesh and the timeline its findings
    // point at stay in view (a bottom tab would hide the timeline).
    m_advisor = new AdvisorPanel(m_document);
    connect(m_advisor, &AdvisorPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_advisor, &AdvisorPanel::meshHighlightChanged, m_mesh, &MeshView::setFindingHighlight);
    m_advisorDock =
        dock(tr("Advisor"), QStringLiteral("advisorDock"), m_advisor, Qt::RightDockWidgetArea);
    tabifyDockWidget(m_tcmeDock, m_advisorDock);
    m_tcmeDock->raise();
    // It simulates a few variants per finding: only while it is on screen.
    m_advisor->setActive(false);
    connect(m_advisorDock, &QDockWidget::visibilityChanged, m_advisor, &AdvisorPanel::setActive);

    m_inspectorTabs = new QTabWidget;
    m_dieInspector = new DieInspector;
    m_linkFlows = new LinkFlowsModel(this);
    m_linkFlowsSorted = new QSortFilterProxyModel(this);
    m_linkFlowsSorted->setSourceModel(m_linkFlows);
    m_linkFlowsSorted->setSortRole(LinkFlowsModel::SortRole);
    m_linkFlowsView = new QTableView;
    m_linkFlowsView->setModel(m_linkFlowsSorted);
    m_linkFlowsView->setSortingEnabled(true);
    m_linkFlowsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_linkFlowsView->verticalHeader()->hide();
    m_linkFlowsView->horizontalHeader()->setStretchLastSection(true);
    connect(m_linkFlowsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                m_mesh->highlightFlow(
                    current.isValid() ? current.data(LinkFlowsModel::FlowIndexRole).toInt() : -1);
            });
    m_inspectorTabs->addTab(m_dieInspector, tr("Die"));
    m_inspectorTabs->addTab(m_linkFlowsView, tr("Link flows"));
    m_inspectorDock = dock(tr("Inspector"), QStringLiteral("inspectorDock"), m_inspectorTabs,
                           Qt::RightDockWidgetArea);

    m_history = new QUndoView(m_document->undoStack());
    m_history->setEmptyLabel(tr("<opened>"));
    m_historyDock =
        dock(tr("Undo history"), QStringLiteral("historyDock"), m_history, Qt::RightDockWidgetArea);
    tabifyDockWidget(m_inspectorDock, m_historyDock);
    m_inspectorDock->raise();
    auto* timelinePage = new QWidget;
    auto* timelineLayout = new QVBoxLayout(timelinePage);
    timelineLayout->setContentsMargins(4, 2, 4, 2);
    m_rounds = new RoundHeatmapControl;
    connect(m_rounds, &RoundHeatmapControl::loadsChanged, m_mesh, &MeshView::setLinkLoadOverride);
    timelineLayout->addWidget(m_rounds);
    m_timeline = new TimelineView;
    timelineLayout->addWidget(m_timeline, 1);
    connect(m_timeline, &TimelineView::flowActivated, this, [this](const QString& flowId) {
        const auto analysis = m_mesh->analysis();
        if (!analysis)
            return;
        const std::string id = flowId.toStdString();
        for (std::size_t flow = 0; flow < analysis->report.flows.size(); ++flow)
            if (analysis->report.flows[flow].id == id) {
                m_mesh->highlightFlow(static_cast<int>(flow));
                showStatus(tr("Flow %1: its route is drawn in blue on the mesh").arg(flowId));
                return;
            }
    });
    connect(m_timeline, &TimelineView::dieActivated, this,
            [this](int die) { m_mesh->selectDie(die); });
    connect(m_advisor, &AdvisorPanel::timeSpanChanged, m_timeline, &TimelineView::setShadedSpan);
    m_timelineDock = dock(tr("Timeline"), QStringLiteral("timelineDock"), timelinePage,
                          Qt::BottomDockWidgetArea);
    m_charts = new ChartsPanel;
    m_chartsDock =
        dock(tr("Charts"), QStringLiteral("chartsDock"), m_charts, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_timelineDock, m_chartsDock);
    m_search = new SearchPanel(m_document);
    connect(m_search, &SearchPanel::statusMessage, this, &MainWindow::showStatus);
    m_searchDock = dock(tr("Strategy search"), QStringLiteral("searchDock"), m_search,
                        Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_chartsDock, m_searchDock);

    m_messages = new MessageLog;
    m_messagesDock =
        dock(tr("Messages"), QStringLiteral("messagesDock"), m_messages, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_searchDock, m_messagesDock);
    m_compare = new ComparePanel;
    connect(m_compare, &ComparePanel::differenceChanged, m_mesh, &MeshView::setLinkDifference);
    connect(m_compare, &ComparePanel::statusMessage, this, &MainWindow::showStatus);
    m_compareDock =
        dock(tr("Compare"), QStringLiteral("compareDock"), m_compare, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_messagesDock, m_compareDock);
    m_faultStudy = new FaultStudyPanel(m_document);
    connect(m_faultStudy, &FaultStudyPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_search, &SearchPanel::resultChanged, m_faultStudy, &FaultStudyPanel::setSearchResult);
    m_faultStudyDock = dock(tr("Fault study"), QStringLiteral("faultStudyDock"), m_faultStudy,
                            Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_compareDock, m_faultStudyDock);
    m_sweepResults = new SweepResultsPanel;
    connect(m_sweepResults, &SweepResultsPanel::statusMessage, this, &MainWindow::showStatus);
    connect(m_sweepResults, &SweepResultsPanel::pointScenarioRequested, this,
            &MainWindow::openPointScenario);
    connect(m_sweepResults, &SweepResultsPanel::outputLoaded, this, [this](const QString& path) {
        m_settings.addRecentFile(QFileInfo(path).absoluteFilePath());
        m_settings.setLastDirectory(QFileInfo(path).absolutePath());
        updateRecentFilesMenu();
        showStatus(tr("Opened sweep results %1 (%2 rows)")
                       .arg(QFileInfo(path).fileName())
                       .arg(m_sweepResults->output()->rows.size()));
    });
    connect(m_sweepResults, &SweepResultsPanel::loadFailed, this, [this](const QString& problem) {
        if (!m_sweepOpenQuiet)
            QMessageBox::warning(this, tr("Cannot open sweep results"), problem);
        showError(problem);
        m_settings.removeRecentFile(QFileInfo(m_sweepResults->loadingPath()).absoluteFilePath());
        updateRecentFilesMenu();
    });
    m_sweepResultsDock = dock(tr("Sweep results"), QStringLiteral("sweepResultsDock"),
                              m_sweepResults, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_faultStudyDock, m_sweepResultsDock);
    m_timelineDock->raise();

    m_walkthrough = new WalkthroughPanel(*this, this);
    // No waiting: the tour's text follows the simulation and TCME as their answers arrive.
    connect(this, &MainWindow::analysisShown, m_walkthrough, &WalkthroughPanel::refresh);
    connect(m_tcme, &TcmePanel::busyChanged, m_walkthrough, &WalkthroughPanel::refresh);
    connect(m_advisor, &AdvisorPanel::findingsChanged, m_walkthrough, &WalkthroughPanel::refresh);
    m_walkthroughDock = dock(tr("Walkthrough"), QStringLiteral("walkthroughDock"), m_walkthrough,
                             Qt::LeftDockWidgetArea);
    tabifyDockWidget(m_strategyDock, m_walkthroughDock); // the whole left column when open
    m_walkthroughDock->hide();

    resizeDocks({m_strategyDock, m_tcmeDock}, {290, 420}, Qt::Horizontal);
    resizeDocks({m_timelineDock}, {260}, Qt::Vertical);
    resizeDocks({m_tcmeDock, m_inspectorDock}, {330, 300}, Qt::Vertical);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* examples = file->addMenu(tr("&New from example"));
    for (const BuiltinScenario& example : builtinScenarios()) {
        QAction* action = examples->addAction(example.title);
        connect(action, &QAction::triggered, this, [this, path = example.resourcePath] {
            if (maybeSave())
                openScenario(path);
        });
    }
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    updateRecentFilesMenu();
    file->addSeparator();
    QAction* saveAction = file->addAction(tr("&Save"), this, [this] { save(); });
    saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAsAction = file->addAction(tr("Save &as…"), this, [this] { saveAs(); });
    // Some platforms (offscreen, a bare X11 session) bind no key to the standard Save As.
    saveAsAction->setShortcut(QKeySequence(QKeySequence::SaveAs).isEmpty()
                                  ? QKeySequence(tr("Ctrl+Shift+S"))
                                  : QKeySequence(QKeySequence::SaveAs));
    QAction* reloadAction = file->addAction(tr("Re&load from disk"), this, [this] { reload(); });
    reloadAction->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    reloadAction->setToolTip(tr("Read the file again, for edits made outside WaferScope"));
    connect(file, &QMenu::aboutToShow, this,
            [this, reloadAction] { reloadAction->setEnabled(!m_document->filePath().isEmpty()); });
    file->addSeparator();
    QMenu* exports = file->addMenu(tr("&Export"));
    ExportActions* e = m_exports;
    exports->addAction(tr("Mesh view as PNG, SVG or PDF…"), e, &ExportActions::exportMeshImage);
    exports->addAction(tr("Timeline as Chrome trace (Perfetto)…"), e,
                       [e] { e->exportReport("trace"); });
    exports->addAction(tr("Link loads as CSV…"), e, [e] { e->exportReport("csv"); });
    exports->addAction(tr("Simulation report as JSON…"), e, [e] { e->exportReport("json"); });
    exports->addAction(tr("Per-die metrics as CSV…"), e, &ExportActions::exportDieMetrics);
    exports->addAction(tr("Chart as PNG, SVG or PDF…"), e, &ExportActions::exportChartImage);
    exports->addAction(tr("Launch settings for GPU frameworks…"), e,
                       &ExportActions::exportLaunchSettings);
    exports->addAction(tr("Tuned scenario…"), e, &ExportActions::exportTunedScenario);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    // Ctrl+Shift+Z, and Ctrl+Y, which most Linux and Windows applications also take for Redo.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(tr("Ctrl+Y"))))
        redoKeys << QKeySequence(tr("Ctrl+Y"));
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_metricGroup = new QActionGroup(this);
    const std::pair<LinkMetric, QString> metrics[] = {{LinkMetric::Bytes, tr("Ctrl+1")},
                                                      {LinkMetric::Utilization, tr("Ctrl+2")},
                                                      {LinkMetric::Conflicts, tr("Ctrl+3")}};
    for (const auto& [metric, shortcut] : metrics) {
        QAction* action =
            view->addAction(tr("Colour links by %1").arg(toDisplayString(metric).toLower()));
        action->setCheckable(true);
        action->setChecked(metric == m_mesh->linkMetric());
        action->setShortcut(QKeySequence(shortcut));
        m_metricGroup->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, metric = metric] { m_mesh->setMetric(metric); });
    }
    view->addSeparator();
    QAction* fit = view->addAction(tr("Zoom to &fit"), m_mesh, &MeshView::zoomToFit);
    fit->setShortcut(QKeySequence(tr("Ctrl+0")));
    QAction* zoomIn = view->addAction(tr("Zoom &in"), m_mesh, &MeshView::zoomIn);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(tr("Zoom &out"), m_mesh, &MeshView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction* ids = view->addAction(tr("Zoom to read &ids"), m_mesh, &MeshView::zoomToReadableIds);
    ids->setShortcut(QKeySequence(tr("Ctrl+9")));
    ids->setToolTip(tr("Zoom in until every die or GPU shows its id, about the selected one"));
    QAction* pin = view->addAction(tr("&Pin result to compare"), this, [this] {
        m_compareDock->show();
        m_compareDock->raise();
        m_compare->pin();
    });
    pin->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    pin->setToolTip(tr("Keep this result beside the next ones (the Compare dock)"));
    QAction* resetLayout = view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    resetLayout->setToolTip(tr("Every dock back where it first was, shown"));
    view->addSeparator();
    for (QDockWidget* dock :
         {m_strategyDock, m_hardwareDock, m_groupsDock, m_tcmeDock, m_advisorDock, m_inspectorDock,
          m_historyDock, m_compareDock, m_timelineDock, m_chartsDock, m_searchDock,
          m_faultStudyDock, m_sweepResultsDock, m_messagesDock, m_walkthroughDock})
        view->addAction(dock->toggleViewAction());

    QMenu* optimize = menuBar()->addMenu(tr("&Optimize"));
    // The TCME panel's own actions: enabled exactly when its buttons are.
    m_tcme->stepAction()->setShortcut(QKeySequence(Qt::Key_F10));
    m_tcme->runAction()->setShortcut(QKeySequence(Qt::Key_F5));
    for (QAction* action :
         {m_tcme->stepAction(), m_tcme->runAction(), m_tcme->resetAction(), m_tcme->applyAction()})
        optimize->addAction(action);
    optimize->addSeparator();
    QAction* search = optimize->addAction(tr("S&earch strategies"), this, [this] {
        m_searchDock->show();
        m_searchDock->raise();
        m_search->start();
    });
    search->setShortcut(QKeySequence(tr("Ctrl+F5")));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* walkthrough =
        help->addAction(tr("&Walkthrough: why FSDP and TATP collide"), this, [this] {
            if (!maybeSave())
                return;
            m_walkthroughDock->show();
            m_walkthroughDock->raise();
            m_walkthrough->start();
        });
    walkthrough->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        QMessageBox box(QMessageBox::NoIcon, tr("Keyboard shortcuts"), shortcutsText(),
                        QMessageBox::Close, this);
        box.setTextFormat(Qt::RichText);
        box.exec();
    });
    help->addAction(tr("&User guide"), this, [this] {
        const QString guide = userGuidePath();
        if (guide.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(guide)))
            showError(guide.isEmpty()
                          ? tr("The user guide is not on this machine: it is docs/gui.md (and "
                               "the rest of docs/) in WaferScope's source")
                          : tr("Could not open %1").arg(guide));
        else
            showStatus(tr("Opened the user guide, %1").arg(guide));
    });
    help->addAction(tr("&About WaferScope"), this, [this] {
        QMessageBox::about(
            this, tr("About WaferScope"),
            tr("<b>WaferScope</b> %1<br>Hybrid-parallel training on wafer-scale chips: "
               "link heatmaps, group editing, the TCME optimizer and a max-min fair "
               "fluid network simulator.")
                .arg(QApplication::applicationVersion()));
    });
}

QString MainWindow::userGuidePath() {
    const QFileInfo guide(QStringLiteral(WAFERSCOPE_DOCS_DIR "/gui.md"));
    return guide.exists() ? guide.canonicalFilePath() : QString();
}

bool MainWindow::isSweepOutput(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("csv") || suffix == QLatin1String("jsonl");
}

void MainWindow::openSweepResults(const QString& path, bool quiet) {
    m_sweepOpenQuiet = quiet;
    raiseSweepResults();
    m_sweepResults->open(path);
}

void MainWindow::raiseSweepResults() {
    m_sweepResultsDock->show();
    m_sweepResultsDock->raise();
    // Taller than the bottom row's 260 px: the table and the chart need rows to read.
    resizeDocks({m_sweepResultsDock}, {height() / 2}, Qt::Vertical);
}

void MainWindow::openChosenFile(const QString& path) {
    if (isSweepOutput(path))
        openSweepResults(path);
    else if (maybeSave())
        openScenario(path);
}

bool MainWindow::openPointScenario(const Scenario& scenario, const QString& name) {
    if (!maybeSave())
        return false;
    m_document->load(scenario, QString(), name);
    return true;
}

bool MainWindow::openScenario(const QString& path, QString* error, bool quiet) {
    if (isSweepOutput(path)) {
        openSweepResults(path, quiet);
        return true;
    }
    QString problem;
    if (!m_document->openFile(path, &problem)) {
        if (error)
            *error = problem;
        if (!quiet)
            QMessageBox::warning(this, tr("Cannot open scenario"), problem);
        showError(problem);
        if (!path.startsWith(QLatin1Char(':')))
            m_settings.removeRecentFile(QFileInfo(path).absoluteFilePath());
        updateRecentFilesMenu();
        return false;
    }
    if (!path.startsWith(QLatin1Char(':'))) {
        m_settings.addRecentFile(QFileInfo(path).absoluteFilePath());
        m_settings.setLastDirectory(QFileInfo(path).absolutePath());
        updateRecentFilesMenu();
    }
    showStatus(tr("Opened %1").arg(m_document->displayName()));
    return true;
}

QStringList MainWindow::viewNames() {
    return {
        QStringLiteral("mesh"),       QStringLiteral("strategy"),  QStringLiteral("groups"),
        QStringLiteral("tcme"),       QStringLiteral("inspector"), QStringLiteral("history"),
        QStringLiteral("timeline"),   QStringLiteral("charts"),    QStringLiteral("breakdown"),
        QStringLiteral("search"),     QStringLiteral("messages"),  QStringLiteral("walkthrough"),
        QStringLiteral("compare"),    QStringLiteral("hardware"),  QStringLiteral("advisor"),
        QStringLiteral("faultstudy"), QStringLiteral("sweep")};
}

bool MainWindow::showView(const QString& name) {
    if (name == QLatin1String("mesh")) {
        m_mesh->setFocus();
        return true;
    }
    if (name == QLatin1String("sweep")) {
        raiseSweepResults();
        return true;
    }
    if (name == QLatin1String("breakdown")) { // the Charts dock on its Step breakdown tab
        m_chartsDock->show();
        m_chartsDock->raise();
        m_charts->setCurrentChart(4);
        return true;
    }
    const std::pair<const char*, QDockWidget*> docks[] = {
        {"strategy", m_strategyDock}, {"groups", m_groupsDock},
        {"tcme", m_tcmeDock},         {"inspector", m_inspectorDock},
        {"history", m_historyDock},   {"timeline", m_timelineDock},
        {"charts", m_chartsDock},     {"search", m_searchDock},
        {"messages", m_messagesDock}, {"walkthrough", m_walkthroughDock},
        {"compare", m_compareDock},   {"hardware", m_hardwareDock},
        {"advisor", m_advisorDock},   {"faultstudy", m_faultStudyDock}};
    for (const auto& [dockName, dock] : docks)
        if (name == QLatin1String(dockName)) {
            dock->show();
            dock->raise();
            if (dock == m_walkthroughDock && m_walkthrough->currentText().isEmpty())
                m_walkthrough->start();
            if (dock == m_advisorDock) // on screen now: advise without waiting for the layout
                m_advisor->setActive(true);
            return true;
        }
    return false;
}

bool MainWindow::waitForIdle(int timeoutMs) {
    // The runner can be asked again while TCME applies: wait for both to settle.
    if (!processEventsUntil(
            [this] {
                return !m_runner->isBusy() && !m_tcme->isBusy() && !m_advisor->isBusy() &&
                       !m_sweepResults->isBusy();
            },
            timeoutMs))
        return false;
    QCoreApplication::processEvents();
    return true;
}

void MainWindow::onAnalysisReady(const std::shared_ptr<const ScenarioAnalysis>& analysis) {
    m_mesh->setBanner(analysis->groupsError.empty() ? QString() : qs(analysis->groupsError), true);
    m_mesh->setAnalysis(analysis);
    m_groups->setAnalysis(analysis);
    m_dieInspector->setAnalysis(analysis);
    m_charts->setAnalysis(analysis);
    m_search->setCurrentAnalysis(analysis);
    m_compare->setCurrentAnalysis(analysis);
    m_advisor->setAnalysis(analysis);
    m_linkFlows->setLink(analysis, m_mesh->selectedLink().value_or(-1));
    // The timeline shares the analysis's report (an aliasing pointer keeps the analysis alive).
    m_timeline->setReport(std::shared_ptr<const SimulationReport>(analysis, &analysis->report),
                          analysis->topology);
    m_rounds->setAnalysis(analysis);
    const SimulationReport& report = analysis->report;
    QString summary = tr("makespan %1").arg(qs(formatSeconds(report.makespanS)));
    if (report.step) {
        // MFU is per die used: the dies used beside it, and the bubble with pipeline stages.
        summary = tr("step %1 · %2 tokens/s · MFU %3% on %4")
                      .arg(qs(formatSeconds(report.step->stepS)))
                      .arg(report.step->tokensPerSecond, 0, 'g', 3)
                      .arg(report.step->mfu * 100, 0, 'f', 1)
                      .arg(ComparePanel::usedText(*analysis));
        if (report.step->ppBubbleFraction > 0)
            summary +=
                tr(" · pipeline bubble %1%").arg(report.step->ppBubbleFraction * 100, 0, 'f', 1);
        summary += tr(" · simulated window %1").arg(qs(formatSeconds(report.makespanS)));
    }
    if (const std::string hottest = hottestLinkText(report, *analysis->topology); !hottest.empty())
        summary += QStringLiteral(" · ") + qs(hottest);
    // Which model the figures come from, and the other one beside it when asked for.
    summary +=
        report.network.model == NetworkModel::Fluid
            ? tr(" · fluid network")
            : tr(" · store-and-forward, %1 chunks").arg(qs(formatBytes(report.network.chunkBytes)));
    if (const auto& comparison = analysis->networkComparison) {
        const auto timeOf = [](const NetworkModelOutcome& outcome) {
            return qs(formatSeconds(outcome.stepS.value_or(outcome.makespanS)));
        };
        summary += tr(" · fluid %1 vs store-and-forward %2 (%3x)")
                       .arg(timeOf(comparison->fluid), timeOf(comparison->storeAndForward))
                       .arg(comparison->ratio(), 0, 'f', 3);
    }
    m_summaryText = summary;
    QString explained = qs(networkModelSummary(report.network));
    if (report.step)
        explained += tr("\n\nstep: one whole training step. simulated window: the consecutive "
                        "layers (one micro-batch, forward and backward) that were simulated; the "
                        "step repeats its steady layer for the layers not simulated "
                        "(docs/training-model.md).");
    m_summary->setToolTip(explained);
    markResultCurrent();
    labelUndoState(analysis->scenario,
                   report.step ? tr("step %1").arg(qs(formatSeconds(report.step->stepS)))
                               : tr("makespan %1").arg(qs(formatSeconds(report.makespanS))));
    emit analysisShown(analysis);
}

void MainWindow::showRound(int round) {
    m_rounds->showRound(round);
}

void MainWindow::onAnalysisFailed(const QString& message,
                                  const std::shared_ptr<const ScenarioAnalysis>& hardware) {
    // The hardware as it is now (a fault added or gone, a resize), never the last result's.
    if (hardware && hardware->scenario == m_document->scenario()) {
        m_mesh->setAnalysis(hardware);
        m_groups->setAnalysis(hardware);
        m_dieInspector->setAnalysis(hardware);
        m_advisor->setAnalysis(hardware); // says why, and offers the nearest strategies that fit
    }
    // A refusal at a `strategy` key ("strategy.mapping: ..."): the strategy does not place on
    // this hardware, and the Advisor has the nearest strategies that do (docs/gui.md "When a
    // strategy no longer fits").
    const bool strategyRefused = message.startsWith(QLatin1String("strategy"));
    // The way out first: a long refusal is cut at the banner's foot (its tooltip has it all).
    m_mesh->setBanner(strategyRefused
                          ? tr("The strategy does not fit this hardware: the Advisor looks for "
                               "the nearest strategies that do. %1")
                                .arg(message)
                          : tr("Cannot simulate: %1").arg(message),
                      true);
    if (strategyRefused && hardware)
        bringViewForward(QStringLiteral("advisor"));
    markResultStale(tr("the document as it is now cannot be simulated"));
    labelUndoState(m_document->scenario(), tr("does not simulate"));
    showError(tr("Cannot simulate: %1").arg(message));
}

void MainWindow::labelUndoState(const Scenario& scenario, const QString& figure) {
    if (!(scenario == m_document->scenario()))
        return; // not the state the undo stack is at (an answer for an earlier request)
    QUndoStack* stack = m_document->undoStack();
    if (stack->index() == 0) {
        m_history->setEmptyLabel(tr("<opened> · %1").arg(figure));
    } else {
        // The history shows text(), the Edit menu actionText(): "shown\naction" sets both, so
        // Undo keeps reading "Undo Swap die 1 with die 5".
        auto* command = const_cast<QUndoCommand*>(stack->command(stack->index() - 1));
        const QString action = command->actionText();
        command->setText(action + QStringLiteral(" · ") + figure + QLatin1Char('\n') + action);
    }
    m_history->viewport()->update();
}

void MainWindow::markResultStale(const QString& why) {
    if (m_summaryText.isEmpty())
        return; // nothing shown yet
    m_summary->setProperty("stale", true);
    m_summary->setStyleSheet(QStringLiteral("color: gray; font-style: italic;"));
    m_summary->setText(tr("previous result (%1): %2").arg(why, m_summaryText));
    m_compare->setCurrentStale(true);
}

void MainWindow::markResultCurrent() {
    m_summary->setProperty("stale", false);
    m_summary->setStyleSheet(QString());
    m_summary->setText(m_summaryText);
    m_rerun->hide();
}

void MainWindow::requestSwap(const QList<QPair<int, int>>& swaps, const QString& text) {
    std::vector<std::pair<DieId, DieId>> pairs;
    for (const auto& [a, b] : swaps)
        pairs.emplace_back(a, b);
    QString reason;
    if (m_document->swapDies(pairs, text, &reason))
        showStatus(text);
    else
        showError(tr("Cannot move: %1").arg(reason));
}

void MainWindow::showStatus(const QString& text) {
    showMessage(text, MessageLog::Severity::Info);
}

void MainWindow::showError(const QString& text) {
    showMessage(text, MessageLog::Severity::Error);
}

void MainWindow::showMessage(const QString& text, MessageLog::Severity severity) {
    m_messages->add(text, severity);
    m_message->setStyleSheet(
        severity == MessageLog::Severity::Error ? QStringLiteral("color: #a00000;") : QString());
    m_message->setFullText(text);
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1[*] — WaferScope").arg(m_document->displayName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateRecentFilesMenu() {
    m_recentMenu->clear();
    const QStringList files = m_settings.recentFiles();
    for (const QString& path : files) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { openChosenFile(path); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::openDialog() {
    // Asked about unsaved edits only once the file is a scenario: sweep results keep the
    // document.
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open scenario or sweep results"), m_settings.lastDirectory(),
        tr("Scenarios and sweep results (*.json *.csv *.jsonl);;Scenarios (*.json);;Sweep "
           "results (*.csv *.jsonl);;All files (*)"));
    if (!path.isEmpty())
        openChosenFile(path);
}

bool MainWindow::save() {
    if (m_document->filePath().isEmpty() || isShippedPath(m_document->filePath()))
        return saveAs();
    QString error;
    if (!m_document->saveAs(m_document->filePath(), &error)) {
        QMessageBox::warning(this, tr("Cannot save"), error);
        return false;
    }
    m_recovery.forget();
    showStatus(tr("Saved %1").arg(m_document->filePath()));
    return true;
}

QString MainWindow::saveAsSuggestion() const {
    const QString file = m_document->filePath();
    if (!file.isEmpty() && !isShippedPath(file))
        return file;
    // Never the folder of the shipped examples, even when the user last opened one there.
    return folderToWriteIn(m_settings.lastDirectory()) + QLatin1Char('/') +
           m_document->displayName();
}

bool MainWindow::saveAs() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), saveAsSuggestion(),
                                                      tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_document->saveAs(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save"), error);
        return false;
    }
    m_settings.addRecentFile(m_document->filePath());
    m_settings.setLastDirectory(QFileInfo(path).absolutePath());
    updateRecentFilesMenu();
    m_recovery.forget();
    showStatus(tr("Saved %1").arg(path));
    return true;
}

bool MainWindow::reload() {
    const QString path = m_document->filePath();
    if (path.isEmpty()) {
        showError(
            tr("Nothing to reload: %1 was never saved to a file").arg(m_document->displayName()));
        return false;
    }
    if (m_document->isModified() &&
        QMessageBox::question(
            this, tr("Reload from disk"),
            tr("Discard the unsaved edits of %1 and read it again?").arg(m_document->displayName()),
            QMessageBox::Discard | QMessageBox::Cancel) != QMessageBox::Discard)
        return false;
    return openScenario(path);
}

void MainWindow::resetLayout() {
    restoreState(m_defaultLayout);
    showStatus(tr("Layout reset"));
}

QString MainWindow::shortcutsText() const {
    // Read off the menus, so that the list is never out of date.
    QString rows;
    const std::function<void(const QMenu*, const QString&)> visit = [&](const QMenu* menu,
                                                                        const QString& path) {
        for (const QAction* action : menu->actions()) {
            const QString name = QString(action->text()).remove(QLatin1Char('&'));
            if (action->menu() != nullptr)
                visit(action->menu(), path + name + QStringLiteral(" › "));
            else if (!action->shortcut().isEmpty())
                rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2%3</td></tr>")
                            .arg(action->shortcut().toString(QKeySequence::NativeText),
                                 path.toHtmlEscaped(), name.toHtmlEscaped());
        }
    };
    for (const QAction* top : menuBar()->actions())
        if (top->menu() != nullptr)
            visit(top->menu(),
                  QString(top->text()).remove(QLatin1Char('&')) + QStringLiteral(" › "));
    return tr("<table cellspacing='6'>%1</table><p>On the mesh: wheel zooms about the cursor, "
              "<b>+</b> and <b>-</b> zoom, <b>0</b> fits, <b>Esc</b> clears the selection; drag "
              "a die onto another to swap them.</p>")
        .arg(rows);
}

bool MainWindow::maybeSave() {
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::autosave() {
    if (!m_document->isModified())
        return;
    QString error;
    if (m_recovery.write(*m_document, &error)) // in the Messages dock, not over the status line
        m_messages->add(tr("Autosaved unsaved edits to %1").arg(AppSettings::autosavePath()),
                        MessageLog::Severity::Info);
    else
        showError(tr("Autosave failed: %1").arg(error));
}

bool MainWindow::offerRecovery(const std::function<bool(const AutosaveRecovery::Offer&)>& ask) {
    const std::optional<AutosaveRecovery::Offer> offer = m_recovery.pending();
    if (!offer)
        return false;
    const auto askUser = [this](const AutosaveRecovery::Offer& unsaved) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved edits"),
                        tr("WaferScope closed without saving your edits of %1. They were "
                           "autosaved at %2.")
                            .arg(unsaved.displayName,
                                 QLocale().toString(unsaved.savedAt, QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
        box.setInformativeText(tr("Restore them as unsaved edits, or discard them?"));
        QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.setDefaultButton(restore);
        box.exec();
        return box.clickedButton() == restore;
    };
    if (!(ask ? ask(*offer) : askUser(*offer))) {
        m_recovery.forget();
        showStatus(tr("Discarded the autosaved edits of %1").arg(offer->displayName));
        return false;
    }
    QString error;
    if (!m_recovery.restore(*m_document, &error)) {
        QMessageBox::warning(this, tr("Cannot recover edits"), error);
        showError(error);
        return false;
    }
    showStatus(
        tr("Restored the unsaved edits of %1 autosaved at %2")
            .arg(offer->displayName, QLocale().toString(offer->savedAt, QLocale::ShortFormat)));
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_recovery.forget(); // saved, discarded or never edited: nothing to offer at the next start
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    openChosenFile(urls.front().toLocalFile());
}

const Scenario& MainWindow::documentScenario() const {
    return m_document->scenario();
}

void MainWindow::openTeachingExample() {
    openScenario(defaultScenarioResource(), nullptr, true);
}

bool MainWindow::openExample(const Scenario& scenario, const QString& name) {
    // A file of the user's with unsaved edits is asked about; an edited built-in example (the
    // tour's own, after its TCME step) is not theirs to lose: Help > Walkthrough opens it again.
    if (!m_document->filePath().isEmpty() && !maybeSave())
        return false;
    m_document->load(scenario, QString(), name);
    showStatus(tr("Opened %1").arg(m_document->displayName()));
    return true;
}

std::shared_ptr<const ScenarioAnalysis> MainWindow::settledAnalysis() const {
    return m_runner->isBusy() ? nullptr : m_mesh->analysis();
}

void MainWindow::bringViewForward(const QString& name) {
    showView(name);
}

void MainWindow::selectLink(std::optional<LinkId> link) {
    m_mesh->selectLink(link);
}

void MainWindow::colourLinksBy(LinkMetric metric) {
    m_mesh->setMetric(metric);
}

void MainWindow::highlightFlowOnTimeline(const QString& flowId) {
    m_timeline->highlightFlow(flowId);
}

TcmePanel& MainWindow::tcme() {
    return *m_tcme;
}

AdvisorPanel& MainWindow::advisor() {
    return *m_advisor;
}

} // namespace ws
