#pragma once

#include "report/simulation_report.h"
#include "topology/wafer_topology.h"

#include <QPoint>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

class QCustomPlot;
class QCPItemRect;
class QCPItemText;
class QCPRange;
class QLabel;
class QMouseEvent;
class QStackedWidget;
class QTabBar;

namespace ws {

class GanttPlottable;
class PipelineScheduleView;

// The timeline dock's widget: a Gantt chart of a SimulationReport with a row per die that has
// events ("die N"), compute, send, receive and idle in the legend's colours, bars narrower than
// a pixel folded, round boundaries dashed, a time axis in ns / us / ms. Drag pans and the wheel
// zooms, both horizontally only; a double click shows the whole run again. Hovering a bar shows its
// event (GEMM and sub-tensors, or flow, bytes and links crossed). Linked to the mesh: a click on a
// transfer emits flowActivated (the mesh highlights its path), and setLinkFilter keeps only the
// transfers of the flows that cross a link. Zoom and pan are navigation: nothing is undoable.
//
// A step with pipeline stages (StepMetrics::pp > 1) adds a tab bar over the chart: Pipeline,
// the whole step's 1F1B schedule by stage (pipeline_schedule_view.h), and Die events, the chart
// above. With one stage there is no tab bar and the view is the die chart alone.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    // A stretch of the run shaded over every row, with a legend entry: where the advisor's
    // selected finding shows (advisor_panel.h). A view state: nothing is undoable.
    struct ShadedSpan {
        double startS = 0.0;
        double endS = 0.0;
        QString caption; // the legend's words: "advisor: latency_spikes"
    };

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Shows `report` (nullptr: nothing), the whole run in view; keeps the link filter and drops
    // the highlighted flow. `topology`, the one the report was simulated on, names the links'
    // ends in tooltips ("3->node 0 switch" on a cluster); without it they are vertex ids.
    void setReport(std::shared_ptr<const SimulationReport> report,
                   std::shared_ptr<const WaferTopology> topology = nullptr);
    std::shared_ptr<const SimulationReport> report() const { return m_report; }
    // Shows only the send and receive events of the flows whose route crosses `link`, plus every
    // compute and idle event; nullopt shows every event.
    void setLinkFilter(std::optional<LinkId> link);
    std::optional<LinkId> linkFilter() const { return m_linkFilter; }
    // Draws the send and receive events of `flowId` outlined on top; "" for none.
    void highlightFlow(const QString& flowId);
    QString highlightedFlow() const;
    // Shades `span` (nullopt: none) and brings it into view when it lies outside; kept across
    // reports until cleared.
    void setShadedSpan(std::optional<ShadedSpan> span);
    const std::optional<ShadedSpan>& shadedSpan() const { return m_span; }

    QCustomPlot* plot() const { return m_plot; }
    GanttPlottable* gantt() const { return m_gantt; }
    PipelineScheduleView* pipeline() const { return m_pipeline; }
    // The Pipeline tab is offered (the report's step has pp > 1), and is the one shown.
    bool offersPipeline() const;
    bool showsPipeline() const;
    // Shows the Pipeline tab (when offered) or the die events. Selecting a flow, a link filter
    // or a shaded span shows the die events, where they are drawn.
    void showPipeline(bool pipeline);
    // Events drawn after the link filter (folded or not).
    int shownEventCount() const;
    // Where die `die`'s event `eventIndex` (in DieReport::events) is drawn, in plot pixels;
    // empty if there is no such event. Valid after a replot.
    QRectF eventRect(int die, int eventIndex) const;
    // The hover text for a point of the plot ("" over nothing), as the tooltip shows it.
    QString toolTipAt(const QPoint& plotPos) const;

signals:
    void flowActivated(const QString& flowId); // a send or receive bar was clicked
    void dieActivated(int die);                // a die's row was clicked elsewhere

private:
    void rebuild();
    void showWholeRun();
    void boundXRange(const QCPRange& range);
    void updateDieTicks();
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    QString eventText(int die, int eventIndex) const;
    QWidget* makeLegend();

    QTabBar* m_pages = nullptr; // Pipeline, Die events; hidden without pipeline stages
    QStackedWidget* m_stack = nullptr;
    PipelineScheduleView* m_pipeline = nullptr;
    QCustomPlot* m_plot = nullptr;
    GanttPlottable* m_gantt = nullptr;  // owned by m_plot
    QCPItemText* m_emptyText = nullptr; // "no events", owned by m_plot
    QCPItemRect* m_spanRect = nullptr;  // the shaded span, owned by m_plot
    QLabel* m_filterLabel = nullptr;
    QWidget* m_spanLegend = nullptr; // its swatch and caption, shown with it
    QLabel* m_spanCaption = nullptr;
    std::optional<ShadedSpan> m_span;
    std::shared_ptr<const SimulationReport> m_report;
    std::shared_ptr<const WaferTopology> m_topology;
    std::optional<LinkId> m_linkFilter;
    std::unordered_map<std::string, std::size_t> m_flowIndex; // flow id -> index in flows
    int m_dieTickStep = 0; // a "die N" label every this many rows (0: not yet set)
    QPoint m_pressPos;
    bool m_pressed = false;
};

} // namespace ws
