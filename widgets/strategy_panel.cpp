#include "strategy_panel.h"

#include "scenario_document.h"

#include "io/scenario_limits.h"
#include "scenario/strategy_spec.h"
#include "scenario/transformer_config.h"
#include "workload/transformer_presets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

namespace ws {

StrategyPanel::StrategyPanel(ScenarioDocument* document, QWidget* parent)
    : DocumentForm(document, parent) {
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

    m_parallelism = new QGroupBox(tr("Parallelism"));
    auto* form = new QFormLayout(m_parallelism);
    m_dp = positiveBox(4096);
    m_sp = positiveBox(4096);
    m_tp = positiveBox(4096);
    m_tatp = positiveBox(4096);
    m_pp = positiveBox(4096);
    m_microBatches = positiveBox(4096);
    for (auto [box, name] : {std::pair{m_dp, "dp"}, std::pair{m_sp, "sp"}, std::pair{m_tp, "tp"},
                             std::pair{m_tatp, "tatp"}, std::pair{m_pp, "pp"},
                             std::pair{m_microBatches, "microBatches"}})
        box->setObjectName(QLatin1String(name));
    m_pp->setToolTip(
        tr("Pipeline stages (strategy.pp): each holds an equal run of consecutive layers on "
           "whole wafers of a system, or on a band of one wafer, and the stages run a 1F1B "
           "schedule of the micro-batches, activations passed forward and their gradients back "
           "(the timeline's Pipeline tab shows it)"));
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
    m_balance = new QComboBox;
    m_balance->setObjectName(QStringLiteral("balance"));
    m_balance->addItem(tr("even"), QStringLiteral("even"));
    m_balance->addItem(tr("speed"), QStringLiteral("speed"));
    m_balance->setToolTip(
        tr("How a TATP group splits its sub-tensors (strategy.balance): in equal shares, so the "
           "group runs at its slowest die's pace, or in proportion to each die's speed "
           "(wafer.faults.slow_dies; right-click a die on the mesh to set it)"));
    form->addRow(tr("DP"), m_dp);
    form->addRow(tr("SP"), m_sp);
    form->addRow(tr("TP"), m_tp);
    form->addRow(tr("TATP"), m_tatp);
    form->addRow(tr("Pipeline stages"), m_pp);
    form->addRow(m_fsdp);
    form->addRow(tr("Mapping"), m_mapping);
    form->addRow(tr("Micro-batches"), m_microBatches);
    form->addRow(m_sequenceParallel);
    form->addRow(m_doubleBuffering);
    form->addRow(tr("Checkpointing"), m_checkpointing);
    form->addRow(tr("Balance"), m_balance);
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
    degree(m_pp, StrategyDegree::Pp);
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
    connect(m_balance, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0)
            return;
        const auto balance = static_cast<StrategySpec::Balance>(index);
        applyEdit(
            [=, this](QString* reason) { return m_document->setStrategyBalance(balance, reason); });
    });
    connect(m_model, &QComboBox::currentTextChanged, this, [this](const QString& model) {
        if (model.isEmpty())
            return;
        applyEdit([=, this](QString* reason) { return m_document->setModelPreset(model, reason); });
    });
    refresh();
}

void StrategyPanel::refreshFields() {
    const Scenario& scenario = m_document->scenario();
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
    m_pp->setValue(spec.pp);
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
    m_balance->setCurrentIndex(static_cast<int>(spec.balance));
}

} // namespace ws
