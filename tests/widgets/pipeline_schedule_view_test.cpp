// The timeline's Pipeline tab: a 1F1B schedule of pipeline stages drawn as a row per stage and a
// bar per pass (pixels of a grab, the legend, the caption, tooltips), and when the timeline
// offers it.
#include "pipeline_schedule_view.h"
#include "timeline_view.h"
#include "widget_test_support.h"

#include "step/pipeline_schedule.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTabBar>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

namespace ws {
namespace {

constexpr int kStages = 4;
constexpr int kMicroBatches = 8;

// core's 1F1B schedule of 4 equal stages over 8 micro-batches: forward 1 ms, backward 2 ms, 0.1
// ms to cross a stage boundary either way, in a report of a step with pp 4.
std::shared_ptr<SimulationReport> pipelinedReport(PipelineSchedule* scheduleOut = nullptr) {
    PipelineTimes times;
    times.stages = kStages;
    times.microBatches = kMicroBatches;
    times.forwardS.assign(kStages, std::vector<double>(kMicroBatches, 1e-3));
    times.backwardS.assign(kStages, std::vector<double>(kMicroBatches, 2e-3));
    times.forwardSendS = 0.1e-3;
    times.backwardSendS = 0.1e-3;
    const PipelineSchedule schedule = schedule1F1B(times);
    if (scheduleOut)
        *scheduleOut = schedule;
    auto report = std::make_shared<SimulationReport>();
    report->scenarioName = "pipelined";
    report->makespanS = 1e-3;
    report->dies.resize(4);
    StepMetrics step;
    step.pp = kStages;
    step.ppBubbleFraction = schedule.bubbleFraction;
    step.pipeline = schedule.passes;
    report->step = step;
    return report;
}

struct ShownTimeline {
    explicit ShownTimeline(std::shared_ptr<const SimulationReport> report) {
        view.resize(1000, 400);
        view.setReport(std::move(report));
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    }
    QCustomPlot* plot() { return view.pipeline()->plot(); }
    QImage image() {
        plot()->replot(QCustomPlot::rpImmediateRefresh);
        return plot()->grab().toImage();
    }
    TimelineView view;
};

// Pixels of `colour` in `rect` of `image`.
int firstPassOf(const std::vector<PipelinePass>& passes, int stage) {
    for (std::size_t i = 0; i < passes.size(); ++i)
        if (passes[i].stage == stage)
            return static_cast<int>(i);
    return -1;
}

int lastPassOf(const std::vector<PipelinePass>& passes, int stage) {
    int last = -1;
    for (std::size_t i = 0; i < passes.size(); ++i)
        if (passes[i].stage == stage &&
            (last < 0 || passes[i].endS > passes[static_cast<std::size_t>(last)].endS))
            last = static_cast<int>(i);
    return last;
}

TEST(PipelineScheduleView, ARowPerStageAndABarPerPassCaptionedWithTheBubble) {
    PipelineSchedule schedule;
    ShownTimeline shown(pipelinedReport(&schedule));
    ASSERT_TRUE(shown.view.offersPipeline());
    EXPECT_TRUE(shown.view.showsPipeline()); // the schedule first when the tabs appear
    const PipelineScheduleView& pipeline = *shown.view.pipeline();
    EXPECT_EQ(pipeline.stageCount(), kStages);
    EXPECT_EQ(pipeline.microBatchCount(), kMicroBatches);
    EXPECT_EQ(pipeline.forwardBarCount(), kStages * kMicroBatches);
    EXPECT_EQ(pipeline.backwardBarCount(), kStages * kMicroBatches);
    EXPECT_EQ(pipeline.forwardBarCount() + pipeline.backwardBarCount(),
              2 * kStages * kMicroBatches);

    // "stage 0" on top down to "stage 3".
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(shown.plot()->yAxis->ticker());
    ASSERT_EQ(ticker->ticks().size(), kStages);
    for (int stage = 0; stage < kStages; ++stage)
        EXPECT_EQ(ticker->ticks().value(stage), QStringLiteral("stage %1").arg(stage));
    EXPECT_TRUE(shown.plot()->yAxis->rangeReversed());

    const QString bubble = QString::number(schedule.bubbleFraction * 100.0, 'f', 1);
    EXPECT_EQ(pipeline.caption(),
              QStringLiteral("pp 4, 1F1B over 8 micro-batches, bubble %1%").arg(bubble));
    auto* caption = pipeline.findChild<QLabel*>("pipelineCaption");
    ASSERT_TRUE(caption);
    EXPECT_TRUE(caption->text().startsWith(pipeline.caption()));
    // (p - 1) / (m + p - 1) of the schedule without sends; the sends only add to it.
    EXPECT_GT(schedule.bubbleFraction, 3.0 / 11.0 - 1e-9);

    // A legend entry for every colour: forward, backward, idle.
    const QStringList names = pipeline.legendNames();
    EXPECT_EQ(names, (QStringList{"forward", "backward", "idle: warm-up, drain, bubble"}));
}

// Each pass is drawn in its colour where its times are, and a stage's warm-up and drain are
// hatched: blue, orange and the grey hatch each where they belong and nowhere else.
TEST(PipelineScheduleView, PassesInTheirColoursAndIdleTimeHatched) {
    ShownTimeline shown(pipelinedReport());
    const QImage image = shown.image();
    const PipelineScheduleView& pipeline = *shown.view.pipeline();
    const std::vector<PipelinePass>& passes = shown.view.report()->step->pipeline;
    const QRect axisRect = shown.plot()->axisRect()->rect();
    int forward = 0;
    int backward = 0;
    for (std::size_t i = 0; i < passes.size(); ++i) {
        const QRectF box = pipeline.passRect(static_cast<int>(i));
        ASSERT_GT(box.width(), 10.0) << i; // 1 ms at about 25 px/ms
        ASSERT_TRUE(axisRect.contains(box.center().toPoint())) << i;
        // Inside the bar's 1 px edge, clear of its centred micro-batch number.
        const QColor inside = image.pixelColor((box.topLeft() + QPointF(3, 3)).toPoint());
        if (passes[i].forward) {
            EXPECT_EQ(inside, PipelineScheduleView::forwardColor()) << i;
            ++forward;
        } else {
            EXPECT_EQ(inside, PipelineScheduleView::backwardColor()) << i;
            ++backward;
        }
    }
    EXPECT_EQ(forward, kStages * kMicroBatches);
    EXPECT_EQ(backward, kStages * kMicroBatches);

    // The last stage waits for its first micro-batch (warm-up) and the first stage's last
    // backwards (drain): hatched there, no pass colour.
    const int last = kStages - 1;
    const QRectF first = pipeline.passRect(firstPassOf(passes, last));
    const QRectF lastBar = pipeline.passRect(lastPassOf(passes, last));
    ASSERT_GT(first.left() - axisRect.left(), 40.0); // 3 forwards and sends: about 80 px
    ASSERT_GT(axisRect.right() - lastBar.right(), 40.0);
    const int top = static_cast<int>(first.center().y() - first.height() / 4);
    const int bottom = static_cast<int>(first.center().y() + first.height() / 4);
    for (const QRect idle : {QRect(QPoint(axisRect.left() + 3, top),
                                   QPoint(static_cast<int>(first.left()) - 3, bottom)),
                             QRect(QPoint(static_cast<int>(lastBar.right()) + 3, top),
                                   QPoint(axisRect.right() - 3, bottom))}) {
        const int hatch = pixelsOf(image, idle, PipelineScheduleView::idleHatchColor());
        EXPECT_GT(hatch, idle.width() * idle.height() / 20); // diagonal lines...
        EXPECT_LT(hatch, idle.width() * idle.height() / 2);  // ...with space between them
        EXPECT_EQ(pixelsOf(image, idle, PipelineScheduleView::forwardColor()), 0);
        EXPECT_EQ(pixelsOf(image, idle, PipelineScheduleView::backwardColor()), 0);
    }
}

TEST(PipelineScheduleView, NumbersTheBarsWideEnoughAndNamesAPassOnHover) {
    ShownTimeline shown(pipelinedReport());
    shown.image();
    const PipelineScheduleView& pipeline = *shown.view.pipeline();
    // About 25 px a forward, 50 px a backward: every pass has room for its number.
    EXPECT_EQ(pipeline.shownLabelCount(), 2 * kStages * kMicroBatches);
    const std::vector<PipelinePass>& passes = shown.view.report()->step->pipeline;
    int drawn = 0;
    for (int i = 0; i < shown.plot()->itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(shown.plot()->item(i));
            label && label->visible())
            ++drawn;
    EXPECT_EQ(drawn, 2 * kStages * kMicroBatches);

    const int index = lastPassOf(passes, 2);
    const PipelinePass& pass = passes[static_cast<std::size_t>(index)];
    ASSERT_FALSE(pass.forward);
    EXPECT_TRUE(pipeline.toolTipAt(pipeline.passRect(index).center().toPoint())
                    .startsWith(QStringLiteral("stage 2: backward of micro-batch %1\nstart ")
                                    .arg(pass.microBatch)));

    // Zoomed out 20 times, no number fits and none is drawn.
    shown.plot()->xAxis->setRange(0.0, 20 * shown.plot()->xAxis->range().upper);
    shown.image();
    EXPECT_EQ(pipeline.shownLabelCount(), 0);
}

TEST(PipelineScheduleView, TheTimelineOffersItOnlyWithPipelineStages) {
    auto single = std::make_shared<SimulationReport>(*pipelinedReport());
    single->step->pp = 1;
    single->step->pipeline.clear();
    ShownTimeline shown(single);
    EXPECT_FALSE(shown.view.offersPipeline());
    EXPECT_FALSE(shown.view.showsPipeline());
    auto* tabs = shown.view.findChild<QTabBar*>("timelinePages");
    ASSERT_TRUE(tabs);
    EXPECT_FALSE(tabs->isVisible());
    shown.view.showPipeline(true); // not offered: stays on the die events
    EXPECT_FALSE(shown.view.showsPipeline());

    shown.view.setReport(pipelinedReport());
    EXPECT_TRUE(tabs->isVisible());
    EXPECT_TRUE(shown.view.showsPipeline());
    tabs->setCurrentIndex(1); // the user picks Die events: kept for the next pipelined report
    EXPECT_FALSE(shown.view.showsPipeline());
    shown.view.setReport(pipelinedReport());
    EXPECT_FALSE(shown.view.showsPipeline());
    tabs->setCurrentIndex(0);
    EXPECT_TRUE(shown.view.showsPipeline());
    shown.view.highlightFlow(QStringLiteral("f0")); // a flow is drawn on the die events
    EXPECT_FALSE(shown.view.showsPipeline());
    EXPECT_EQ(tabs->currentIndex(), 1);

    shown.view.setReport(single);
    EXPECT_FALSE(tabs->isVisible());
}

// A pipelined scenario simulated end to end: the timeline's rows and bars are its stages and
// its 2 x pp x m passes.
TEST(PipelineScheduleView, ShowsASimulatedPipelinedStep) {
    const auto analysis = analyseScenario(test::smallPipelineScenario());
    ASSERT_TRUE(analysis->report.step);
    ASSERT_EQ(analysis->report.step->pp, 2);
    ShownTimeline shown(std::shared_ptr<const SimulationReport>(analysis, &analysis->report));
    const PipelineScheduleView& pipeline = *shown.view.pipeline();
    EXPECT_TRUE(shown.view.showsPipeline());
    EXPECT_EQ(pipeline.stageCount(), 2);
    EXPECT_EQ(pipeline.microBatchCount(), 4);
    EXPECT_EQ(pipeline.forwardBarCount(), 2 * 4);
    EXPECT_EQ(pipeline.backwardBarCount(), 2 * 4);
    EXPECT_TRUE(pipeline.caption().startsWith(QStringLiteral("pp 2, 1F1B over 4 micro-batches")));

    // The micro-batch trade-off, in this step's figures: its five terms (they add up to the
    // step, docs/training-model.md) and the bubble's closed form, (2 - 1) / (4 + 2 - 1) = 1/5.
    const StepMetrics& step = *analysis->report.step;
    EXPECT_NEAR(step.computeS + step.hbmStallS + step.overheadS + step.optimizerS + step.exposedS,
                step.stepS, 1e-9 * step.stepS);
    const auto percent = [&step](double seconds) {
        return QString::number(seconds / step.stepS * 100.0, 'f', 1) + "%";
    };
    const QString text = pipeline.tradeOffText();
    EXPECT_TRUE(text.contains("compute " + percent(step.computeS))) << text.toStdString();
    EXPECT_TRUE(text.contains("HBM stalls " + percent(step.hbmStallS))) << text.toStdString();
    EXPECT_TRUE(text.contains("(p − 1) / (m + p − 1) = 1/5 = 20.0%")) << text.toStdString();
    EXPECT_TRUE(text.contains(QString("simulated %1%").arg(step.ppBubbleFraction * 100, 0, 'f', 1)))
        << text.toStdString();
    auto* label = pipeline.findChild<QLabel*>("pipelineTradeOff");
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->toolTip(), text);
    EXPECT_TRUE(label->text().startsWith("Step: compute " + percent(step.computeS) +
                                         " · HBM stalls " + percent(step.hbmStallS)))
        << label->text().toStdString();
    EXPECT_TRUE(label->text().contains("Ideal bubble 1/5 = 20.0%")) << label->text().toStdString();
}

} // namespace
} // namespace ws
