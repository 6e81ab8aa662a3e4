#include "mesh_view.h"
#include "widget_test_support.h"

#include <QApplication>
#include <QInputDialog>
#include <QMenu>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QToolTip>

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(MeshView, ALoadedLinkIsPaintedInTheLegendsColourForItsLoad) {
    MeshView view;
    view.resize(900, 600);
    const auto analysis = test::teachingAnalysis();
    view.setAnalysis(analysis);
    const QImage image = view.grab().toImage();
    const WaferTopology& topology = *analysis->topology;

    // The hottest link is at the top of the scale; a link at half its load in the middle.
    const LinkReport hottest = analysis->report.hottestLinks(1).front();
    EXPECT_DOUBLE_EQ(view.linkFraction(hottest.id), 1.0);
    const QRectF hotBar = view.geometry().linkRect(topology, topology.link(hottest.id));
    EXPECT_EQ(pixelAt(image, hotBar.center()), bucketColor(kLoadBuckets - 1));
    for (const LinkReport& link : analysis->report.links) {
        const QRectF bar = view.geometry().linkRect(topology, topology.link(link.id));
        const QColor expected =
            link.bytes > 0 ? bucketColor(loadBucket(link.bytes / hottest.bytes)) : idleLinkColor();
        EXPECT_EQ(pixelAt(image, bar.center()), expected) << "link " << link.id;
    }
    // The legend's scale shows the same colour at its top: the legend is right of the mesh.
    bool legendHasTop = false;
    for (int x = image.width() - MeshView::kLegendWidth; x < image.width(); ++x)
        for (int y = 0; y < 120; ++y)
            legendHasTop = legendHasTop || image.pixelColor(x, y) == bucketColor(kLoadBuckets - 1);
    EXPECT_TRUE(legendHasTop);
}

TEST(MeshView, ConflictMetricColoursByFlowsSharingALink) {
    MeshView view;
    view.resize(900, 600);
    const auto analysis = test::teachingAnalysis();
    view.setAnalysis(analysis);
    view.setMetric(LinkMetric::Conflicts);
    int most = 0;
    for (const LinkReport& link : analysis->report.links)
        most = std::max(most, link.flowCount);
    ASSERT_GT(most, 1);
    for (const LinkReport& link : analysis->report.links)
        EXPECT_DOUBLE_EQ(view.linkFraction(link.id), static_cast<double>(link.flowCount) / most);
}

TEST(MeshView, AnOverrideRecoloursTheLinks) {
    MeshView view;
    view.resize(900, 600);
    const auto analysis = test::teachingAnalysis();
    view.setAnalysis(analysis);
    MeshView::LinkLoadOverride loads;
    loads.bytes.assign(analysis->report.links.size(), 0.0);
    loads.bytes[7] = 1e6;
    loads.makespanS = 1e-6;
    loads.caption = "test";
    view.setLinkLoadOverride(loads);
    EXPECT_DOUBLE_EQ(view.linkFraction(7), 1.0);
    EXPECT_DOUBLE_EQ(view.linkFraction(0), 0.0);
}

