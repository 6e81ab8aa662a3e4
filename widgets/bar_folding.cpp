#include "bar_folding.h"

#include <algorithm>
#include <limits>

namespace ws {

BarRow makeBarRow(std::vector<BarEvent> events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const BarEvent& a, const BarEvent& b) { return a.startS < b.startS; });
    BarRow row;
    row.runningMaxEndS.reserve(events.size());
    double maxEndS = -std::numeric_limits<double>::infinity();
    for (const BarEvent& event : events) {
        maxEndS = std::max(maxEndS, event.endS);
        row.runningMaxEndS.push_back(maxEndS);
    }
    row.events = std::move(events);
    return row;
}

std::size_t firstEventReaching(const BarRow& row, double seconds) {
    const auto it = std::lower_bound(row.runningMaxEndS.begin(), row.runningMaxEndS.end(), seconds);
    return static_cast<std::size_t>(it - row.runningMaxEndS.begin());
}

void foldBars(const BarRow& row, const TimeAxisMapping& mapping, std::vector<FoldedBar>& out) {
    if (!mapping.isValid())
        return;
    const double minPx = mapping.leftPx;
    const double maxPx = mapping.leftPx + mapping.widthPx;
    // A run of narrow events not yet emitted; active when pending.count > 0.
    FoldedBar pending;
    pending.count = 0;
    const auto flush = [&] {
        if (pending.count == 0)
            return;
        pending.rightPx = std::max(pending.rightPx, pending.leftPx + 1.0);
        out.push_back(pending);
        pending.count = 0;
    };
    const std::size_t size = row.events.size();
    for (std::size_t i = firstEventReaching(row, mapping.startS); i < size; ++i) {
        const BarEvent& event = row.events[i];
        if (event.startS > mapping.endS)
            break; // sorted by start: nothing later is visible
        // Overlapping events may end before the range even after the binary search; an event
        // of zero duration at the range's start is still shown.
        if (event.endS < mapping.startS ||
            (event.endS == mapping.startS && event.startS < event.endS))
            continue;
        const double leftPx = std::max(mapping.toPixel(event.startS), minPx);
        const double rightPx = std::min(mapping.toPixel(event.endS), maxPx);
        const int index = static_cast<int>(i);
        if (rightPx - leftPx >= 1.0) {
            flush();
            out.push_back(FoldedBar{leftPx, rightPx, event.kind, index, 1});
        } else if (pending.count > 0 && leftPx < pending.rightPx + 1.0) {
            pending.rightPx = std::max(pending.rightPx, rightPx);
            ++pending.count;
        } else {
            flush();
            pending = FoldedBar{leftPx, rightPx, event.kind, index, 1};
        }
    }
    flush();
}

std::vector<FoldedBar> foldBars(const BarRow& row, const TimeAxisMapping& mapping) {
    std::vector<FoldedBar> bars;
    foldBars(row, mapping, bars);
    return bars;
}

} // namespace ws
