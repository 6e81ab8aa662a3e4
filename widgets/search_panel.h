#pragma once

#include "background_job.h"
#include "scenario_analysis.h"

#include "scenario/scenario.h"
#include "search/strategy_search.h"

#include <QPointF>
#include <QWidget>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QCheckBox;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace ws {

class ScenarioDocument;
class SearchResultsModel;

// The strategy search (docs/search.md) in a dock: budget, threads and seed; Search and Cancel with
// a progress bar (evaluations, best so far, time left); a live scatter of every candidate (step
// time against per-die memory, the Pareto front highlighted, the memory limits drawn); a table
// of the best strategies with the baselines beside them; Apply writes the selected strategy
// into the scenario as one undo command.
//
// The search runs off the GUI thread on the scenario as it was when Search was pressed; the
// worker hands its progress to a shared buffer that a 10 Hz timer drains, so that a fast search
// does not flood the event loop. Results stay after the document changes; Apply is offered only
// while the wafer and the workload are still those searched.
class SearchPanel : public QWidget {
    Q_OBJECT
public:
    explicit SearchPanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~SearchPanel() override;

    void start();
    void cancel();
    // Forgets the result (another scenario was opened); a search in flight is cancelled and
    // its result dropped.
    void clear();
    // Applies the candidate picked on the scatter, else the strategy of the selected table row
    // (the best when none is selected).
    void apply();
    // Picks the candidate nearest to `pixel` on the scatter for Apply (a click); false when none
    // is within a few pixels.
    bool pickCandidateAt(const QPointF& pixel);
    // Runs a search and waits for it (the GUI's --view search, tests); false on a timeout or
    // when the search could not run.
    bool searchBlocking(int timeoutMs = 120000);

    bool isBusy() const { return m_runner->isBusy(); }
    const SearchResult* result() const { return m_result.get(); }
    SearchResultsModel* resultsModel() const { return m_model; }
    QTableView* resultsView() const { return m_table; }
    QCustomPlot* scatter() const { return m_scatter; }
    // Candidates on the scatter so far, and how many of them lie on the Pareto front.
    int plottedCandidates() const { return static_cast<int>(m_points.size()); }
    int paretoPoints() const;
    // The hover text of the candidate nearest to `pixel` on the scatter (within a few
    // pixels): its strategy, step time and memory; empty when none is that close.
    QString candidateToolTip(const QPointF& pixel) const;
    // The document's own simulated result: drawn beside the best as "current strategy" while
    // its wafer and workload are those searched (docs/gui.md "Strategy search").
    void setCurrentAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    // The current strategy's point on the scatter (memory GB, step s), if it is drawn.
    std::optional<QPointF> currentPoint() const;
    void setBudget(int evaluations);
    void setThreads(int threads);

signals:
    void statusMessage(const QString& text);
    void busyChanged(bool busy);
    // The result shown changed: a search finished (`result`, for the scenario `searched`), or
    // the result was dropped (null: a new search started, or another document was opened).
    // The fault study takes its baselines from here.
    void resultChanged(std::shared_ptr<const ws::SearchResult> result,
                       const ws::Scenario& searched);

private:
    // Shared by the GUI thread and the worker: progress waits here until the next
    // progressTick takes it (throttled to kPollIntervalMs).
    struct ProgressBuffer {
        std::mutex mutex;
        SearchProgress latest;              // guarded by mutex
        std::vector<StrategyScore> pending; // guarded by mutex: candidates not yet plotted
    };
    struct Point {
        double memoryGB;
        double stepS;
        bool outOfMemory;
        StrategyScore score; // analytical
    };

    void drainProgress();
    void finish(std::shared_ptr<const SearchResult> result, const QString& error, bool cancelled);
    void showProgress(const SearchProgress& progress);
    void addPoints(const std::vector<StrategyScore>& scores);
    void replot();
    void plotResultMarkers();
    // Puts the off-axis note and each named point's label where it covers no other label,
    // marker or limit label (after every layout: the pixels move with the dock's size).
    void placePointLabels();
    void highlightSelectedRow();
    void refreshControls();
    // What the status says before a search: what it would search, or why it cannot.
    QString idleStatus() const;
    int candidateAt(const QPointF& pixel) const; // index into m_points, -1 for none
    bool resultMatchesDocument() const;

    ScenarioDocument* m_document;
    Scenario m_searched; // the scenario the current result (or the running search) is for
    BackgroundJob* m_runner;
    std::shared_ptr<ProgressBuffer> m_buffer; // the running search's; null when idle
    std::shared_ptr<const SearchResult> m_result;
    std::shared_ptr<const ScenarioAnalysis> m_currentAnalysis; // the document's, last simulated
    std::vector<Point> m_points;
    struct PointLabel {
        QCPItemText* item; // owned by m_scatter
        QPointF point;     // memory GB, step s
    };
    std::vector<PointLabel> m_pointLabels;   // best, baselines, current
    std::vector<QCPItemText*> m_limitLabels; // "SRAM", "SRAM + HBM"; owned by m_scatter
    QCPItemText* m_offAxisNote = nullptr;    // "n more out of memory"; owned by m_scatter
    std::optional<StrategyScore> m_picked;   // clicked on the scatter; cleared by a table selection
    bool m_discardRunning = false;           // the search in flight is for a replaced document
    double m_sramGB = 0.0;
    double m_sramHbmGB = 0.0;

    QSpinBox* m_budget;
    QSpinBox* m_threads;
    QSpinBox* m_seed;
    QCheckBox* m_polish;
    QPushButton* m_searchButton;
    QPushButton* m_cancelButton;
    QPushButton* m_applyButton;
    QProgressBar* m_progress;
    int m_runBudget = 0; // the genetic search's budget of the run shown
    QLabel* m_status;
    QCustomPlot* m_scatter;
    QCPGraph* m_candidates;
    QCPGraph* m_outOfMemory;
    QCPGraph* m_front;
    QCPGraph* m_baselines;
    QCPGraph* m_best;
    QCPGraph* m_current;
    QCPGraph* m_selected;
    QTableView* m_table;
    SearchResultsModel* m_model;
};

} // namespace ws
