#include "link_flows_model.h"
#include "widget_test_support.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(LinkFlowsModel, ListsTheFlowsOfTheLinkUnderTheModelTester) {
    LinkFlowsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto analysis = test::teachingAnalysis();
    const LinkReport hottest = analysis->report.hottestLinks(1).front();
    model.setLink(analysis, hottest.id);
    ASSERT_EQ(model.rowCount(), hottest.flowCount);
    double bytes = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        bytes +=
            model.index(row, LinkFlowsModel::BytesColumn).data(LinkFlowsModel::SortRole).toDouble();
    EXPECT_DOUBLE_EQ(bytes, hottest.bytes); // the flows on a link add up to its bytes
    model.setLink(analysis, -1);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(LinkFlowsModel, SortRoleIsNumericAndRoutesReadAsPaths) {
    LinkFlowsModel model;
    const auto analysis = test::teachingAnalysis();
    const LinkId link = *analysis->topology->linkBetween(0, 1);
    model.setLink(analysis, link);
    ASSERT_GT(model.rowCount(), 0);
    const QModelIndex bytes = model.index(0, LinkFlowsModel::BytesColumn);
    EXPECT_EQ(bytes.data(LinkFlowsModel::SortRole).typeId(), QMetaType::Double);
    const QString route = model.index(0, LinkFlowsModel::RouteColumn).data().toString();
    EXPECT_TRUE(route.contains(QStringLiteral("0→1"))) << route.toStdString();
}

} // namespace
} // namespace ws
