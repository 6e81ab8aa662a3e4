#pragma once

#include "io/scenario.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QGroupBox;

namespace ws {

class ScenarioDocument;

// The wafer, the model and the parallel strategy as a form (ISSUE 5 item 5). Every change is
// one undo command through the document (consecutive steps of one spin box merge into one);
// a change the core refuses (tp not dividing the heads, more dies than the wafer has) is not
// applied, the form snaps back and statusMessage says why.
class StrategyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPanel(ScenarioDocument* document, QWidget* parent = nullptr);

signals:
    void statusMessage(const QString& text);

private:
    void refresh(); // from the document
    void setStrategyValue(const QString& key, int value, const QString& text, int mergeId);
    // Pushes `after` as one edit if the core accepts it (extraCheck, then the training-step
    // checks); otherwise snaps the form back and says why in statusMessage.
    void editIfValid(const QString& text, Scenario after, int mergeId = -1,
                     const std::function<void(const Scenario&)>& extraCheck = {});
    void setStrategyFlag(const QString& key, bool value, const QString& text);
    void setMapping(const QString& mapping);
    void setModel(const QString& model);
    void setWaferSize(int rows, int cols);

    ScenarioDocument* m_document;
    bool m_refreshing = false;
    QComboBox* m_model;
    QLabel* m_workloadNote;
    QSpinBox* m_rows;
    QSpinBox* m_cols;
    QGroupBox* m_parallelism;
    QSpinBox* m_dp;
    QSpinBox* m_sp;
    QSpinBox* m_tp;
    QSpinBox* m_tatp;
    QSpinBox* m_microBatches;
    QCheckBox* m_fsdp;
    QCheckBox* m_doubleBuffering;
    QCheckBox* m_checkpointing;
    QComboBox* m_mapping;
};

} // namespace ws
