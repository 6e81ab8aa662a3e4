#include "autosave_recovery.h"
#include "builtin_scenarios.h"
#include "main_window.h"
#include "message_log.h"
#include "scenario_document.h"
#include "widget_test_support.h"

#include "io/scenario_io.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
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

// An autosave that names a file the project ships (written before such files opened untitled)
// comes back untitled too: Save asks where (docs/gui.md "Files").
TEST_F(AutosaveRecoveryTest, AnAutosaveNamingAShippedFileIsRestoredUntitled) {
    const QString shipped = QString::fromStdString(test::scenarioPath("transpose_8x8.json"));
    ScenarioDocument example;
    QString error;
    ASSERT_TRUE(example.openFile(shipped, &error)) << error.toStdString();
    ASSERT_TRUE(AutosaveRecovery().write(example, &error)) << error.toStdString();
    AppSettings().setAutosaveSource(QFileInfo(shipped).absoluteFilePath(), "transpose_8x8.json");

    AutosaveRecovery recovery;
    ASSERT_TRUE(recovery.pending()) << "the autosave is newer than the checked-out file";
    ScenarioDocument document;
    ASSERT_TRUE(recovery.restore(document, &error)) << error.toStdString();
    EXPECT_TRUE(document.filePath().isEmpty());
    EXPECT_TRUE(document.isModified());
}

// The path a user took: an example opened from resources/scenarios/, edited, Ctrl+S, Enter on
// the proposed name, then Yes to a "replace?" if one comes. The dialog proposes a folder outside
// resources/; a name typed into resources/ is refused with a message; the example is unchanged.
TEST_F(AutosaveRecoveryTest, SavingAnEditedExampleNeverProposesNorWritesTheShippedFolder) {
    const QString shipped = QString::fromStdString(test::scenarioPath("transpose_8x8.json"));
    QFile original(shipped);
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();
    AppSettings().setLastDirectory(QFileInfo(shipped).absolutePath()); // as after File > Open

    MainWindow window;
    ASSERT_TRUE(window.openScenario(shipped, nullptr, true));
    Scenario edited = window.document()->scenario();
    edited.name = "an edited example";
    window.document()->edit("Rename", edited);
    EXPECT_FALSE(isShippedPath(window.saveAsSuggestion()))
        << window.saveAsSuggestion().toStdString();
    EXPECT_TRUE(window.saveAsSuggestion().endsWith("/transpose_8x8.json"));

    // Answer each modal window as it opens: the file dialog with the example's own path, any
    // question with Yes, the refusal with OK.
    QString proposed, refusal;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* dialog = qobject_cast<QFileDialog*>(modal); dialog && proposed.isEmpty()) {
            proposed = dialog->selectedFiles().value(0); // once: the accept below is queued
            dialog->selectFile(shipped);
            // As Enter does; queued, so that this timer can answer the windows it opens.
            QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
        } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            if (QAbstractButton* yes = box->button(QMessageBox::Yes)) {
                QMetaObject::invokeMethod(yes, "click", Qt::QueuedConnection);
            } else {
                refusal = box->text();
                QMetaObject::invokeMethod(box, "accept", Qt::QueuedConnection);
            }
        }
    });
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window)); // shortcuts reach the active window
    answer.start(20);
    QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
    answer.stop();

    EXPECT_FALSE(proposed.isEmpty()) << "Ctrl+S on an example asks where";
    EXPECT_FALSE(isShippedPath(proposed)) << proposed.toStdString();
    EXPECT_TRUE(refusal.contains("is in the folder of the files WaferScope ships"))
        << refusal.toStdString();
    EXPECT_TRUE(window.document()->isModified());
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    EXPECT_EQ(original.readAll(), before);
}

// An export opens outside resources/ with a name (the document's and what the file holds), and
// an export aimed into resources/ is refused with a message and writes nothing.
TEST_F(AutosaveRecoveryTest,
       AnExportProposesANamedFileOutsideTheShippedFolderAndWritesNothingThere) {
    const QString shipped =
        QString::fromStdString(test::scenarioPath("gpt3_13b_dgx_a100_32gpu.json"));
    const QString target = QFileInfo(shipped).absolutePath() + "/launch.txt";
    AppSettings().setLastDirectory(QFileInfo(shipped).absolutePath());
    MainWindow window;
    ASSERT_TRUE(window.openScenario(shipped, nullptr, true));
    QAction* launch = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == "Launch settings for GPU frameworks…")
            launch = action;
    ASSERT_NE(launch, nullptr);

    QString proposed;
    bool accepted = false;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog || accepted)
            return;
        if (proposed.isEmpty())
            proposed = dialog->selectedFiles().value(0);
        // The dialog reads a folder it moves to in the background, and may put the proposed
        // name back meanwhile: accept only once the target is what it would return.
        if (dialog->selectedFiles().value(0) != target) {
            dialog->selectFile(target);
            return;
        }
        accepted = true;
        QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
    });
    answer.start(20);
    launch->trigger();
    answer.stop();

    EXPECT_TRUE(proposed.endsWith("/gpt3_13b_dgx_a100_32gpu_launch.txt")) << proposed.toStdString();
    EXPECT_FALSE(isShippedPath(proposed)) << proposed.toStdString();
    EXPECT_FALSE(QFile::exists(target));
    const MessageLog& log = *window.messageLog();
    ASSERT_GT(log.count(), 0);
    EXPECT_TRUE(log.text(log.count() - 1).startsWith("Not exported: " + target))
        << log.text(log.count() - 1).toStdString();
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
