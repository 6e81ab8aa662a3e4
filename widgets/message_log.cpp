#include "message_log.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QTime>
#include <QVBoxLayout>

namespace ws {

namespace {

constexpr int kTextRole = Qt::UserRole;      // the message without its time stamp
constexpr int kErrorRole = Qt::UserRole + 1; // bool

} // namespace

MessageLog::MessageLog(QWidget* parent) : QWidget(parent), m_list(new QListWidget) {
    m_list->setObjectName(QStringLiteral("messageList"));
    m_list->setWordWrap(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setAlternatingRowColors(true);
    m_list->setIconSize(QSize(16, 16)); // a line's height, not the style's 32 px
    auto* clearButton = new QPushButton(tr("Clear"));
    clearButton->setToolTip(tr("Forget every message of this session"));
    connect(clearButton, &QPushButton::clicked, this, &MessageLog::clear);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(clearButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
}

void MessageLog::add(const QString& text, Severity severity) {
    if (text.isEmpty())
        return;
    const bool error = severity == Severity::Error;
    auto* item = new QListWidgetItem(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")) +
                                     QStringLiteral("  ") + text);
    item->setData(kTextRole, text);
    item->setData(kErrorRole, error);
    item->setToolTip(text);
    if (error) {
        item->setForeground(QColor(160, 0, 0));
        item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    }
    m_list->addItem(item);
    while (m_list->count() > kMaxEntries)
        delete m_list->takeItem(0);
    m_list->scrollToBottom();
    if (error)
        emit errorAdded(text);
}

void MessageLog::clear() {
    m_list->clear();
}

int MessageLog::count() const {
    return m_list->count();
}

QString MessageLog::text(int row) const {
    const QListWidgetItem* item = m_list->item(row);
    return item != nullptr ? item->data(kTextRole).toString() : QString();
}

bool MessageLog::isError(int row) const {
    const QListWidgetItem* item = m_list->item(row);
    return item != nullptr && item->data(kErrorRole).toBool();
}

} // namespace ws
