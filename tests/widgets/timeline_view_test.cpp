// The timeline: its time-to-pixel map at several zooms, the folding of sub-pixel bars, the
// time labels, and the view itself (pixels of a grab, the link filter, clicks and tooltips).
#include "bar_folding.h"
#include "gantt_plottable.h"
#include "time_axis_mapping.h"
#include "time_axis_ticker.h"
#include "timeline_view.h"
#include "widget_test_support.h"

#include <qcustomplot.h>

#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

namespace ws {
namespace {

using Kind = DieEvent::Kind;

DieEvent event(Kind kind, double startS, double endS, int round, std::string label) {
    DieEvent result;
    result.kind = kind;
    result.startS = startS;
    result.endS = endS;
    result.round = round;
    result.label = std::move(label);
    return result;
}

FlowReport flow(std::string id, DieId src, DieId dst, LinkId link, double bytes) {
    FlowReport result;
    result.id = std::move(id);
    result.op = result.id;
    result.opKind = "p2p";
    result.src = src;
    result.dsts = {dst};
    result.bytes = bytes;
    result.route.path = {src, dst};
    result.route.links = {link};
    result.route.hops = 1;
    return result;
}

// Three dies on a line 0 - 1 - 2: die 0 computes, then sends flow f0 to die 1 over link 0; die 1
// computes and sends f1 to die 2 over link 1; die 2 idles until f1 arrives. Times in us.
std::shared_ptr<SimulationReport> smallReport() {
    auto report = std::make_shared<SimulationReport>();
    report->scenarioName = "small";
    report->makespanS = 500e-6;
    report->links = {LinkReport{0, 0, 1}, LinkReport{1, 1, 2}};
    report->flows = {flow("f0", 0, 1, 0, 1'048'576.0), flow("f1", 1, 2, 1, 2'097'152.0)};
    report->dies.resize(3);
    for (int die = 0; die < 3; ++die)
        report->dies[static_cast<std::size_t>(die)].id = die;
    report->dies[0].events = {event(Kind::Compute, 100e-6, 200e-6, 0, "fwd qkv blk 0"),
                              event(Kind::Send, 250e-6, 350e-6, 1, "f0")};
    report->dies[0].tensors = {
        TensorReport{"qkv", "I[b0:4, m0:256, :]", "W[:, n0:4608]", "O[b0:4, m0:256, :]"}};
    report->dies[1].events = {event(Kind::Recv, 250e-6, 350e-6, 1, "f0"),
                              event(Kind::Compute, 300e-6, 400e-6, 1, "fwd qkv blk 1"),
                              event(Kind::Send, 400e-6, 480e-6, 2, "f1")};
    report->dies[2].events = {event(Kind::Idle, 0.0, 400e-6, -1, "idle"),
                              event(Kind::Recv, 400e-6, 480e-6, 2, "f1")};
    return report;
}

// A view of `report`, shown offscreen at a fixed size and replotted, so that pixels are final.
struct ShownView {
    explicit ShownView(std::shared_ptr<const SimulationReport> report,
                       std::shared_ptr<const WaferTopology> topology = nullptr) {
        view.resize(800, 300);
        view.setReport(std::move(report), std::move(topology));
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    }
    QImage image() {
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        return view.plot()->grab().toImage();
    }
    TimelineView view;
};

// --- time to pixel ---------------------------------------------------------------------------

TEST(TimeAxisMapping, MapsTheWholeRunAndTwoZoomsExactly) {
    // 1 ms over 1000 px: 1 us a pixel.
    const TimeAxisMapping whole{0.0, 1e-3, 0.0, 1000.0};
    EXPECT_DOUBLE_EQ(whole.secondsPerPixel(), 1e-6);
    EXPECT_DOUBLE_EQ(whole.toPixel(0.0), 0.0);
    EXPECT_DOUBLE_EQ(whole.toPixel(0.5e-3), 500.0);
    EXPECT_DOUBLE_EQ(whole.toPixel(1e-3), 1000.0);
    EXPECT_DOUBLE_EQ(whole.toSeconds(250.0), 0.25e-3);

    // Zoomed x2 on the middle, drawn from x = 40: 0.5 us a pixel.
    const TimeAxisMapping zoom2{0.25e-3, 0.75e-3, 40.0, 1000.0};
    EXPECT_DOUBLE_EQ(zoom2.secondsPerPixel(), 0.5e-6);
    EXPECT_DOUBLE_EQ(zoom2.toPixel(0.25e-3), 40.0);
    EXPECT_DOUBLE_EQ(zoom2.toPixel(0.5e-3), 540.0);
    EXPECT_DOUBLE_EQ(zoom2.toPixel(0.3e-3), 140.0);
    EXPECT_DOUBLE_EQ(zoom2.toPixel(0.2e-3), -60.0); // left of the view: negative, not clamped

    // Zoomed to 1 us at 1 ms over 500 px from x = 50: 2 ns a pixel.
    const TimeAxisMapping zoomNs{1e-3, 1e-3 + 1e-6, 50.0, 500.0};
    EXPECT_NEAR(zoomNs.secondsPerPixel(), 2e-9, 1e-21);
    EXPECT_NEAR(zoomNs.toPixel(1e-3 + 0.5e-6), 300.0, 1e-6);
    EXPECT_NEAR(zoomNs.toPixel(1e-3 + 2e-9), 51.0, 1e-6);
    EXPECT_NEAR(zoomNs.toSeconds(300.0), 1e-3 + 0.5e-6, 1e-18);
}

TEST(TimeAxisMapping, IsInvalidWhenEmpty) {
    EXPECT_TRUE((TimeAxisMapping{0.0, 1.0, 0.0, 10.0}.isValid()));
    EXPECT_FALSE((TimeAxisMapping{1.0, 1.0, 0.0, 10.0}.isValid()));
    EXPECT_FALSE((TimeAxisMapping{0.0, 1.0, 0.0, 0.0}.isValid()));
}

TEST(TimeAxisMapping, FormatsTimesInTheUnitOfTheSpan) {
    EXPECT_EQ(formatTime(850e-9, 1e-6), "850 ns");
    EXPECT_EQ(formatTime(12.5e-6, 50e-6), "12.5 us");
    EXPECT_EQ(formatTime(3.2e-3, 5e-3), "3.2 ms");
    EXPECT_EQ(formatTime(1.5, 4.0), "1.5 s");
    EXPECT_EQ(formatTime(0.0, 50e-6), "0 us");
    EXPECT_EQ(formatTime(-1e-20, 50e-6), "0 us"); // no "-0"
    EXPECT_EQ(formatTime(-10e-6, 50e-6), "-10 us");
    EXPECT_EQ(formatTime(250e-6, 800e-6), "250 us");
    EXPECT_EQ(formatTime(20e-3, 20e-3), "20 ms");  // a duration on its own scale
    EXPECT_EQ(formatTime(750e-6, 1e-3), "750 us"); // a 1 ms view labels in us, not "0.75 ms"
    EXPECT_EQ(formatTime(1.2345e-3, 1e-3), "1235 us");
}

TEST(TimeAxisTicker, LabelsEveryTickInOneUnit) {
    TimeAxisTicker ticker;
    QVector<double> ticks;
    QVector<QString> labels;
    ticker.generate(QCPRange(0.0, 50e-6), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr,
                    &labels);
    ASSERT_FALSE(labels.isEmpty());
    for (const QString& label : labels)
        EXPECT_TRUE(label.endsWith(QStringLiteral(" us"))) << label.toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("10 us")));

