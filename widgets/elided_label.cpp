#include "elided_label.h"

#include <QMouseEvent>

namespace ws {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

void ElidedLabel::setFullText(const QString& text) {
    m_fullText = text;
    setToolTip(text);
    elide();
}

QSize ElidedLabel::minimumSizeHint() const {
    return {0, QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        emit clicked();
    QLabel::mouseReleaseEvent(event);
}

void ElidedLabel::elide() {
    // Only the first line: a multi-line message shows its first line here, all of it in the log.
    const QString line = m_fullText.section(QLatin1Char('\n'), 0, 0);
    QLabel::setText(fontMetrics().elidedText(line, Qt::ElideRight, std::max(0, width())));
}

} // namespace ws
