#pragma once

#include "app_settings.h"
#include "autosave_recovery.h"
#include "message_log.h"
#include "scenario_analysis.h"
#include "walkthrough_host.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTimer;
class QUndoView;

namespace ws {

class FocusRing;

class AdvisorPanel;
class ChartsPanel;
class ComparePanel;
class DieInspector;
class ElidedLabel;
class EvaluationRunner;
class ExportActions;
class FaultStudyPanel;
class RoundHeatmapControl;
class GroupPanel;
class HardwarePanel;
class LinkFlowsModel;
class MeshView;
class ScenarioDocument;
class SearchPanel;
class StrategyPanel;
class SweepResultsPanel;
class TcmePanel;
class TimelineView;
class WalkthroughPanel;

// Wires the document, the background simulation, the central mesh view and the docks, and
// owns the menus (docs/architecture.md item 3: each dock is its own class; this only connects
// them). It hosts the walkthrough through the walkthrough's own small interface (privately:
// nothing else calls those methods).
class MainWindow : public QMainWindow, private WalkthroughHost {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a file or a ":/scenarios/..." example; errors go to a message box unless `quiet`,
    // and are returned in `error`. A sweep's output (isSweepOutput) does not replace the
    // document: it is read off the GUI thread into the Sweep results dock (openSweepResults).
    bool openScenario(const QString& path, QString* error = nullptr, bool quiet = false);
    // Where Save as proposes to write: the document's own file, else its name in the folder
    // last used, unless that is the folder of the shipped files (isShippedPath): then in the
    // user's documents folder.
    QString saveAsSuggestion() const;
    // Help > User guide: docs/gui.md of the source tree this app was built from, or "" when
    // it is not on this machine.
    static QString userGuidePath();
    // Shows a sweep's output in the Sweep results dock; the reading's errors go to the
    // Messages dock and, unless `quiet`, a message box. Returns at once: the dock fills in
    // when the file is read (waitForIdle waits for it).
    void openSweepResults(const QString& path, bool quiet = false);
    // A path File > Open reads as a sweep's output (*.csv, *.jsonl), not a scenario.
    static bool isSweepOutput(const QString& path);
    // Offers back edits an earlier session autosaved but never saved or discarded
    // (AutosaveRecovery). `ask` decides (true: restore, false: discard); a question box when
    // empty. Returns whether edits were restored.
    bool offerRecovery(const std::function<bool(const AutosaveRecovery::Offer&)>& ask = {});
    // Brings a named view to the front, for --view: mesh, strategy, groups, tcme, inspector,
    // history, messages, ... (viewNames). False for an unknown name.
    bool showView(const QString& name);
    static QStringList viewNames();
    // File > Reload from disk: reads the document's file again, after asking whether to discard
    // unsaved edits. False when there is no file, the user declined or the file cannot be read
    // (then the document is unchanged).
    bool reload();
    // View > Reset layout: every dock where the window first put it, shown or hidden as then.
    void resetLayout();
    // Help > Keyboard shortcuts: every menu action with a key, read off the menus (rich text).
    QString shortcutsText() const;
    // Waits until the simulation, TCME and the advisor are idle (screenshots, tests).
    bool waitForIdle(int timeoutMs = 60000);

    ScenarioDocument* document() const { return m_document; }
    EvaluationRunner* runner() const { return m_runner; }
    MeshView* meshView() const { return m_mesh; }
    TcmePanel* tcmePanel() const { return m_tcme; }
    SearchPanel* searchPanel() const { return m_search; }
    GroupPanel* groupPanel() const { return m_groups; }
    TimelineView* timelineView() const { return m_timeline; }
    ComparePanel* comparePanel() const { return m_compare; }
    WalkthroughPanel* walkthrough() const { return m_walkthrough; }
    ChartsPanel* chartsPanel() const { return m_charts; }
    AdvisorPanel* advisorPanel() const { return m_advisor; }
    FaultStudyPanel* faultStudyPanel() const { return m_faultStudy; }
    SweepResultsPanel* sweepResultsPanel() const { return m_sweepResults; }
    MessageLog* messageLog() const { return m_messages; }
    FocusRing* focusRing() const { return m_focusRing; }
    // Colours the mesh by one round's link loads (flows of collective step / TATP round
    // `round`); -1 shows the whole run again.
    void showRound(int round);

signals:
    // Every view now shows this analysis (after the runner's answer reached them all).
    void analysisShown(std::shared_ptr<const ws::ScenarioAnalysis> analysis);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createMenus();
    void updateTitle();
    void updateRecentFilesMenu();
    void onAnalysisReady(const std::shared_ptr<const ScenarioAnalysis>& analysis);
    void onAnalysisFailed(const QString& message,
                          const std::shared_ptr<const ScenarioAnalysis>& hardware);
    void requestSwap(const QList<QPair<int, int>>& swaps, const QString& text);
    // A message in the status line (until the next one) and the message log (until cleared).
    void showStatus(const QString& text);
    void showError(const QString& text);
    void showMessage(const QString& text, MessageLog::Severity severity);
    // The status bar's figures are of an earlier document than the current one (`why`), or
    // again of the current one. A stale result is greyed and says so.
    void markResultStale(const QString& why);
    void markResultCurrent();
    // Writes the analysis's step time (or makespan) beside the undo history's current state,
    // when the analysis is of that state: the history then compares the edits' effects.
    // Writes `figure` ("step 1.2 s") beside the undo step that led to `scenario`.
    void labelUndoState(const Scenario& scenario, const QString& figure);
    bool maybeSave(); // false: the user cancelled
    // A sweep row's scenario as a new untitled document, after the unsaved-changes prompt.
    bool openPointScenario(const Scenario& scenario, const QString& name);
    // Opens a scenario (after asking about unsaved edits) or a sweep's output (which keeps
    // the document): File > Open, recent files and drops.
    // Shows the Sweep results dock in front, half the window's height.
    void raiseSweepResults();
    void openChosenFile(const QString& path);
    bool save();
    bool saveAs();
    void openDialog();
    void autosave();

