#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ws {

// Everything WaferScope remembers between runs, in one typed place over QSettings
// (docs/architecture.md item 3: no ad-hoc QSettings objects elsewhere).
class AppSettings {
public:
    static constexpr int kMaxRecentFiles = 8;

    QStringList recentFiles() const;
    // Puts `path` first, removing duplicates and files beyond kMaxRecentFiles.
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);

    // Where unsaved edits are written every minute, so a crash loses at most a minute of work.
    static QString autosavePath();
    // The document the autosave belongs to (AutosaveRecovery): its file, empty for an example
    // or an untitled document, and the name its title showed.
    QString autosaveFilePath() const;
    QString autosaveDisplayName() const;
    void setAutosaveSource(const QString& filePath, const QString& displayName);
};

} // namespace ws
