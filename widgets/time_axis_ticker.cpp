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

void setUpTimeRowsAxes(QCustomPlot& plot, const QString& timeLabel) {
    plot.setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot.axisRect()->setRangeDrag(Qt::Horizontal);
    plot.axisRect()->setRangeZoom(Qt::Horizontal);
    plot.xAxis->setTicker(QSharedPointer<TimeAxisTicker>::create());
    plot.xAxis->setLabel(timeLabel);
    plot.xAxis->grid()->setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1, Qt::DotLine));
    plot.yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot.yAxis->setRangeReversed(true);
    plot.yAxis->grid()->setVisible(false);
    plot.yAxis->setSubTicks(false);
    plot.yAxis->setTickLength(0, 2);
}

} // namespace ws