    ticker.generate(QCPRange(0.0, 20e-3), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr,
                    &labels);
    EXPECT_TRUE(labels.contains(QStringLiteral("5 ms")));
    ticker.generate(QCPRange(1e-3, 1e-3 + 500e-9), QLocale::c(), QLatin1Char('g'), 6, ticks,
                    nullptr, &labels);
    EXPECT_TRUE(labels.contains(QStringLiteral("1000100 ns")));
}

// The plottable's map is QCPAxis's: an event drawn where the axis puts its times, whatever the
// zoom.
TEST(TimelineView, DrawsEventsWhereTheAxisPutsTheirTimesAtEveryZoom) {
    ShownView shown(smallReport());
    QCustomPlot* plot = shown.view.plot();
    const QRect axisRect = plot->axisRect()->rect();
    for (const QCPRange range :
         {QCPRange(0.0, 500e-6), QCPRange(100e-6, 200e-6), QCPRange(150e-6, 150e-6 + 1e-6)}) {
        plot->xAxis->setRange(range);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const double pxPerS = axisRect.width() / range.size();
        const QRectF rect = shown.view.eventRect(0, 0); // die 0's compute, 100 .. 200 us
        EXPECT_NEAR(rect.left(), axisRect.left() + (100e-6 - range.lower) * pxPerS, 1e-6);
        EXPECT_NEAR(rect.right(), axisRect.left() + (200e-6 - range.lower) * pxPerS, 1e-6);
    }
}

