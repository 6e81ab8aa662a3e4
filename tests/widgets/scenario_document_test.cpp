#include "scenario_document.h"
#include "widget_test_support.h"

#include "io/scenario_io.h"
#include "strategy/die_groups.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ws {
namespace {

TEST(ScenarioDocument, AnEditIsOneUndoCommandAndUndoRestores) {
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    document.load(original, {});
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    Scenario edited = original;
    edited.name = "renamed";
    document.edit("Rename", edited);
    EXPECT_EQ(document.undoStack()->count(), 1);
    EXPECT_EQ(document.undoStack()->undoText(), "Rename");
    EXPECT_EQ(document.scenario().name, "renamed");
    EXPECT_TRUE(document.isModified());
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
    EXPECT_FALSE(document.isModified());
    EXPECT_EQ(changed.count(), 2);
}

TEST(ScenarioDocument, AnEditThatChangesNothingPushesNothing) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    document.edit("Nothing", document.scenario());
    EXPECT_EQ(document.undoStack()->count(), 0);
}

TEST(ScenarioDocument, SwapsAreOneCommandOrARefusalWithAReason) {
    ScenarioDocument document;
    document.load(test::smallStrategyScenario(), {});
    QString reason;
    ASSERT_TRUE(document.swapDies({{1, 5}, {3, 7}}, "Move 2 dies", &reason))
        << reason.toStdString();
    EXPECT_EQ(document.undoStack()->count(), 1);
    const DieGroups groups =
        dieGroups(document.scenario(), WaferTopology(document.scenario().wafer.topologySpec()));
    EXPECT_EQ(groups.tatp, (std::vector<std::vector<DieId>>{{0, 5}, {2, 7}}));

    EXPECT_FALSE(document.swapDies({{0, 0}}, "Nothing", &reason));
    EXPECT_EQ(reason, "die 0 dropped on itself: nothing to change");
    EXPECT_EQ(document.undoStack()->count(), 1);
}

// A die's speed and the strategy's balance: one command each, named for the history, undone
// exactly; a refusal changes nothing and says why.
TEST(ScenarioDocument, ADiesSpeedAndTheBalanceAreOneCommandEach) {
    ScenarioDocument document;
    const Scenario original = test::slowDieLine();
    document.load(original, {});
    QString reason;
    ASSERT_TRUE(document.setDieSpeed(2, 0.5, &reason)) << reason.toStdString();
    EXPECT_EQ(document.undoStack()->undoText(), "Run die 2 at 50% of its peak");
    EXPECT_DOUBLE_EQ(document.scenario().wafer.dieSpeed(2), 0.5);
    ASSERT_TRUE(document.setDieSpeed(1, 1.0, &reason)) << reason.toStdString();
    EXPECT_EQ(document.undoStack()->undoText(), "Run die 1 at full speed");
    EXPECT_EQ(document.scenario().wafer.slowDies.count(1), 0u);
    EXPECT_FALSE(document.setDieSpeed(9, 0.5, &reason));
    EXPECT_TRUE(reason.contains("no die 9")) << reason.toStdString();
    ASSERT_TRUE(document.setStrategyBalance(StrategySpec::Balance::Speed, &reason));
    EXPECT_EQ(document.undoStack()->undoText(), "Balance TATP shares by die speed");
    EXPECT_EQ(document.undoStack()->count(), 3);
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
}

// An advisor's fix is one command "Apply fix: <id>"; one that changes nothing, or that the
// scenario reader refuses, pushes nothing and says why.
TEST(ScenarioDocument, AnAdvisorsFixIsOneCommandOrARefusal) {
    ScenarioDocument document;
    const Scenario original = test::slowDieLine();
    document.load(original, {});
    const nlohmann::ordered_json balance = {{"strategy.balance", "speed"}};
    QString reason;
    ASSERT_TRUE(document.applyFix("load_imbalance", balance, &reason)) << reason.toStdString();
    EXPECT_EQ(document.undoStack()->count(), 1);
    EXPECT_EQ(document.undoStack()->undoText(), "Apply fix: load_imbalance");
    EXPECT_EQ(document.scenario().strategy->balance, StrategySpec::Balance::Speed);
    EXPECT_FALSE(document.applyFix("load_imbalance", balance, &reason));
    EXPECT_EQ(reason, "the scenario already has this fix");
    EXPECT_FALSE(document.applyFix("typo", {{"strategy.tatp", "four"}}, &reason));
    EXPECT_TRUE(reason.contains("strategy.tatp")) << reason.toStdString();
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario(), original);
}

