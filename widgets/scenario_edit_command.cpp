#include "scenario_edit_command.h"

#include "scenario_document.h"

namespace ws {

ScenarioEditCommand::ScenarioEditCommand(ScenarioDocument* document, const QString& text,
                                         Scenario before, Scenario after, int mergeId)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)),
      m_after(std::move(after)), m_mergeId(mergeId) {}

void ScenarioEditCommand::undo() {
    m_document->replaceScenario(m_before);
}

void ScenarioEditCommand::redo() {
    m_document->replaceScenario(m_after);
}

bool ScenarioEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* edit = static_cast<const ScenarioEditCommand*>(other); // same id() => same type
    m_after = edit->m_after;
    setText(edit->text());
    return true;
}

} // namespace ws