// --- folding ---------------------------------------------------------------------------------

BarRow evenlySpaced(int count, double periodS, double durationS, Kind kind = Kind::Compute) {
    std::vector<BarEvent> events;
    for (int i = 0; i < count; ++i)
        events.push_back(BarEvent{i * periodS, i * periodS + durationS, kind, i});
    return makeBarRow(std::move(events));
}

TEST(BarFolding, FoldsAThousandSubPixelEventsIntoOneBar) {
    // 1000 events of 1 ns every 1 us, over 1 ms on 500 px: 2 us a pixel.
    const BarRow row = evenlySpaced(1000, 1e-6, 1e-9);
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{0.0, 1e-3, 0.0, 500.0});
    ASSERT_EQ(bars.size(), 1u);
    EXPECT_TRUE(bars[0].isFolded());
    EXPECT_EQ(bars[0].count, 1000);
    EXPECT_DOUBLE_EQ(bars[0].leftPx, 0.0);
    EXPECT_NEAR(bars[0].rightPx, 999e-6 * 500.0 / 1e-3 + 1e-9 * 5e5, 1e-9);
}

TEST(BarFolding, NoBarIsNarrowerThanAPixel) {
    // Runs of sub-pixel events separated by gaps of several pixels, plus wide events.
    std::vector<BarEvent> events;
    int index = 0;
    for (int run = 0; run < 20; ++run) {
        const double runStart = run * 50e-6;
        for (int i = 0; i < 30; ++i)
            events.push_back(BarEvent{runStart + i * 0.1e-6, runStart + i * 0.1e-6 + 50e-9,
                                      Kind::Send, index++});
        events.push_back(BarEvent{runStart + 10e-6, runStart + 30e-6, Kind::Send, index++});
    }
    const BarRow row = makeBarRow(std::move(events));
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{0.0, 1e-3, 10.0, 500.0});
    int drawn = 0;
    for (const FoldedBar& bar : bars) {
        EXPECT_GE(bar.rightPx - bar.leftPx, 1.0 - 1e-9); // one pixel, up to rounding
        drawn += bar.count;
    }
    EXPECT_EQ(drawn, 20 * 31);
    EXPECT_EQ(bars.size(), 40u); // per run: one folded run of 30, one wide bar
}

TEST(BarFolding, DrawsALoneSubPixelEventAtOnePixel) {
    const BarRow row = makeBarRow({BarEvent{500e-6, 500e-6 + 1e-9, Kind::Compute, 7}});
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{0.0, 1e-3, 0.0, 500.0});
    ASSERT_EQ(bars.size(), 1u);
    EXPECT_FALSE(bars[0].isFolded());
    EXPECT_EQ(bars[0].first, 0);
    EXPECT_DOUBLE_EQ(bars[0].leftPx, 250.0);
    EXPECT_DOUBLE_EQ(bars[0].rightPx, 251.0);
}

TEST(BarFolding, KeepsSubPixelEventsApartWhenGapsExceedAPixel) {
    // One 1 ns event every 10 us at 2 us a pixel: 5 px apart, 100 one-pixel bars.
    const BarRow row = evenlySpaced(100, 10e-6, 1e-9);
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{0.0, 1e-3, 0.0, 500.0});
    ASSERT_EQ(bars.size(), 100u);
    for (const FoldedBar& bar : bars) {
        EXPECT_FALSE(bar.isFolded());
        EXPECT_NEAR(bar.rightPx - bar.leftPx, 1.0, 1e-9);
    }
}

