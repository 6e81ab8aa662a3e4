#include "document_form.h"

#include "scenario_document.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace ws {

DocumentForm::DocumentForm(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &DocumentForm::refresh);
}

void DocumentForm::refresh() {
    m_refreshing = true;
    refreshFields();
    m_refreshing = false;
}

void DocumentForm::applyEdit(const std::function<bool(QString*)>& edit) {
    if (m_refreshing)
        return;
    QString reason;
    if (edit(&reason))
        return;
    emit statusMessage(tr("Not applied: %1").arg(reason));
    refresh(); // the form snaps back to the document
}

QSpinBox* DocumentForm::positiveBox(int maximum) {
    auto* box = new QSpinBox;
    box->setRange(1, maximum);
    box->setKeyboardTracking(false);
    return box;
}

QDoubleSpinBox* DocumentForm::quantityBox(double minimum, double maximum, int decimals,
                                          const QString& suffix, const char* name) {
    auto* box = new QDoubleSpinBox;
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    box->setObjectName(QLatin1String(name));
    return box;
}

QString DocumentForm::numberText(double value) {
    return QString::number(value, 'g', 12);
}

} // namespace ws
