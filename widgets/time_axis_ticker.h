#pragma once

// A QCPAxisTicker subclass needs the base's definition: this header is included only by the
// .cpp files that already draw with QCustomPlot (timeline_view.cpp and its test), so it adds no
// compile cost elsewhere. Never include it from another header.
#include <qcustomplot.h>

namespace ws {

// Labels an axis whose coordinates are seconds as "850 ns", "12.5 us" or "3.2 ms", the unit
// chosen for the visible span (formatTime in time_axis_mapping.h), so every label of an axis
// shares one unit. Tick positions are QCPAxisTicker's (1, 2, 2.5, 5 x 10^k seconds).
class TimeAxisTicker : public QCPAxisTicker {
public:
    TimeAxisTicker() = default;

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                  QVector<double>& ticks, QVector<double>* subTicks,
                  QVector<QString>* tickLabels) override;

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    double m_spanS = 1.0; // the range being labelled, set by generate() before the labels
};

// Sets up a chart of rows (dies, pipeline stages) along time, as the timeline's charts share
// it: horizontal drag and wheel zoom only (every row stays in view), a TimeAxisTicker with
// `timeLabel` and a dotted grid on x; text ticks on y, row 0 on top, no y grid or sub-ticks.
void setUpTimeRowsAxes(QCustomPlot& plot, const QString& timeLabel);

} // namespace ws