TEST(BarFolding, DrawsOnlyVisibleEventsClippedToTheView) {
    // Ten events of 100 us back to back; the view shows 250 .. 450 us on 200 px.
    const BarRow row = evenlySpaced(10, 100e-6, 100e-6);
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{250e-6, 450e-6, 0.0, 200.0});
    ASSERT_EQ(bars.size(), 3u); // events 2, 3, 4
    EXPECT_EQ(bars[0].first, 2);
    EXPECT_NEAR(bars[0].leftPx, 0.0, 1e-9);
    EXPECT_NEAR(bars[0].rightPx, 50.0, 1e-9);
    EXPECT_NEAR(bars[1].leftPx, 50.0, 1e-9);
    EXPECT_NEAR(bars[1].rightPx, 150.0, 1e-9);
    EXPECT_EQ(bars[2].first, 4);
    EXPECT_NEAR(bars[2].rightPx, 200.0, 1e-9);
}

TEST(BarFolding, FindsALongEventThatOverlapsLaterOnes) {
    // A long event from 0 overlaps many short ones; the view starts after the short ones end.
    std::vector<BarEvent> events{BarEvent{0.0, 1e-3, Kind::Send, 0}};
    for (int i = 1; i <= 100; ++i)
        events.push_back(BarEvent{i * 1e-6, i * 1e-6 + 0.5e-6, Kind::Send, i});
    const BarRow row = makeBarRow(std::move(events));
    EXPECT_EQ(firstEventReaching(row, 0.5e-3), 0u); // the running max end reaches 1 ms at once
    const std::vector<FoldedBar> bars = foldBars(row, TimeAxisMapping{0.5e-3, 0.6e-3, 0.0, 100.0});
    ASSERT_EQ(bars.size(), 1u);
    EXPECT_EQ(bars[0].first, 0);
    EXPECT_DOUBLE_EQ(bars[0].rightPx - bars[0].leftPx, 100.0);
}

TEST(BarFolding, SortsEventsAndKeepsTheRunningMaximumEnd) {
    const BarRow row =
        makeBarRow({BarEvent{2.0, 3.0, Kind::Send, 0}, BarEvent{0.0, 5.0, Kind::Send, 1},
                    BarEvent{1.0, 2.0, Kind::Send, 2}});
    ASSERT_EQ(row.events.size(), 3u);
    EXPECT_EQ(row.events[0].index, 1);
    EXPECT_EQ(row.events[1].index, 2);
    EXPECT_EQ(row.runningMaxEndS, (std::vector<double>{5.0, 5.0, 5.0}));
    EXPECT_EQ(firstEventReaching(row, 6.0), 3u);
}

// --- the view --------------------------------------------------------------------------------

TEST(TimelineView, DrawsAComputeBarWhereItsEventIs) {
    ShownView shown(smallReport());
    const QImage image = shown.image();
    const QColor compute = ganttColor(GanttColor::Compute);
    const QRectF die0 = shown.view.eventRect(0, 0); // compute 100 .. 200 us
    ASSERT_GT(die0.width(), 10.0);
    EXPECT_EQ(pixelAt(image, die0.center()), compute);
    const QRectF die1 = shown.view.eventRect(1, 1); // compute 300 .. 400 us
    EXPECT_EQ(pixelAt(image, die1.center()), compute);
    // No compute on die 0 at 300 .. 400 us, nor on die 1 at 100 .. 200 us.
    EXPECT_NE(pixelAt(image, QPointF(die1.center().x(), die0.center().y())), compute);
    EXPECT_NE(pixelAt(image, QPointF(die0.center().x(), die1.center().y())), compute);
    // The transfers in their own colours, in their own lanes.
    EXPECT_EQ(pixelAt(image, shown.view.eventRect(0, 1).center()), ganttColor(GanttColor::Send));
    EXPECT_EQ(pixelAt(image, shown.view.eventRect(1, 0).center()), ganttColor(GanttColor::Recv));
    EXPECT_EQ(pixelAt(image, shown.view.eventRect(2, 0).center()), ganttColor(GanttColor::Idle));
}

