#pragma once

#include "background_job.h"
#include "mesh_view.h"
#include "scenario_analysis.h"
#include "timeline_view.h"

#include "advice/finding.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeView;

namespace ws {

class FindingsModel;
class ScenarioDocument;

// The advisor (docs/advisor.md, docs/gui.md "Advisor") in a dock: the findings of the document's
// scenario, each with its severity, id and message, refreshed after every re-simulation.
// Selecting one shows its evidence and fix, outlines its dies and links on the mesh and shades
// its span of the timeline (meshHighlightChanged, timeSpanChanged: the window passes them on);
// Apply fix writes the fix into the scenario as one undo command ("Apply fix: <id>").
//
// The advisor simulates a few variants per finding (seconds on a large step), so it runs as a
// BackgroundJob on the scenario of each new analysis; an edit stops the run in flight (its
// scenario is stale) and the edit's analysis starts the next one. It runs only while the panel is
// on screen (setActive): a hidden dock costs nothing, and catches up with the latest analysis when
// shown. A fix is offered only while the findings are those of the document as it is now.
class AdvisorPanel : public QWidget {
    Q_OBJECT
public:
    explicit AdvisorPanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~AdvisorPanel() override;

    // The document's latest simulation (MainWindow: every analysis shown). Advised at once while
    // active, else when next activated.
    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    // Whether the panel is on screen (its dock's visibilityChanged). Active by default; hidden,
    // its selection is cleared, so that the mesh and the timeline point at nothing.
    void setActive(bool active);
    bool isActive() const { return m_active; }

    // Selects the first finding named `id`, as a click on its row does; false when none is.
    bool selectFinding(const QString& id);
    const Finding* selectedFinding() const;
    // Applies the selected finding's fix to the document (the Apply fix button): one undo
    // command, or a statusMessage saying why not.
    void applyFix();

    bool isBusy() const { return m_job->isBusy(); }
    // Spins the event loop until the advisor is idle (tests, the walkthrough's screenshots).
    bool waitForIdle(int timeoutMs = 60000);
    // The listed findings are those of the document's scenario as it is now.
    bool isCurrent() const;
    // The scenario the listed findings are for; null before the first answer.
    std::shared_ptr<const ScenarioAnalysis> advisedAnalysis() const { return m_advised; }
    FindingsModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QString statusText() const;

signals:
    // Where the selected finding shows; nullopt: nothing selected, or nothing to point at.
    void meshHighlightChanged(const std::optional<ws::MeshView::FindingHighlight>& highlight);
    void timeSpanChanged(const std::optional<ws::TimelineView::ShadedSpan>& span);
    void findingsChanged(); // a run answered, failed, or the list was cleared
    void busyChanged(bool busy);
    void statusMessage(const QString& text);

private:
    using Findings = std::shared_ptr<const std::vector<Finding>>;

    void start(); // advises m_latest
    void finish(const Findings& findings, const QString& error);
    void clear(); // another document: no findings until its analysis arrives
    void showSelection();
    void refreshControls();

    ScenarioDocument* m_document;
    BackgroundJob* m_job;
    std::shared_ptr<const ScenarioAnalysis> m_latest;  // the newest analysis told
    std::shared_ptr<const ScenarioAnalysis> m_running; // the one being advised
    std::shared_ptr<const ScenarioAnalysis> m_advised; // the one the list is for
    bool m_active = true;
    QString m_summary; // what the last answer found, or why there was none

    FindingsModel* m_model;
    QTreeView* m_view;
    QLabel* m_status;
    QProgressBar* m_busy;
    QLabel* m_message;
    QLabel* m_fix;
    QPushButton* m_applyButton;
    QPlainTextEdit* m_evidence;
};

} // namespace ws
