#include "die_drag.h"
#include "group_panel.h"
#include "widget_test_support.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QSignalSpy>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(GroupPanel, ListsTheGroupsAndPassesTheModelTester) {
    GroupPanel panel;
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setAnalysis(test::teachingAnalysis());
    ASSERT_EQ(panel.topLevelItemCount(), 2);
    EXPECT_EQ(panel.topLevelItem(0)->childCount(), 2); // D0, D1
    EXPECT_EQ(panel.topLevelItem(1)->child(1)->text(0), "T1: dies 2, 3");
    // The headings say what a group is, in this placement's numbers.
    EXPECT_TRUE(panel.topLevelItem(0)->toolTip(0).contains("Here 2 groups of 2 dies"))
        << panel.topLevelItem(0)->toolTip(0).toStdString();
    panel.setAnalysis(test::teachingAnalysis()); // a reset under the tester
}

TEST(GroupPanel, ADieJoinsAGroupByTakingTheSlotItHasNow) {
    GroupPanel panel;
    panel.setAnalysis(test::teachingAnalysis()); // tatp {0,1}, {2,3}; dp {0,2}, {1,3}
    QString text;
    // Die 1 is at stream position 1 of T0; in T1 that slot is die 3.
    EXPECT_EQ(panel.swapsForDrop({1}, "tatp", 1, &text), (Swaps{{1, 3}}));
    EXPECT_EQ(text, "Move die 1 into T1 (swaps with die 3)");
    // An unused die takes slot 0.
    EXPECT_EQ(panel.swapsForDrop({9}, "dp", 1, &text), (Swaps{{9, 1}}));
    EXPECT_TRUE(panel.swapsForDrop({2}, "dp", 0, &text).isEmpty());
    EXPECT_EQ(text, "Die 2 is already in group D0");
}

TEST(GroupPanel, ADropOnAGroupRowAsksForTheSwap) {
    GroupPanel panel;
    panel.resize(400, 400);
    panel.setAnalysis(test::teachingAnalysis());
    panel.show();
    QSignalSpy swaps(&panel, &GroupPanel::dieSwapRequested);
    panel.doItemsLayout();
    QTreeWidgetItem* t1 = panel.topLevelItem(1)->child(1);
    const QPoint where = panel.visualItemRect(t1).center();
    EXPECT_TRUE(panel.dropDies({1}, where));
    ASSERT_EQ(swaps.count(), 1);
    EXPECT_EQ(swaps.at(0).at(0).value<Swaps>(), (Swaps{{1, 3}}));
}

TEST(DieDrag, EncodesAndDecodesDieLists) {
    QMimeData mime;
    mime.setData(kDieMimeType, encodeDies({3, 14, 0}));
    EXPECT_EQ(decodeDies(&mime), (QList<int>{3, 14, 0}));
    QMimeData other;
    other.setText("3,4");
    EXPECT_TRUE(decodeDies(&other).isEmpty());
}

} // namespace
} // namespace ws
