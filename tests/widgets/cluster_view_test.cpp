#include "mesh_view.h"
#include "widget_test_support.h"

#include <QApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include <functional>

// The mesh view on a GPU cluster (docs/gui.md "The mesh"): a row per node over its node switch, the
// rail or fat-tree switches as bars, every GPU-to-switch link a bar in its load's colour.

namespace ws {
namespace {

// A cluster of `nodes` x `gpus` as the mesh view gets it, built by hand rather than simulated
// (the view draws the topology, the report's links and flows and the groups): link `id`
// carried `bytes(id)` in a 1 ms run; NICs of 25 GB/s, NVSwitch links of the wafer's 4 TB/s.
std::shared_ptr<ScenarioAnalysis>
clusterAnalysis(int nodes, int gpus, ClusterNetwork network, int nodesPerLeaf,
                const std::function<double(const WaferTopology&, const LinkProperties&)>& bytes) {
    auto analysis = std::make_shared<ScenarioAnalysis>();
    Scenario& scenario = analysis->scenario;
    scenario.name = "cluster";
    scenario.wafer.rows = nodes;
    scenario.wafer.cols = gpus;
    ClusterSpec cluster;
    cluster.network = network;
    cluster.nodesPerLeaf = nodesPerLeaf;
    cluster.nicBandwidth = {25e9, "25 GB/s"};
    scenario.cluster = cluster;
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
        link.bytes = bytes(topology, props);
        link.busyS = link.bytes / scenario.linkSpeed(props.tier).bandwidth;
        link.utilization = link.busyS / report.makespanS;
        report.links.push_back(link);
    }
    report.dies.resize(static_cast<std::size_t>(topology.dieCount()));
    analysis->groups.dpOfDie.assign(static_cast<std::size_t>(topology.dieCount()), -1);
    analysis->groups.tatpOfDie = analysis->groups.dpOfDie;
    analysis->flowsOnLink.resize(static_cast<std::size_t>(topology.linkCount()));
    return analysis;
}

std::shared_ptr<ScenarioAnalysis> idleCluster(int nodes, int gpus, ClusterNetwork network,
                                              int nodesPerLeaf = 4) {
    return clusterAnalysis(nodes, gpus, network, nodesPerLeaf,
                           [](const WaferTopology&, const LinkProperties&) { return 0.0; });
}

QString toolTipAt(MeshView& view, QPoint pos) {
    QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
    QApplication::sendEvent(&view, &help);
    return QToolTip::text();
}

QRectF meshArea(const MeshView& view) {
    return QRectF(0, 0, view.width() - MeshView::kLegendWidth, view.height());
}

// Every link of a rail cluster, of a fat tree with a spine and of one whose last leaf is short
// is a bar of its own: inside the mesh area, overlapping no GPU, no switch and no other bar,
// and found by the hit test at its centre; every GPU and switch likewise.
TEST(ClusterView, EveryLinkGpuAndSwitchIsDrawnApartAndHitTestable) {
    struct Case {
        int nodes;
        ClusterNetwork network;
        int nodesPerLeaf;
    };
    for (const Case& c :
         {Case{4, ClusterNetwork::Rail, 4}, Case{4, ClusterNetwork::FatTree, 2},
          Case{5, ClusterNetwork::FatTree, 2}, Case{3, ClusterNetwork::FatTree, 4}}) {
        SCOPED_TRACE(testing::Message() << c.nodes << " nodes, " << c.nodesPerLeaf << " per leaf");
        MeshView view;
        view.resize(1000, 700);
        const auto analysis = idleCluster(c.nodes, 8, c.network, c.nodesPerLeaf);
        view.setAnalysis(analysis);
        const WaferTopology& topology = *analysis->topology;
        const MeshGeometry& geometry = view.geometry();
        ASSERT_TRUE(geometry.cluster);
        const QRectF area = meshArea(view);
        std::vector<QRectF> gpus;
        for (DieId gpu = 0; gpu < topology.dieCount(); ++gpu) {
            gpus.push_back(geometry.dieRect(topology.coord(gpu)));
            EXPECT_TRUE(area.contains(gpus.back())) << "GPU " << gpu;
            EXPECT_EQ(geometry.dieAt(topology, gpus.back().center()), gpu);
            EXPECT_EQ(geometry.switchAt(topology, gpus.back().center()), std::nullopt);
        }
        std::vector<QRectF> switches;
        for (int vertex = topology.dieCount(); vertex < topology.vertexCount(); ++vertex) {
            const std::vector<QRectF> boxes = geometry.switchRects(topology, vertex);
            ASSERT_FALSE(boxes.empty()) << topology.vertexName(vertex);
            for (const QRectF& box : boxes) {
                EXPECT_TRUE(area.contains(box)) << topology.vertexName(vertex);
                for (const QRectF& gpu : gpus)
                    EXPECT_FALSE(box.intersects(gpu)) << topology.vertexName(vertex);
            }
            // The last box is a leaf's back, which no rail or tine crosses.
            EXPECT_EQ(geometry.switchAt(topology, boxes.back().center() + QPointF(0, 1)), vertex)
                << topology.vertexName(vertex);
            switches.insert(switches.end(), boxes.begin(), boxes.end());
        }
        std::vector<QRectF> bars;
        for (const LinkProperties& link : topology.links()) {
            const QRectF bar = geometry.linkRect(topology, link);
            EXPECT_GT(bar.width() * bar.height(), 20.0) << "link " << link.id;
            EXPECT_TRUE(area.contains(bar)) << "link " << link.id;
            EXPECT_EQ(geometry.linkAt(topology, bar.center()), link.id);
            // Touching its two ends is fine; reaching into them is not.
            const QRectF inner = bar.adjusted(0.5, 0.5, -0.5, -0.5);
            for (const QRectF& other : bars)
                EXPECT_FALSE(inner.intersects(other)) << "link " << link.id;
            for (const QRectF& box : gpus)
                EXPECT_FALSE(inner.intersects(box)) << "link " << link.id;
            for (const QRectF& box : switches)
                EXPECT_FALSE(inner.intersects(box)) << "link " << link.id;
            bars.push_back(bar);
        }
        view.grab(); // paints without failing
    }
}

// The heatmap colours a cluster's links as a wafer's: the loaded NIC link at the top of the
// scale, the other NICs at a quarter, the idle NVSwitch links in the idle grey; the switches in
// their own colours, and the legend names each switch and link tier.
TEST(ClusterView, ALoadedNicLinkIsPaintedInTheHeatmapColourOfItsLoad) {
    const auto analysis =
        clusterAnalysis(4, 8, ClusterNetwork::Rail, 4,
                        [](const WaferTopology& topology, const LinkProperties& link) {
                            if (link.tier != LinkTier::Nic)
                                return 0.0;
                            return link.from == 11 && topology.isSwitch(link.to) ? 4e6 : 1e6;
                        });
    const WaferTopology& topology = *analysis->topology;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    const QImage image = view.grab().toImage();
    const LinkId hot = *topology.linkBetween(11, topology.railSwitch(3));
    EXPECT_DOUBLE_EQ(view.linkFraction(hot), 1.0);
    int nics = 0;
    for (const LinkProperties& link : topology.links()) {
        const QPoint centre = view.geometry().linkRect(topology, link).center().toPoint();
        const QColor expected = link.id == hot               ? bucketColor(kLoadBuckets - 1)
                                : link.tier == LinkTier::Nic ? bucketColor(loadBucket(0.25))
                                                             : idleLinkColor();
        EXPECT_EQ(image.pixelColor(centre), expected) << "link " << link.id;
        nics += link.tier == LinkTier::Nic ? 1 : 0;
    }
    EXPECT_EQ(nics, 2 * 32);

    // A node switch away from the rails crossing it, and a rail between two nodes.
    const QRectF nodeSwitch = view.geometry().switchRects(topology, topology.nodeSwitch(2)).front();
    EXPECT_EQ(image.pixelColor(QPoint(static_cast<int>(nodeSwitch.left()) + 3,
                                      static_cast<int>(nodeSwitch.center().y()))),
              QColor(104, 104, 112)); // mesh_view.cpp: kNodeSwitch
    const QRectF rail = view.geometry().switchRects(topology, topology.railSwitch(5)).front();
    const QRectF gpu13 = view.geometry().dieRect(topology.coord(13));
    EXPECT_EQ(image.pixelColor(QPoint(static_cast<int>(rail.center().x()),
                                      static_cast<int>(gpu13.center().y()))),
              QColor(130, 88, 56)); // mesh_view.cpp: kNetworkSwitch

    QStringList legend;
    for (const auto& [rect, text] : view.legendRows()) {
        EXPECT_LE(rect.bottom(), view.height()) << text.toStdString();
        legend << text.section(':', 0, 0);
    }
    EXPECT_EQ(legend, (QStringList{"Node switch (NVSwitch)", "Rail switch g", "NVSwitch link",
                                   "NIC link"}));
    const QString nicRow = view.legendRows().back().second;
    EXPECT_TRUE(nicRow.contains("25 GB/s")) << nicRow.toStdString();
}

// Utilisation divides each link's bytes by its own tier's bandwidth: a NIC's 25 GB/s, the
// NVSwitch link's the wafer's (intra) 4 TB/s, a fat tree's uplink all its leaf's NICs.
TEST(ClusterView, UtilisationIsOfEachLinkTiersBandwidth) {
    const auto analysis = idleCluster(4, 8, ClusterNetwork::FatTree, 2);
    const WaferTopology& topology = *analysis->topology;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    view.setMetric(LinkMetric::Utilization);
    const LinkId nic = *topology.linkBetween(3, topology.leafSwitch(0));
    const LinkId nvswitch = *topology.linkBetween(3, topology.nodeSwitch(0));
    const LinkId uplink = *topology.linkBetween(topology.leafSwitch(1), topology.spineSwitch());
    MeshView::LinkLoadOverride loads;
    loads.bytes.assign(static_cast<std::size_t>(topology.linkCount()), 0.0);
    loads.bytes[static_cast<std::size_t>(nic)] = 25e6;      // 25 GB/s for 1 ms: 100%
    loads.bytes[static_cast<std::size_t>(nvswitch)] = 25e6; // 4 TB/s: 0.625%
    loads.bytes[static_cast<std::size_t>(uplink)] = 100e6;  // 2 nodes x 8 x 25 GB/s: 25%
    loads.makespanS = 1e-3;
    view.setLinkLoadOverride(loads);
    EXPECT_DOUBLE_EQ(view.linkFraction(nic), 1.0);
    EXPECT_DOUBLE_EQ(view.linkFraction(nvswitch),
                     25e9 / analysis->scenario.wafer.linkBandwidth.value);
    EXPECT_DOUBLE_EQ(view.linkFraction(uplink), 0.25);
    view.grab();
    QStringList legend;
    for (const auto& [rect, text] : view.legendRows())
        legend << text.section(':', 0, 0);
    EXPECT_EQ(legend, (QStringList{"Node switch (NVSwitch)", "Leaf switch", "Spine switch",
                                   "NVSwitch link", "NIC link", "Uplink"}));
}

// Tooltips name the switch, the link (both ends, switches by name) and the GPU's node.
TEST(ClusterView, TooltipsNameSwitchesLinksAndGpus) {
    const auto analysis = idleCluster(4, 8, ClusterNetwork::Rail);
    const WaferTopology& topology = *analysis->topology;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.grab();
    const MeshGeometry& geometry = view.geometry();
    const QRectF rail = geometry.switchRects(topology, topology.railSwitch(3)).front();
    EXPECT_TRUE(
        toolTipAt(view, rail.topLeft().toPoint() + QPoint(2, 2)).startsWith("<b>rail 3</b>"));
    const QRectF node = geometry.switchRects(topology, topology.nodeSwitch(1)).front();
    EXPECT_TRUE(toolTipAt(view, node.topLeft().toPoint() + QPoint(4, 4))
                    .startsWith("<b>node 1 switch</b> (NVSwitch)"));
    const LinkProperties& down = topology.link(*topology.linkBetween(topology.railSwitch(2), 10));
    EXPECT_TRUE(toolTipAt(view, geometry.linkRect(topology, down).center().toPoint())
                    .contains("rail 2 → 10</b><br>NIC link, 25 GB/s"))
        << toolTipAt(view, geometry.linkRect(topology, down).center().toPoint()).toStdString();
    EXPECT_TRUE(toolTipAt(view, geometry.dieRect(topology.coord(10)).center().toPoint())
                    .startsWith("<b>GPU 10</b> (node 1, GPU 2 of the node)"));
}

// GPUs are dies: dragging one onto another asks for one swap; a switch is no die, so a drag
// from it pans, and a click on a link selects it.
TEST(ClusterView, GpusAreDraggedAndSwitchesAreNot) {
    const auto analysis = idleCluster(4, 8, ClusterNetwork::Rail);
    const WaferTopology& topology = *analysis->topology;
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy swaps(&view, &MeshView::dieSwapRequested);
    QSignalSpy selected(&view, &MeshView::linkSelected);
    const auto centreOf = [&](DieId gpu) {
        return view.geometry().dieRect(topology.coord(gpu)).center().toPoint();
    };
    QTest::mousePress(&view, Qt::LeftButton, {}, centreOf(1));
    QTest::mouseMove(&view, centreOf(1) + QPoint(20, 20));
    QTest::mouseMove(&view, centreOf(9));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, centreOf(9));
    ASSERT_EQ(swaps.count(), 1);
    EXPECT_EQ(swaps.at(0).at(1).toString(), "Swap die 1 with die 9");

