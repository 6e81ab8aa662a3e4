#include "scenario_document.h"
#include "strategy_panel.h"
#include "widget_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

// GPT-3 175B on 6x8: dp 6 x tatp 8, 4 micro-batches of the global batch 96, seq_len 2048.
Scenario transformerStep() {
    return test::exampleScenario("gpt3_175b_6x8_fsdp_tatp.json");
}

TEST(StrategyPanel, SequenceLengthAndGlobalBatchAreEditableUndoableFields) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    StrategyPanel panel(&document);
    auto* seqLen = panel.findChild<QSpinBox*>("seqLen");
    auto* batch = panel.findChild<QSpinBox*>("globalBatch");
    ASSERT_TRUE(seqLen && batch);
    EXPECT_TRUE(seqLen->isEnabled());
    EXPECT_EQ(seqLen->value(), original.workload->seqLen);
    EXPECT_EQ(batch->value(), original.workload->globalBatch);

    seqLen->setValue(1024);
    ASSERT_TRUE(document.scenario().workload);
    EXPECT_EQ(document.scenario().workload->seqLen, 1024);
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(seqLen->value(), original.workload->seqLen); // the form follows the document
}

// The die's keys of docs/compute-model.md, typed in display units, land in the file's own units
// and text, one undoable edit each.
TEST(StrategyPanel, DieKeysAreEditedInTheUnitsShown) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    StrategyPanel panel(&document);
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
TEST(StrategyPanel, LinksAndHbmAreEditableUndoableFields) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    StrategyPanel panel(&document);
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
TEST(StrategyPanel, AHardwarePresetIsAppliedKeepingTheWafersSize) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    StrategyPanel panel(&document);
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

TEST(StrategyPanel, ABatchTheStrategyCannotSplitIsRefusedAndTheFormSnapsBack) {
    ScenarioDocument document;
    const Scenario original = transformerStep();
    document.load(original, {});
    StrategyPanel panel(&document);
    QSignalSpy messages(&panel, &StrategyPanel::statusMessage);
    auto* batch = panel.findChild<QSpinBox*>("globalBatch");
    ASSERT_TRUE(batch);
    batch->setValue(static_cast<int>(original.workload->globalBatch) + 1); // dp no longer divides
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(batch->value(), original.workload->globalBatch);
    ASSERT_EQ(messages.count(), 1);
    EXPECT_EQ(messages.front().front().toString(),
              "Not applied: strategy.micro_batches: 4 does not divide the global batch of 97 "
              "sequences");
}

// strategy.activation_checkpointing is a combo of none, selective and full (objectName
// "activationCheckpointing"), one undoable edit per choice.
TEST(StrategyPanel, CheckpointingIsChosenAmongNoneSelectiveAndFull) {
    ScenarioDocument document;
    const Scenario original = transformerStep(); // full checkpointing
    document.load(original, {});
    StrategyPanel panel(&document);
    auto* checkpointing = panel.findChild<QComboBox*>("activationCheckpointing");
    ASSERT_TRUE(checkpointing);
    ASSERT_EQ(checkpointing->count(), 3);
    EXPECT_EQ(checkpointing->currentData().toString(), "full");
    checkpointing->setCurrentIndex(checkpointing->findData(QStringLiteral("selective")));
    ASSERT_TRUE(document.scenario().strategy);
    EXPECT_EQ(document.scenario().strategy->activationCheckpointing, Checkpointing::Selective);
    checkpointing->setCurrentIndex(checkpointing->findData(QStringLiteral("none")));
    EXPECT_EQ(document.scenario().strategy->activationCheckpointing, Checkpointing::None);
    EXPECT_EQ(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    EXPECT_EQ(checkpointing->currentData().toString(), "selective"); // the form follows
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
}

// strategy.sequence_parallel (objectName "sequenceParallel") needs tp > 1: the box is disabled,
// saying why, while tp is 1, and toggles the key as one undoable edit otherwise.
TEST(StrategyPanel, SequenceParallelismIsOfferedOnlyWithTensorParallelism) {
    ScenarioDocument document;
    document.load(transformerStep(), {}); // tp 1
    StrategyPanel panel(&document);
    auto* sequenceParallel = panel.findChild<QCheckBox*>("sequenceParallel");
    ASSERT_TRUE(sequenceParallel);
    EXPECT_FALSE(sequenceParallel->isEnabled());
    EXPECT_FALSE(sequenceParallel->isChecked());
    EXPECT_TRUE(sequenceParallel->toolTip().contains(QStringLiteral("Needs TP > 1")));

    const Scenario batch128 = test::exampleScenario("gpt3_175b_6x8_batch128.json"); // tp 3
    ASSERT_TRUE(batch128.strategy && batch128.strategy->sequenceParallel);
    document.load(batch128, {});
    EXPECT_TRUE(sequenceParallel->isEnabled());
    EXPECT_TRUE(sequenceParallel->isChecked());
    sequenceParallel->setChecked(false);
    EXPECT_FALSE(document.scenario().strategy->sequenceParallel);
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), batch128);
    EXPECT_TRUE(sequenceParallel->isChecked());
}

TEST(StrategyPanel, ExplicitTrafficHasNoSequenceLength) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    StrategyPanel panel(&document);
    EXPECT_FALSE(panel.findChild<QSpinBox*>("seqLen")->isEnabled());
    EXPECT_FALSE(panel.findChild<QSpinBox*>("globalBatch")->isEnabled());
}

} // namespace
} // namespace ws
