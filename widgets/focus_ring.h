#pragma once

#include <QPointer>
#include <QWidget>

class QTimer;

namespace ws {

// A ring drawn around the widget that has the keyboard focus, so that every focus stop shows
// where Tab went (docs/gui.md "Keyboard"): some widgets draw no focus of their own (a chart, a
// read-only text, a custom view), and the style's own dotted frames are faint. Shown when the
// focus arrives by the keyboard (Tab, Shift+Tab, a shortcut), hidden when a click moves it, as
// a browser's :focus-visible. A dock tabbed behind another, whose fields Tab still reaches,
// comes to the front. One per main window: it follows the focus into the window's floating
// docks too, and ignores every other window's.
class FocusRing : public QWidget {
    Q_OBJECT
public:
    explicit FocusRing(QWidget* mainWindow);

    // The widget the ring is around, or null when hidden.
    QWidget* target() const { return isVisible() ? m_target.data() : nullptr; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    bool belongsToMyWindow(const QWidget* widget) const;
    void follow(QWidget* widget);
    void place(); // around the target's part on screen, in the target's window

    QWidget* m_mainWindow;
    QPointer<QWidget> m_target;
    QTimer* m_tracker; // re-places the ring while shown: scrolling moves a target's parents
};

} // namespace ws