TEST(TimelineView, FollowsAZoomInPixels) {
    ShownView shown(smallReport());
    shown.view.plot()->xAxis->setRange(150e-6, 250e-6); // the second half of die 0's compute
    const QImage image = shown.image();
    const QRect axisRect = shown.view.plot()->axisRect()->rect();
    const int y = static_cast<int>(shown.view.eventRect(0, 0).center().y());
    const QColor compute = ganttColor(GanttColor::Compute);
    EXPECT_EQ(image.pixelColor(axisRect.left() + axisRect.width() / 4, y), compute);     // 175 us
    EXPECT_NE(image.pixelColor(axisRect.left() + axisRect.width() * 3 / 4, y), compute); // 225 us
}

TEST(TimelineView, LinkFilterHidesTransfersOfFlowsNotCrossingTheLink) {
    ShownView shown(smallReport());
    EXPECT_EQ(shown.view.shownEventCount(), 7);
    shown.view.setLinkFilter(LinkId{0}); // f0 crosses link 0, f1 does not
    EXPECT_EQ(shown.view.linkFilter(), std::optional<LinkId>(0));
    EXPECT_EQ(shown.view.shownEventCount(), 5); // f1's send and receive are gone
    QImage image = shown.image();
    const QRectF f1Send = shown.view.eventRect(1, 2);
    EXPECT_NE(pixelAt(image, f1Send.center()), ganttColor(GanttColor::Send));
    EXPECT_EQ(pixelAt(image, shown.view.eventRect(0, 1).center()), ganttColor(GanttColor::Send));
    EXPECT_EQ(pixelAt(image, shown.view.eventRect(1, 1).center()), ganttColor(GanttColor::Compute));
    EXPECT_TRUE(shown.view.toolTipAt(f1Send.center().toPoint()).isEmpty());

    shown.view.setLinkFilter(std::nullopt);
    EXPECT_EQ(shown.view.shownEventCount(), 7);
    image = shown.image();
    EXPECT_EQ(pixelAt(image, f1Send.center()), ganttColor(GanttColor::Send));
}

TEST(TimelineView, ClickOnATransferEmitsFlowActivatedAndHighlightsIt) {
    ShownView shown(smallReport());
    QSignalSpy flows(&shown.view, &TimelineView::flowActivated);
    QSignalSpy dies(&shown.view, &TimelineView::dieActivated);
    const QPoint f0Send = shown.view.eventRect(0, 1).center().toPoint();
    QTest::mouseClick(shown.view.plot(), Qt::LeftButton, Qt::NoModifier, f0Send);
    ASSERT_EQ(flows.count(), 1);
    EXPECT_EQ(flows.at(0).at(0).toString(), QStringLiteral("f0"));
    EXPECT_EQ(dies.count(), 0);
    EXPECT_EQ(shown.view.highlightedFlow(), QStringLiteral("f0"));
    EXPECT_EQ(pixelAt(shown.image(), shown.view.eventRect(1, 0).center()),
              ganttColor(GanttColor::Highlight)); // f0's receive on die 1, highlighted too

    const QPoint compute = shown.view.eventRect(1, 1).center().toPoint();
    QTest::mouseClick(shown.view.plot(), Qt::LeftButton, Qt::NoModifier, compute);
    EXPECT_EQ(flows.count(), 1);
    ASSERT_EQ(dies.count(), 1);
    EXPECT_EQ(dies.at(0).at(0).toInt(), 1);
}

TEST(TimelineView, DragPansWithoutActivating) {
    ShownView shown(smallReport());
    QSignalSpy flows(&shown.view, &TimelineView::flowActivated);
    QCustomPlot* plot = shown.view.plot();
    plot->xAxis->setRange(100e-6, 300e-6);
    const QPoint start = shown.view.eventRect(0, 1).center().toPoint();
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, start);
    QTest::mouseMove(plot, start + QPoint(-40, 0));
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, start + QPoint(-100, 0));
    EXPECT_EQ(flows.count(), 0);
    EXPECT_GT(plot->xAxis->range().lower, 100e-6); // dragged left: later times came into view
    EXPECT_NEAR(plot->xAxis->range().size(), 200e-6, 1e-15);
}