// Every colour has a legend entry at any number of groups (the legend once stopped after six,
// "+44 more"): one row per colour in use, naming every group it marks, each group once, and every
// row inside the view. dp 2 x tatp 50 on 10x10 has 50 DP groups (the pairs of dies at one stream
// position).
// Megatron's TP groups show where TATP groups would (docs/gui.md "The mesh"): with tatp 1 the
// tiles' borders mark the TP groups, the legend names them P0, P1, and the groups are the
// placement's: dp 2 x tp 2 on a 4x4 wafer, sequentially, puts TP group 0 on dies 0 and 1.
TEST(MeshView, TpGroupsAreBorderedAndNamedWhenThereIsNoTatp) {
    Scenario scenario = test::smallStrategyScenario();
    scenario.strategy->tatp = 1;
    scenario.strategy->tp = 2;
    const auto analysis = analyseScenario(scenario);
    ASSERT_TRUE(analysis->groups.tatp.empty());
    ASSERT_EQ(analysis->groups.tp.size(), 2u);
    EXPECT_EQ(analysis->groups.tp[0], (std::vector<DieId>{0, 1}));
    EXPECT_EQ(analysis->groups.tpOfDie[1], 0);
    MeshView view;
    view.resize(900, 700);
    view.setAnalysis(analysis);
    view.grab();
    QStringList rows;
    for (const auto& [rect, text] : view.legendRows())
        rows << text;
    EXPECT_EQ(rows.filter("TP groups bordered in this colour: ").size(), 2)
        << rows.join('\n').toStdString();
    EXPECT_TRUE(rows.filter("TATP groups").isEmpty());
    // Die 1's border is TP group 0's colour (the first border colour), its fill DP group 1's.
    const QImage image = view.grab().toImage();
    const QRectF box = view.geometry().dieRect(analysis->topology->coord(1));
    EXPECT_TRUE(test::sameColor(pixelAt(image, QPointF(box.left() + 1, box.center().y())),
                                QColor(0x1b, 0x9e, 0x77), 40));
}

TEST(MeshView, TheLegendNamesEveryGroupAtFiftyGroups) {
    Scenario scenario = test::smallStrategyScenario();
    scenario.wafer.rows = 10;
    scenario.wafer.cols = 10;
    scenario.workload =
        parseWorkload(nlohmann::json{{"kind", "gemm"}, {"m", 1200}, {"k", 1200}, {"n", 1200}}, {});
    scenario.strategy->dp = 2;
    scenario.strategy->tatp = 50;
    const auto analysis = analyseScenario(scenario);
    ASSERT_EQ(analysis->groups.dp.size(), 50u);
    MeshView view;
    view.resize(1000, 800);
    view.setAnalysis(analysis);
    view.grab(); // paints, and so lays out the legend
    QStringList dpNames;
    int dpRows = 0;
    for (const auto& [rect, text] : view.legendRows()) {
        EXPECT_LE(rect.bottom(), view.height()) << text.toStdString();
        if (!text.startsWith("DP groups filled in this colour: "))
            continue;
        ++dpRows;
        dpNames << text.section(": ", 1).split(", ");
    }
    EXPECT_EQ(dpRows, 12); // the palette's colours, all in use
    ASSERT_EQ(dpNames.size(), 50);
    for (int g = 0; g < 50; ++g)
        EXPECT_EQ(dpNames.count(QString("D%1").arg(g)), 1) << "D" << g;
    EXPECT_TRUE(view.legendRows().front().second.endsWith(": D0, D12, D24, D36, D48"));
}

// With dp 1 the dies of a TATP group are in no DP group: they are tinted, not white like a die
// that takes part in nothing.
TEST(MeshView, DiesOfATatpGroupInNoDpGroupAreNotPaintedAsUnused) {
    Scenario scenario = test::smallStrategyScenario();
    scenario.strategy->dp = 1;
    const auto analysis = analyseScenario(scenario);
    ASSERT_TRUE(analysis->groups.dp.empty());
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    const QImage image = view.grab().toImage();
    const WaferTopology& topology = *analysis->topology;
    DieId used = -1, unused = -1;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        (analysis->groups.tatpOfDie[static_cast<std::size_t>(die)] >= 0 ? used : unused) = die;
    ASSERT_TRUE(used >= 0 && unused >= 0);
    const auto fillOf = [&](DieId die) {
        const QRectF box = view.geometry().dieRect(topology.coord(die));
        return image.pixelColor(
            (box.topLeft() + QPointF(box.width() * 0.5, box.height() * 0.3)).toPoint());
    };
    EXPECT_FALSE(test::sameColor(fillOf(used), fillOf(unused), 4));
}

