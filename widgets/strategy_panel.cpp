#include "strategy_panel.h"

#include "scenario_document.h"

#include "io/scenario_limits.h"
#include "scenario/strategy_spec.h"
#include "scenario/transformer_config.h"
#include "scenario/wafer_presets.h"
#include "workload/transformer_presets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ws {

namespace {

QSpinBox* positiveBox(int maximum) { // 1 to maximum
    auto* box = new QSpinBox;
    box->setRange(1, maximum);
    box->setKeyboardTracking(false); // one edit per committed value, not per keystroke
    return box;
}

QDoubleSpinBox* quantityBox(double minimum, double maximum, int decimals, const QString& suffix,
                            const char* name) {
    auto* box = new QDoubleSpinBox;
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    box->setObjectName(QLatin1String(name));
    return box;
}

// A value as the file writes a number: no trailing zeros, no exponent for everyday values.
QString numberText(double value) {
    return QString::number(value, 'g', 12);
}

} // namespace

StrategyPanel::StrategyPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    auto* layout = new QVBoxLayout(this);

    auto* workload = new QGroupBox(tr("Model"));
    auto* workloadForm = new QFormLayout(workload);
    m_model = new QComboBox;
    for (const std::string& name : transformerPresetNames())
        m_model->addItem(QString::fromStdString(name));
    m_model->setToolTip(tr("A transformer preset. On a scenario of explicit traffic, choosing a "
                           "model turns it into a training step (undoable)."));
    workloadForm->addRow(tr("Preset"), m_model);
    m_workloadNote = new QLabel;
    m_workloadNote->setWordWrap(true);
    m_workloadNote->setStyleSheet(QStringLiteral("color: gray"));
    workloadForm->addRow(m_workloadNote);
    // Ranges of docs/training-model.md (io/scenario_limits.h): 2^24 fits a QSpinBox's int.
    m_seqLen = positiveBox(static_cast<int>(limits::kMaxSeqLen));
    m_seqLen->setObjectName(QStringLiteral("seqLen"));
    m_seqLen->setToolTip(tr("Tokens per sequence (workload.seq_len)"));
    m_globalBatch = positiveBox(static_cast<int>(limits::kMaxGlobalBatch));
    m_globalBatch->setObjectName(QStringLiteral("globalBatch"));
    m_globalBatch->setToolTip(
        tr("Sequences per training step, over all data-parallel ranks (workload.global_batch)"));
    workloadForm->addRow(tr("Sequence length"), m_seqLen);
    workloadForm->addRow(tr("Global batch"), m_globalBatch);
    layout->addWidget(workload);

    auto* wafer = new QGroupBox(tr("Wafer"));
    auto* waferForm = new QFormLayout(wafer);
    m_rows = positiveBox(64);
    m_cols = positiveBox(64);
    waferForm->addRow(tr("Rows"), m_rows);
    waferForm->addRow(tr("Columns"), m_cols);
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

    m_parallelism = new QGroupBox(tr("Parallelism"));
    auto* form = new QFormLayout(m_parallelism);
    m_dp = positiveBox(4096);
    m_sp = positiveBox(4096);
    m_tp = positiveBox(4096);
    m_tatp = positiveBox(4096);
    m_microBatches = positiveBox(4096);
    m_fsdp = new QCheckBox(tr("FSDP (shard weights, gradients, optimizer)"));
    m_doubleBuffering = new QCheckBox(tr("Double buffering"));
    m_checkpointing = new QComboBox;
    m_checkpointing->setObjectName(QStringLiteral("activationCheckpointing"));
    m_checkpointing->addItem(tr("none"), QStringLiteral("none"));
    m_checkpointing->addItem(tr("selective"), QStringLiteral("selective"));
    m_checkpointing->addItem(tr("full"), QStringLiteral("full"));
    m_checkpointing->setToolTip(
        tr("What a layer keeps for its backward pass (strategy.activation_checkpointing): "
           "everything; all but attention's s x s products, recomputing the score and value "
           "GEMMs without communication (selective); or only its input, recomputing the whole "
           "forward pass with its communication (full)"));
    m_sequenceParallel = new QCheckBox(tr("Sequence parallelism (Megatron, inside TP)"));
    m_sequenceParallel->setObjectName(QStringLiteral("sequenceParallel"));
    m_mapping = new QComboBox;
    m_mapping->addItem(tr("sequential"), QStringLiteral("sequential"));
    m_mapping->addItem(tr("snake"), QStringLiteral("snake"));
    m_mapping->addItem(tr("explicit (dragged)"), QStringLiteral("explicit"));
    form->addRow(tr("DP"), m_dp);
    form->addRow(tr("SP"), m_sp);
    form->addRow(tr("TP"), m_tp);
    form->addRow(tr("TATP"), m_tatp);
    form->addRow(m_fsdp);
    form->addRow(tr("Mapping"), m_mapping);
    form->addRow(tr("Micro-batches"), m_microBatches);
    form->addRow(m_sequenceParallel);
    form->addRow(m_doubleBuffering);
    form->addRow(tr("Checkpointing"), m_checkpointing);
    layout->addWidget(m_parallelism);
    layout->addStretch(1);

    // Gestures only: each becomes one document method (core/edit/scenario_edits.h).
    auto degree = [this](QSpinBox* box, StrategyDegree kind) {
        connect(box, &QSpinBox::valueChanged, this, [=, this](int value) {
            applyEdit([=, this](QString* reason) {
                return m_document->setStrategyDegree(kind, value, reason);
            });
        });
    };
    degree(m_dp, StrategyDegree::Dp);
    degree(m_sp, StrategyDegree::Sp);
    degree(m_tp, StrategyDegree::Tp);
    degree(m_tatp, StrategyDegree::Tatp);
    degree(m_microBatches, StrategyDegree::MicroBatches);
    auto size = [this](QSpinBox* box, WorkloadSize kind) {
        connect(box, &QSpinBox::valueChanged, this, [=, this](int value) {
            applyEdit([=, this](QString* reason) {
                return m_document->setWorkloadSize(kind, value, reason);
            });
        });
    };
    size(m_seqLen, WorkloadSize::SeqLen);
    size(m_globalBatch, WorkloadSize::GlobalBatch);
    auto flag = [this](QCheckBox* box, StrategyFlag kind) {
        connect(box, &QCheckBox::toggled, this, [=, this](bool on) {
            applyEdit([=, this](QString* reason) {
                return m_document->setStrategyFlag(kind, on, reason);
            });
        });
    };
    flag(m_fsdp, StrategyFlag::Fsdp);
    flag(m_doubleBuffering, StrategyFlag::DoubleBuffering);
    flag(m_sequenceParallel, StrategyFlag::SequenceParallel);
    connect(m_checkpointing, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0)
            return;
        const auto checkpointing = static_cast<Checkpointing>(index);
        applyEdit([=, this](QString* reason) {
            return m_document->setActivationCheckpointing(checkpointing, reason);
        });
    });
    connect(m_mapping, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0)
            return; // no mapping chosen (the box was cleared)
        const auto mapping = static_cast<StrategySpec::MappingKind>(index);
        applyEdit(
            [=, this](QString* reason) { return m_document->setStrategyMapping(mapping, reason); });
    });
    connect(m_model, &QComboBox::currentTextChanged, this, [this](const QString& model) {
        if (model.isEmpty())
            return;
        applyEdit([=, this](QString* reason) { return m_document->setModelPreset(model, reason); });
    });
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
            &StrategyPanel::compareNetworkModelsChanged);
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

    connect(m_document, &ScenarioDocument::scenarioChanged, this, &StrategyPanel::refresh);
    refresh();
}

