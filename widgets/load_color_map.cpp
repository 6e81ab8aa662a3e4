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
    fraction = std::min(fraction, 1.0);
    const double position = fraction * (kViridis.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, kViridis.size() - 1);
    const double t = position - static_cast<double>(lower);
    auto channel = [&](std::size_t c) {
        return static_cast<int>(std::lround(kViridis[lower][c] * (1 - t) + kViridis[upper][c] * t));
    };
    return QColor(channel(0), channel(1), channel(2));
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

} // namespace ws
