// How long the timeline takes to re-plot after a pan or a zoom: 48 dies, 100,000 events, a
// 1200 x 600 view. The target is one frame, 16 ms, in Release. Its own main: a QApplication
// (offscreen unless QT_QPA_PLATFORM says otherwise) must exist before any widget.
#include "timeline_view.h"

#include <qcustomplot.h>

#include <QApplication>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

namespace {

constexpr int kDies = 48;
constexpr int kEvents = 100'000;

// A synthetic run of about 20 ms: each die alternates compute (5 .. 25 us) with gaps, and sends
// and receives overlapping its compute, as TATP streams do. Seeded: every run draws the same.
std::shared_ptr<const ws::SimulationReport> syntheticReport() {
    auto report = std::make_shared<ws::SimulationReport>();
    report->scenarioName = "synthetic 48 dies, 100k events";
    report->dies.resize(kDies);
    std::mt19937 random(42);
    std::uniform_real_distribution<double> computeS(5e-6, 25e-6);
    std::uniform_real_distribution<double> transferS(2e-6, 20e-6);
    std::uniform_real_distribution<double> gapS(0.0, 3e-6);
    const int perDie = kEvents / kDies;
    int made = 0;
    for (int die = 0; die < kDies; ++die) {
        ws::DieReport& dieReport = report->dies[static_cast<std::size_t>(die)];
        dieReport.id = die;
        const int count = die == kDies - 1 ? kEvents - made : perDie;
        double t = 0.0;
        for (int i = 0; i < count; ++i) {
            ws::DieEvent event;
            const int slot = i % 3;
            event.round = i / 3 % 8;
            if (slot == 0) {
                event.kind = ws::DieEvent::Kind::Compute;
                event.startS = t;
                event.endS = t + computeS(random);
                event.label = "fwd qkv blk " + std::to_string(i / 3);
            } else {
                event.kind = slot == 1 ? ws::DieEvent::Kind::Send : ws::DieEvent::Kind::Recv;
                event.startS = t + gapS(random);
                event.endS = event.startS + transferS(random);
                event.label = "flow " + std::to_string(die) + "/" + std::to_string(i);
            }
            if (slot == 2)
                t += 30e-6 + gapS(random);
            dieReport.events.push_back(std::move(event));
        }
        made += count;
        std::sort(dieReport.events.begin(), dieReport.events.end(),
                  [](const ws::DieEvent& a, const ws::DieEvent& b) { return a.startS < b.startS; });
        report->makespanS = std::max(report->makespanS, dieReport.events.back().endS);
    }
    return report;
}

// Pan by 10 %, zoom in x2, pan back, zoom out x2 (about the centre), one per iteration, each
// followed by an immediate replot; `spanFraction` of the run is in view at the start.
void replotAfterPanOrZoom(benchmark::State& state, ws::TimelineView* view, double spanFraction) {
    QCustomPlot* plot = view->plot();
    const double runS = view->report()->makespanS;
    const double centre = 0.5 * runS;
    plot->xAxis->setRange(centre - 0.5 * spanFraction * runS, centre + 0.5 * spanFraction * runS);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    int step = 0;
    for (auto _ : state) {
        const QCPRange range = plot->xAxis->range();
        switch (step++ % 4) {
        case 0:
            plot->xAxis->setRange(range.lower + 0.1 * range.size(),
                                  range.upper + 0.1 * range.size());
            break;
        case 1:
            plot->xAxis->scaleRange(0.5, range.center());
            break;
        case 2:
            plot->xAxis->setRange(range.lower - 0.1 * range.size(),
                                  range.upper - 0.1 * range.size());
            break;
        default:
            plot->xAxis->scaleRange(2.0, range.center());
            break;
        }
        plot->replot(QCustomPlot::rpImmediateRefresh);
    }
    state.counters["events"] = view->shownEventCount();
}

} // namespace

int main(int argc, char** argv) {
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);

    ws::TimelineView view;
    view.resize(1200, 600);
    view.setReport(syntheticReport());
    view.show();
    QApplication::processEvents();

    benchmark::RegisterBenchmark("TimelineReplot/WholeRun", replotAfterPanOrZoom, &view, 1.0)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("TimelineReplot/Tenth", replotAfterPanOrZoom, &view, 0.1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("TimelineReplot/Hundredth", replotAfterPanOrZoom, &view, 0.01)
        ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