void StrategyPanel::refresh() {
    m_refreshing = true;
    const Scenario& scenario = m_document->scenario();
    m_rows->setValue(scenario.wafer.rows);
    m_cols->setValue(scenario.wafer.cols);
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
    const std::optional<Workload>& workload = scenario.workload;
    const bool preset = workload && workload->kind == WorkloadKind::Transformer &&
                        workload->modelSource == ModelSource::Preset;
    m_model->setCurrentIndex(
        preset ? m_model->findText(QString::fromStdString(workload->model.name)) : -1);
    if (!workload)
        m_workloadNote->setText(tr("Explicit traffic, no model. Choose a preset to simulate a "
                                   "training step instead."));
    else if (workload->kind == WorkloadKind::Gemm)
        m_workloadNote->setText(tr("Workload: gemm (edit the file for its details)"));
    else if (!preset)
        m_workloadNote->setText(tr("Workload: %1 (edit the file for its details)")
                                    .arg(QString::fromStdString(
                                        workload->modelSource == ModelSource::HuggingFace
                                            ? workload->model.name + ", from " + workload->hfConfig
                                            : workload->model.name)));
    else
        m_workloadNote->clear();
    const bool transformer = workload && workload->kind == WorkloadKind::Transformer;
    m_seqLen->setEnabled(transformer);
    m_globalBatch->setEnabled(transformer);
    m_seqLen->setValue(transformer ? static_cast<int>(workload->seqLen) : 1);
    m_globalBatch->setValue(transformer ? static_cast<int>(workload->globalBatch) : 1);

    m_parallelism->setEnabled(scenario.strategy.has_value());
    const StrategySpec spec = scenario.strategy.value_or(StrategySpec{});
    m_dp->setValue(spec.dp);
    m_sp->setValue(spec.sp);
    m_tp->setValue(spec.tp);
    m_tatp->setValue(spec.tatp);
    m_microBatches->setValue(spec.microBatches);
    m_fsdp->setChecked(spec.fsdp);
    m_doubleBuffering->setChecked(spec.doubleBuffering);
    m_checkpointing->setCurrentIndex(static_cast<int>(spec.activationCheckpointing));
    m_sequenceParallel->setChecked(spec.sequenceParallel);
    const bool gemm = workload && workload->kind == WorkloadKind::Gemm;
    m_sequenceParallel->setEnabled(spec.tp > 1 && !gemm);
    m_sequenceParallel->setToolTip(
        gemm ? tr("A gemm workload has no norms or dropouts to split")
        : spec.tp > 1
            ? tr("Split the norm, dropout and residual activations of each TP group by tp; "
                 "each TP all-reduce becomes a reduce-scatter plus an all-gather "
                 "(strategy.sequence_parallel)")
            : tr("Needs TP > 1: it splits the activations a TP group would replicate "
                 "(strategy.sequence_parallel)"));
    m_mapping->setCurrentIndex(static_cast<int>(spec.mapping));
    m_refreshing = false;
}

void StrategyPanel::applyEdit(const std::function<bool(QString*)>& edit) {
    if (m_refreshing)
        return;
    QString reason;
    if (edit(&reason))
        return;
    emit statusMessage(tr("Not applied: %1").arg(reason));
    refresh(); // the form snaps back to the document
}

} // namespace ws
