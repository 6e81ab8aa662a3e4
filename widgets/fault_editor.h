#pragma once

#include "document_form.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace ws {

// The hardware's faults as a list in the Hardware dock (docs/gui.md "Faults"): every dead die,
// dead link and slow die of `wafer.faults`, each removable, and a row that adds one. Each
// change is one undo step of the document, as on the mesh's menus; a refusal (a die the wafer
// has not, two dies no link joins) leaves the document as it was and says why.
class FaultEditor : public DocumentForm {
    Q_OBJECT
public:
    explicit FaultEditor(ScenarioDocument* document, QWidget* parent = nullptr);

    // What the add row offers, in its order.
    enum Kind { DeadDie, DeadLink, SlowDie };

    QListWidget* list() const { return m_list; }
    // The add row's gesture, as a click on Add with these fields would make it.
    void addFault(Kind kind, int die, int to = 0, int speedPercent = 50, bool bothWays = true);
    // Remove on the list's row `row`: the fault is gone (the die or link alive, at full speed).
    void removeFault(int row);

private:
    void refreshFields() override;
    void showKindFields();

    QGroupBox* m_box;
    QListWidget* m_list;
    QPushButton* m_remove;
    QComboBox* m_kind;
    QSpinBox* m_die;
    QSpinBox* m_to;
    QCheckBox* m_bothWays;
    QSpinBox* m_speed; // percent of peak
    QPushButton* m_add;
};

} // namespace ws