// Compared loads (TCME's Before and After) share one scale: the larger maximum of the two.
TEST(MeshView, ComparedLoadsShareOneScale) {
    MeshView view;
    view.resize(900, 600);
    const auto analysis = test::teachingAnalysis();
    view.setAnalysis(analysis);
    MeshView::LinkLoadOverride loads;
    loads.bytes.assign(analysis->report.links.size(), 0.0);
    loads.bytes[7] = 1e6;
    loads.comparedBytes = loads.bytes;
    loads.comparedBytes[7] = 0.0;
    loads.comparedBytes[3] = 4e6;
    view.setLinkLoadOverride(loads);
    EXPECT_DOUBLE_EQ(view.linkFraction(7), 0.25);
    EXPECT_DOUBLE_EQ(view.linkFraction(3), 0.0);
}

TEST(MeshView, DraggingADieOntoAnotherAsksForOneSwap) {
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(test::teachingAnalysis());
    view.show();
    QSignalSpy swaps(&view, &MeshView::dieSwapRequested);
    QTest::mousePress(&view, Qt::LeftButton, {}, centreOf(view, 1));
    QTest::mouseMove(&view, centreOf(view, 1) + QPoint(20, 20));
    QTest::mouseMove(&view, centreOf(view, 5));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, centreOf(view, 5));
    ASSERT_EQ(swaps.count(), 1);
    const auto pairs = swaps.at(0).at(0).value<Swaps>();
    EXPECT_EQ(pairs, (Swaps{{1, 5}}));
    EXPECT_EQ(swaps.at(0).at(1).toString(), "Swap die 1 with die 5");
}

TEST(MeshView, DraggingASelectionTranslatesItEvenOntoItself) {
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(test::teachingAnalysis());
    view.show();
    QSignalSpy swaps(&view, &MeshView::dieSwapRequested);
    QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, 0));
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ControlModifier, centreOf(view, 1));
    ASSERT_EQ(view.selectedDies(), (QList<int>{0, 1}));
    QTest::mousePress(&view, Qt::LeftButton, {}, centreOf(view, 0));
    QTest::mouseMove(&view, centreOf(view, 0) + QPoint(20, 0));
    QTest::mouseMove(&view, centreOf(view, 1));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, centreOf(view, 1));
    ASSERT_EQ(swaps.count(), 1);
    // Far end first: 1 <-> 2, then 0 <-> 1: die 0's role lands on 1, 1's on 2, 2's on 0.
    EXPECT_EQ(swaps.at(0).at(0).value<Swaps>(), (Swaps{{1, 2}, {0, 1}}));
}

TEST(MeshView, ClickingALinkSelectsIt) {
    MeshView view;
    view.resize(900, 600);
    const auto analysis = test::teachingAnalysis();
    view.setAnalysis(analysis);
    view.show();
    QSignalSpy selected(&view, &MeshView::linkSelected);
    const LinkProperties& link = analysis->topology->link(3);
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      view.geometry().linkRect(*analysis->topology, link).center().toPoint());
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.at(0).at(0).toInt(), 3);
    EXPECT_EQ(view.selectedLink(), std::optional<LinkId>(3));
}

TEST(MeshView, WheelZoomKeepsThePointUnderTheCursor) {
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(test::teachingAnalysis());
    const QPointF anchor = centreOf(view, 5);
    const QPointF unitsBefore = view.geometry().toUnits(anchor);
    const double scaleBefore = view.geometry().scale;
    view.zoomBy(2.0, anchor);
    EXPECT_DOUBLE_EQ(view.geometry().scale, scaleBefore * 2);
    const QPointF unitsAfter = view.geometry().toUnits(anchor);
    EXPECT_NEAR(unitsAfter.x(), unitsBefore.x(), 1e-9);
    EXPECT_NEAR(unitsAfter.y(), unitsBefore.y(), 1e-9);
}

const QColor kSlowHatch(176, 96, 0); // mesh_view.cpp: a slow die's hatch and legend row
const QColor kFinding(128, 0, 170);  // mesh_view.cpp: the advisor's finding