TEST(TimelineView, TooltipsDescribeComputeAndTransfers) {
    ShownView shown(smallReport());
    const QString compute = shown.view.toolTipAt(shown.view.eventRect(0, 0).center().toPoint());
    EXPECT_TRUE(compute.contains(QStringLiteral("compute on die 0"))) << compute.toStdString();
    EXPECT_TRUE(compute.contains(QStringLiteral("task fwd qkv blk 0")));
    EXPECT_TRUE(compute.contains(QStringLiteral("W[:, n0:4608]")));
    EXPECT_TRUE(compute.contains(QStringLiteral("duration 100 us"))) << compute.toStdString();

    const QString send = shown.view.toolTipAt(shown.view.eventRect(1, 2).center().toPoint());
    EXPECT_TRUE(send.contains(QStringLiteral("send on die 1"))) << send.toStdString();
    EXPECT_TRUE(send.contains(QStringLiteral("flow f1")));
    EXPECT_TRUE(send.contains(QStringLiteral("links 1->2")));
    EXPECT_TRUE(send.contains(QStringLiteral("round 2")));
}

// On a GPU cluster (docs/network-model.md section 12) a transfer's links end at switches, which the
// tooltip names as the mesh view does: one node of 3 GPUs, flow f1 from GPU 1 through the node's
// switch to 2.
TEST(TimelineView, TransferTooltipsNameTheSwitchesOfACluster) {
    Scenario scenario;
    scenario.wafer.rows = 1;
    scenario.wafer.cols = 3;
    scenario.cluster = ClusterSpec{};
    const auto topology = std::make_shared<const WaferTopology>(scenario.topologySpec());
    const int nodeSwitch = topology->dieCount(); // the first vertex after the GPUs
    auto report = smallReport();
    report->links.clear();
    for (const LinkProperties& props : topology->links())
        report->links.push_back(LinkReport{props.id, props.from, props.to});
    FlowReport& f1 = report->flows[1];
    f1.route.path = {1, nodeSwitch, 2};
    f1.route.links = {*topology->linkBetween(1, nodeSwitch), *topology->linkBetween(nodeSwitch, 2)};
    f1.route.hops = 2;
    report->flows[0].route.links = {*topology->linkBetween(0, nodeSwitch)};

    ShownView shown(report, topology);
    const QString send = shown.view.toolTipAt(shown.view.eventRect(1, 2).center().toPoint());
    EXPECT_TRUE(send.contains(QStringLiteral("links 1->node 0 switch, node 0 switch->2")))
        << send.toStdString();
}

// Dies without events (unused or dead) take no room: the teaching example uses 4 of 16 dies.
TEST(TimelineView, DiesWithoutEventsHaveNoRow) {
    auto report = smallReport();
    report->dies.resize(4);
    report->dies[3].id = 3;
    report->dies[3].events = std::move(report->dies[2].events);
    report->dies[2].events.clear();
    ShownView shown(report);
    const GanttPlottable* gantt = shown.view.gantt();
    ASSERT_EQ(gantt->rowCount(), 3);
    EXPECT_EQ(gantt->dieOfRow(2), 3);
    EXPECT_EQ(gantt->rowOfDie(2), -1);
    EXPECT_TRUE(shown.view.eventRect(2, 0).isNull());
    // Die 3's idle bar sits in the last row, below die 1's, and is named as die 3's.
    const QRectF idle = shown.view.eventRect(3, 0);
    EXPECT_GT(idle.top(), shown.view.eventRect(1, 0).bottom());
    EXPECT_EQ(pixelAt(shown.image(), idle.center()), ganttColor(GanttColor::Idle));
    const QString tip = shown.view.toolTipAt(idle.center().toPoint());
    EXPECT_TRUE(tip.contains(QStringLiteral("die 3"))) << tip.toStdString();
}

