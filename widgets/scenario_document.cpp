#include "scenario_document.h"

#include "scenario_edit_command.h"

#include "io/file_write_error.h"
#include "io/scenario_error.h"
#include "io/scenario_io.h"
#include "strategy/die_role_swap.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

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

std::filesystem::path ScenarioDocument::directory() const {
    if (m_filePath.isEmpty() || m_filePath.startsWith(QLatin1Char(':')))
        return {};
    return QFileInfo(m_filePath).absoluteDir().absolutePath().toStdString();
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

bool ScenarioDocument::openFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot be read: ") + file.errorString();
        return false;
    }
    const QByteArray text = file.readAll();
    try {
        Scenario scenario = parseScenario(text.toStdString());
        const bool resource = path.startsWith(QLatin1Char(':'));
        load(std::move(scenario), resource ? QString() : QFileInfo(path).absoluteFilePath(),
             resource ? QFileInfo(path).fileName() : QString());
        return true;
    } catch (const ScenarioError& problem) {
        *error = path + QStringLiteral(": ") + QString::fromStdString(problem.what());
        return false;
    }
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

bool ScenarioDocument::swapDies(const std::vector<std::pair<DieId, DieId>>& swaps,
                                const QString& text, QString* reason) {
    try {
        const WaferTopology topology(m_scenario.wafer.topologySpec());
        Scenario after = m_scenario;
        for (const auto& [a, b] : swaps)
            after = swapDieRoles(after, topology, a, b);
        edit(text, std::move(after));
        return true;
    } catch (const DieSwapRefused& refused) {
        *reason = QString::fromStdString(refused.what());
    } catch (const std::exception& problem) { // ScenarioError, std::invalid_argument
        *reason = QString::fromStdString(problem.what());
    }
    return false;
}

void ScenarioDocument::replaceScenario(const Scenario& scenario) {
    m_scenario = scenario;
    emit scenarioChanged();
}

} // namespace ws