// A slow die is hatched in amber over its group fill, with its speed as a badge, and the legend
// has the hatch; a die at full speed has neither.
TEST(MeshView, ASlowDieIsHatchedAndTheLegendNamesIt) {
    MeshView view;
    view.resize(900, 400);
    const auto analysis = analyseScenario(test::slowDieLine());
    view.setAnalysis(analysis);
    const QImage image = view.grab().toImage();
    const WaferTopology& topology = *analysis->topology;
    const QRect slow = view.geometry().dieRect(topology.coord(1)).toAlignedRect();
    const QRect fast = view.geometry().dieRect(topology.coord(0)).toAlignedRect();
    EXPECT_GT(pixelsOf(image, slow, kSlowHatch), 20);
    EXPECT_EQ(pixelsOf(image, fast, kSlowHatch), 0);
    const QRect legend(view.width() - MeshView::kLegendWidth, 0, MeshView::kLegendWidth,
                       view.height());
    EXPECT_GT(pixelsOf(image, legend, kSlowHatch), 0);

    // Without slow dies, no such colour anywhere.
    Scenario even = test::slowDieLine();
    even.wafer.slowDies.clear();
    view.setAnalysis(analyseScenario(even));
    EXPECT_EQ(pixelsOf(view.grab().toImage(), view.rect(), kSlowHatch), 0);
}

// A right click on a die (no drag) opens its menu; Die speed… asks for a percentage and the
// view asks for the speed (dieSpeedRequested); a slow die's menu offers full speed too.
TEST(MeshView, ARightClickOnADieAsksForItsSpeed) {
    MeshView view;
    view.resize(900, 400);
    view.setAnalysis(analyseScenario(test::slowDieLine()));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy requests(&view, &MeshView::dieSpeedRequested);
    // Answers the menu, then the dialog, as a user would: the menu's exec and the dialog's run
    // their own event loops, which this timer's ticks reach.
    QString choice;
    QString seen; // what the dialog offered
    QTimer user;
    user.setInterval(20);
    QObject::connect(&user, &QTimer::timeout, [&] {
        if (test::answerOpenMenu(choice))
            return;
        if (auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
            seen = QString::number(dialog->doubleValue());
            dialog->setDoubleValue(50.0);
            dialog->accept();
        }
    });
    user.start();
    choice = "Die speed…";
    QTest::mouseClick(&view, Qt::RightButton, {}, centreOf(view, 2));
    ASSERT_EQ(requests.count(), 1);
    EXPECT_EQ(seen, "100"); // die 2 runs at full speed
    EXPECT_EQ(requests.at(0).at(0).toInt(), 2);
    EXPECT_DOUBLE_EQ(requests.at(0).at(1).toDouble(), 0.5);

    choice = "Full speed (100%)";
    QTest::mouseClick(&view, Qt::RightButton, {}, centreOf(view, 1)); // die 1 is at 40%
    user.stop();
    ASSERT_EQ(requests.count(), 2);
    EXPECT_EQ(requests.at(1).at(0).toInt(), 1);
    EXPECT_DOUBLE_EQ(requests.at(1).at(1).toDouble(), 1.0);
}

// The advisor's finding: its dies outlined in its colour, named in the legend; cleared, gone.
TEST(MeshView, TheAdvisorsFindingIsOutlined) {
    MeshView view;
    view.resize(900, 400);
    const auto analysis = analyseScenario(test::slowDieLine());
    view.setAnalysis(analysis);
    view.setFindingHighlight(MeshView::FindingHighlight{{1}, {}, "load_imbalance"});
    ASSERT_TRUE(view.findingHighlight());
    const QImage image = view.grab().toImage();
    const WaferTopology& topology = *analysis->topology;
    const auto around = [&](DieId die) {
        return view.geometry().dieRect(topology.coord(die)).toAlignedRect().adjusted(-9, -9, 9, 9);
    };
    EXPECT_GT(pixelsOf(image, around(1), kFinding, 12), 10);
    EXPECT_EQ(pixelsOf(image, around(3), kFinding, 12), 0);
    view.setFindingHighlight(std::nullopt);
    EXPECT_EQ(pixelsOf(view.grab().toImage(), around(1), kFinding, 12), 0);
}

