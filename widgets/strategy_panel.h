#pragma once

#include "scenario/scenario.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QGroupBox;

namespace ws {

class ScenarioDocument;

// The wafer, its dies' compute and memory model (docs/compute-model.md), the model and the
// parallel strategy as a form (docs/gui.md, Strategy). Every change is
// one undo command through the document (consecutive steps of one spin box merge into one);
// a change the core refuses (tp not dividing the heads, more dies than the wafer has) is not
// applied, the form snaps back and statusMessage says why.
class StrategyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPanel(ScenarioDocument* document, QWidget* parent = nullptr);

signals:
    void statusMessage(const QString& text);
    // The "Compare with the other model" toggle (not part of the scenario).
    void compareNetworkModelsChanged(bool compare);

private:
    void refresh(); // from the document
    // Runs one of the document's edit methods; when core refuses it, snaps the form back and
    // says why in statusMessage. Nothing while the form is being refreshed.
    void applyEdit(const std::function<bool(QString*)>& edit);

    ScenarioDocument* m_document;
    bool m_refreshing = false;
    QComboBox* m_model;
    QLabel* m_workloadNote;
    QSpinBox* m_seqLen;
    QSpinBox* m_globalBatch;
    QSpinBox* m_rows;
    QSpinBox* m_cols;
    QComboBox* m_networkModel;      // index = NetworkModel
    QDoubleSpinBox* m_networkChunk; // KiB
    QCheckBox* m_compareNetworkModels;
    // wafer.preset (docs/hardware.md): applying one sets the links, every die key and the
    // energy, keeping the wafer's size; none selected when the wafer names no preset.
    QComboBox* m_hardwarePreset;
    // wafer.die, in the units shown: TFLOP/s, TB/s, MB, ns, elements, %.
    QDoubleSpinBox* m_peakFlops;
    QDoubleSpinBox* m_hbmBandwidth;
    QDoubleSpinBox* m_sram;
    QDoubleSpinBox* m_hbm;
    QDoubleSpinBox* m_linkBandwidth;
    QDoubleSpinBox* m_linkLatency;
    QDoubleSpinBox* m_taskOverhead;
    QSpinBox* m_gemmTile;
    QDoubleSpinBox* m_sramReserve;
    QLabel* m_regime; // the die's FLOP per byte of link and of HBM bandwidth
    QGroupBox* m_parallelism;
    QSpinBox* m_dp;
    QSpinBox* m_sp;
    QSpinBox* m_tp;
    QSpinBox* m_tatp;
    QSpinBox* m_microBatches;
    QCheckBox* m_fsdp;
    QCheckBox* m_doubleBuffering;
    // strategy.activation_checkpointing: none, selective, full (items in Checkpointing's order).
    QComboBox* m_checkpointing;
    // strategy.sequence_parallel: disabled, with a tooltip saying why, while tp is 1.
    QCheckBox* m_sequenceParallel;
    QComboBox* m_mapping;
};

} // namespace ws
