#pragma once

#include "scenario_analysis.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QTabWidget;

namespace ws {

// Live links of a report binned by the bytes they carried. Idle links (0 bytes) are counted
// apart from the bins, dead links not at all: idle + sum(counts) is the number of live links.
// Bin i holds loads in [i * binWidthBytes, (i + 1) * binWidthBytes); the busiest link lands in
// the last bin. The bin width is a "nice" number (1, 2, 2.5 or 5 x 10^k bytes).
struct LinkLoadHistogram {
    double binWidthBytes = 0.0;
    std::vector<int> counts;
    int idle = 0;
    int dead = 0;
};
// At most `maxBins` bins (about sqrt(busy links), at least 1 when a link is busy).
LinkLoadHistogram linkLoadHistogram(const SimulationReport& report, int maxBins = 24);

// Five charts of one analysis, one tab each:
//   0 "Link loads": a histogram of the bytes each live link carried, idle links as their own
//     grey bar;
//   1 "Memory per die": the memory model's terms stacked per die, with lines at the SRAM and
//     SRAM + HBM capacities; dies out of memory are outlined and tinted red;
//   2 "Utilisation per die": each live die's DieReport::utilization in % (compute time over
//     the makespan; for a training step, over the step time);
//   3 "HBM traffic per die": the bytes each die the strategy uses moves between HBM and SRAM
//     over the whole step (DieReport::hbmBytes, docs/compute-model.md);
//   4 "Step breakdown": the step's time on the average die used, as one bar cut into compute,
//     HBM stalls, task overhead, the optimizer update and exposed communication (StepMetrics:
//     the five add up to the step time).
// Each chart carries a title, unit-bearing axis labels and a legend for every colour, and
// exports to PNG, SVG or PDF by file extension.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    ~ChartsPanel() override;

    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    std::shared_ptr<const ScenarioAnalysis> analysis() const { return m_analysis; }

    int chartCount() const;
    QCustomPlot* chart(int index) const;
    QString chartName(int index) const;
    int currentChart() const;
    void setCurrentChart(int index);
    // Bytes per unit of the memory chart's value axis (1e9 when it reads GB).
    double memoryUnitBytes() const { return m_memoryUnitBytes; }

    // Writes chart `index` as .png, .svg or .pdf (by the path's extension, case-insensitive) at
    // the chart's on-screen size (900 x 300 if it has never been laid out). False with a
    // reason in `error` for an unknown extension or a file that cannot be written.
    bool exportChart(int index, const QString& path, QString* error = nullptr) const;

private:
    void rebuildLinkLoads();
    void rebuildMemory();
    void rebuildUtilization();
    void rebuildHbmTraffic();
    void rebuildStepBreakdown();

    std::shared_ptr<const ScenarioAnalysis> m_analysis;
    QTabWidget* m_tabs;
    QCustomPlot* m_linkLoads;
    QCustomPlot* m_memory;
    QCustomPlot* m_utilization;
    QCustomPlot* m_hbmTraffic;
    QCustomPlot* m_stepBreakdown;
    double m_memoryUnitBytes = 1e9;
};

} // namespace ws
