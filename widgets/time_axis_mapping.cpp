#include "time_axis_mapping.h"

#include <cmath>
#include <cstdio>

namespace ws {

std::string formatTime(double seconds, double spanS) {
    const double span = std::abs(spanS);
    const char* unit = "s";
    double scale = 1.0;
    // The unit changes at twice its size, so that a span of 1 us reads "0 .. 1000 ns" rather
    // than "0 .. 1 us" with every label a fraction.
    if (span < 2e-6) {
        unit = "ns";
        scale = 1e9;
    } else if (span < 2e-3) {
        unit = "us";
        scale = 1e6;
    } else if (span < 2.0) {
        unit = "ms";
        scale = 1e3;
    }
    // The span in the chosen unit is in [2, 2000) (except below 2 ns or above 2000 s), so a
    // hundredth of it needs 2 decimals at most; finer digits would only show float noise.
    const double spanInUnit = span * scale;
    const int decimals = spanInUnit >= 100.0  ? 0
                         : spanInUnit >= 10.0 ? 1
                         : spanInUnit >= 1.0  ? 2
                                              : 3;
    double value = seconds * scale;
    const double rounding = std::pow(10.0, decimals);
    value = std::round(value * rounding) / rounding;
    if (value == 0.0)
        value = 0.0; // no "-0 us" from a tick a rounding error below zero
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text + " " + unit;
}

} // namespace ws