const QColor kWaferEdge(38, 50, 72); // mesh_view.cpp: a wafer's outline, an off-wafer link's edge

// A [2, 2] system of wafers of `rows` x `cols` dies (docs/file-format.md `system`), K =
// `linksPerEdge`, as the mesh view gets it, built by hand rather than simulated (the view draws the
// topology, the report's links and the groups): link `id` carried `bytes(id)` in a 1 ms run.
template <typename Bytes>
std::shared_ptr<const ScenarioAnalysis>
systemAnalysis(int rows, int cols, std::optional<int> linksPerEdge, const Bytes& bytes) {
    auto analysis = std::make_shared<ScenarioAnalysis>();
    Scenario& scenario = analysis->scenario;
    scenario.name = "system";
    scenario.wafer.rows = rows;
    scenario.wafer.cols = cols;
    scenario.system = test::twoByTwoSystem(linksPerEdge);
    analysis->topology = std::make_shared<const WaferTopology>(scenario.topologySpec());
    const WaferTopology& topology = *analysis->topology;
    SimulationReport& report = analysis->report;
    report.makespanS = 1e-3;
    for (const LinkProperties& props : topology.links()) {
        LinkReport link;
        link.id = props.id;
        link.from = props.from;
        link.to = props.to;
        link.alive = props.alive;
        link.bytes = bytes(props);
        const double bandwidth = props.offWafer() ? 100e9 : scenario.wafer.linkBandwidth.value;
        link.busyS = link.bytes / bandwidth;
        link.utilization = link.busyS / report.makespanS;
        report.links.push_back(link);
    }
    report.dies.resize(static_cast<std::size_t>(topology.dieCount()));
    analysis->groups.dpOfDie.assign(static_cast<std::size_t>(topology.dieCount()), -1);
    analysis->groups.tatpOfDie = analysis->groups.dpOfDie;
    analysis->flowsOnLink.resize(static_cast<std::size_t>(topology.linkCount()));
    return analysis;
}

int countOf(const QImage& image, QPointF from, QPointF to, QColor colour) {
    return pixelsOf(image, QRectF(from, to).normalized().toAlignedRect(), colour, 8);
}