    const QPoint onNodeSwitch =
        view.geometry().switchRects(topology, topology.nodeSwitch(0)).front().topLeft().toPoint() +
        QPoint(4, 4);
    const QPointF offsetBefore = view.geometry().offset;
    QTest::mousePress(&view, Qt::LeftButton, {}, onNodeSwitch);
    QTest::mouseMove(&view, onNodeSwitch + QPoint(30, 0));
    QTest::mouseMove(&view, onNodeSwitch + QPoint(60, 0));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, onNodeSwitch + QPoint(60, 0));
    EXPECT_EQ(swaps.count(), 1);
    EXPECT_EQ(view.geometry().offset, offsetBefore + QPointF(60, 0));
    EXPECT_TRUE(view.selectedDies().isEmpty() || view.selectedDies() == QList<int>{1});

    const LinkId nic = *topology.linkBetween(5, topology.railSwitch(5));
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      view.geometry().linkRect(topology, topology.link(nic)).center().toPoint());
    ASSERT_GE(selected.count(), 1);
    EXPECT_EQ(view.selectedLink(), std::optional<LinkId>(nic));
}

// A flow's route through switches is drawn along its links' bars, and every overlay (the
// selected link's flows, a highlighted flow, TCME's paths, the advisor's links) paints on a
// cluster without touching a die array with a switch's id.
TEST(ClusterView, RoutesThroughSwitchesAreDrawnAlongTheirBars) {
    auto analysis = idleCluster(4, 8, ClusterNetwork::FatTree, 2);
    const WaferTopology& topology = *analysis->topology;
    // GPU 0 to GPU 31 over leaf 0, the spine and leaf 1.
    const std::vector<DieId> path{0, topology.leafSwitch(0), topology.spineSwitch(),
                                  topology.leafSwitch(1), 31};
    FlowReport flow;
    flow.id = "f0";
    flow.opKind = "p2p";
    flow.bytes = 1e6;
    flow.route.path = path;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
        flow.route.links.push_back(*topology.linkBetween(path[i], path[i + 1]));
    analysis->report.flows.push_back(flow);
    for (LinkId link : flow.route.links) {
        analysis->flowsOnLink[static_cast<std::size_t>(link)].push_back(0);
        analysis->report.links[static_cast<std::size_t>(link)].bytes = 1e6;
    }
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(analysis);
    const QPolygonF line = view.geometry().pathPoints(topology, path);
    ASSERT_EQ(line.size(), 6); // GPU 0, its NIC, the two uplinks, GPU 31's NIC, GPU 31
    EXPECT_EQ(line.front(), view.geometry().dieRect(topology.coord(0)).center());
    EXPECT_EQ(line[2],
              view.geometry().linkRect(topology, topology.link(flow.route.links[1])).center());
    EXPECT_EQ(line.back(), view.geometry().dieRect(topology.coord(31)).center());

    view.selectLink(flow.route.links[1]);
    view.highlightFlow(0);
    view.setTcmeOverlay(MeshView::TcmeOverlay{flow.route.links[2], {path}, {path}});
    view.setFindingHighlight(
        MeshView::FindingHighlight{{0, 31}, {flow.route.links[0], flow.route.links[3]}, "test"});
    const QImage image = view.grab().toImage();
    EXPECT_FALSE(image.isNull());
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    // Tooltips over every link and switch, as a user sweeping the mouse would ask.
    for (const LinkProperties& link : topology.links())
        EXPECT_FALSE(
            toolTipAt(view, view.geometry().linkRect(topology, link).center().toPoint()).isEmpty());
}

