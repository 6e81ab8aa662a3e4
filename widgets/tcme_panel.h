#pragma once

#include "background_job.h"
#include "mesh_view.h"

#include "scenario/scenario.h"
#include "tcme/tcme_engine.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace ws {

class ScenarioDocument;

// Steps the TCME optimizer on the document's scenario (docs/gui.md, TCME): Step runs one
// iteration, Run steps until a stop rule fires (and becomes Stop meanwhile), Reset starts
// over, Apply commits the tuned routes as one undo command. Every iteration is listed with its
// target link and actions, and charted (the largest link load against the start's, and the
// makespan per iteration). The heatmap's Before is the scenario as opened (before iteration 0)
// and its After the selected iteration's result, on one colour scale. Iterations run off the GUI
// thread, one at a time; the engine is rebuilt whenever the document changes under it.
class TcmePanel : public QWidget {
    Q_OBJECT
public:
    explicit TcmePanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~TcmePanel() override;

    void step();
    void run();
    void reset();
    void apply();
    // Runs up to `count` iterations synchronously (the GUI's --tcme-steps, tests); returns
    // how many ran.
    int stepBlocking(int count);
    bool waitForIdle(int timeoutMs = 60000);

    int iterationCount() const;
    // The iterations run so far, as TCME recorded them (empty before the first, or while one
    // runs: the engine is the job's then).
    std::vector<TcmeIteration> iterations() const;
    bool isBusy() const { return m_busy; }
    bool isFinished() const { return m_engine && m_engine->finished(); }
    QCustomPlot* chart() const { return m_chart; }
    QString statusText() const; // the panel's status line (rich text)
    // The scenario with the tuned routes pinned, once an iteration has changed something and
    // none is in flight (File > Export > Tuned scenario); nullopt otherwise.
    std::optional<Scenario> tunedScenario() const;
    // The heatmap shows the link loads after the selected iteration (true) or as the scenario
    // was opened, before any iteration (false).
    void showAfter(bool after);
    // Which of the objective's figures an iteration's kept change improved, in words.
    static QString keptBecause(const TcmeIteration& iteration);
    // Step, Run / Stop, Reset and Apply as actions (the Optimize menu), enabled exactly when
    // the panel's own buttons are.
    QAction* stepAction() const { return m_stepAction; }
    QAction* runAction() const { return m_runAction; }
    QAction* resetAction() const { return m_resetAction; }
    QAction* applyAction() const { return m_applyAction; }

signals:
    // What the mesh should show for the selected iteration; nullopts clear it.
    void overlayChanged(const std::optional<ws::MeshView::TcmeOverlay>& overlay,
                        const std::optional<ws::MeshView::LinkLoadOverride>& loads);
    void statusMessage(const QString& text);
    void busyChanged(bool busy);

private:
    struct StepOutcome {
        std::shared_ptr<WaferTopology> topology; // null when the step failed
        std::shared_ptr<TcmeEngine> engine;
        QString error;
    };

    void startStep();
    void finishStep(const StepOutcome& outcome);
    void setBusy(bool busy);
    void refreshControls(); // the buttons, then the actions that mirror them
    void refreshButtons();
    void refreshList();
    void refreshChart();
    void publishOverlay();
    int selectedIteration() const;
    // The action whose line is selected in the iteration list, or nullptr.
    const TcmeAction* selectedAction() const;
    void invalidate(); // the document changed: the engine no longer matches it

    ScenarioDocument* m_document;
    // The engine refers to its topology: both live and die together.
    std::shared_ptr<WaferTopology> m_topology;
    std::shared_ptr<TcmeEngine> m_engine;
    bool m_busy = false;
    bool m_running = false;   // Run pressed and not stopped
    bool m_cancelled = false; // the last Run was stopped by the user (TcmeStopReason::Cancelled)
    bool m_showAfter = true;
    bool m_applying = false; // our own Apply must not invalidate the engine mid-way
    BackgroundJob* m_job;    // the step in flight; invalidate() drops its answer

    QPushButton* m_stepButton;
    QPushButton* m_runButton;
    QPushButton* m_resetButton;
    QPushButton* m_applyButton;
    QPushButton* m_beforeButton;
    QPushButton* m_afterButton;
    QAction* m_stepAction;
    QAction* m_runAction;
    QAction* m_resetAction;
    QAction* m_applyAction;
    QLabel* m_status;
    QTreeWidget* m_iterations;
    QCustomPlot* m_chart;
};

} // namespace ws
