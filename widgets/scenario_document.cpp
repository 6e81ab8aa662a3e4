#include "scenario_document.h"

#include "builtin_scenarios.h"
#include "scenario_edit_command.h"

#include "advice/advisor.h"
#include "edit/edit_refused.h"
#include "io/file_write_error.h"
#include "io/scenario_io.h"
#include "scenario/scenario_error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

#include <filesystem>

namespace ws {

ScenarioDocument::ScenarioDocument(QObject* parent)
    : QObject(parent), m_undoStack(new QUndoStack(this)) {
    connect(m_undoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

ScenarioDocument::~ScenarioDocument() = default;

QString ScenarioDocument::displayName() const {
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    if (!m_origin.isEmpty())
        return m_origin;
    return tr("untitled.json");
}

bool ScenarioDocument::isModified() const {
    return !m_undoStack->isClean();
}

void ScenarioDocument::load(Scenario scenario, const QString& filePath, const QString& origin) {
    m_undoStack->clear();
    m_scenario = std::move(scenario);
    m_filePath = filePath;
    m_origin = origin;
    emit filePathChanged(m_filePath);
    emit modifiedChanged(false);
    emit documentReplaced();
    emit scenarioChanged();
}

void ScenarioDocument::restoreUnsaved(Scenario scenario, const QString& filePath,
                                      const QString& origin) {
    load(std::move(scenario), filePath, filePath.isEmpty() ? origin : QString());
    m_undoStack->resetClean(); // emits cleanChanged(false): modifiedChanged(true)
}

namespace {

// The built-in example of that name holds exactly `text`.
bool isBundledExample(const QString& fileName, const QByteArray& text) {
    QFile builtIn(QStringLiteral(":/scenarios/") + fileName);
    return builtIn.open(QIODevice::ReadOnly) && builtIn.readAll() == text;
}

} // namespace

std::optional<Scenario> ScenarioDocument::readScenarioFile(const QString& path,
                                                           const std::filesystem::path& directory,
                                                           QString* error, QByteArray* text) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot be read: ") + file.errorString();
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    if (text)
        *text = bytes;
    try {
        return parseScenario(bytes.toStdString(), directory);
    } catch (const ScenarioError& problem) {
        *error = path + QStringLiteral(": ") + QString::fromStdString(problem.what());
        return std::nullopt;
    }
}

bool ScenarioDocument::openFile(const QString& path, QString* error) {
    const bool resource = path.startsWith(QLatin1Char(':'));
    // A relative `workload.hf_config` is read beside the file (none of the built-in examples
    // has one).
    const std::filesystem::path directory =
        resource ? std::filesystem::path()
                 : std::filesystem::path(QFileInfo(path).absolutePath().toStdString());
    QByteArray text;
    std::optional<Scenario> scenario = readScenarioFile(path, directory, error, &text);
    if (!scenario)
        return false;
    // A file the project ships (resources/ of the source tree: the examples, the validation
    // scenarios), or an unchanged copy of a built-in example anywhere, is the example, not the
    // user's file: read-only like its built-in copy, so Save asks where instead of writing over
    // it. A copy the user has changed, outside resources/, is theirs.
    const bool example = isShippedPath(path) || isBundledExample(QFileInfo(path).fileName(), text);
    load(std::move(*scenario), example ? QString() : QFileInfo(path).absoluteFilePath(),
         example ? QFileInfo(path).fileName() : QString());
    return true;
}

bool ScenarioDocument::writeCopy(const QString& path, QString* error) const {
    // core's saveScenario: the documented key order and layout that Export and the CLI's -o
    // write too, through core's one atomic writer.
    try {
        saveScenario(m_scenario, QFile::encodeName(path).toStdString());
        return true;
    } catch (const FileWriteError& problem) {
        *error = path + QStringLiteral(": cannot be written: ") +
                 QString::fromStdString(problem.reason());
    } catch (const std::exception& problem) { // e.g. no randomness for the temporary's name
        *error =
            path + QStringLiteral(": cannot be written: ") + QString::fromStdString(problem.what());
    }
    return false;
}

bool ScenarioDocument::saveAs(const QString& path, QString* error) {
    if (isShippedPath(path)) {
        *error = path + QStringLiteral(": is in the folder of the files WaferScope ships (") +
                 shippedFolder() +
                 QStringLiteral("), which are read-only: save the scenario in another folder");
        return false;
    }
    if (!writeCopy(path, error))
        return false;
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_undoStack->setClean();
    emit filePathChanged(m_filePath);
    return true;
}

void ScenarioDocument::edit(const QString& text, Scenario after, int mergeId) {
    if (after == m_scenario)
        return;
    m_undoStack->push(new ScenarioEditCommand(this, text, m_scenario, std::move(after), mergeId));
}

namespace {

// Merge ids for consecutive edits of one control (ScenarioEditCommand::id).
enum MergeId {
    kMergeDp = 100,
    kMergeSp,
    kMergeTp,
    kMergeTatp,
    kMergeMicroBatches,
    kMergeWafer,
    kMergeSeqLen,
    kMergeGlobalBatch,
    kMergeDieKey,
    kMergeNetworkChunk = 200, // after kMergeDieKey + the index of each die key
    kMergeLinkBandwidth,
    kMergeLinkLatency,
    kMergeD2dEnergy,
    kMergeHbmEnergy,
    kMergeComputeEfficiency
};

QString degreeName(StrategyDegree degree) {
    switch (degree) {
    case StrategyDegree::Dp:
        return ScenarioDocument::tr("DP");
    case StrategyDegree::Sp:
        return ScenarioDocument::tr("SP");
    case StrategyDegree::Tp:
        return ScenarioDocument::tr("TP");
    case StrategyDegree::Tatp:
        return ScenarioDocument::tr("TATP");
    case StrategyDegree::Pp:
        return ScenarioDocument::tr("pipeline stages");
    case StrategyDegree::MicroBatches:
        return ScenarioDocument::tr("micro-batches");
    }
    return {};
}

QString flagName(StrategyFlag flag) {
    switch (flag) {
    case StrategyFlag::Fsdp:
        return ScenarioDocument::tr("FSDP");
    case StrategyFlag::DoubleBuffering:
        return ScenarioDocument::tr("double buffering");
    case StrategyFlag::SequenceParallel:
        return ScenarioDocument::tr("sequence parallelism");
    }
    return {};
}

QString checkpointingName(Checkpointing checkpointing) {
    switch (checkpointing) {
    case Checkpointing::None:
        return ScenarioDocument::tr("no activation checkpointing");
    case Checkpointing::Selective:
        return ScenarioDocument::tr("selective recomputation");
    case Checkpointing::Full:
        break;
    }
    return ScenarioDocument::tr("full activation checkpointing");
}

} // namespace

bool ScenarioDocument::editBy(const QString& text,
                              const std::function<Scenario(const Scenario&)>& change,
                              QString* reason, int mergeId) {
    try {
        edit(text, change(m_scenario), mergeId);
        return true;
    } catch (const EditRefused& refused) {
        *reason = QString::fromStdString(refused.what());
    }
    return false;
}

bool ScenarioDocument::setStrategyDegree(StrategyDegree degree, int value, QString* reason) {
    const int mergeId = kMergeDp + static_cast<int>(degree);
    return editBy(
        tr("Set %1 to %2").arg(degreeName(degree)).arg(value),
        [&](const Scenario& s) { return ws::setStrategyDegree(s, degree, value); }, reason,
        mergeId);
}

bool ScenarioDocument::setStrategyFlag(StrategyFlag flag, bool on, QString* reason) {
    return editBy((on ? tr("Turn on %1") : tr("Turn off %1")).arg(flagName(flag)),
                  [&](const Scenario& s) { return ws::setStrategyFlag(s, flag, on); }, reason);
}

bool ScenarioDocument::setActivationCheckpointing(Checkpointing checkpointing, QString* reason) {
    return editBy(
        tr("Use %1").arg(checkpointingName(checkpointing)),
        [&](const Scenario& s) { return ws::setActivationCheckpointing(s, checkpointing); },
        reason);
}

bool ScenarioDocument::setStrategyMapping(StrategySpec::MappingKind mapping, QString* reason) {
    return editBy(
        tr("Use the %1 mapping").arg(QString::fromLatin1(toString(mapping))),
        [&](const Scenario& s) { return ws::setStrategyMapping(s, mapping); }, reason);
}

bool ScenarioDocument::setModelPreset(const QString& preset, QString* reason) {
    const bool trainingStep =
        m_scenario.workload && m_scenario.workload->kind == WorkloadKind::Transformer;
    return editBy(
        trainingStep ? tr("Set the model to %1").arg(preset)
                     : tr("Simulate a training step of %1").arg(preset),
        [&](const Scenario& s) { return ws::setModelPreset(s, preset.toStdString()); }, reason);
}

bool ScenarioDocument::setWorkloadSize(WorkloadSize size, long long value, QString* reason) {
    const bool seqLen = size == WorkloadSize::SeqLen;
    return editBy((seqLen ? tr("Set the sequence length to %1") : tr("Set the global batch to %1"))
                      .arg(value),
                  [&](const Scenario& s) { return ws::setWorkloadSize(s, size, value); }, reason,
                  seqLen ? kMergeSeqLen : kMergeGlobalBatch);
}

bool ScenarioDocument::setDieKey(const QString& key, const nlohmann::json& value, QString* reason) {
    const std::string name = key.toStdString();
    const QString shown =
        QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
    // Each key merges its own run of edits (a spin box stepped ten times is one undo step).
    static const QStringList keys = {QStringLiteral("peak_flops"),
                                     QStringLiteral("sram"),
                                     QStringLiteral("hbm_bandwidth"),
                                     QStringLiteral("task_overhead"),
                                     QStringLiteral("gemm_tile"),
                                     QStringLiteral("sram_reserve"),
                                     QStringLiteral("hbm")};
    const int index = static_cast<int>(keys.indexOf(key));
    const int mergeId = index < 0 ? -1 : kMergeDieKey + index;
    return editBy(
        tr("Set wafer.die.%1 to %2").arg(key, shown),
        [&](const Scenario& s) { return ws::setDieKey(s, name, value); }, reason, mergeId);
}

bool ScenarioDocument::setLinkKey(const QString& key, const nlohmann::json& value,
                                  QString* reason) {
    const QString shown =
        QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
    return editBy(
        tr("Set wafer.%1 to %2").arg(key, shown),
        [&](const Scenario& s) { return ws::setLinkKey(s, key.toStdString(), value); }, reason,
        key == QLatin1String("link_bandwidth") ? kMergeLinkBandwidth : kMergeLinkLatency);
}

bool ScenarioDocument::setEnergyKey(const QString& key, double value, QString* reason) {
    return editBy(
        tr("Set wafer.energy.%1 to %2").arg(key).arg(value, 0, 'g', 6),
        [&](const Scenario& s) { return ws::setEnergyKey(s, key.toStdString(), value); }, reason,
        key == QLatin1String("d2d_pj_per_bit")   ? kMergeD2dEnergy
        : key == QLatin1String("hbm_pj_per_bit") ? kMergeHbmEnergy
                                                 : kMergeComputeEfficiency);
}

bool ScenarioDocument::setWaferPreset(const QString& preset, QString* reason) {
    return editBy(
        tr("Use the %1 hardware preset").arg(preset),
        [&](const Scenario& s) { return ws::setWaferPreset(s, preset.toStdString()); }, reason);
}

bool ScenarioDocument::setNetworkModel(NetworkModel model, double chunkBytes, QString* reason) {
    return editBy(
        model == NetworkModel::Fluid ? tr("Use the fluid network model")
                                     : tr("Use the store-and-forward network model"),
        [&](const Scenario& s) { return ws::setNetworkModel(s, model, chunkBytes); }, reason,
        // Steps of the chunk box merge; a switch of model is a command of its own.
        model == m_scenario.networkSettings().model ? kMergeNetworkChunk : -1);
}

bool ScenarioDocument::setDieSpeed(DieId die, double speed, QString* reason) {
    return editBy(
        speed == 1.0 ? tr("Run die %1 at full speed").arg(die)
                     : tr("Run die %1 at %2% of its peak").arg(die).arg(speed * 100, 0, 'g', 4),
        [&](const Scenario& s) { return ws::setDieSpeed(s, die, speed); }, reason);
}

bool ScenarioDocument::setDieDead(DieId die, bool dead, QString* reason) {
    return editBy(
        dead ? tr("Mark die %1 dead").arg(die) : tr("Bring die %1 back").arg(die),
        [&](const Scenario& s) { return ws::setDieDead(s, die, dead); }, reason);
}

bool ScenarioDocument::setLinkDead(const WaferTopology& topology, DieId from, DieId to, bool dead,
                                   QString* reason, bool bothWays) {
    const QString link = QStringLiteral("%1%2%3").arg(from).arg(bothWays ? "-" : "->").arg(to);
    return editBy(
        dead ? tr("Mark link %1 dead").arg(link) : tr("Bring link %1 back").arg(link),
        [&](const Scenario& s) {
            Scenario after = ws::setLinkDead(s, topology, from, to, dead);
            if (!bothWays)
                return after;
            try {
                return ws::setLinkDead(after, topology, to, from, dead);
            } catch (const EditRefused& refused) {
                if (refused.reason() != EditRefused::Reason::NoChange)
                    throw;
                return after; // that direction was already as asked
            }
        },
        reason);
}

bool ScenarioDocument::setStrategyBalance(StrategySpec::Balance balance, QString* reason) {
    return editBy(
        balance == StrategySpec::Balance::Speed ? tr("Balance TATP shares by die speed")
                                                : tr("Split TATP shares evenly"),
        [&](const Scenario& s) { return ws::setStrategyBalance(s, balance); }, reason);
}

bool ScenarioDocument::applyFix(const QString& findingId, const nlohmann::ordered_json& fix,
                                QString* reason) {
    // Not an EditRefused: the fix is the advisor's own pure function, which refuses as the file
    // reader does (a ScenarioError naming the key).
    try {
        Scenario after = ws::applyFix(m_scenario, fix);
        if (after == m_scenario) {
            *reason = tr("the scenario already has this fix");
            return false;
        }
        edit(tr("Apply fix: %1").arg(findingId), std::move(after));
        return true;
    } catch (const ScenarioError& problem) {
        *reason = QString::fromStdString(problem.what());
    }
    return false;
}

bool ScenarioDocument::resizeWafer(int rows, int cols, QString* reason) {
    return editBy(
        tr("Resize the wafer to %1x%2").arg(rows).arg(cols),
        [&](const Scenario& s) { return ws::resizeWafer(s, rows, cols); }, reason, kMergeWafer);
}

bool ScenarioDocument::swapDies(const std::vector<std::pair<DieId, DieId>>& swaps,
                                const QString& text, QString* reason) {
    try {
        const WaferTopology topology(m_scenario.topologySpec());
        return editBy(
            text, [&](const Scenario& s) { return ws::swapDies(s, topology, swaps); }, reason);
    } catch (const std::invalid_argument& problem) { // a wafer the topology refuses
        *reason = QString::fromStdString(problem.what());
    }
    return false;
}

bool ScenarioDocument::applySearchedStrategy(const Scenario& searched, const Scenario& best,
                                             const StrategySpec& strategy, const QString& text,
                                             QString* reason) {
    return editBy(
        text,
        [&](const Scenario& s) { return ws::applySearchedStrategy(s, searched, best, strategy); },
        reason);
}

bool ScenarioDocument::applyTunedRoutes(const Scenario& tuned, const QString& text,
                                        QString* reason) {
    return editBy(
        text, [&](const Scenario& s) { return ws::applyTunedRoutes(s, tuned); }, reason);
}

void ScenarioDocument::replaceScenario(const Scenario& scenario) {
    m_scenario = scenario;
    emit scenarioChanged();
}

} // namespace ws
