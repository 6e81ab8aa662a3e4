#include "autosave_recovery.h"
#include "main_window.h"
#include "scenario_document.h"
#include "widget_test_support.h"

#include "io/scenario_io.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace ws {
namespace {

// Each test gets its own settings and autosave file (both follow the application name), so
// that no other test's window, closing and forgetting its autosave, can race this one.
class AutosaveRecoveryTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_name = QCoreApplication::applicationName();
        QCoreApplication::setApplicationName(
            m_name + QStringLiteral("-recovery-") +
            QString::fromStdString(
                ::testing::UnitTest::GetInstance()->current_test_info()->name()));
        AutosaveRecovery().forget();
        ASSERT_TRUE(m_files.isValid());
        m_file = m_files.filePath(QStringLiteral("edited.json"));
        saveScenario(test::exampleScenario("contention_fsdp_tatp_4x4.json"),
                     QFile::encodeName(m_file).toStdString());
    }
    void TearDown() override {
        AutosaveRecovery().forget();
        QCoreApplication::setApplicationName(m_name);
    }

    // A document opened from m_file with one edit, its autosave written, and the file made
    // older than the autosave (file times have a resolution of a second on some systems).
    Scenario autosaveAnEdit() {
        ScenarioDocument document;
        QString error;
        EXPECT_TRUE(document.openFile(m_file, &error)) << error.toStdString();
        Scenario edited = document.scenario();
        edited.name = "edited but never saved";
        document.edit("Rename", edited);
        EXPECT_TRUE(AutosaveRecovery().write(document, &error)) << error.toStdString();
        ageFile(m_file, 60);
        return edited;
    }
    static void ageFile(const QString& path, int seconds) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadWrite));
        ASSERT_TRUE(file.setFileTime(QDateTime::currentDateTime().addSecs(-seconds),
                                     QFileDevice::FileModificationTime));
    }

    QString m_name;
    QTemporaryDir m_files;
    QString m_file;
};

TEST_F(AutosaveRecoveryTest, AnAutosaveNewerThanItsFileIsOfferedAndRestoredAsUnsavedEdits) {
    EXPECT_FALSE(AutosaveRecovery().pending()) << "nothing autosaved yet";
    const Scenario edited = autosaveAnEdit();

    AutosaveRecovery recovery; // a new session
    const auto offer = recovery.pending();
    ASSERT_TRUE(offer);
    EXPECT_EQ(offer->filePath, QFileInfo(m_file).absoluteFilePath());
    EXPECT_EQ(offer->displayName, "edited.json");

    ScenarioDocument document;
    QString error;
    ASSERT_TRUE(recovery.restore(document, &error)) << error.toStdString();
    EXPECT_EQ(document.scenario(), edited);
    EXPECT_TRUE(document.isModified()) << "recovered edits are unsaved until the user saves";
    EXPECT_EQ(document.filePath(), QFileInfo(m_file).absoluteFilePath()) << "Save writes its file";
    EXPECT_EQ(document.undoStack()->count(), 0);
}

TEST_F(AutosaveRecoveryTest, AFileSavedAfterItsAutosaveIsNotOffered) {
    autosaveAnEdit();
    ageFile(AppSettings::autosavePath(), 120); // the file (60 s old) is now the newer one
    EXPECT_FALSE(AutosaveRecovery().pending());
}

TEST_F(AutosaveRecoveryTest, ForgottenEditsAreNotOffered) {
    autosaveAnEdit();
    AutosaveRecovery().forget();
    EXPECT_FALSE(QFileInfo::exists(AppSettings::autosavePath()));
    EXPECT_FALSE(AutosaveRecovery().pending());
}

TEST_F(AutosaveRecoveryTest, AnExampleIsRestoredUntitledSoThatSaveAsksWhere) {
    ScenarioDocument example;
    QString error;
    ASSERT_TRUE(example.openFile(":/scenarios/contention_fsdp_tatp_4x4.json", &error));
    Scenario edited = example.scenario();
    edited.name = "an edited example";
    example.edit("Rename", edited);
    ASSERT_TRUE(AutosaveRecovery().write(example, &error)) << error.toStdString();

    AutosaveRecovery recovery;
    const auto offer = recovery.pending();
    ASSERT_TRUE(offer) << "an example has no file to be newer than its autosave";
    EXPECT_TRUE(offer->filePath.isEmpty());
    ScenarioDocument document;
    ASSERT_TRUE(recovery.restore(document, &error)) << error.toStdString();
    EXPECT_EQ(document.scenario(), edited);
    EXPECT_TRUE(document.filePath().isEmpty()) << "never written over the bundled example";
    EXPECT_EQ(document.displayName(), "contention_fsdp_tatp_4x4.json");
}

TEST_F(AutosaveRecoveryTest, TheWindowRestoresOrDiscardsAsTheUserAnswers) {
    const Scenario edited = autosaveAnEdit();
    {
        MainWindow window;
        ASSERT_TRUE(window.openScenario(":/scenarios/transpose_8x8.json", nullptr, true));
        QString asked;
        EXPECT_TRUE(window.offerRecovery([&](const AutosaveRecovery::Offer& offer) {
            asked = offer.displayName;
            return true;
        }));
        EXPECT_EQ(asked, "edited.json");
        EXPECT_EQ(window.document()->scenario(), edited);
        EXPECT_TRUE(window.isWindowModified());
        EXPECT_TRUE(window.windowTitle().startsWith("edited.json"));
        EXPECT_TRUE(AutosaveRecovery().pending()) << "kept until the edits are saved";
    }
    MainWindow window;
    ASSERT_TRUE(window.openScenario(":/scenarios/transpose_8x8.json", nullptr, true));
    EXPECT_FALSE(window.offerRecovery([](const AutosaveRecovery::Offer&) { return false; }));
    EXPECT_EQ(window.document()->scenario().name, test::exampleScenario("transpose_8x8.json").name);
    EXPECT_FALSE(QFileInfo::exists(AppSettings::autosavePath())) << "discarded for good";
    EXPECT_FALSE(window.offerRecovery([](const AutosaveRecovery::Offer&) {
        ADD_FAILURE() << "nothing left to offer";
        return true;
    }));
}

} // namespace
} // namespace ws