TEST(ScenarioDocument, ConsecutiveEditsWithAMergeIdMerge) {
    ScenarioDocument document;
    document.load(test::smallStrategyScenario(), {});
    for (int dp : {1, 2, 4}) {
        Scenario edited = document.scenario();
        edited.strategy->dp = dp;
        document.edit(QString("Set DP to %1").arg(dp), edited, 100);
    }
    EXPECT_EQ(document.undoStack()->count(), 1);
    EXPECT_EQ(document.undoStack()->undoText(), "Set DP to 4");
    document.undoStack()->undo();
    EXPECT_EQ(document.scenario().strategy->dp, 2);
}

TEST(ScenarioDocument, SavesAtomicallyAndReadsBackTheSameScenario) {
    QTemporaryDir directory;
    const QString path = directory.filePath("saved.json");
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    QString error;
    ASSERT_TRUE(document.saveAs(path, &error)) << error.toStdString();
    EXPECT_EQ(document.filePath(), path);
    EXPECT_EQ(document.displayName(), "saved.json");
    ScenarioDocument reopened;
    ASSERT_TRUE(reopened.openFile(path, &error)) << error.toStdString();
    EXPECT_EQ(reopened.scenario(), document.scenario());
}

std::string readBytes(const QString& path) {
    std::ifstream stream(path.toStdString(), std::ios::binary);
    std::ostringstream bytes;
    bytes << stream.rdbuf();
    return bytes.str();
}

// File > Save writes what Export of the tuned scenario and the CLI's -o write (core's
// saveScenario: the documented key order and layout), byte for byte, for every example.
TEST(ScenarioDocument, SavesTheSameTextAsCoreSaveScenario) {
    QTemporaryDir directory;
    int examples = 0;
    for (const auto& entry : std::filesystem::directory_iterator(WAFERSCOPE_SCENARIO_DIR)) {
        if (entry.path().extension() != ".json")
            continue;
        ++examples;
        SCOPED_TRACE(entry.path().filename().string());
        ScenarioDocument document;
        QString error;
        ASSERT_TRUE(document.openFile(QString::fromStdString(entry.path().string()), &error))
            << error.toStdString();
        const QString saved = directory.filePath("saved.json");
        const QString core = directory.filePath("core.json");
        ASSERT_TRUE(document.saveAs(saved, &error)) << error.toStdString();
        saveScenario(loadScenario(entry.path()), core.toStdString());
        const std::string text = readBytes(saved);
        EXPECT_EQ(text, readBytes(core));
        EXPECT_EQ(text.rfind("{\n  \"format\": \"waferscope.scenario\",\n  \"version\": 1,\n", 0),
                  0u)
            << text.substr(0, 200);
    }
    EXPECT_GE(examples, 4);
}

TEST(ScenarioDocument, AFailedSaveSaysWhyAndKeepsTheDocumentsFile) {
    ScenarioDocument document;
    document.load(test::exampleScenario("contention_fsdp_tatp_4x4.json"), {});
    const QString path = QStringLiteral("/nonexistent/waferscope/saved.json");
    QString error;
    EXPECT_FALSE(document.saveAs(path, &error));
    EXPECT_EQ(error, path + ": cannot be written: No such file or directory");
    EXPECT_TRUE(document.filePath().isEmpty());
}

TEST(ScenarioDocument, ABadFileNamesTheFileAndTheKeyAndChangesNothing) {
    QTemporaryDir directory;
    const QString path = directory.filePath("bad.json");
    std::ofstream(path.toStdString()) << R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 4, "cols": 4, "link_bandwidth": "fast"}})";
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    document.load(original, {});
    QString error;
    EXPECT_FALSE(document.openFile(path, &error));
    EXPECT_TRUE(error.startsWith(path + ": wafer.link_bandwidth: ")) << error.toStdString();
    EXPECT_EQ(document.scenario(), original);
}

// A typo in `strategy` used to load, leaving the previous example on screen under the new file's
// title. The typed strategy is read with the file, so the file is refused like a syntax error, with
// the key and a hint.
TEST(ScenarioDocument, ATypoInTheStrategyIsRefusedAtOpenAndChangesNothing) {
    QTemporaryDir directory;
    const QString path = directory.filePath("typo.json");
    std::ofstream(path.toStdString()) << R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 4, "cols": 4},
        "workload": {"kind": "transformer", "model": "gpt3-6.7b", "global_batch": 8},
        "strategy": {"dp": 2, "tapt": 2}})";
    ScenarioDocument document;
    const Scenario original = test::exampleScenario("contention_fsdp_tatp_4x4.json");
    document.load(original, {});
    QString error;
    EXPECT_FALSE(document.openFile(path, &error));
    EXPECT_EQ(error, path + ": strategy.tapt: unknown key 'tapt'; did you mean 'tatp'?");
    EXPECT_EQ(document.scenario(), original);
    EXPECT_TRUE(document.filePath().isEmpty());
}

