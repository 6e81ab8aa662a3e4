#pragma once

class QScrollArea;
class QWidget;

namespace ws {

// `content` in a frameless scroll area that scrolls vertically only and is as wide as the
// content needs, with room for the scroll bar, so that nothing is cut on the right. For a form or
// a column of controls that would otherwise set its dock's minimum height: the window fits
// 1280x720 (docs/gui.md "Layout").
QScrollArea* verticalScrollArea(QWidget* content);

} // namespace ws
