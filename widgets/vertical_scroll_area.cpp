#include "vertical_scroll_area.h"

#include <QScrollArea>
#include <QScrollBar>

namespace ws {

QScrollArea* verticalScrollArea(QWidget* content) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Not a focus stop of its own: Tab goes to the form's fields, and it scrolls to them.
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(content->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
    return scroll;
}

} // namespace ws