// 4 nodes x 8 GPUs open with every GPU's id legible (a GPU of 40 pixels or more) and all of the
// cluster in view; 64 nodes open from node 0 down at a size whose link bars still show, to
// be panned; a mesh and a cluster of the same shape are fitted each by its own layout.
TEST(ClusterView, DefaultZoomShowsASmallClusterWholeAndALargeOneLegibly) {
    MeshView view;
    view.resize(900, 600);
    view.setAnalysis(idleCluster(4, 8, ClusterNetwork::Rail));
    EXPECT_GE(view.geometry().tilePixels(), 40.0);
    const QRectF content = view.geometry().toPixels(view.geometry().contentUnits());
    EXPECT_TRUE(meshArea(view).contains(content));

    const auto big = idleCluster(64, 8, ClusterNetwork::Rail);
    view.setAnalysis(big);
    EXPECT_GE(view.geometry().tilePixels(), MeshGeometry::kMinClusterScale);
    EXPECT_TRUE(meshArea(view).contains(view.geometry().dieRect({0, 0})));
    EXPECT_TRUE(meshArea(view).contains(view.geometry().dieRect({0, 7})));
    view.grab();

    Scenario mesh = test::smallStrategyScenario();
    mesh.wafer.rows = 4;
    mesh.wafer.cols = 8;
    view.setAnalysis(analyseScenario(mesh));
    EXPECT_FALSE(view.geometry().cluster);
    view.setAnalysis(idleCluster(4, 8, ClusterNetwork::Rail));
    EXPECT_TRUE(view.geometry().cluster);
}

