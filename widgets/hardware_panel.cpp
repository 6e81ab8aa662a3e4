#include "hardware_panel.h"

#include "fault_editor.h"
#include "scenario_document.h"

#include "io/scenario_limits.h"
#include "scenario/wafer_presets.h"
#include "units/quantity.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ws {

HardwarePanel::HardwarePanel(ScenarioDocument* document, QWidget* parent)
    : DocumentForm(document, parent) {
    auto* layout = new QVBoxLayout(this);

    auto* wafer = new QGroupBox(tr("Wafer"));
    auto* waferForm = new QFormLayout(wafer);
    m_waferForm = waferForm;
    m_rows = positiveBox(64);
    m_rows->setObjectName(QStringLiteral("waferRows"));
    m_cols = positiveBox(64);
    m_cols->setObjectName(QStringLiteral("waferCols"));
    waferForm->addRow(tr("Rows"), m_rows);
    waferForm->addRow(tr("Columns"), m_cols);
    m_system = new QLabel;
    m_system->setObjectName(QStringLiteral("system"));
    m_system->setWordWrap(true);
    m_system->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_system->setToolTip(tr("Copies of this wafer side by side, neighbouring wafers joined by "
                            "off-wafer links (the scenario's system key; edit it in the file)"));
    waferForm->addRow(tr("System"), m_system);
    // Ranges as the file's (io/scenario_limits.h): up to 1 PB/s and 1 s per hop.
    m_linkBandwidth = quantityBox(0.001, 1000, 3, tr(" TB/s"), "linkBandwidth");
    m_linkBandwidth->setToolTip(tr("Bandwidth of each direction of a die-to-die link "
                                   "(wafer.link_bandwidth)"));
    m_linkLatency = quantityBox(0, 1e9, 0, tr(" ns"), "linkLatency");
    m_linkLatency->setToolTip(tr("Latency of one hop (wafer.link_latency)"));
    waferForm->addRow(tr("Link bandwidth"), m_linkBandwidth);
    waferForm->addRow(tr("Link latency"), m_linkLatency);
    // The network model (docs/network-model.md): the two ends of a bracket around real links.
    m_networkModel = new QComboBox;
    m_networkModel->setObjectName(QStringLiteral("networkModel"));
    m_networkModel->addItem(tr("Fluid (max-min fair)")); // index = NetworkModel
    m_networkModel->addItem(tr("Store-and-forward"));
    m_networkModel->setToolTip(
        tr("How flows move over links (network.model). Fluid: bandwidth shared max-min fairly, "
           "cut-through; the optimistic end. Store-and-forward: flows cut into chunks, each "
           "link carrying one chunk at a time, first come first served, and every die "
           "receiving a whole chunk before forwarding it"));
    // Whole KiB: a chunk of a flit or two (64 bytes and up) is for the file to set.
    m_networkChunk = quantityBox(1, 1e9, 0, tr(" KiB"), "networkChunk");
    m_networkChunk->setToolTip(tr("Chunk size of the store-and-forward model (network.chunk)"));
    m_compareNetworkModels = new QCheckBox(tr("Compare with the other model"));
    m_compareNetworkModels->setObjectName(QStringLiteral("compareNetworkModels"));
    m_compareNetworkModels->setToolTip(
        tr("Simulate every change in both network models and show both times in the status "
           "bar (about twice the work)"));
    waferForm->addRow(tr("Network"), m_networkModel);
    waferForm->addRow(tr("Chunk"), m_networkChunk);
    waferForm->addRow(m_compareNetworkModels);
    layout->addWidget(wafer);
    // Its faults, under the wafer they break (docs/gui.md "Faults").
    auto* faults = new FaultEditor(document);
    faults->setObjectName(QStringLiteral("faultEditor"));
    connect(faults, &DocumentForm::statusMessage, this, &DocumentForm::statusMessage);
    layout->addWidget(faults);

    // The die's keys of docs/compute-model.md, in the units a user thinks in; the ranges are
    // the file's (io/scenario_reader.cpp), so a value the box accepts the file accepts.
    auto* die = new QGroupBox(tr("Die"));
    auto* dieForm = new QFormLayout(die);
    m_hardwarePreset = new QComboBox;
    m_hardwarePreset->setObjectName(QStringLiteral("hardwarePreset"));
    for (const std::string& name : waferPresetNames())
        m_hardwarePreset->addItem(QString::fromStdString(name));
    m_hardwarePreset->setToolTip(
        tr("Published hardware (wafer.preset, sources in docs/hardware.md): sets the links, "
           "every die key and the energy, keeping the wafer's rows and columns (undoable)"));
    m_peakFlops = quantityBox(0.001, 1e6, 1, tr(" TFLOP/s"), "peakFlops");
    m_peakFlops->setToolTip(tr("Peak compute of one die (wafer.die.peak_flops)"));
    m_hbmBandwidth = quantityBox(0.001, 1000, 3, tr(" TB/s"), "hbmBandwidth");
    m_hbmBandwidth->setToolTip(
        tr("Bandwidth between the die's HBM and its SRAM (wafer.die.hbm_bandwidth)"));
    m_sram = quantityBox(0.001, 1e6, 1, tr(" MB"), "sram");
    m_sram->setToolTip(tr("On-die SRAM (wafer.die.sram)"));
    m_hbm = quantityBox(0, 1e6, 1, tr(" GB"), "hbm");
    m_hbm->setToolTip(tr("HBM capacity of one die (wafer.die.hbm)"));
    m_taskOverhead = quantityBox(0, 1e9, 0, tr(" ns"), "taskOverhead");
    m_taskOverhead->setToolTip(tr("Fixed cost of every compute task: launch, DMA set-up, "
                                  "synchronisation (wafer.die.task_overhead)"));
    m_gemmTile = positiveBox(limits::kMaxGemmTile);
    m_gemmTile->setObjectName(QStringLiteral("gemmTile"));
    m_gemmTile->setToolTip(tr("Tile edge of the compute array in elements: a GEMM side is "
                              "padded to a multiple of it (wafer.die.gemm_tile)"));
    m_sramReserve = quantityBox(0, 99.9, 1, tr(" %"), "sramReserve");
    m_sramReserve->setToolTip(
        tr("Share of SRAM kept for communication buffers (wafer.die.sram_reserve)"));
    m_regime = new QLabel;
    m_regime->setWordWrap(true);
    m_regime->setStyleSheet(QStringLiteral("color: gray"));
    m_regime->setToolTip(tr("FLOP the die computes in the time one byte crosses a link, or "
                            "arrives from HBM: a task needing fewer FLOP per byte than this "
                            "waits for the link or HBM"));
    dieForm->addRow(tr("Hardware preset"), m_hardwarePreset);
    dieForm->addRow(tr("Peak compute"), m_peakFlops);
    dieForm->addRow(tr("HBM bandwidth"), m_hbmBandwidth);
    dieForm->addRow(tr("SRAM"), m_sram);
    dieForm->addRow(tr("HBM"), m_hbm);
    dieForm->addRow(tr("SRAM reserve"), m_sramReserve);
    dieForm->addRow(tr("Task overhead"), m_taskOverhead);
    dieForm->addRow(tr("GEMM tile"), m_gemmTile);
    dieForm->addRow(m_regime);
    layout->addWidget(die);

    auto* energy = new QGroupBox(tr("Energy"));
    auto* energyForm = new QFormLayout(energy);
    // Ranges as the file's: non-negative energies, a positive efficiency (scenario_reader.cpp).
    m_d2dEnergy = quantityBox(0, 1e6, 2, tr(" pJ/bit"), "d2dEnergy");
    m_d2dEnergy->setToolTip(tr("Energy of one bit over one die-to-die link "
                               "(wafer.energy.d2d_pj_per_bit)"));
    m_hbmEnergy = quantityBox(0, 1e6, 2, tr(" pJ/bit"), "hbmEnergy");
    m_hbmEnergy->setToolTip(
        tr("Energy of one bit read from or written to HBM (wafer.energy.hbm_pj_per_bit)"));
    m_computeEfficiency = quantityBox(0.001, 1e6, 3, tr(" TFLOP/J"), "computeEfficiency");
    m_computeEfficiency->setToolTip(
        tr("FLOP computed per joule (wafer.energy.flops_per_joule, shown in TFLOP/J)"));
    energyForm->addRow(tr("D2D link"), m_d2dEnergy);
    energyForm->addRow(tr("HBM"), m_hbmEnergy);
    energyForm->addRow(tr("Compute"), m_computeEfficiency);
    layout->addWidget(energy);
    layout->addStretch(1);

    // Gestures only: each becomes one document method (core/edit/scenario_edits.h).
    const auto setNetwork = [this] {
        const int index = m_networkModel->currentIndex();
        if (index < 0)
            return;
        const auto model = static_cast<NetworkModel>(index);
        const double chunkBytes = m_networkChunk->value() * 1024;
        applyEdit([=, this](QString* reason) {
            return m_document->setNetworkModel(model, chunkBytes, reason);
        });
    };
    connect(m_networkModel, &QComboBox::currentIndexChanged, this, setNetwork);
    connect(m_networkChunk, &QDoubleSpinBox::valueChanged, this, setNetwork);
    connect(m_compareNetworkModels, &QCheckBox::toggled, this,
            &HardwarePanel::compareNetworkModelsChanged);
    connect(m_hardwarePreset, &QComboBox::currentTextChanged, this, [this](const QString& preset) {
        if (preset.isEmpty())
            return; // no preset selected (the wafer names none)
        applyEdit(
            [=, this](QString* reason) { return m_document->setWaferPreset(preset, reason); });
    });
    // `unit`: the quantity's unit text; empty for a fraction shown in % (written as value / 100).
    auto dieKey = [this](QDoubleSpinBox* box, const char* key, const QString& unit) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [=, this](double value) {
            // A quantity keeps its unit in the file; a fraction is written as a number.
            const nlohmann::json written =
                unit.isEmpty() ? nlohmann::json(value / 100)
                               : nlohmann::json((numberText(value) + unit).toStdString());
            applyEdit([=, this](QString* reason) {
                return m_document->setDieKey(QLatin1String(key), written, reason);
            });
        });
    };
    dieKey(m_peakFlops, "peak_flops", QStringLiteral(" TFLOP/s"));
    dieKey(m_hbmBandwidth, "hbm_bandwidth", QStringLiteral(" TB/s"));
    dieKey(m_sram, "sram", QStringLiteral(" MB"));
    dieKey(m_hbm, "hbm", QStringLiteral(" GB"));
    auto linkKey = [this](QDoubleSpinBox* box, const char* key, const QString& unit) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [=, this](double value) {
            const nlohmann::json written((numberText(value) + unit).toStdString());
            applyEdit([=, this](QString* reason) {
                return m_document->setLinkKey(QLatin1String(key), written, reason);
            });
        });
    };
    linkKey(m_linkBandwidth, "link_bandwidth", QStringLiteral(" TB/s"));
    linkKey(m_linkLatency, "link_latency", QStringLiteral(" ns"));
    dieKey(m_taskOverhead, "task_overhead", QStringLiteral(" ns"));
    dieKey(m_sramReserve, "sram_reserve", QString());
    connect(m_gemmTile, &QSpinBox::valueChanged, this, [this](int tile) {
        applyEdit([=, this](QString* reason) {
            return m_document->setDieKey(QStringLiteral("gemm_tile"), tile, reason);
        });
    });
    auto resize = [this](int rows, int cols) {
        applyEdit(
            [=, this](QString* reason) { return m_document->resizeWafer(rows, cols, reason); });
    };
    connect(m_rows, &QSpinBox::valueChanged, this,
            [=, this](int rows) { resize(rows, m_cols->value()); });
    connect(m_cols, &QSpinBox::valueChanged, this,
            [=, this](int cols) { resize(m_rows->value(), cols); });

    // wafer.energy's keys are numbers: what the box shows times the unit's scale.
    auto energyKey = [this](QDoubleSpinBox* box, const char* key, double scale) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [=, this](double value) {
            applyEdit([=, this](QString* reason) {
                return m_document->setEnergyKey(QLatin1String(key), value * scale, reason);
            });
        });
    };
    energyKey(m_d2dEnergy, "d2d_pj_per_bit", 1.0);
    energyKey(m_hbmEnergy, "hbm_pj_per_bit", 1.0);
    energyKey(m_computeEfficiency, "flops_per_joule", 1e12);
    refresh();
}

