#pragma once

#include <QString>
#include <QWidget>

class QListWidget;

namespace ws {

// Every message the app gave this session, newest last, kept until the user clears them
// (docs/gui.md "Messages"; a refusal in the status bar used to vanish after a few seconds and ran
// into the metrics). Each entry shows its time and wraps; errors are red and marked with an icon.
class MessageLog : public QWidget {
    Q_OBJECT
public:
    enum class Severity { Info, Error };

    explicit MessageLog(QWidget* parent = nullptr);

    void add(const QString& text, Severity severity = Severity::Info);
    void clear();
    int count() const;
    // Entry `row` (0 is the oldest kept) without its time stamp, and whether it is an error.
    QString text(int row) const;
    bool isError(int row) const;

    // The log keeps this many entries, dropping the oldest: a session of drags logs one line
    // each, and the list must not grow without bound.
    static constexpr int kMaxEntries = 1000;

signals:
    void errorAdded(const QString& text);

private:
    QListWidget* m_list;
};

} // namespace ws
