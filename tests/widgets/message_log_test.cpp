#include "elided_label.h"
#include "message_log.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(MessageLog, KeepsMessagesInOrderAndMarksErrors) {
    MessageLog log;
    QSignalSpy errors(&log, &MessageLog::errorAdded);
    log.add("Opened a.json");
    log.add("Cannot move: die 3 is not used", MessageLog::Severity::Error);
    log.add(QString()); // nothing to keep
    ASSERT_EQ(log.count(), 2);
    EXPECT_EQ(log.text(0), "Opened a.json");
    EXPECT_FALSE(log.isError(0));
    EXPECT_EQ(log.text(1), "Cannot move: die 3 is not used");
    EXPECT_TRUE(log.isError(1));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_EQ(errors.front().front().toString(), "Cannot move: die 3 is not used");
    log.clear();
    EXPECT_EQ(log.count(), 0);
}

TEST(MessageLog, DropsTheOldestPastItsBound) {
    MessageLog log;
    for (int i = 0; i < MessageLog::kMaxEntries + 5; ++i)
        log.add(QString::number(i));
    ASSERT_EQ(log.count(), MessageLog::kMaxEntries);
    EXPECT_EQ(log.text(0), "5");
    EXPECT_EQ(log.text(MessageLog::kMaxEntries - 1), QString::number(MessageLog::kMaxEntries + 4));
}

// A message wider than the label ends in "…" instead of running into its neighbours; the
// tooltip has all of it.
TEST(ElidedLabel, CutsWithAnEllipsisAndKeepsTheWholeTextInItsTooltip) {
    ElidedLabel label;
    const QString text = "strategy: the global batch 512 is not a multiple of dp 6 times the "
                         "micro-batches 4 per micro-batch";
    label.resize(120, 20);
    label.show(); // resize events reach a shown label
    label.setFullText(text);
    EXPECT_TRUE(label.text().endsWith(QChar(0x2026))) << label.text().toStdString();
    EXPECT_LT(label.text().size(), text.size());
    EXPECT_EQ(label.toolTip(), text);
    EXPECT_EQ(label.fullText(), text);
    label.resize(4000, 20);
    EXPECT_EQ(label.text(), text);
}

} // namespace
} // namespace ws
