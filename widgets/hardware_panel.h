#pragma once

#include "document_form.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace ws {

// The hardware as a form (docs/gui.md "Hardware"): the wafer's size, its faults (FaultEditor),
// its links and network model, a hardware preset, the die's compute and memory
// (docs/compute-model.md) and the energy model, each field in the units a user thinks in, with
// the file's ranges. A system of wafers is shown as one read-only line (editing it stays in the
// file for now).
class HardwarePanel : public DocumentForm {
    Q_OBJECT
public:
    explicit HardwarePanel(ScenarioDocument* document, QWidget* parent = nullptr);

signals:
    // The "Compare with the other model" toggle (not part of the scenario).
    void compareNetworkModelsChanged(bool compare);

private:
    void refreshFields() override;

    QSpinBox* m_rows;
    QSpinBox* m_cols;
    // The `system` key (docs/gui.md "Hardware"), read-only: shown, with its row, only when the
    // scenario has one; it is edited in the file.
    QLabel* m_system;
    QFormLayout* m_waferForm;        // holds m_system's row
    QDoubleSpinBox* m_linkBandwidth; // TB/s
    QDoubleSpinBox* m_linkLatency;   // ns
    QComboBox* m_networkModel;       // index = NetworkModel
    QDoubleSpinBox* m_networkChunk;  // KiB
    QCheckBox* m_compareNetworkModels;
    // wafer.preset (docs/hardware.md): applying one sets the links, every die key and the
    // energy, keeping the wafer's size; none selected when the wafer names no preset.
    QComboBox* m_hardwarePreset;
    // wafer.die, in the units shown: TFLOP/s, TB/s, MB, GB, %, ns, elements.
    QDoubleSpinBox* m_peakFlops;
    QDoubleSpinBox* m_hbmBandwidth;
    QDoubleSpinBox* m_sram;
    QDoubleSpinBox* m_hbm;
    QDoubleSpinBox* m_sramReserve;
    QDoubleSpinBox* m_taskOverhead;
    QSpinBox* m_gemmTile;
    QLabel* m_regime; // the die's FLOP per byte of link and of HBM bandwidth
    // wafer.energy: pJ per bit over a D2D link and to or from HBM, TFLOP per joule of compute.
    QDoubleSpinBox* m_d2dEnergy;
    QDoubleSpinBox* m_hbmEnergy;
    QDoubleSpinBox* m_computeEfficiency;
};

} // namespace ws
