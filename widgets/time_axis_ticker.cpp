#include "time_axis_ticker.h"

#include "time_axis_mapping.h"

namespace ws {

void TimeAxisTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar,
                              int precision, QVector<double>& ticks, QVector<double>* subTicks,
                              QVector<QString>* tickLabels) {
    m_spanS = range.size();
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*formatChar*/,
                                     int /*precision*/) {
    return QString::fromStdString(formatTime(tick, m_spanS));
}

} // namespace ws
