#include "fault_editor.h"
#include "hardware_panel.h"
#include "scenario_document.h"
#include "widget_test_support.h"

#include "units/quantity.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

// GPT-3 175B on 6x8: dp 6 x tatp 8, 4 micro-batches of the global batch 96, seq_len 2048.
// The die's keys of docs/compute-model.md, typed in display units, land in the file's own units
// and text, one undoable edit each.
TEST(HardwarePanel, DieKeysAreEditedInTheUnitsShown) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    HardwarePanel panel(&document);
    auto* overhead = panel.findChild<QDoubleSpinBox*>("taskOverhead");
    auto* reserve = panel.findChild<QDoubleSpinBox*>("sramReserve");
    auto* tile = panel.findChild<QSpinBox*>("gemmTile");
    ASSERT_TRUE(overhead && reserve && tile);
    EXPECT_DOUBLE_EQ(overhead->value(), original.wafer.die.taskOverhead.value * 1e9);
    overhead->setValue(250);
    EXPECT_EQ(document.scenario().wafer.die.taskOverhead, (Quantity{250e-9, "250 ns"}));
    reserve->setValue(20);
    EXPECT_DOUBLE_EQ(document.scenario().wafer.die.sramReserve, 0.2);
    tile->setValue(64);
    EXPECT_EQ(document.scenario().wafer.die.gemmTile, 64);
    EXPECT_EQ(document.undoStack()->count(), 3);
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
}

// The links and the HBM are edited like the die's other keys: in the units shown, undoably.
TEST(HardwarePanel, LinksAndHbmAreEditableUndoableFields) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    HardwarePanel panel(&document);
    auto* bandwidth = panel.findChild<QDoubleSpinBox*>("linkBandwidth");
    auto* latency = panel.findChild<QDoubleSpinBox*>("linkLatency");
    auto* hbm = panel.findChild<QDoubleSpinBox*>("hbm");
    ASSERT_TRUE(bandwidth && latency && hbm);
    EXPECT_DOUBLE_EQ(bandwidth->value(), original.wafer.linkBandwidth.value / 1e12);
    bandwidth->setValue(2.5);
    EXPECT_EQ(document.scenario().wafer.linkBandwidth, (Quantity{2.5e12, "2.5 TB/s"}));
    EXPECT_EQ(document.undoStack()->undoText(), "Set wafer.link_bandwidth to 2.5 TB/s");
    latency->setValue(50);
    EXPECT_EQ(document.scenario().wafer.linkLatency, (Quantity{50e-9, "50 ns"}));
    hbm->setValue(40);
    EXPECT_EQ(document.scenario().wafer.die.hbm, (Quantity{40e9, "40 GB"}));
    EXPECT_EQ(document.undoStack()->count(), 3);
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_DOUBLE_EQ(bandwidth->value(), original.wafer.linkBandwidth.value / 1e12);
}

// Choosing a hardware preset is one undoable edit that keeps the wafer's size; the die's boxes
// follow, and a wafer that names no preset shows none.
TEST(HardwarePanel, AHardwarePresetIsAppliedKeepingTheWafersSize) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    HardwarePanel panel(&document);
    auto* preset = panel.findChild<QComboBox*>("hardwarePreset");
    auto* peak = panel.findChild<QDoubleSpinBox*>("peakFlops");
    ASSERT_TRUE(preset && peak);
    EXPECT_EQ(preset->currentIndex(), -1);
    preset->setCurrentText(QStringLiteral("tesla-dojo-tile"));
    EXPECT_EQ(document.scenario().wafer.preset, "tesla-dojo-tile");
    EXPECT_EQ(document.scenario().wafer.rows, original.wafer.rows);
    EXPECT_EQ(document.scenario().wafer.cols, original.wafer.cols);
    EXPECT_DOUBLE_EQ(peak->value(), 362.0);
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(preset->currentIndex(), -1);
}

// A cluster (docs/gui.md "Hardware") shows its network on the read-only row, renamed "Cluster", and
// offers no wafer preset (it would replace the GPU with a wafer's die); the GPU's boxes edit it.
TEST(HardwarePanel, AClusterShowsItsNetworkAndOffersNoWaferPreset) {
    ScenarioDocument document;
    document.load(test::exampleScenario("gpt3_13b_dgx_a100_32gpu.json"), {});
    HardwarePanel panel(&document);
    auto* preset = panel.findChild<QComboBox*>("hardwarePreset");
    auto* system = panel.findChild<QLabel*>("system");
    auto* peak = panel.findChild<QDoubleSpinBox*>("peakFlops");
    ASSERT_TRUE(preset && system && peak);
    EXPECT_FALSE(preset->isEnabled());
    EXPECT_TRUE(system->text().startsWith("4 nodes x 8 GPUs, rail network, NIC 25 GB/s per GPU"))
        << system->text().toStdString();
    EXPECT_DOUBLE_EQ(peak->value(), 312.0);
    document.load(transformerStep(), {});
    EXPECT_TRUE(preset->isEnabled());
}

