#include "app_settings.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace ws {

namespace {
constexpr const char* kRecentFiles = "recentFiles";
constexpr const char* kGeometry = "window/geometry";
constexpr const char* kState = "window/state";
constexpr const char* kLastDirectory = "lastDirectory";
constexpr const char* kAutosaveFile = "autosave/file";
constexpr const char* kAutosaveName = "autosave/name";
} // namespace

QStringList AppSettings::recentFiles() const {
    return QSettings().value(kRecentFiles).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentFiles, files);
}

void AppSettings::removeRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(path);
    QSettings().setValue(kRecentFiles, files);
}

QByteArray AppSettings::windowGeometry() const {
    return QSettings().value(kGeometry).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray& geometry) {
    QSettings().setValue(kGeometry, geometry);
}

QByteArray AppSettings::windowState() const {
    return QSettings().value(kState).toByteArray();
}

void AppSettings::setWindowState(const QByteArray& state) {
    QSettings().setValue(kState, state);
}

QString AppSettings::lastDirectory() const {
    return QSettings().value(kLastDirectory, QDir::homePath()).toString();
}

void AppSettings::setLastDirectory(const QString& directory) {
    QSettings().setValue(kLastDirectory, directory);
}

QString AppSettings::autosaveFilePath() const {
    return QSettings().value(kAutosaveFile).toString();
}

QString AppSettings::autosaveDisplayName() const {
    return QSettings().value(kAutosaveName).toString();
}

void AppSettings::setAutosaveSource(const QString& filePath, const QString& displayName) {
    QSettings settings;
    settings.setValue(kAutosaveFile, filePath);
    settings.setValue(kAutosaveName, displayName);
}

QString AppSettings::autosavePath() {
    const QString directory = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(directory);
    return directory + QStringLiteral("/autosave.json");
}

} // namespace ws