TEST(TimelineView, TooltipOfAFoldedBarCountsItsEvents) {
    auto report = std::make_shared<SimulationReport>();
    report->makespanS = 1e-3;
    report->dies.resize(1);
    for (int i = 0; i < 1000; ++i)
        report->dies[0].events.push_back(
            event(Kind::Compute, i * 1e-6, i * 1e-6 + 1e-9, 0, "tiny"));
    ShownView shown(report);
    const QRectF first = shown.view.eventRect(0, 0);
    const QString text = shown.view.toolTipAt(
        QPoint(static_cast<int>(first.left()) + 3, static_cast<int>(first.center().y())));
    EXPECT_TRUE(text.contains(QStringLiteral("folded"))) << text.toStdString();
    EXPECT_EQ(pixelAt(shown.image(), first.center() + QPointF(3, 0)),
              ganttColor(GanttColor::Folded));
}

TEST(TimelineView, MarksRoundBoundariesAtEachRoundsEarliestStart) {
    ShownView shown(smallReport());
    const std::vector<std::pair<int, double>> expected{{0, 100e-6}, {1, 250e-6}, {2, 400e-6}};
    EXPECT_EQ(shown.view.gantt()->roundBoundaries(), expected);
}

TEST(TimelineView, KeepsZoomAndPanNearTheRun) {
    ShownView shown(smallReport());
    QCustomPlot* plot = shown.view.plot();
    plot->xAxis->setRange(-1.0, 1.0); // zoomed far out
    EXPECT_NEAR(plot->xAxis->range().lower, -0.05 * 500e-6, 1e-15);
    EXPECT_NEAR(plot->xAxis->range().upper, 1.05 * 500e-6, 1e-15);
    plot->xAxis->setRange(1e-3, 1.1e-3); // panned past the end
    EXPECT_NEAR(plot->xAxis->range().upper, 1.05 * 500e-6, 1e-15);
    EXPECT_NEAR(plot->xAxis->range().size(), 0.1e-3, 1e-15);
}

// The advisor's span: shaded over every row between its times, brought into view, named in the
// legend while shown; cleared, gone.
TEST(TimelineView, AShadedSpanCoversItsTimesAndIsNamed) {
    ShownView shown(smallReport());
    QCustomPlot* plot = shown.view.plot();
    plot->xAxis->setRange(0.0, 50e-6); // zoomed in before the span
    shown.view.setShadedSpan(
        TimelineView::ShadedSpan{250e-6, 350e-6, QStringLiteral("advisor: latency_spikes")});
    ASSERT_TRUE(shown.view.shadedSpan());
    EXPECT_LE(plot->xAxis->range().lower, 250e-6);
    EXPECT_GE(plot->xAxis->range().upper, 350e-6);
    QCPItemRect* rect = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPItemRect*>(plot->item(i)))
            rect = item;
    ASSERT_NE(rect, nullptr);
    EXPECT_TRUE(rect->visible());
    EXPECT_DOUBLE_EQ(rect->topLeft->coords().x(), 250e-6);
    EXPECT_DOUBLE_EQ(rect->bottomRight->coords().x(), 350e-6);
    EXPECT_DOUBLE_EQ(rect->topLeft->coords().y(), 0.0); // the whole axis rect's height
    EXPECT_DOUBLE_EQ(rect->bottomRight->coords().y(), 1.0);
    const auto named = [&] {
        for (const QLabel* label : shown.view.findChildren<QLabel*>())
            if (label->text() == "advisor: latency_spikes" && label->isVisible())
                return true;
        return false;
    };
    EXPECT_TRUE(named());
    shown.image();
    shown.view.setShadedSpan(std::nullopt);
    EXPECT_FALSE(rect->visible());
    EXPECT_FALSE(named());
}

TEST(TimelineView, ShowsNoEventsWhenEmpty) {
    auto report = std::make_shared<SimulationReport>();
    report->dies.resize(4);
    ShownView shown(report);
    EXPECT_EQ(shown.view.shownEventCount(), 0);
    auto* text = qobject_cast<QCPItemText*>(shown.view.plot()->item(0));
    ASSERT_NE(text, nullptr);
    EXPECT_TRUE(text->visible());
    EXPECT_EQ(text->text(), QStringLiteral("no events"));
    EXPECT_TRUE(shown.view.toolTipAt(QPoint(400, 100)).isEmpty());

    shown.view.setReport(nullptr);
    shown.image(); // replots without a report
    shown.view.setReport(smallReport());
    EXPECT_FALSE(text->visible());
}

} // namespace
} // namespace ws
