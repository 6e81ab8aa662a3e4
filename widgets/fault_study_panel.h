#pragma once

#include "background_job.h"

#include "scenario/scenario.h"
#include "search/strategy_search.h"
#include "sweep/fault_study.h"

#include <QString>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace ws {

class ScenarioDocument;

// The fault study (docs/gui.md "Fault study"; core: sweep/fault_study.h) in a dock: what dead
// links or dead dies do to the throughput of the document's strategy and of the last strategy
// search's baselines. Choose the kind, the largest rate and its step, the samples per rate and
// the seed, then Run; the study runs off the GUI thread with a progress bar (simulations done
// of all), and Cancel stops it at its next poll. The plot draws tokens per second against the
// fault rate, one line per strategy: the mean of the samples that simulated, with bars from the
// lowest to the highest; samples that did not simulate are counted in the legend and explained
// below the buttons.
//
// The faults are those of `waferscope-cli sweep` over faults.link_rate (or faults.die_rate)
// with the same samples and seed, so the CLI reproduces any point. Results stay after an edit
// (marked as of an earlier version); another document clears them.
class FaultStudyPanel : public QWidget {
    Q_OBJECT
public:
    explicit FaultStudyPanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~FaultStudyPanel() override;

    void start(); // Run
    void cancel();
    // The last strategy search (SearchPanel::resultChanged): its baselines join the study while
    // the document's wafer and workload are those it searched. Null: no search.
    void setSearchResult(std::shared_ptr<const SearchResult> result, const Scenario& searched);
    void setKind(FaultKind kind);
    void setRates(double maxRate, double step);
    void setSamples(int samples);

    // The strategies a Run would study now: the document's own, then each baseline that has a
    // configuration, in the search's order.
    std::vector<FaultStudyStrategy> strategiesToStudy() const;
    bool isBusy() const { return m_job->isBusy(); }
    // Spins the event loop until the study is idle (tests, screenshots).
    bool waitForIdle(int timeoutMs = 120000);
    const FaultStudyResult* result() const { return m_result.get(); }
    QCustomPlot* plot() const { return m_plot; }
    QString hintText() const;
    QString statusText() const;
    // What hovering the plot at `pixel` shows: the nearest drawn point within a few pixels (a
    // rate of one strategy: its throughput over the samples that ran, the samples out of memory
    // and re-planned, and why the first failed), or "" when none is near.
    QString pointToolTipAt(const QPointF& pixel) const;

signals:
    void statusMessage(const QString& text);
    void busyChanged(bool busy);

private:
    // Written by the worker, read by the progress tick (BackgroundJob throttles the ticks).
    struct Progress {
        std::atomic<int> done{0};
        std::atomic<int> total{0};
    };
    using Result = std::shared_ptr<const FaultStudyResult>;

    void finish(Result result, const QString& error, bool cancelled);
    void drainProgress();
    void clear();            // another document: the result is not of it
    bool onCluster() const;  // the document is a GPU cluster: its dies are GPUs
    void useHardwareWords(); // "dies" on a wafer, "GPUs" on a cluster
    void replot();
    void refreshControls();
    QString failureNotes() const;
    // The rate at which curve `curve`'s points are drawn: nudged sideways by a hair per curve,
    // so that one strategy's bars do not hide another's at the same rate.
    double drawnRate(std::size_t curve, double rate) const;

    ScenarioDocument* m_document;
    BackgroundJob* m_job;
    std::shared_ptr<Progress> m_progressShared; // the running study's
    std::shared_ptr<const SearchResult> m_search;
    Scenario m_searched;
    Result m_result;
    Scenario m_studied; // the scenario of m_result, or of the study in flight
    int m_studiedSamples = 0;
    bool m_discardRunning = false; // the study in flight is for a replaced document

    QComboBox* m_kind;
    QDoubleSpinBox* m_maxRate;
    QDoubleSpinBox* m_step;
    QSpinBox* m_samples;
    QSpinBox* m_seed;
    QPushButton* m_runButton;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QLabel* m_hint;
    QLabel* m_status;
    QCustomPlot* m_plot;
};

} // namespace ws
