// Responsiveness of the desktop app (docs/gui.md): re-simulation and repaint after a drag, and
// painting a 32x32 wafer. Runs offscreen; painting goes into a QImage as the widget would.
#include "mesh_view.h"
#include "scenario_analysis.h"

#include "io/scenario_io.h"
#include "strategy/die_role_swap.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace ws {
namespace {

Scenario example(const std::string& name) {
    return loadScenario(std::string(WAFERSCOPE_SCENARIO_DIR) + "/" + name);
}

void paint(const MeshView& view, QImage& image) {
    QPainter painter(&image);
    view.render(painter, image.rect());
}

// A drag on the mesh: swap two dies' roles in core, re-simulate everything the views show
// (analyseScenario, as EvaluationRunner does off the GUI thread), then repaint the mesh.
void BM_DragResimulateRepaint(benchmark::State& state, const std::string& file, DieId a, DieId b) {
    const Scenario original = example(file);
    const WaferTopology topology(original.topologySpec());
    const Scenario swapped = swapDieRoles(original, topology, a, b);
    MeshView view;
    view.resize(1000, 700);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    bool flip = false;
    for (auto _ : state) {
        flip = !flip; // alternate, so every iteration really changes the scenario
        view.setAnalysis(analyseScenario(flip ? swapped : original));
        paint(view, image);
        benchmark::DoNotOptimize(image.constBits());
    }
}
BENCHMARK_CAPTURE(BM_DragResimulateRepaint, teaching_4x4,
                  std::string("contention_fsdp_tatp_4x4.json"), 1, 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DragResimulateRepaint, gpt3_layer_traffic_6x8,
                  std::string("gpt3_175b_layer_traffic_6x8.json"), 0, 9)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DragResimulateRepaint, gpt3_step_6x8,
                  std::string("gpt3_175b_6x8_fsdp_tatp.json"), 0, 9)
    ->Unit(benchmark::kMillisecond);

// A 32x32 wafer whose every die sends to its transpose: most links carry traffic, so every
// colour bucket is in use.
std::shared_ptr<const ScenarioAnalysis> transpose32() {
    Scenario scenario;
    scenario.wafer.rows = 32;
    scenario.wafer.cols = 32;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c)
            if (r != c) {
                TrafficOp op;
                op.id = "t" + std::to_string(r * 32 + c);
                op.src = r * 32 + c;
                op.dst = c * 32 + r;
                op.bytes = Quantity{1e6 * (1 + (r + c) % 7), "1 MB"};
                scenario.traffic.push_back(op);
            }
    return analyseScenario(scenario);
}

void BM_PaintMesh32x32(benchmark::State& state) {
    const auto analysis = transpose32();
    MeshView view;
    view.resize(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    view.setAnalysis(analysis);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        paint(view, image);
        benchmark::DoNotOptimize(image.constBits());
    }
}
// The default window's mesh area, and a 4K-sized one.
BENCHMARK(BM_PaintMesh32x32)->Args({1000, 700})->Args({3200, 2000})->Unit(benchmark::kMillisecond);

// Compare mode's difference heatmap on 32x32: the transpose against itself with every byte
// halved, so that every link's colour is a difference (docs/gui.md, Compare).
void BM_PaintMesh32x32Difference(benchmark::State& state) {
    const auto analysis = transpose32();
    auto pinned = std::make_shared<ScenarioAnalysis>(*analysis);
    for (LinkReport& link : pinned->report.links)
        link.bytes *= 2;
    MeshView view;
    view.resize(1000, 700);
    view.setAnalysis(analysis);
    view.setLinkDifference(MeshView::LinkDifference{pinned, QStringLiteral("now − pinned")});
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        paint(view, image);
        benchmark::DoNotOptimize(image.constBits());
    }
}
BENCHMARK(BM_PaintMesh32x32Difference)->Unit(benchmark::kMillisecond);

void BM_PaintMesh32x32Zoomed(benchmark::State& state) {
    const auto analysis = transpose32();
    MeshView view;
    view.resize(1000, 700);
    view.setAnalysis(analysis);
    view.zoomBy(6.0, QPointF(400, 350)); // labels and arrows on, most tiles culled
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        paint(view, image);
        benchmark::DoNotOptimize(image.constBits());
    }
}
BENCHMARK(BM_PaintMesh32x32Zoomed)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace ws

int main(int argc, char** argv) {
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
