#pragma once

#include "report/simulation_report.h"
#include "time_axis_mapping.h"

#include <cstddef>
#include <vector>

namespace ws {

// One event as the Gantt chart needs it: its time span (seconds), its kind, and its index in the
// die's DieReport::events (to find the label for a tooltip or a click).
struct BarEvent {
    double startS = 0.0;
    double endS = 0.0;
    DieEvent::Kind kind = DieEvent::Kind::Compute;
    int index = 0;
};

// One lane of a die's row. Invariants: `events` is sorted by startS, and runningMaxEndS[i] is the
// largest endS of events[0..i], so it is non-decreasing even when events overlap (a die sends two
// flows at once): the first event that can reach a time t is found by binary search on it.
struct BarRow {
    std::vector<BarEvent> events;
    std::vector<double> runningMaxEndS;
};

// Sorts `events` by start (stable, so equal starts keep their order) and fills runningMaxEndS.
BarRow makeBarRow(std::vector<BarEvent> events);

// The index of the first event of `row` whose end reaches `seconds` (events.size() if none):
// every event before it ends before `seconds`. O(log n).
std::size_t firstEventReaching(const BarRow& row, double seconds);

// A rectangle to draw, in pixels, at least one pixel wide. `count` > 1 means the bar stands
// for several consecutive events each narrower than a pixel (a folded bar, drawn in a neutral
// colour); a single event narrower than a pixel is widened to one pixel.
struct FoldedBar {
    double leftPx = 0.0;
    double rightPx = 0.0;                          // rightPx - leftPx >= 1
    DieEvent::Kind kind = DieEvent::Kind::Compute; // of the first event
    int first = 0;                                 // index in BarRow::events of the first event
    int count = 1;

    bool isFolded() const { return count > 1; }
};

// Appends to `out` the bars of the events of `row` that overlap the visible range of `mapping`,
// clipped to its pixels [leftPx, leftPx + widthPx]. Events wider than a pixel give one bar each;
// a run of consecutive narrower events, each starting less than a pixel after the run's right
// end, gives one bar. Cost: O(log n + events visible), whatever the zoom.
//
// Worked example: 1000 events of 1 ns every 1 us, seen over 1 ms on 500 px (2 us a pixel), fold
// into one bar from the first event's pixel to the last one's.
void foldBars(const BarRow& row, const TimeAxisMapping& mapping, std::vector<FoldedBar>& out);
std::vector<FoldedBar> foldBars(const BarRow& row, const TimeAxisMapping& mapping);

} // namespace ws
