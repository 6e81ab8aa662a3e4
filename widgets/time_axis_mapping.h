#pragma once

#include <string>

namespace ws {

// The linear map between simulated time and horizontal pixels of the timeline: the visible
// time range [startS, endS] (seconds) spans the pixels [leftPx, leftPx + widthPx). It is the
// same map QCPAxis::coordToPixel applies to a horizontal, linear, non-reversed axis, kept here
// as a plain value so that it can be tested exactly and used by the bar folding.
//
// Worked example: {startS = 1e-3, endS = 2e-3, leftPx = 50, widthPx = 500} puts 1.5 ms at
// 300 px, and one pixel is 2 us.
struct TimeAxisMapping {
    double startS = 0.0;
    double endS = 1.0;
    double leftPx = 0.0;
    double widthPx = 1.0;

    // False when the range or the width is empty (or NaN): nothing can be drawn then.
    bool isValid() const { return endS > startS && widthPx > 0.0; }
    double spanS() const { return endS - startS; }
    double pixelsPerSecond() const { return widthPx / (endS - startS); }
    double secondsPerPixel() const { return (endS - startS) / widthPx; }
    double toPixel(double seconds) const { return leftPx + (seconds - startS) * pixelsPerSecond(); }
    double toSeconds(double pixel) const { return startS + (pixel - leftPx) * secondsPerPixel(); }
};

// `seconds` in the unit that suits a visible span of `spanS` seconds (ns below 2 us, us below
// 2 ms, ms below 2 s, else s), with enough decimals to tell apart values a hundredth of the span
// apart and no trailing zeros: formatTime(850e-9, 1e-6) == "850 ns",
// formatTime(12.5e-6, 50e-6) == "12.5 us", formatTime(3.2e-3, 5e-3) == "3.2 ms".
// Pass the value itself as the span to format a duration on its own scale.
std::string formatTime(double seconds, double spanS);

} // namespace ws