// A 160-GPU cluster fitted in a 1280x720 window's mesh shows no ids; View > Zoom to read ids
// zooms in just far enough to show them, with the selected GPU in the middle (docs/gui.md "The
// mesh").
TEST(ClusterView, ZoomToReadIdsShowsThemAboutTheSelectedGpu) {
    MeshView view;
    view.resize(620, 420);
    view.setAnalysis(idleCluster(20, 8, ClusterNetwork::Rail));
    view.zoomToFit();
    ASSERT_LT(view.geometry().tilePixels(), MeshView::kIdTilePixels);
    view.selectDie(77);
    view.zoomToReadableIds();
    EXPECT_GE(view.geometry().tilePixels(), MeshView::kIdTilePixels);
    EXPECT_LT(view.geometry().tilePixels(),
              MeshView::kIdTilePixels * 1.2); // no further than needed
    const QPointF centre = view.geometry().dieRect(view.analysis()->topology->coord(77)).center();
    EXPECT_NEAR(centre.x(), meshArea(view).center().x(), 1.0);
    EXPECT_NEAR(centre.y(), meshArea(view).center().y(), 1.0);
    const double readable = view.geometry().tilePixels();
    view.zoomToReadableIds(); // already readable: nothing moves
    EXPECT_DOUBLE_EQ(view.geometry().tilePixels(), readable);
}

