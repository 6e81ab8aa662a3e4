#include "load_color_map.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>

namespace ws {

namespace {

// Viridis (matplotlib, van der Walt & Smith) sampled at 9 evenly spaced points; linear
// interpolation between them stays within a few units of the full 256-entry table.
constexpr std::array<std::array<int, 3>, 9> kViridis{{{68, 1, 84},
                                                      {71, 44, 122},
                                                      {59, 81, 139},
                                                      {44, 113, 142},
                                                      {33, 144, 141},
                                                      {39, 173, 129},
                                                      {92, 200, 99},
                                                      {170, 220, 50},
                                                      {253, 231, 37}}};

// ColorBrewer RdBu (11 classes), from blue to red, sampled at -1, -0.8, ..., 1.
constexpr std::array<std::array<int, 3>, 11> kRdBu = {{{5, 48, 97},
                                                       {33, 102, 172},
                                                       {67, 147, 195},
                                                       {146, 197, 222},
                                                       {209, 229, 240},
                                                       {247, 247, 247},
                                                       {253, 219, 199},
                                                       {244, 165, 130},
                                                       {214, 96, 77},
                                                       {178, 24, 43},
                                                       {103, 0, 31}}};

// The colour at `unit` in [0, 1] along evenly spaced stops, interpolated linearly.
template <std::size_t N>
QColor interpolate(const std::array<std::array<int, 3>, N>& stops, double unit) {
    const double position = unit * (N - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, N - 1);
    const double t = position - static_cast<double>(lower);
    auto channel = [&](std::size_t c) {
        return static_cast<int>(std::lround(stops[lower][c] * (1 - t) + stops[upper][c] * t));
    };
    return QColor(channel(0), channel(1), channel(2));
}

} // namespace

QString toDisplayString(LinkMetric metric) {
    switch (metric) {
    case LinkMetric::Bytes:
        return QCoreApplication::translate("ws", "Bytes");
    case LinkMetric::Utilization:
        return QCoreApplication::translate("ws", "Utilisation");
    case LinkMetric::Conflicts:
        return QCoreApplication::translate("ws", "Flows sharing");
    }
    return {};
}

QColor loadColor(double fraction) {
    if (!(fraction > 0)) // also NaN
        fraction = 0;
    return interpolate(kViridis, std::min(fraction, 1.0));
}

QColor idleLinkColor() {
    return QColor(222, 222, 222);
}

int loadBucket(double fraction) {
    if (!(fraction > 0))
        return 0;
    return std::min(kLoadBuckets - 1, static_cast<int>(fraction * kLoadBuckets));
}

QColor bucketColor(int bucket) {
    return loadColor((bucket + 0.5) / kLoadBuckets);
}

QColor differenceColor(double signedFraction) {
    if (std::isnan(signedFraction))
        signedFraction = 0;
    return interpolate(kRdBu, (std::clamp(signedFraction, -1.0, 1.0) + 1) / 2);
}

int differenceBucket(double signedFraction) {
    if (std::isnan(signedFraction))
        signedFraction = 0;
    const double unit = (std::clamp(signedFraction, -1.0, 1.0) + 1) / 2;
    return std::min(kLoadBuckets - 1, static_cast<int>(unit * kLoadBuckets));
}

QColor differenceBucketColor(int bucket) {
    return differenceColor(-1 + 2 * (bucket + 0.5) / kLoadBuckets);
}

} // namespace ws
