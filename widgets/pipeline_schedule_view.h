#pragma once

#include "report/simulation_report.h"

#include <QColor>
#include <QPoint>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPBars;
class QCPFinancial;
class QCPItemText;
class QLabel;

namespace ws {

// The timeline's Pipeline tab (timeline_view.h): the 1F1B schedule of a step with pipeline
// stages (StepMetrics::pipeline), over the whole step. A row per stage ("stage 0" on top), a bar
// per pass, forwards and backwards in two colours, the micro-batch number drawn in a bar wide
// enough for it; each row's idle time (warm-up, drain, bubble) is hatched, every colour is in
// the legend beside the axes, and the caption reads "pp 4, 1F1B over 16 micro-batches, bubble
// 15.8%". Drag pans and the wheel zooms, horizontally; a double click shows the whole schedule.
//
// The bars are QCustomPlot's own financial plottable (a box from open to close at each key, here
// from a pass's start to its end at its stage), so nothing is drawn by hand: GanttPlottable's
// rows, lanes and colours are a die's events (compute, send, receive), not passes.
class PipelineScheduleView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineScheduleView(QWidget* parent = nullptr);
    ~PipelineScheduleView() override;

    // Shows the report's schedule (none: nullptr, no step, or one stage), all of it in view.
    void setReport(std::shared_ptr<const SimulationReport> report);
    // The report has a schedule to show: a step with pp > 1.
    static bool hasSchedule(const SimulationReport* report);

    QCustomPlot* plot() const { return m_plot; }
    QString caption() const; // "pp 4, 1F1B over 16 micro-batches, bubble 15.8%"; "" for none
    // The micro-batch trade-off in this step's own figures (docs/gui.md "Pipeline stages"):
    // where the step's time goes, the bubble's closed form beside the simulated one, and why
    // more micro-batches can slow a step whose bubble they shrink; "" for none.
    QString tradeOffText() const;
    // Its one line under the caption (the whole text is that line's tooltip).
    QString tradeOffSummary() const;
    int stageCount() const { return m_stages; }
    int microBatchCount() const { return m_microBatches; }
    int forwardBarCount() const;
    int backwardBarCount() const;
    // The legend's entries, top to bottom: "forward", "backward", "idle: ...".
    QStringList legendNames() const;
    // Micro-batch numbers drawn, as of the last replot (those whose bar is wide enough).
    int shownLabelCount() const;
    // Where pass `index` of StepMetrics::pipeline is drawn, in plot pixels; empty if none.
    QRectF passRect(int index) const;
    // The hover text for a point of the plot ("" over no pass), as the tooltip shows it.
    QString toolTipAt(const QPoint& plotPos) const;

    static QColor forwardColor();
    static QColor backwardColor();
    static QColor idleHatchColor();

private:
    // The step's five terms as shares of it: compute, HBM stalls, overheads, optimizer,
    // communication and waiting ("53.1%").
    QStringList stepShares() const;
    QString idealBubbleText() const; // (p - 1) / (m + p - 1): "3/19 = 15.8%"

    void rebuild();
    void showWholeSchedule();
    void updateLabels(); // on each replot: numbers in the bars wide enough for them
    int passAt(const QPoint& plotPos) const;
    const std::vector<PipelinePass>& passes() const;

    QLabel* m_caption = nullptr;
    QLabel* m_tradeOff = nullptr; // tradeOffText(), under the caption
    QCustomPlot* m_plot = nullptr;
    QCPBars* m_idle = nullptr;          // a hatched bar under each row: idle where no pass is
    QCPFinancial* m_forward = nullptr;  // owned by m_plot
    QCPFinancial* m_backward = nullptr; // owned by m_plot
    std::vector<QCPItemText*> m_labels; // a pool, grown up to kMaxLabels, owned by m_plot
    std::shared_ptr<const SimulationReport> m_report;
    int m_stages = 0;
    int m_microBatches = 0;
    double m_endS = 0.0; // the last pass's end
    int m_shownLabels = 0;
};

} // namespace ws
