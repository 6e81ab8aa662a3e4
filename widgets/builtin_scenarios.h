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

} // namespace ws
