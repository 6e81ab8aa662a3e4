#pragma once

#include <QString>
#include <QWidget>

#include <functional>

class QDoubleSpinBox;
class QSpinBox;

namespace ws {

class ScenarioDocument;

// A form over the document's scenario (the Strategy and Hardware docks, docs/gui.md): every
// field change is one of the document's edit methods, hence one undo command (consecutive steps
// of one spin box merge into one); a change the core refuses is not applied, the form snaps back
// to the document and statusMessage says why. refresh() re-reads every field from the document
// on each change of it.
class DocumentForm : public QWidget {
    Q_OBJECT
public:
    explicit DocumentForm(ScenarioDocument* document, QWidget* parent = nullptr);

signals:
    void statusMessage(const QString& text);

protected:
    virtual void refreshFields() = 0; // from the document, with edits ignored meanwhile
    void refresh();
    // Runs one of the document's edit methods; nothing while the form is being refreshed.
    void applyEdit(const std::function<bool(QString*)>& edit);

    // Fields as the file's ranges allow (io/scenario_limits.h), committing a value only when
    // the user is done typing it (one edit per value, not per keystroke).
    static QSpinBox* positiveBox(int maximum); // 1 to maximum
    static QDoubleSpinBox* quantityBox(double minimum, double maximum, int decimals,
                                       const QString& suffix, const char* name);
    // A value as the file writes a number: no trailing zeros, no exponent for everyday values.
    static QString numberText(double value);

    ScenarioDocument* m_document;

private:
    bool m_refreshing = false;
};

} // namespace ws
