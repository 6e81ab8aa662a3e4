#pragma once

#include <QString>

#include <string>

namespace ws {

// The core's UTF-8 text (names, ids, formatted figures) as a QString, for every view.
inline QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The same, escaped for a rich-text label or tooltip: "<" and "&" stay text.
inline QString escapedHtml(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

} // namespace ws