// A system of wafers (docs/gui.md "The mesh"): the legend names the wafer boundary and the
// off-wafer link, each with a tooltip that gives the system; every wafer is outlined, and an
// off-wafer link keeps its load's colour, edged like the boundary it crosses.
TEST(MeshView, ASystemOfWafersShowsItsBoundariesAndOffWaferLinks) {
    const auto analysis = systemAnalysis(3, 4, 2, [](const LinkProperties& link) {
        return link.offWafer() ? 4e6 : 1e6; // bytes
    });
    const WaferTopology& topology = *analysis->topology;
    ASSERT_EQ(topology.waferCount(), 4);
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    const QImage image = view.grab().toImage();

    QStringList legend;
    for (const auto& [rect, text] : view.legendRows()) {
        EXPECT_LE(rect.bottom(), view.height()) << text.toStdString();
        legend << text;
    }
    ASSERT_EQ(legend.size(), 2);
    EXPECT_EQ(legend[0], "Wafer boundary: 2 x 2 wafers of 3 x 4 dies (system.wafers); 2 die "
                         "pairs of each shared edge are joined");
    EXPECT_TRUE(legend[1].startsWith("Off-wafer link: joins two wafers, 100 GB/s and 1 us per "
                                     "hop"))
        << legend[1].toStdString();

    // Every wafer's outline, on all four sides.
    for (int wafer = 0; wafer < topology.waferCount(); ++wafer) {
        const QRectF box = view.geometry().waferRect(topology, wafer);
        EXPECT_GT(countOf(image, box.topLeft(), box.topRight() + QPointF(0, 2), kWaferEdge), 20)
            << "wafer " << wafer;
        EXPECT_GT(countOf(image, box.topLeft(), box.bottomLeft() + QPointF(2, 0), kWaferEdge), 20)
            << "wafer " << wafer;
    }
    // Dies 3 -> 4 cross from wafer 0 to wafer 1 (row 0 of a 3x8 grid's top half, K = 2 of 3
    // rows: rows 0 and 2); their bar is the top of the scale, all of it, edged in slate outside.
    int offWafer = 0;
    for (const LinkProperties& link : topology.links()) {
        const QRectF bar = view.geometry().linkRect(topology, link);
        if (!link.offWafer()) {
            EXPECT_EQ(pixelAt(image, bar.center()), bucketColor(loadBucket(0.25)))
                << "link " << link.id;
            continue;
        }
        ++offWafer;
        EXPECT_EQ(pixelAt(image, bar.center()), bucketColor(kLoadBuckets - 1))
            << "link " << link.id;
        const QRectF edged = bar.adjusted(-3, -3, 3, 3);
        const QRectF inside = bar.adjusted(1, 1, -1, -1);
        EXPECT_EQ(countOf(image, inside.topLeft(), inside.bottomRight(), kWaferEdge), 0)
            << "link " << link.id;
        EXPECT_GT(countOf(image, edged.topLeft(), edged.bottomRight(), kWaferEdge), 10)
            << "link " << link.id;
    }
    EXPECT_EQ(offWafer, 2 * 2 * 4); // 4 shared edges, 2 pairs each, both directions

    // Painted into an image, as an export does, at a size of its own.
    QImage exported(1400, 900, QImage::Format_ARGB32);
    QPainter painter(&exported);
    view.render(painter, exported.rect());
    painter.end();
    EXPECT_GT(pixelsOf(exported, exported.rect(), kWaferEdge), 100);

    // One wafer: no boundary, no off-wafer link, no such rows in the legend.
    view.setAnalysis(test::teachingAnalysis());
    const QImage single = view.grab().toImage();
    for (const auto& row : view.legendRows())
        EXPECT_FALSE(row.second.startsWith("Wafer boundary") ||
                     row.second.startsWith("Off-wafer link"));
    EXPECT_EQ(pixelsOf(single, QRect(0, 0, view.width() - MeshView::kLegendWidth, view.height()),
                       kWaferEdge),
              0);
}

// With pipeline stages each used die knows its stage: stage 0 in the band of rows 0-1 of the
// 4x4 wafer, stage 1 in rows 2-3, each using the first row of its band (dp 2 x tatp 2 placed
// sequentially). Its tooltip names it and the legend counts the stages.
TEST(MeshView, ADiesTooltipNamesItsPipelineStage) {
    const auto analysis = analyseScenario(test::smallPipelineScenario());
    ASSERT_EQ(analysis->stageOfDie.size(), 16u);
    for (DieId die = 0; die < 16; ++die)
        EXPECT_EQ(analysis->stageOfDie[static_cast<std::size_t>(die)], die % 8 < 4 ? die / 8 : -1)
            << die;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.grab(); // paints the legend
    const auto toolTipAt = [&](QPoint pos) {
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        return QToolTip::text();
    };
    EXPECT_TRUE(toolTipAt(centreOf(view, 9)).contains("pipeline stage S1 of 2"))
        << toolTipAt(centreOf(view, 9)).toStdString();
    EXPECT_TRUE(toolTipAt(centreOf(view, 2)).contains("pipeline stage S0 of 2"));
    EXPECT_FALSE(toolTipAt(centreOf(view, 13)).contains("stage")); // unused
    const auto row = std::find_if(view.legendRows().begin(), view.legendRows().end(),
                                  [](const auto& r) { return r.second.startsWith("Pipeline: "); });
    ASSERT_NE(row, view.legendRows().end());
    EXPECT_TRUE(row->second.startsWith("Pipeline: 2 stages (strategy.pp), each on a band"))
        << row->second.toStdString();

    // Each stage is labelled at the top-left corner of its dies: stage 1's label sits on die 8,
    // the first die of its band; nothing of its colour is drawn without stages.
    const QColor labelFill(255, 246, 214); // mesh_view.cpp: kStageLabelFill
    const QRect stageOneCorner(centreOf(view, 8) - QPoint(60, 60), QSize(120, 120));
    EXPECT_GT(pixelsOf(view.grab().toImage(), stageOneCorner, labelFill), 50);

    // One stage: no stage anywhere.
    view.setAnalysis(test::teachingAnalysis());
    EXPECT_EQ(pixelsOf(view.grab().toImage(), view.rect(), labelFill), 0);
    view.grab();
    EXPECT_FALSE(toolTipAt(centreOf(view, 0)).contains("stage"));
    for (const auto& legendRow : view.legendRows())
        EXPECT_FALSE(legendRow.second.startsWith("Pipeline"));
}

