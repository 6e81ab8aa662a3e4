#pragma once

#include <QLabel>

namespace ws {

// A one-line label that never pushes its neighbours: text wider than the label ends in "…",
// and the whole text is in the tooltip. A click emits clicked() (the status bar's message opens
// the message log). Set the text with setFullText, not QLabel::setText.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return m_fullText; }

    QSize minimumSizeHint() const override;

signals:
    void clicked();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void elide();

    QString m_fullText;
};

} // namespace ws
