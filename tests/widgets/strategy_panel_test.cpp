#include "scenario_document.h"
#include "strategy_panel.h"
#include "widget_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

// GPT-3 175B on 6x8: dp 6 x tatp 8, 4 micro-batches of the global batch 96, seq_len 2048.
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

// strategy.pp (objectName "pp") is a degree like the others: the box shows the file's stages,
// a change is one undoable edit, and a count the layers cannot be split into is refused.
TEST(StrategyPanel, PipelineStagesAreAnUndoableDegree) {
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("gpt3_175b_four_6x8_wafers_pp4.json");
    ASSERT_TRUE(original.strategy);
    ASSERT_EQ(original.strategy->pp, 4);
    document.load(original, {});
    StrategyPanel panel(&document);
    QSignalSpy messages(&panel, &StrategyPanel::statusMessage);
    auto* pp = panel.findChild<QSpinBox*>("pp");
    ASSERT_TRUE(pp);
    EXPECT_EQ(pp->value(), 4);
    EXPECT_TRUE(pp->toolTip().contains(QStringLiteral("wafers")));
    EXPECT_TRUE(pp->toolTip().contains(QStringLiteral("1F1B")));

    pp->setValue(2);
    ASSERT_TRUE(document.scenario().strategy);
    EXPECT_EQ(document.scenario().strategy->pp, 2);
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(pp->value(), 4); // the form follows the document

    pp->setValue(5); // 96 layers do not split into 5 stages
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(pp->value(), 4);
    ASSERT_FALSE(messages.isEmpty());
    EXPECT_TRUE(messages.back().front().toString().startsWith(QStringLiteral("Not applied")))
        << messages.back().front().toString().toStdString();

    document.load(transformerStep(), {}); // no strategy.pp: one stage
    EXPECT_EQ(pp->value(), 1);
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

// strategy.balance is a combo of even and speed (objectName "balance"), one undoable edit per
// choice, and the form follows undo.
TEST(StrategyPanel, BalanceIsEvenOrSpeed) {
    ScenarioDocument document;
    const Scenario original = test::slowDieLine();
    document.load(original, {});
    StrategyPanel panel(&document);
    auto* balance = panel.findChild<QComboBox*>("balance");
    ASSERT_TRUE(balance);
    ASSERT_EQ(balance->count(), 2);
    EXPECT_EQ(balance->currentData().toString(), "even");
    balance->setCurrentIndex(balance->findData(QStringLiteral("speed")));
    ASSERT_TRUE(document.scenario().strategy);
    EXPECT_EQ(document.scenario().strategy->balance, StrategySpec::Balance::Speed);
    EXPECT_EQ(document.undoStack()->count(), 1);
    EXPECT_EQ(document.undoStack()->undoText(), "Balance TATP shares by die speed");
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_EQ(balance->currentData().toString(), "even"); // the form follows the document
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
