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

// The difference map of compare mode: ColorBrewer's RdBu reversed, blue for a link carrying
// less than in the pinned result (-1), near-white for no change (0), red for more (+1).
// `signedFraction` is clamped to [-1, 1]; NaN counts as 0.
QColor differenceColor(double signedFraction);
// The difference in kLoadBuckets colours: bucket b covers signed fractions
// [-1 + 2b / kLoadBuckets, -1 + 2(b + 1) / kLoadBuckets).
int differenceBucket(double signedFraction);
QColor differenceBucketColor(int bucket);

} // namespace ws
