#pragma once

#include "scenario_analysis.h"

#include <QList>
#include <QPair>
#include <QTreeWidget>

#include <memory>

namespace ws {

// The DP and TATP groups as a tree (group, then its dies), and a drop target: dies dragged from
// the mesh onto a group join it, each trading places with the group's die in the same position
// (for a TATP group: the same stream position the die has now; for a DP group: the same
// replica), which keeps every group the same size. Asks for the swap with dieSwapRequested;
// the document checks it in core and refuses with a reason.
class GroupPanel : public QTreeWidget {
    Q_OBJECT
public:
    enum Roles { KindRole = Qt::UserRole + 1, GroupRole, DieRole };

    explicit GroupPanel(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    // What dropping `dies` on group `group` of kind "dp" or "tatp" asks for; empty with `text`
    // set to the reason when it cannot be done. Public for tests.
    QList<QPair<int, int>> swapsForDrop(const QList<int>& dies, const QString& kind, int group,
                                        QString* text) const;

    // A drop of `dies` at a viewport position: over a group (or one of its dies) it asks for
    // the swaps; false when nothing there accepts dies. dropEvent calls it.
    bool dropDies(const QList<int>& dies, const QPoint& position);

signals:
    void dieSwapRequested(const QList<QPair<int, int>>& swaps, const QString& text);
    void diesActivated(const QList<int>& dies); // a group or die was clicked
    void statusMessage(const QString& text);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QTreeWidgetItem* groupItemAt(const QPoint& position) const;

    std::shared_ptr<const ScenarioAnalysis> m_analysis;
};

} // namespace ws
