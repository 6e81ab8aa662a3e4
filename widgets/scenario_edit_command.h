#pragma once

#include "scenario/scenario.h"

#include <QUndoCommand>

namespace ws {

class ScenarioDocument;

// One user intention on the scenario (a drag of dies, a strategy change, TCME's tuned routes),
// stored as the scenario before and after: scenarios are small values, and storing both makes
// undo exact whatever the edit touched. Never holds view pointers (views are rebuilt).
class ScenarioEditCommand : public QUndoCommand {
public:
    // `mergeId` >= 0 lets consecutive edits of the same control (a spin box being stepped)
    // merge into one undo step; -1 never merges.
    ScenarioEditCommand(ScenarioDocument* document, const QString& text, Scenario before,
                        Scenario after, int mergeId = -1);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ScenarioDocument* m_document;
    Scenario m_before;
    Scenario m_after;
    int m_mergeId;
};

} // namespace ws
