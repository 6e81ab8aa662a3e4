#include "autosave_recovery.h"

#include "builtin_scenarios.h"
#include "scenario_document.h"

#include <QFile>
#include <QFileInfo>

#include <filesystem>

namespace ws {

bool AutosaveRecovery::write(const ScenarioDocument& document, QString* error) {
    if (!document.writeCopy(AppSettings::autosavePath(), error))
        return false;
    m_settings.setAutosaveSource(document.filePath(), document.displayName());
    return true;
}

void AutosaveRecovery::forget() {
    QFile::remove(AppSettings::autosavePath());
    m_settings.setAutosaveSource({}, {});
}

std::optional<AutosaveRecovery::Offer> AutosaveRecovery::pending() const {
    const QFileInfo autosave(AppSettings::autosavePath());
    if (!autosave.exists())
        return std::nullopt;
    Offer offer{m_settings.autosaveFilePath(), m_settings.autosaveDisplayName(),
                autosave.lastModified()};
    if (offer.displayName.isEmpty())
        offer.displayName = QStringLiteral("untitled.json");
    // A file saved after the autosave holds the edits, or newer ones: nothing to recover.
    if (!offer.filePath.isEmpty()) {
        const QFileInfo file(offer.filePath);
        if (file.exists() && file.lastModified() >= offer.savedAt)
            return std::nullopt;
    }
    return offer;
}

bool AutosaveRecovery::restore(ScenarioDocument& document, QString* error) {
    const std::optional<Offer> offer = pending();
    if (!offer) {
        *error = AppSettings::autosavePath() + QStringLiteral(": no autosave to restore");
        return false;
    }
    // A relative workload.hf_config is read beside the document's own file, as at open.
    const std::filesystem::path directory =
        offer->filePath.isEmpty()
            ? std::filesystem::path()
            : std::filesystem::path(QFileInfo(offer->filePath).absolutePath().toStdString());
    std::optional<Scenario> scenario =
        ScenarioDocument::readScenarioFile(AppSettings::autosavePath(), directory, error);
    if (!scenario)
        return false;
    // Edits of a file the project ships come back untitled: Save then asks where, never over it
    // (an autosave from before that file was opened untitled may still name it).
    const QString filePath = isShippedPath(offer->filePath) ? QString() : offer->filePath;
    document.restoreUnsaved(std::move(*scenario), filePath, offer->displayName);
    return true;
}

} // namespace ws
