#pragma once

#include <QColor>
#include <QString>

namespace ws {

// What the mesh view's link colours show.
enum class LinkMetric {
    Bytes,       // bytes carried in the simulated window
    Utilization, // bytes / (bandwidth * makespan)
    Conflicts    // flows whose route crosses the link
};

QString toDisplayString(LinkMetric metric); // "Bytes", "Utilisation", "Flows sharing"

// The load-to-colour map of the heatmap: viridis (perceptually uniform, readable in grey and
// by most colour-blind readers), from dark purple at 0 to yellow at 1. `fraction` is clamped to
// [0, 1]; NaN counts as 0. Pure: the legend and the tests call the same function.
QColor loadColor(double fraction);

// Links that carry nothing are drawn in this neutral grey rather than as the map's 0, so that
// "idle" and "lightly loaded" differ at a glance.
QColor idleLinkColor();

// The colour bucket of a fraction: the mesh view draws links in kLoadBuckets colours, one
// drawRects call per bucket. bucketColor(loadBucket(f)) is loadColor of the bucket's middle.
constexpr int kLoadBuckets = 32;
int loadBucket(double fraction);
QColor bucketColor(int bucket);

} // namespace ws
