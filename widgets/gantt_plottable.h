#pragma once

// A QCPAbstractPlottable subclass needs the base's definition: this header is included only by
// the .cpp files that already draw with QCustomPlot (timeline_view.cpp and its test), so it adds
// no compile cost elsewhere. Never include it from another header.
#include <qcustomplot.h>

#include "bar_folding.h"
#include "report/simulation_report.h"

#include <QColor>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ws {

// Every colour of the timeline, from one place: the chart and its legend both ask ganttColor.
// Compute events are coloured by the term of the roofline that decided their time
// (docs/compute-model.md): compute, waiting for HBM, or the fixed task overhead.
enum class GanttColor {
    Compute,
    Send,
    Recv,
    Idle,
    Folded,
    MemoryBound,
    OverheadBound,
    Highlight,
    RoundBoundary,
    RowShade
};
QColor ganttColor(GanttColor role);
GanttColor ganttColorOf(const DieEvent& event);
QString ganttColorName(GanttColor role); // the legend's words: "compute", "receive", "folded"...

// A die's row is split in lanes so that a die's concurrent events stay visible: its compute and
// idle time (which never overlap) on top, its sends, then its receives, each thinner.
enum class GanttLane { ComputeIdle = 0, Send = 1, Recv = 2 };
inline constexpr int kGanttLaneCount = 3;
GanttLane ganttLaneOf(DieEvent::Kind kind);

// Draws a SimulationReport's die events as a Gantt chart: keys are seconds, row r is centred
// on value r (the value axis is meant to be reversed, row 0 on top). There is a row for every
// die with events, by die id (dies without any, unused or dead, take no room); for a report
// without events, a row for every die. Each replot draws
// only the visible bars, folds runs of bars narrower than a pixel (foldBars), and issues one
// drawRects per colour. Round boundaries (the earliest start of each round's events, rounds
// >= 0) are dashed vertical lines; the events of a highlighted flow are drawn on top, outlined.
class GanttPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);
    ~GanttPlottable() override;

    // Rebuilds the rows. `visibleFlows`: nullopt shows every event; otherwise a send or receive
    // event is shown only if its label (the flow id) is in the set. Compute and idle always are.
    void
    setReport(std::shared_ptr<const SimulationReport> report,
              const std::optional<std::unordered_set<std::string>>& visibleFlows = std::nullopt);
    const std::shared_ptr<const SimulationReport>& report() const { return m_report; }
    // The send and receive events labelled `flowId` are drawn outlined on top; "" for none.
    void setHighlightedFlow(const std::string& flowId);
    const std::string& highlightedFlow() const { return m_highlightedFlow; }

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    int dieOfRow(int row) const { return m_rowDie.at(static_cast<std::size_t>(row)); }
    int rowOfDie(int die) const;                              // -1 when the die has no row
    int shownEventCount() const { return m_shownEventCount; } // after the flow filter
    // (round, earliest start in seconds), by round.
    const std::vector<std::pair<int, double>>& roundBoundaries() const { return m_roundStarts; }
    // The lane's extent in value coordinates (row r spans r - 0.45 .. r + 0.45).
    static QCPRange laneRange(int row, GanttLane lane);

    // Round labels ("r3") are drawn in a band this many pixels high just above the axis rect:
    // the view reserves it as the axis rect's top margin, so labels never cover die 0's bars.
    int roundLabelBandPx() const;

    // What is under a pixel of the plot: the die's row (-1: none), the event of DieReport::events
    // (-1: none, or a folded bar, then foldedCount > 1).
    struct Hit {
        int die = -1;
        int eventIndex = -1;
        int foldedCount = 0;
    };
    Hit hitTest(const QPointF& pixel) const;
    // The pixel rectangle where an event is drawn, before widening and clipping (tests, tooltips).
    QRectF eventRect(int die, int eventIndex) const;

    // QCPAbstractPlottable. selectTest returns -1: the view does its own hit testing, and mouse
    // presses must reach the axis rect so that dragging on bars pans.
    double selectTest(const QPointF& pos, bool onlySelectable,
                      QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange,
                         QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    QRect clipRect() const override; // the axis rect plus the round-label band above it
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    struct DieRow {
        std::array<BarRow, kGanttLaneCount> lanes;
    };
    TimeAxisMapping mapping() const;
    // The lane's top pixel and its height in pixels (>= 1).
    std::pair<int, int> lanePixels(int row, GanttLane lane) const;
    void collectHighlighted();
    void drawRoundBoundaries(QCPPainter* painter) const;
    QFont roundLabelFont() const;

    std::shared_ptr<const SimulationReport> m_report;
    std::vector<DieRow> m_rows; // by row
    std::vector<int> m_rowDie;  // row -> DieId
    int m_shownEventCount = 0;
    double m_endS = 0.0; // the latest event end (or the makespan)
    std::vector<std::pair<int, double>> m_roundStarts;
    std::optional<std::unordered_set<std::string>> m_visibleFlows;
    std::string m_highlightedFlow;
    std::vector<std::pair<int, int>> m_highlighted; // (die, index in DieReport::events)
    // Buffers reused by every draw() so that a replot allocates nothing once warmed up.
    std::vector<FoldedBar> m_bars;
    // Compute, Send, Recv, Idle, Folded, MemoryBound, OverheadBound.
    std::array<QVector<QRect>, 7> m_rectsByColour;
};

} // namespace ws