// The energy model (it once could not be edited): pJ per bit and TFLOP per joule,
// written as the file's numbers, one undoable edit each, and a refused value snaps back.
TEST(HardwarePanel, EnergyIsEditedInTheUnitsShown) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    HardwarePanel panel(&document);
    auto* d2d = panel.findChild<QDoubleSpinBox*>("d2dEnergy");
    auto* hbm = panel.findChild<QDoubleSpinBox*>("hbmEnergy");
    auto* compute = panel.findChild<QDoubleSpinBox*>("computeEfficiency");
    ASSERT_TRUE(d2d && hbm && compute);
    EXPECT_DOUBLE_EQ(d2d->value(), original.wafer.energy.d2dPicojoulesPerBit);
    EXPECT_DOUBLE_EQ(compute->value(), original.wafer.energy.flopsPerJoule / 1e12);
    d2d->setValue(1.5);
    EXPECT_DOUBLE_EQ(document.scenario().wafer.energy.d2dPicojoulesPerBit, 1.5);
    EXPECT_EQ(document.undoStack()->undoText(), "Set wafer.energy.d2d_pj_per_bit to 1.5");
    hbm->setValue(3);
    EXPECT_DOUBLE_EQ(document.scenario().wafer.energy.hbmPicojoulesPerBit, 3.0);
    compute->setValue(4);
    EXPECT_DOUBLE_EQ(document.scenario().wafer.energy.flopsPerJoule, 4e12);
    EXPECT_EQ(document.undoStack()->count(), 3);
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_DOUBLE_EQ(d2d->value(), original.wafer.energy.d2dPicojoulesPerBit);
}

// The wafer's size is edited here too, and a size the strategy cannot fit is refused.
TEST(HardwarePanel, AWaferTooSmallForTheStrategyIsRefusedAndTheFormSnapsBack) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    HardwarePanel panel(&document);
    QStringList messages;
    QObject::connect(&panel, &HardwarePanel::statusMessage,
                     [&](const QString& text) { messages << text; });
    auto* rows = panel.findChild<QSpinBox*>("waferRows");
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->value(), original.wafer.rows);
    rows->setValue(2); // 2 x 8 dies cannot hold dp 6 x tatp 8
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(rows->value(), original.wafer.rows);
    ASSERT_EQ(messages.size(), 1);
    EXPECT_TRUE(messages.front().startsWith("Not applied: ")) << messages.front().toStdString();
}

// A system of wafers (docs/gui.md "Hardware") is shown, read-only, as one line under the wafer's
// size; a scenario of one wafer has no such line.
TEST(HardwarePanel, ASystemOfWafersIsShownAsOneLine) {
    ScenarioDocument document;
    Scenario scenario = transformerStep();
    scenario.system = test::twoByTwoSystem(3);
    document.load(scenario, {});
    HardwarePanel panel(&document);
    auto* system = panel.findChild<QLabel*>("system");
    ASSERT_TRUE(system);
    EXPECT_TRUE(system->isVisibleTo(&panel));
    EXPECT_EQ(system->text(), "2 x 2 wafers (12 x 16 dies), off-wafer links 100 GB/s, 1 us, 3 per "
                              "edge");
    // The wafer's own size stays in its boxes: dies per wafer.
    EXPECT_EQ(panel.findChild<QSpinBox*>("waferRows")->value(), 6);
    EXPECT_EQ(panel.findChild<QSpinBox*>("waferCols")->value(), 8);

    scenario.system->linksPerEdge.reset();
    document.load(scenario, {});
    EXPECT_EQ(system->text(), "2 x 2 wafers (12 x 16 dies), off-wafer links 100 GB/s, 1 us, "
                              "every die pair of an edge");
    document.load(transformerStep(), {});
    EXPECT_FALSE(system->isVisibleTo(&panel));
}

// The hardware's own words (docs/gui.md "Hardware"): nodes and GPUs on a cluster, rows,
// columns and dies on a wafer.
TEST(HardwarePanel, AClusterIsDescribedInNodesAndGpus) {
    ScenarioDocument document;
    document.load(test::exampleScenario("gpt3_13b_dgx_a100_32gpu.json"), {});
    HardwarePanel panel(&document);
    const auto labelOf = [&](const char* field) {
        QWidget* box = panel.findChild<QWidget*>(field);
        auto* form = qobject_cast<QFormLayout*>(box->parentWidget()->layout());
        return qobject_cast<QLabel*>(form->labelForField(box))->text();
    };
    EXPECT_EQ(labelOf("waferRows"), "Nodes");
    EXPECT_EQ(labelOf("waferCols"), "GPUs per node");
    EXPECT_EQ(
        qobject_cast<QGroupBox*>(panel.findChild<QWidget*>("peakFlops")->parentWidget())->title(),
        "GPU");
    document.load(transformerStep(), {});
    EXPECT_EQ(labelOf("waferRows"), "Rows");
    EXPECT_EQ(
        qobject_cast<QGroupBox*>(panel.findChild<QWidget*>("peakFlops")->parentWidget())->title(),
        "Die");
}

} // namespace
} // namespace ws