// A Hugging Face config.json is read beside the file that names it, when the file is opened.
TEST(ScenarioDocument, AHuggingFaceConfigIsReadBesideTheOpenedFile) {
    QTemporaryDir directory;
    const std::string config = R"({"hidden_size": 512, "num_hidden_layers": 2,
        "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 4096,
        "model_type": "llama"})";
    std::ofstream(directory.filePath("config.json").toStdString()) << config;
    const QString path = directory.filePath("hf.json");
    std::ofstream(path.toStdString()) << R"({"format": "waferscope.scenario", "version": 1,
        "wafer": {"rows": 2, "cols": 2},
        "workload": {"kind": "transformer", "hf_config": "config.json", "global_batch": 4},
        "strategy": {"dp": 2}})";
    ScenarioDocument document;
    QString error;
    ASSERT_TRUE(document.openFile(path, &error)) << error.toStdString();
    ASSERT_TRUE(document.scenario().workload);
    EXPECT_EQ(document.scenario().workload->model.hidden, 512);
    EXPECT_TRUE(document.scenario().workload->model.gatedMlp);
    EXPECT_EQ(document.scenario().workload->hfConfig, "config.json");
}

TEST(ScenarioDocument, BuiltInExamplesOpenFromResources) {
    ScenarioDocument document;
    QString error;
    ASSERT_TRUE(document.openFile(":/scenarios/contention_fsdp_tatp_4x4.json", &error))
        << error.toStdString();
    EXPECT_TRUE(document.filePath().isEmpty()); // Save must ask where
    EXPECT_EQ(document.displayName(), "contention_fsdp_tatp_4x4.json");
}

// A file identical to a built-in example opens as that example, wherever it is; once the user
// has changed it on disk, outside the shipped folder, it is their file (docs/gui.md "Files").
TEST(ScenarioDocument, ABundledExampleOpenedFromDiskIsReadOnly) {
    QTemporaryDir directory;
    const QString path = directory.filePath("contention_fsdp_tatp_4x4.json");
    ASSERT_TRUE(QFile::copy(":/scenarios/contention_fsdp_tatp_4x4.json", path));
    ScenarioDocument document;
    QString error;
    ASSERT_TRUE(document.openFile(path, &error)) << error.toStdString();
    EXPECT_TRUE(document.filePath().isEmpty()) << "Save must ask where";
    EXPECT_EQ(document.displayName(), "contention_fsdp_tatp_4x4.json");

    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    Scenario changed = document.scenario();
    changed.name = "my variant";
    saveScenario(changed, path.toStdString());
    ASSERT_TRUE(document.openFile(path, &error)) << error.toStdString();
    EXPECT_EQ(document.filePath(), QFileInfo(path).absoluteFilePath());
}

// Every file of resources/ is read-only, built in or not, whatever its content, and under any
// name chosen there (docs/gui.md "Files"): a save there is refused and writes nothing.
TEST(ScenarioDocument, AShippedFileOpensUntitledAndNothingIsWrittenInTheShippedFolder) {
    const QString shipped =
        QString::fromStdString(test::scenarioPath("gpt3_13b_dgx_a100_32gpu.json"));
    ASSERT_FALSE(QFile::exists(":/scenarios/gpt3_13b_dgx_a100_32gpu.json")) << "not built in";
    QFile original(shipped);
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();

    ScenarioDocument document;
    QString error;
    ASSERT_TRUE(document.openFile(shipped, &error)) << error.toStdString();
    EXPECT_TRUE(document.filePath().isEmpty()) << "Save must ask where";
    EXPECT_EQ(document.displayName(), "gpt3_13b_dgx_a100_32gpu.json");
    Scenario edited = document.scenario();
    edited.name = "edited";
    document.edit("Rename", edited);

    const QString beside = QFileInfo(shipped).absolutePath() + "/my_variant.json";
    for (const QString& target : {shipped, beside}) {
        SCOPED_TRACE(target.toStdString());
        EXPECT_FALSE(document.saveAs(target, &error));
        EXPECT_TRUE(error.startsWith(target + ": is in the folder of the files WaferScope ships"))
            << error.toStdString();
        EXPECT_TRUE(document.isModified());
        EXPECT_TRUE(document.filePath().isEmpty());
    }
    EXPECT_FALSE(QFile::exists(beside));
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    EXPECT_EQ(original.readAll(), before);
}

} // namespace
} // namespace ws
