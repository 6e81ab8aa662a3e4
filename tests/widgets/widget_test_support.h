#pragma once

#include "mesh_view.h"
#include "scenario_analysis.h"

#include "io/scenario_io.h"
#include "io/strategy_reader.h"
#include "io/workload_reader.h"

#include <QAction>
#include <QApplication>
#include <QColor>
#include <QImage>
#include <QList>
#include <QMenu>
#include <QPair>
#include <QTest>

#include <memory>
#include <optional>
#include <string>

namespace ws::test {

inline std::string scenarioPath(const std::string& name) {
    return std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + name;
}

inline Scenario exampleScenario(const std::string& name) {
    return loadScenario(scenarioPath(name));
}

// The FSDP/TATP contention teaching example, simulated.
inline std::shared_ptr<const ScenarioAnalysis> teachingAnalysis() {
    return analyseScenario(exampleScenario("contention_fsdp_tatp_4x4.json"));
}

// A strategy scenario on a 4x4 wafer: dp 2 x tatp 2 of a small gemm, placed sequentially.
inline Scenario smallStrategyScenario() {
    Scenario scenario;
    scenario.name = "small strategy";
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "gemm"}, {"m", 1024}, {"k", 1024}, {"n", 1024}}, {});
    scenario.strategy = parseStrategy(nlohmann::json{{"dp", 2}, {"tatp", 2}, {"fsdp", true}});
    return scenario;
}

// A TATP line of 4 dies streaming a GEMM, die 1 at 40% of its peak (docs/advisor.md's worked
// example): the advisor finds load_imbalance and low_utilization, both fixed by
// strategy.balance "speed". Small enough to stay in SRAM: it simulates in milliseconds.
inline Scenario slowDieLine() {
    Scenario scenario;
    scenario.name = "slow die";
    scenario.wafer.rows = 1;
    scenario.wafer.cols = 4;
    scenario.wafer.slowDies = {{1, 0.4}};
    scenario.wafer.die.taskOverhead = {0.0, "0 s"};
    scenario.wafer.die.gemmTile = 1;
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "gemm"}, {"m", 4096}, {"k", 2048}, {"n", 2048}}, {});
    scenario.strategy = parseStrategy(nlohmann::json{{"tatp", 4}});
    return scenario;
}

// A small transformer (8 layers, hidden 1024) in 2 pipeline stages of dp 2 x tatp 2 on a 4x4
// wafer, 4 micro-batches: stage 0 on rows 0-1, stage 1 on rows 2-3. Simulates in well under a
// second.
inline Scenario smallPipelineScenario() {
    Scenario scenario;
    scenario.name = "small pipeline";
    scenario.wafer.rows = 4;
    scenario.wafer.cols = 4;
    scenario.workload = parseWorkload(nlohmann::json{{"kind", "transformer"},
                                                     {"model",
                                                      {{"layers", 8},
                                                       {"hidden", 1024},
                                                       {"heads", 16},
                                                       {"ffn_hidden", 4096},
                                                       {"vocab", 32000}}},
                                                     {"seq_len", 1024},
                                                     {"global_batch", 16}},
                                      {});
    scenario.strategy =
        parseStrategy(nlohmann::json{{"pp", 2}, {"dp", 2}, {"tatp", 2}, {"micro_batches", 4}});
    return scenario;
}

// A [2, 2] system of wafers (docs/file-format.md `system`), off-wafer links of 100 GB/s and 1 us,
// joining `linksPerEdge` die pairs of each shared edge (unset: all).
inline SystemSpec twoByTwoSystem(std::optional<int> linksPerEdge) {
    SystemSpec system;
    system.waferRows = 2;
    system.waferCols = 2;
    system.linkBandwidth = {100e9, "100 GB/s"};
    system.linkLatency = {1e-6, "1 us"};
    system.linksPerEdge = linksPerEdge;
    return system;
}

// Picks the action named `choice` in the popup menu that is open, if one is, and presses Enter,
// as a user would. Called from a timer's ticks: a menu's exec runs an event loop of its own,
// which they reach. True when a menu was answered.
inline bool answerOpenMenu(const QString& choice) {
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu)
        return false;
    for (QAction* action : menu->actions())
        if (action->text() == choice)
            menu->setActiveAction(action);
    QTest::keyClick(menu, Qt::Key_Return);
    return true;
}

inline bool sameColor(QColor a, QColor b, int tolerance = 0) {
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace ws::test

namespace ws {
using Swaps = QList<QPair<int, int>>; // die pairs a drop asks to swap

// GPT-3 175B on 6x8 with FSDP and TATP: a whole training step, with every strategy field set.
inline Scenario transformerStep() {
    return test::exampleScenario("gpt3_175b_6x8_fsdp_tatp.json");
}

// Where a die's centre is drawn in `view`, in widget pixels.
inline QPoint centreOf(const MeshView& view, DieId die) {
    return view.geometry().dieRect(view.analysis()->topology->coord(die)).center().toPoint();
}

inline QColor pixelAt(const QImage& image, QPointF point) {
    return image.pixelColor(point.toPoint());
}

// Pixels of `colour` (within `tolerance` per channel) inside `area` of `image`.
inline int pixelsOf(const QImage& image, const QRect& area, QColor colour, int tolerance = 0) {
    int count = 0;
    const QRect inside = area.intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            count += test::sameColor(image.pixelColor(x, y), colour, tolerance) ? 1 : 0;
    return count;
}
} // namespace ws