namespace ws {
namespace {

QStringList rowsOf(const QListWidget& list) {
    QStringList rows;
    for (int i = 0; i < list.count(); ++i)
        rows << list.item(i)->text();
    return rows;
}

// The Hardware dock lists the faults and edits them with clicks, each one undo step
// (docs/gui.md "Faults").
TEST(FaultEditor, FaultsAreListedAddedAndRemovedWithClicksEachUndoable) {
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("slow_die_6x8.json"); // die 3 at 50%
    document.load(original, {});
    HardwarePanel panel(&document);
    QStringList status;
    QObject::connect(&panel, &HardwarePanel::statusMessage,
                     [&status](const QString& text) { status << text; });
    auto* list = panel.findChild<QListWidget*>("faultList");
    auto* kind = panel.findChild<QComboBox*>("faultKindToAdd");
    auto* die = panel.findChild<QSpinBox*>("faultDie");
    auto* to = panel.findChild<QSpinBox*>("faultTo");
    auto* add = panel.findChild<QPushButton*>("addFault");
    auto* remove = panel.findChild<QPushButton*>("removeFault");
    ASSERT_TRUE(list && kind && die && to && add && remove);
    EXPECT_EQ(rowsOf(*list), QStringList{"die 3: 50% of its peak"});
    EXPECT_FALSE(remove->isEnabled()) << "nothing selected";

    kind->setCurrentIndex(FaultEditor::DeadLink);
    die->setValue(20);
    to->setValue(21);
    QTest::mouseClick(add, Qt::LeftButton);
    kind->setCurrentIndex(FaultEditor::DeadDie);
    die->setValue(19);
    QTest::mouseClick(add, Qt::LeftButton);
    EXPECT_EQ(document.scenario().wafer.deadDies, (std::vector<DieId>{19}));
    EXPECT_EQ(document.scenario().wafer.deadLinks,
              (std::vector<LinkRef>{{20, 21, false}, {21, 20, false}}));
    EXPECT_EQ(rowsOf(*list), (QStringList{"die 19: dead", "link 20-21: dead both ways",
                                          "die 3: 50% of its peak"}));
    EXPECT_EQ(document.undoStack()->count(), 2) << "one undo step per fault, both ways included";

    // Remove brings the slow die back to full speed.
    list->setCurrentRow(2);
    ASSERT_TRUE(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_TRUE(document.scenario().wafer.slowDies.empty());
    list->setCurrentRow(1);
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_TRUE(document.scenario().wafer.deadLinks.empty()) << "both directions back at once";
    EXPECT_EQ(document.undoStack()->count(), 4);

    // Dies no link joins: refused, said, nothing changed.
    kind->setCurrentIndex(FaultEditor::DeadLink);
    die->setValue(0);
    to->setValue(9);
    const Scenario before = document.scenario();
    QTest::mouseClick(add, Qt::LeftButton);
    EXPECT_TRUE(document.scenario() == before);
    ASSERT_FALSE(status.isEmpty());
    EXPECT_TRUE(status.back().startsWith("Not applied")) << status.back().toStdString();

    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    EXPECT_TRUE(document.scenario() == original);
    EXPECT_EQ(rowsOf(*list), QStringList{"die 3: 50% of its peak"});
}

// On a GPU cluster the faults are its GPUs': no dead link to add (docs/gui.md "Faults").
TEST(FaultEditor, AClustersFaultsAreItsGpus) {
    ScenarioDocument document;
    document.load(test::exampleScenario("gpt3_13b_dgx_a100_32gpu.json"), {});
    HardwarePanel panel(&document);
    auto* editor = panel.findChild<FaultEditor*>("faultEditor");
    auto* kind = panel.findChild<QComboBox*>("faultKindToAdd");
    auto* list = panel.findChild<QListWidget*>("faultList");
    ASSERT_TRUE(editor && kind && list);
    EXPECT_EQ(kind->itemText(FaultEditor::DeadDie), "Dead GPU");
    auto* model = qobject_cast<QStandardItemModel*>(kind->model());
    ASSERT_NE(model, nullptr);
    EXPECT_FALSE(model->item(FaultEditor::DeadLink)->isEnabled());
    EXPECT_EQ(rowsOf(*list), QStringList{"No faults: every GPU and link is healthy"});
    editor->addFault(FaultEditor::DeadDie, 5);
    EXPECT_EQ(rowsOf(*list), QStringList{"GPU 5: dead"});
}

} // namespace
} // namespace ws
