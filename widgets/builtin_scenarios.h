#pragma once

#include <QString>
#include <QVector>

namespace ws {

// The example scenarios compiled into the app (resources/scenarios), for File > New from
// example and for the default document.
struct BuiltinScenario {
    QString resourcePath; // ":/scenarios/contention_fsdp_tatp_4x4.json"
    QString title;        // the scenario's "name"
};

QVector<BuiltinScenario> builtinScenarios();

// The scenario the app opens when given no file: the FSDP/TATP contention teaching example.
QString defaultScenarioResource();

// The folder of the files WaferScope ships, the source tree's resources/ (examples, sweeps,
// validation suites), as a canonical path; empty when it is not on this machine.
QString shippedFolder();

// Whether `path` (a file that may not exist yet) is a built-in example (":/...") or lies in the
// shipped folder: such files open untitled and the app never writes to them (docs/gui.md
// "Files").
bool isShippedPath(const QString& path);

// The folder a save or export dialog starts in: `lastDirectory`, unless it is in the shipped
// folder, then the user's documents folder, or home when there is none.
QString folderToWriteIn(const QString& lastDirectory);

} // namespace ws
