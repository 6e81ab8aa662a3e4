#pragma once

#include "document_form.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace ws {

// The model and the parallel strategy as a form (docs/gui.md, Strategy): a transformer preset,
// its sequence length and global batch, the degrees, FSDP, the mapping, micro-batches,
// sequence parallelism, double buffering, checkpointing and how a TATP group balances its
// shares over slow dies. The degrees include pipeline stages (strategy.pp). The hardware has its
// own form (hardware_panel.h). A change the core refuses (tp not dividing the heads, more dies than
// the wafer has) is not applied and statusMessage says why (document_form.h).
class StrategyPanel : public DocumentForm {
    Q_OBJECT
public:
    explicit StrategyPanel(ScenarioDocument* document, QWidget* parent = nullptr);

private:
    void refreshFields() override;

    QComboBox* m_model;
    QLabel* m_workloadNote;
    QSpinBox* m_seqLen;
    QSpinBox* m_globalBatch;
    QGroupBox* m_parallelism;
    QSpinBox* m_dp;
    QSpinBox* m_sp;
    QSpinBox* m_tp;
    QSpinBox* m_tatp;
    QSpinBox* m_pp; // strategy.pp, pipeline stages
    QSpinBox* m_microBatches;
    QCheckBox* m_fsdp;
    QCheckBox* m_doubleBuffering;
    // strategy.activation_checkpointing: none, selective, full (items in Checkpointing's order).
    QComboBox* m_checkpointing;
    // strategy.sequence_parallel: disabled, with a tooltip saying why, while tp is 1.
    QCheckBox* m_sequenceParallel;
    QComboBox* m_mapping;
    // strategy.balance: even or speed (items in StrategySpec::Balance's order).
    QComboBox* m_balance;
};

} // namespace ws