// A legend too long for the view folds each kind of group onto one strip of its colours
// (docs/gui.md "The mesh"): the 32-A100 example at the mesh's size in a 1280x720 window keeps
// every row on screen; a tall view lists one row per colour.
TEST(ClusterView, TheGroupLegendFoldsWhenItWouldRunPastTheFoot) {
    const auto analysis = analyseScenario(test::exampleScenario("gpt3_13b_dgx_a100_32gpu.json"));
    ASSERT_EQ(analysis->groups.dp.size(), 16u);
    const auto legendTexts = [&](QSize size) {
        MeshView view;
        view.resize(size);
        view.setAnalysis(analysis);
        view.grab();
        QStringList texts;
        for (const auto& [rect, text] : view.legendRows()) {
            EXPECT_LE(rect.bottom(), view.height()) << text.toStdString();
            texts << text;
        }
        return texts;
    };
    const QStringList shortView = legendTexts(QSize(500, 430));
    EXPECT_TRUE(shortView.filter("16 DP groups, filled in these colours in turn: D0, D1").size() ==
                1)
        << shortView.join('\n').toStdString();
    EXPECT_TRUE(shortView.filter("DP groups filled in this colour").isEmpty());

    const QStringList tallView = legendTexts(QSize(900, 1100));
    EXPECT_EQ(tallView.filter("DP groups filled in this colour").size(), 12) // 12 fill colours
        << tallView.join('\n').toStdString();
}

} // namespace
} // namespace ws
