#include "focus_ring.h"

#include <QApplication>
#include <QDockWidget>
#include <QFocusEvent>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>

namespace ws {

namespace {

constexpr int kRingWidth = 2;         // pixels, outside the widget's own frame
constexpr int kTrackIntervalMs = 100; // how often a shown ring checks where its target went

} // namespace

FocusRing::FocusRing(QWidget* mainWindow)
    : QWidget(mainWindow), m_mainWindow(mainWindow), m_tracker(new QTimer(this)) {
    setObjectName(QStringLiteral("focusRing"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
    m_tracker->setInterval(kTrackIntervalMs);
    connect(m_tracker, &QTimer::timeout, this, &FocusRing::place);
    qApp->installEventFilter(this);
}

bool FocusRing::belongsToMyWindow(const QWidget* widget) const {
    // Up the parents across window boundaries: a floating dock is still this window's.
    for (const QWidget* w = widget; w != nullptr; w = w->parentWidget())
        if (w == m_mainWindow)
            return true;
    return false;
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FocusIn && watched->isWidgetType()) {
        auto* widget = static_cast<QWidget*>(watched);
        if (widget != this && belongsToMyWindow(widget)) {
            const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
            const bool byKeyboard = reason == Qt::TabFocusReason ||
                                    reason == Qt::BacktabFocusReason ||
                                    reason == Qt::ShortcutFocusReason;
            if (byKeyboard)
                follow(widget);
            else if (reason == Qt::MouseFocusReason)
                follow(nullptr);
        }
    } else if (event->type() == QEvent::MouseButtonPress && isVisible()) {
        follow(nullptr); // a click: the pointer shows where the user is
    }
    return QWidget::eventFilter(watched, event);
}

void FocusRing::follow(QWidget* widget) {
    m_target = widget;
    if (!widget) {
        hide();
        m_tracker->stop();
        return;
    }
    // A dock tabbed behind another keeps its fields in the focus chain, laid out off screen:
    // bring its tab forward, so that the field Tab reached is in view.
    for (QWidget* w = widget->parentWidget(); w != nullptr && w != widget->window();
         w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            const QRect inWindow(dock->mapTo(dock->window(), QPoint(0, 0)), dock->size());
            if (!dock->window()->rect().intersects(inWindow))
                dock->raise();
            break;
        }
    // A field below the fold of a scrolling form or panel, reached from another dock: the
    // scroll area scrolls to it (it does so itself only for a Tab pressed inside it).
    for (QWidget* w = widget->parentWidget(); w != nullptr && w != widget->window();
         w = w->parentWidget())
        if (auto* scroll = qobject_cast<QScrollArea*>(w))
            scroll->ensureWidgetVisible(widget);
    if (parentWidget() != widget->window()) {
        setParent(widget->window()); // a floating dock is a window of its own
        setAttribute(Qt::WA_TransparentForMouseEvents);
    }
    place();
    // Again once the events of this focus change are done: a scroll area scrolls to the field
    // that took the focus only after it took it.
    QTimer::singleShot(0, this, &FocusRing::place);
    m_tracker->start();
}

void FocusRing::place() {
    if (!m_target || !m_target->isVisible() || m_target->window() != parentWidget()) {
        hide();
        m_tracker->stop();
        return;
    }
    // The part of the target on screen, in the window's coordinates: its rectangle clipped by
    // every parent's (a control half scrolled out of its form), and the ring just outside it.
    QWidget* window = parentWidget();
    QRect area = QRect(m_target->mapTo(window, QPoint(0, 0)), m_target->size()) & window->rect();
    for (const QWidget* parent = m_target->parentWidget(); parent && parent != window;
         parent = parent->parentWidget())
        area &= QRect(parent->mapTo(window, QPoint(0, 0)), parent->size());
    if (area.isEmpty()) {
        hide(); // scrolled out of view: the tracker brings it back when it scrolls in
        return;
    }
    const QRect ring = area.adjusted(-kRingWidth, -kRingWidth, kRingWidth, kRingWidth);
    if (geometry() != ring)
        setGeometry(ring);
    raise();
    show();
}

void FocusRing::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    QPen pen(palette().color(QPalette::Highlight), kRingWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    painter.drawRect(QRectF(rect()).adjusted(kRingWidth / 2.0, kRingWidth / 2.0, -kRingWidth / 2.0,
                                             -kRingWidth / 2.0));
}

} // namespace ws
