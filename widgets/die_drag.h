#pragma once

#include <QByteArray>
#include <QList>
#include <QMimeData>

namespace ws {

// The private MIME type of dies being dragged (docs/architecture.md item 10): the mesh view writes
// it when a drag leaves the view, the group panel accepts it. Payload: die ids as text, "3,4,7".
inline constexpr const char* kDieMimeType = "application/x-waferscope-dies";

inline QByteArray encodeDies(const QList<int>& dies) {
    QByteArray text;
    for (int die : dies)
        text += (text.isEmpty() ? "" : ",") + QByteArray::number(die);
    return text;
}

inline QList<int> decodeDies(const QMimeData* mime) {
    QList<int> dies;
    if (mime == nullptr || !mime->hasFormat(kDieMimeType))
        return dies;
    for (const QByteArray& part : mime->data(kDieMimeType).split(',')) {
        bool ok = false;
        const int die = part.toInt(&ok);
        if (ok)
            dies.append(die);
    }
    return dies;
}

} // namespace ws
