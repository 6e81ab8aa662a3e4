#pragma once

#include "mesh_view.h"
#include "scenario_analysis.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ws {

class ElidedLabel;

// Compare mode (docs/gui.md "Compare"). Pin keeps the result on screen; after
// any change of strategy (an edit, an undo, a search's Apply, another file) the table sets the
// pinned result's headline figures (report/report_comparison.h) beside the current one's with
// the change, green where better and red where worse, and "Heatmap: difference" colours the
// mesh by the current link loads minus the pinned ones, on one symmetric scale. Until a new
// result arrives for the current document the current column is marked as the previous one.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);

    // The document's result, once simulated; `stale` while a newer one is being simulated.
    void setCurrentAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    void setCurrentStale(bool stale);
    void pin();   // pins the current result (refused, with a message, when there is none)
    void unpin(); // forgets the pinned result; the mesh shows loads again
    bool isPinned() const { return m_pinned != nullptr; }
    std::shared_ptr<const ScenarioAnalysis> pinned() const { return m_pinned; }
    void setShowDifference(bool show);
    bool showsDifference() const;
    QTableWidget* table() const { return m_table; }
    QString statusText() const;

    // A result in one line: its headline time, the dies used, the strategy, the hardware and
    // the scenario's name.
    static QString describe(const ScenarioAnalysis& analysis);
    // Its headline time alone: "step 7.614 s", "makespan 24.4 µs".
    static QString headline(const ScenarioAnalysis& analysis);
    // "4 nodes of 8 GPUs (dgx-a100-selene)", "2 x 2 wafers of 6 x 8 dies", "a 6 x 8 wafer".
    static QString hardwareText(const ScenarioAnalysis& analysis);
    static QString usedText(const ScenarioAnalysis& analysis); // "16 of 32 GPUs used"; "" else

signals:
    // What the mesh should colour by; nullopt: its own loads.
    void differenceChanged(const std::optional<ws::MeshView::LinkDifference>& difference);
    void statusMessage(const QString& text);

private:
    void refresh();
    void publishDifference();

    std::shared_ptr<const ScenarioAnalysis> m_current;
    std::shared_ptr<const ScenarioAnalysis> m_pinned;
    bool m_currentStale = false;

    QPushButton* m_pinButton;
    QPushButton* m_unpinButton;
    QCheckBox* m_difference;
    ElidedLabel* m_pinnedLine;  // "Pinned: <strategy>: step 7.614 s", all of it in the tooltip
    ElidedLabel* m_currentLine; // likewise for the current result
    QLabel* m_status;           // a hint, or what is not comparable, or that it is stale
    QTableWidget* m_table;
};

} // namespace ws