void HardwarePanel::refreshFields() {
    const Scenario& scenario = m_document->scenario();
    m_rows->setValue(scenario.wafer.rows);
    m_cols->setValue(scenario.wafer.cols);
    m_waferForm->setRowVisible(m_system, scenario.system.has_value());
    if (scenario.system) {
        const SystemSpec& system = *scenario.system;
        const int joined = system.linksPerEdge.value_or(0);
        m_system->setText(
            tr("%1 x %2 wafers (%3 x %4 dies), off-wafer links %5, %6, %7")
                .arg(system.waferRows)
                .arg(system.waferCols)
                .arg(scenario.gridRows())
                .arg(scenario.gridCols())
                .arg(QString::fromStdString(formatBytesPerSecond(system.linkBandwidth.value)),
                     QString::fromStdString(formatSeconds(system.linkLatency.value)),
                     joined == 0 ? tr("every die pair of an edge")
                                 : tr("%1 per edge").arg(joined)));
    }
    // A cluster (docs/gui.md "Hardware") shows its network on the same read-only row; its rows and
    // columns are nodes and GPUs per node, its die the GPU. The wafer presets would replace
    // the GPU with a wafer's die, so they are offered on wafers only.
    if (auto* label = qobject_cast<QLabel*>(m_waferForm->labelForField(m_system)))
        label->setText(scenario.cluster ? tr("Cluster") : tr("System"));
    // The hardware's own words: nodes and GPUs per node on a cluster, rows and columns of dies
    // on a wafer (docs/gui.md "Hardware").
    if (auto* label = qobject_cast<QLabel*>(m_waferForm->labelForField(m_rows)))
        label->setText(scenario.cluster ? tr("Nodes") : tr("Rows"));
    if (auto* label = qobject_cast<QLabel*>(m_waferForm->labelForField(m_cols)))
        label->setText(scenario.cluster ? tr("GPUs per node") : tr("Columns"));
    if (auto* group = qobject_cast<QGroupBox*>(m_waferForm->parentWidget()))
        group->setTitle(scenario.cluster ? tr("GPU cluster") : tr("Wafer"));
    if (auto* group = qobject_cast<QGroupBox*>(m_peakFlops->parentWidget()))
        group->setTitle(scenario.cluster ? tr("GPU") : tr("Die"));
    if (scenario.cluster) {
        const ClusterSpec& cluster = *scenario.cluster;
        m_waferForm->setRowVisible(m_system, true);
        m_system->setText(
            tr("%1 nodes x %2 GPUs, %3 network, NIC %4 per GPU, %5 per link (cluster.inter: "
               "edit it in the file)")
                .arg(scenario.wafer.rows)
                .arg(scenario.wafer.cols)
                .arg(QString::fromStdString(toString(cluster.network)),
                     QString::fromStdString(formatBytesPerSecond(cluster.nicBandwidth.value)),
                     QString::fromStdString(formatSeconds(cluster.interLatency.value))));
    }
    m_hardwarePreset->setEnabled(!scenario.cluster);
    const NetworkSettings network = scenario.networkSettings();
    m_networkModel->setCurrentIndex(static_cast<int>(network.model));
    m_networkChunk->setValue(network.chunkBytes / 1024);
    m_networkChunk->setEnabled(network.model == NetworkModel::StoreAndForward);
    m_hardwarePreset->setCurrentIndex(
        scenario.wafer.preset
            ? m_hardwarePreset->findText(QString::fromStdString(*scenario.wafer.preset))
            : -1);
    const DieSpec& die = scenario.wafer.die;
    m_peakFlops->setValue(die.peakFlops.value / 1e12);
    m_hbmBandwidth->setValue(die.hbmBandwidth.value / 1e12);
    m_sram->setValue(die.sram.value / 1e6);
    m_hbm->setValue(die.hbm.value / 1e9);
    m_linkBandwidth->setValue(scenario.wafer.linkBandwidth.value / 1e12);
    m_linkLatency->setValue(scenario.wafer.linkLatency.value / 1e-9);
    m_taskOverhead->setValue(die.taskOverhead.value / 1e-9);
    m_gemmTile->setValue(die.gemmTile);
    m_sramReserve->setValue(die.sramReserve * 100);
    m_regime->setText(tr("%1 FLOP per byte of link, %2 per byte of HBM")
                          .arg(scenario.wafer.flopsPerLinkByte(), 0, 'f', 0)
                          .arg(scenario.wafer.flopsPerHbmByte(), 0, 'f', 0));
    const EnergySpec& energy = scenario.wafer.energy;
    m_d2dEnergy->setValue(energy.d2dPicojoulesPerBit);
    m_hbmEnergy->setValue(energy.hbmPicojoulesPerBit);
    m_computeEfficiency->setValue(energy.flopsPerJoule / 1e12);
}

} // namespace ws
