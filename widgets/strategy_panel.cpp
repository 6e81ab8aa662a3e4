#include "strategy_panel.h"

#include "scenario_document.h"

#include "io/scenario_error.h"
#include "strategy/placement.h"
#include "strategy/strategy_spec.h"
#include "workload/transformer_config.h"
#include "workload/workload.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ws {

namespace {

// Merge ids for consecutive edits of one control (ScenarioEditCommand::id).
enum MergeId { kMergeDp = 100, kMergeSp, kMergeTp, kMergeTatp, kMergeMicroBatches, kMergeWafer };

QSpinBox* degreeBox(int maximum) {
    auto* box = new QSpinBox;
    box->setRange(1, maximum);
    box->setKeyboardTracking(false); // one edit per committed value, not per keystroke
    return box;
}

// Everything the core checks before a training step can be built, without building it.
void checkTrainingStep(const Scenario& scenario, const std::filesystem::path& directory) {
    const WaferTopology topology(scenario.wafer.topologySpec());
    if (!scenario.strategy || !scenario.workload)
        return;
    const StrategySpec strategy = parseStrategy(*scenario.strategy);
    checkStrategyAgainstWorkload(strategy, parseWorkload(*scenario.workload, directory));
    placeStrategy(strategy, topology);
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
    layout->addWidget(workload);

    auto* wafer = new QGroupBox(tr("Wafer"));
    auto* waferForm = new QFormLayout(wafer);
    m_rows = degreeBox(64);
    m_cols = degreeBox(64);
    waferForm->addRow(tr("Rows"), m_rows);
    waferForm->addRow(tr("Columns"), m_cols);
    layout->addWidget(wafer);

    m_parallelism = new QGroupBox(tr("Parallelism"));
    auto* form = new QFormLayout(m_parallelism);
    m_dp = degreeBox(4096);
    m_sp = degreeBox(4096);
    m_tp = degreeBox(4096);
    m_tatp = degreeBox(4096);
    m_microBatches = degreeBox(4096);
    m_fsdp = new QCheckBox(tr("FSDP (shard weights, gradients, optimizer)"));
    m_doubleBuffering = new QCheckBox(tr("Double buffering"));
    m_checkpointing = new QCheckBox(tr("Activation checkpointing"));
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
    form->addRow(m_doubleBuffering);
    form->addRow(m_checkpointing);
    layout->addWidget(m_parallelism);
    layout->addStretch(1);

    auto degree = [this](QSpinBox* box, const char* key, const QString& label, int mergeId) {
        connect(box, &QSpinBox::valueChanged, this, [=, this](int value) {
            setStrategyValue(QString::fromLatin1(key), value,
                             tr("Set %1 to %2").arg(label).arg(value), mergeId);
        });
    };
    degree(m_dp, "dp", tr("DP"), kMergeDp);
    degree(m_sp, "sp", tr("SP"), kMergeSp);
    degree(m_tp, "tp", tr("TP"), kMergeTp);
    degree(m_tatp, "tatp", tr("TATP"), kMergeTatp);
    degree(m_microBatches, "micro_batches", tr("micro-batches"), kMergeMicroBatches);
    auto flag = [this](QCheckBox* box, const char* key, const QString& label) {
        connect(box, &QCheckBox::toggled, this, [=, this](bool on) {
            setStrategyFlag(QString::fromLatin1(key), on,
                            (on ? tr("Turn on %1") : tr("Turn off %1")).arg(label));
        });
    };
    flag(m_fsdp, "fsdp", tr("FSDP"));
    flag(m_doubleBuffering, "double_buffering", tr("double buffering"));
    flag(m_checkpointing, "activation_checkpointing", tr("activation checkpointing"));
    connect(m_mapping, &QComboBox::currentIndexChanged, this,
            [this](int) { setMapping(m_mapping->currentData().toString()); });
    connect(m_model, &QComboBox::currentTextChanged, this,
            [this](const QString& model) { setModel(model); });
    connect(m_rows, &QSpinBox::valueChanged, this,
            [this](int rows) { setWaferSize(rows, m_cols->value()); });
    connect(m_cols, &QSpinBox::valueChanged, this,
            [this](int cols) { setWaferSize(m_rows->value(), cols); });

    connect(m_document, &ScenarioDocument::scenarioChanged, this, &StrategyPanel::refresh);
    refresh();
}

void StrategyPanel::refresh() {
    m_refreshing = true;
    const Scenario& scenario = m_document->scenario();
    m_rows->setValue(scenario.wafer.rows);
    m_cols->setValue(scenario.wafer.cols);
    const nlohmann::json* workload = scenario.workload ? &*scenario.workload : nullptr;
    const bool preset = workload && workload->value("kind", "") == "transformer" &&
                        workload->contains("model") && (*workload)["model"].is_string();
    m_model->setCurrentIndex(
        preset ? m_model->findText(QString::fromStdString((*workload)["model"].get<std::string>()))
               : -1);
    if (!workload)
        m_workloadNote->setText(tr("Explicit traffic, no model. Choose a preset to simulate a "
                                   "training step instead."));
    else if (!preset)
        m_workloadNote->setText(
            tr("Workload: %1 (edit the file for its details)")
                .arg(QString::fromStdString(workload->value("kind", std::string("?")))));
    else
        m_workloadNote->clear();

    m_parallelism->setEnabled(scenario.strategy.has_value());
    StrategySpec spec;
    if (scenario.strategy) {
        try {
            spec = parseStrategy(*scenario.strategy);
        } catch (const ScenarioError&) {
            // The evaluation reports the error on the mesh; the form shows defaults.
        }
    }
    m_dp->setValue(spec.dp);
    m_sp->setValue(spec.sp);
    m_tp->setValue(spec.tp);
    m_tatp->setValue(spec.tatp);
    m_microBatches->setValue(spec.microBatches);
    m_fsdp->setChecked(spec.fsdp);
    m_doubleBuffering->setChecked(spec.doubleBuffering);
    m_checkpointing->setChecked(spec.activationCheckpointing);
    m_mapping->setCurrentIndex(static_cast<int>(spec.mapping));
    m_refreshing = false;
}

void StrategyPanel::setStrategyValue(const QString& key, int value, const QString& text,
                                     int mergeId) {
    if (m_refreshing || !m_document->scenario().strategy)
        return;
    Scenario after = m_document->scenario();
    StrategySpec spec = parseStrategy(*after.strategy);
    // Changing a degree invalidates dragged groups: fall back to the sequential mapping.
    if (spec.mapping == StrategySpec::Explicit && key != QLatin1String("micro_batches")) {
        spec.mapping = StrategySpec::Sequential;
        spec.dpGroups.clear();
        spec.tatpGroups.clear();
    }
    nlohmann::json strategy = toJson(spec);
    strategy[key.toStdString()] = value;
    after.strategy = strategy;
    editIfValid(text, std::move(after), mergeId);
}

void StrategyPanel::editIfValid(const QString& text, Scenario after, int mergeId,
                                const std::function<void(const Scenario&)>& extraCheck) {
    try {
        if (extraCheck)
            extraCheck(after);
        checkTrainingStep(after, m_document->directory());
    } catch (const std::exception& problem) {
        emit statusMessage(tr("Not applied: %1").arg(QString::fromStdString(problem.what())));
        refresh(); // the form snaps back to the document
        return;
    }
    m_document->edit(text, std::move(after), mergeId);
}

void StrategyPanel::setStrategyFlag(const QString& key, bool value, const QString& text) {
    if (m_refreshing || !m_document->scenario().strategy)
        return;
    Scenario after = m_document->scenario();
    (*after.strategy)[key.toStdString()] = value;
    m_document->edit(text, std::move(after));
}

void StrategyPanel::setMapping(const QString& mapping) {
    if (m_refreshing || !m_document->scenario().strategy)
        return;
    if (mapping == QLatin1String("explicit")) {
        emit statusMessage(tr("Drag dies on the mesh to make an explicit mapping"));
        refresh();
        return;
    }
    Scenario after = m_document->scenario();
    StrategySpec spec = parseStrategy(*after.strategy);
    spec.mapping =
        mapping == QLatin1String("snake") ? StrategySpec::Snake : StrategySpec::Sequential;
    spec.dpGroups.clear();
    spec.tatpGroups.clear();
    after.strategy = toJson(spec);
    editIfValid(tr("Use the %1 mapping").arg(mapping), std::move(after));
}

void StrategyPanel::setModel(const QString& model) {
    if (m_refreshing || model.isEmpty())
        return;
    Scenario after = m_document->scenario();
    QString text = tr("Set the model to %1").arg(model);
    if (!after.workload || after.workload->value("kind", "") != "transformer") {
        // Explicit traffic (or a gemm) becomes a training step of the model on one die; the
        // user then raises the degrees.
        after.workload = nlohmann::json{{"kind", "transformer"},
                                        {"model", model.toStdString()},
                                        {"seq_len", 2048},
                                        {"global_batch", 16}};
        after.strategy = nlohmann::json{{"dp", 1}, {"tatp", 1}};
        after.traffic.clear();
        after.routing.reset();
        text = tr("Simulate a training step of %1").arg(model);
    } else {
        (*after.workload)["model"] = model.toStdString();
    }
    editIfValid(text, std::move(after));
}

void StrategyPanel::setWaferSize(int rows, int cols) {
    if (m_refreshing)
        return;
    Scenario after = m_document->scenario();
    after.wafer.rows = rows;
    after.wafer.cols = cols;
    editIfValid(
        tr("Resize the wafer to %1x%2").arg(rows).arg(cols), std::move(after), kMergeWafer,
        [rows, cols](const Scenario& resized) {
            const WaferTopology topology(resized.wafer.topologySpec());
            for (const TrafficOp& op : resized.traffic) {
                for (DieId die : op.group)
                    if (!topology.contains(die))
                        throw ScenarioError("traffic",
                                            "op '" + op.id + "' uses die " + std::to_string(die) +
                                                ", which a " + std::to_string(rows) + "x" +
                                                std::to_string(cols) + " wafer does not have");
                if (op.kind == OpKind::P2P &&
                    (!topology.contains(op.src) || !topology.contains(op.dst)))
                    throw ScenarioError("traffic",
                                        "op '" + op.id + "' uses a die this wafer does not have");
            }
        });
}

} // namespace ws