    // WalkthroughHost
    const Scenario& documentScenario() const override;
    void openTeachingExample() override;
    bool openExample(const Scenario& scenario, const QString& name) override;
    std::shared_ptr<const ScenarioAnalysis> settledAnalysis() const override;
    void bringViewForward(const QString& name) override;
    void selectLink(std::optional<LinkId> link) override;
    void colourLinksBy(LinkMetric metric) override;
    void highlightFlowOnTimeline(const QString& flowId) override;
    TcmePanel& tcme() override;
    AdvisorPanel& advisor() override;

    AppSettings m_settings;
    AutosaveRecovery m_recovery;
    ScenarioDocument* m_document;
    EvaluationRunner* m_runner;
    MeshView* m_mesh;
    StrategyPanel* m_strategy = nullptr;
    HardwarePanel* m_hardware = nullptr;
    GroupPanel* m_groups = nullptr;
    TcmePanel* m_tcme = nullptr;
    SearchPanel* m_search = nullptr;
    DieInspector* m_dieInspector = nullptr;
    LinkFlowsModel* m_linkFlows = nullptr;
    QSortFilterProxyModel* m_linkFlowsSorted = nullptr;
    QTableView* m_linkFlowsView = nullptr;
    QTabWidget* m_inspectorTabs = nullptr;
    QDockWidget* m_strategyDock = nullptr;
    QDockWidget* m_groupsDock = nullptr;
    QDockWidget* m_tcmeDock = nullptr;
    QDockWidget* m_inspectorDock = nullptr;
    QDockWidget* m_historyDock = nullptr;
    QUndoView* m_history = nullptr;
    QDockWidget* m_compareDock = nullptr;
    QDockWidget* m_hardwareDock = nullptr;
    QDockWidget* m_timelineDock = nullptr;
    QDockWidget* m_walkthroughDock = nullptr;
    TimelineView* m_timeline = nullptr;
    WalkthroughPanel* m_walkthrough = nullptr;
    ChartsPanel* m_charts = nullptr;
    ComparePanel* m_compare = nullptr;
    ExportActions* m_exports = nullptr;
    QDockWidget* m_chartsDock = nullptr;
    QDockWidget* m_searchDock = nullptr;
    AdvisorPanel* m_advisor = nullptr;
    QDockWidget* m_advisorDock = nullptr;
    FaultStudyPanel* m_faultStudy = nullptr;
    QDockWidget* m_faultStudyDock = nullptr;
    SweepResultsPanel* m_sweepResults = nullptr;
    QDockWidget* m_sweepResultsDock = nullptr;
    bool m_sweepOpenQuiet = false; // the sweep output being read was opened quietly
    RoundHeatmapControl* m_rounds = nullptr;
    QMenu* m_recentMenu = nullptr;
    QActionGroup* m_metricGroup = nullptr;
    QLabel* m_summary = nullptr;
    QString m_summaryText;      // the latest result's figures, without a stale mark
    QByteArray m_defaultLayout; // saveState() of the docks as createDocks placed them
    ElidedLabel* m_message = nullptr;
    QPushButton* m_rerun = nullptr;
    MessageLog* m_messages = nullptr;
    FocusRing* m_focusRing = nullptr;
    QDockWidget* m_messagesDock = nullptr;
    QProgressBar* m_busy = nullptr;
    QTimer* m_busyDelay = nullptr;
    QTimer* m_autosaveTimer = nullptr;
};

} // namespace ws
