#include "background_job.h"

#include "process_events_until.h"

#include <QTimer>

namespace ws {

BackgroundJob::BackgroundJob(QObject* parent, int progressIntervalMs)
    : QObject(parent), m_progressTimer(new QTimer(this)) {
    m_mailbox->job = this;
    m_progressTimer->setInterval(progressIntervalMs);
    connect(m_progressTimer, &QTimer::timeout, this, &BackgroundJob::progressTick);
}

BackgroundJob::~BackgroundJob() {
    if (m_flag)
        m_flag->store(true);
    const std::lock_guard<std::mutex> lock(m_mailbox->mutex); // a worker may be posting now
    m_mailbox->job = nullptr;
}

quint64 BackgroundJob::begin() {
    if (m_flag)
        m_flag->store(true); // the running job is stale now: let it stop
    m_flag = std::make_shared<std::atomic<bool>>(false);
    if (m_pending++ == 0) {
        m_progressTimer->start();
        emit busyChanged(true);
    }
    return ++m_generation;
}

bool BackgroundJob::end(quint64 generation) {
    const bool newest = generation == m_generation;
    if (--m_pending == 0) {
        m_progressTimer->stop();
        emit progressTick(); // the last progress before the answer
        emit busyChanged(false);
    }
    return newest;
}

void BackgroundJob::cancel() {
    if (m_flag)
        m_flag->store(true);
}

bool BackgroundJob::waitForIdle(int timeoutMs) {
    return processEventsUntil([this] { return m_pending == 0; }, timeoutMs);
}

} // namespace ws