// Utilisation divides by each link's own bandwidth: an off-wafer link's is the system's, also
// for loads the report did not simulate (TCME's, through an override).
TEST(MeshView, AnOffWaferLinksUtilisationIsOfTheSystemsBandwidth) {
    const auto analysis =
        systemAnalysis(3, 4, std::nullopt, [](const LinkProperties&) { return 0.0; });
    const WaferTopology& topology = *analysis->topology;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    view.setMetric(LinkMetric::Utilization);
    const LinkId across = *topology.linkBetween(3, 4);
    const LinkId inside = *topology.linkBetween(2, 3);
    ASSERT_TRUE(topology.link(across).offWafer());
    MeshView::LinkLoadOverride loads;
    loads.bytes.assign(static_cast<std::size_t>(topology.linkCount()), 0.0);
    loads.bytes[static_cast<std::size_t>(across)] = 100e6; // 100 GB/s for 1 ms: 100%
    loads.bytes[static_cast<std::size_t>(inside)] = 100e6; // 4 TB/s for 1 ms: 2.5%
    loads.makespanS = 1e-3;
    view.setLinkLoadOverride(loads);
    EXPECT_DOUBLE_EQ(view.linkFraction(across), 1.0);
    EXPECT_DOUBLE_EQ(view.linkFraction(inside), 0.025);
}

TEST(MeshGeometry, HitTestsFindTheDieAndTheLinkThatWereDrawn) {
    const WaferTopology topology(TopologySpec{3, 5, TopologyKind::Mesh, {}, {}});
    const MeshGeometry geometry = MeshGeometry::fitted(3, 5, QRectF(0, 0, 800, 500));
    for (DieId die = 0; die < topology.dieCount(); ++die)
        EXPECT_EQ(geometry.dieAt(topology, geometry.dieRect(topology.coord(die)).center()), die);
    for (const LinkProperties& link : topology.links())
        EXPECT_EQ(geometry.linkAt(topology, geometry.linkRect(topology, link).center()), link.id);
    // The middle of a gap between two dies' bars is neither.
    const QPointF gap(1.0 + MeshGeometry::kGap / 2, 0.5);
    EXPECT_EQ(geometry.dieAt(topology, geometry.toPixels(gap)), std::nullopt);
}

TEST(MeshGeometry, BothDirectionsOfALinkAreSideBySide) {
    const WaferTopology topology(TopologySpec{1, 2, TopologyKind::Mesh, {}, {}});
    const MeshGeometry geometry = MeshGeometry::fitted(1, 2, QRectF(0, 0, 400, 200));
    const QRectF east = geometry.linkRect(topology, topology.link(0)); // 0 -> 1
    const QRectF west = geometry.linkRect(topology, topology.link(1)); // 1 -> 0
    EXPECT_FALSE(east.intersects(west));
    EXPECT_LT(east.center().y(), west.center().y()); // eastward above, westward below
    EXPECT_DOUBLE_EQ(east.left(), west.left());
}

} // namespace
} // namespace ws
