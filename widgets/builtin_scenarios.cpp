#include "builtin_scenarios.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace ws {

QVector<BuiltinScenario> builtinScenarios() {
    QVector<BuiltinScenario> scenarios;
    const QDir directory(QStringLiteral(":/scenarios"));
    for (const QString& name :
         directory.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString path = directory.filePath(name);
        QFile file(path);
        QString title = name;
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
            title = object.value(QStringLiteral("name")).toString(name);
        }
        scenarios.push_back({path, title});
    }
    // The teaching example first: it is what a new user should see.
    std::stable_partition(scenarios.begin(), scenarios.end(), [](const BuiltinScenario& s) {
        return s.resourcePath == defaultScenarioResource();
    });
    return scenarios;
}

QString defaultScenarioResource() {
    return QStringLiteral(":/scenarios/contention_fsdp_tatp_4x4.json");
}

QString shippedFolder() {
    return QFileInfo(QStringLiteral(WAFERSCOPE_SHIPPED_DIR)).canonicalFilePath();
}

bool isShippedPath(const QString& path) {
    if (path.startsWith(QLatin1Char(':')))
        return true;
    const QString shipped = shippedFolder();
    if (shipped.isEmpty() || path.isEmpty())
        return false;
    // The folder, canonical (links resolved), since the file itself may not exist yet.
    const QFileInfo file(path);
    QString folder = QFileInfo(file.absolutePath()).canonicalFilePath();
    if (folder.isEmpty())
        folder = QDir::cleanPath(file.absolutePath());
    return folder == shipped || folder.startsWith(shipped + QLatin1Char('/'));
}

QString folderToWriteIn(const QString& lastDirectory) {
    if (!lastDirectory.isEmpty() && QDir(lastDirectory).exists() &&
        !isShippedPath(lastDirectory + QStringLiteral("/file")))
        return lastDirectory;
    // A folder that exists: a file dialog given one that does not opens where it was last,
    // which may be the shipped folder.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QDir(documents).exists() ? documents : QDir::homePath();
}

} // namespace ws
