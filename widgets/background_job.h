#pragma once

#include "sim/run_cancelled.h"

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QtConcurrent>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

class QTimer;

namespace ws {

// What a job's work function polls: true once the job was cancelled or replaced by a newer
// one. Pass stopRequested() into core as its cancel predicate (docs/architecture.md item 5: core
// functions take a cancel predicate and know nothing of threads).
class JobToken {
public:
    explicit JobToken(std::shared_ptr<const std::atomic<bool>> flag) : m_flag(std::move(flag)) {}
    bool stopRequested() const { return m_flag->load(); }
    std::function<bool()> predicate() const {
        return [flag = m_flag] { return flag->load(); };
    }

private:
    std::shared_ptr<const std::atomic<bool>> m_flag;
};

// The one way the app runs heavy core work off the GUI thread: the re-simulation, the TCME
// step and the strategy search all go through it.
//  - start() runs work(token) under QtConcurrent; a job still running is cancelled first and
//    its answer dropped (a generation counter), so only the newest job is ever answered.
//  - cancel() sets the running job's token; core stops at its next poll (RunCancelled, or its
//    own early return) and the job is answered as cancelled.
//  - While a job runs, progressTick() fires at most every `progressIntervalMs`: the owner
//    drains the progress its worker left behind a mutex (throttled, never one signal per
//    core callback).
//  - Answers always come from the event loop on the GUI thread, never inside start(); nothing
//    here waits on the GUI thread (a job outliving its owner holds only values it captured).
class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* parent = nullptr, int progressIntervalMs = 100);
    ~BackgroundJob() override; // cancels the running job; does not wait for it

    // `done` gets the result of the newest job; `failed` the message of its exception (a
    // ScenarioError's "key.path: problem"); when the newest job was cancelled, `cancelled` is
    // called instead, with the result if the work returned one anyway (a search keeps its best
    // so far) or nullopt (the work stopped by throwing RunCancelled). Each may be empty.
    template <class Result>
    void start(std::function<Result(const JobToken&)> work, std::function<void(Result)> done,
               std::function<void(const QString&)> failed = {},
               std::function<void(std::optional<Result>)> cancelled = {});

    void cancel();
    bool isBusy() const { return m_pending > 0; } // any job still running
    // The newest job runs but was asked to stop.
    bool isCancelling() const { return isBusy() && m_flag && m_flag->load(); }
    // Spins the event loop until no job runs; false on timeout. For tests, screenshots and
    // benchmarks only (the GUI itself never waits).
    bool waitForIdle(int timeoutMs = 60000);

signals:
    void busyChanged(bool busy);
    void progressTick();

private:
    template <class Result> struct Outcome {
        std::optional<Result> result;
        QString error;
        bool cancelled = false;
    };

    quint64 begin(); // cancels the running job, makes a new token; returns the new generation
    // Counts the job as answered; true when it is the newest one (its answer is delivered).
    bool end(quint64 generation);

    quint64 m_generation = 0;
    int m_pending = 0;
    std::shared_ptr<std::atomic<bool>> m_flag; // the newest job's token
    QTimer* m_progressTimer;
    // Where workers post their answers: `job` is this until the destructor clears it.
    struct Mailbox {
        std::mutex mutex;
        BackgroundJob* job = nullptr;
    };
    std::shared_ptr<Mailbox> m_mailbox = std::make_shared<Mailbox>();
};

template <class Result>
void BackgroundJob::start(std::function<Result(const JobToken&)> work,
                          std::function<void(Result)> done,
                          std::function<void(const QString&)> failed,
                          std::function<void(std::optional<Result>)> cancelled) {
    const quint64 generation = begin();
    const JobToken token(m_flag);
    // The worker posts its answer itself, through the mailbox: Qt 6.4's .then(context, ...)
    // asserts that the context is alive when the work ends, so a window closed mid-simulation
    // aborted a debug build (AutosaveRecoveryTest.TheWindowRestoresOrDiscardsAsTheUserAnswers).
    (void)QtConcurrent::run([work = std::move(work), token, generation, mailbox = m_mailbox,
                             done = std::move(done), failed = std::move(failed),
                             cancelled = std::move(cancelled)]() {
        Outcome<Result> outcome;
        try {
            outcome.result.emplace(work(token));
        } catch (const RunCancelled&) {
            outcome.cancelled = true;
        } catch (const std::exception& error) {
            outcome.error = QString::fromStdString(error.what());
        }
        outcome.cancelled = outcome.cancelled || token.stopRequested(); // an early return
        // Under the lock the job is alive or gone for good; an answer posted to it is dropped
        // by Qt if it is destroyed before the event loop delivers it.
        const std::lock_guard<std::mutex> lock(mailbox->mutex);
        BackgroundJob* job = mailbox->job;
        if (job == nullptr)
            return;
        QMetaObject::invokeMethod(
            job,
            [job, generation, token, done, failed, cancelled,
             outcome = std::move(outcome)]() mutable {
                if (!job->end(generation))
                    return;
                // A cancel that came after the work ended but before this answer still wins.
                if (outcome.cancelled || token.stopRequested()) {
                    if (cancelled)
                        cancelled(std::move(outcome.result));
                } else if (outcome.result) {
                    if (done)
                        done(std::move(*outcome.result));
                } else if (failed) {
                    failed(outcome.error);
                }
            },
            Qt::QueuedConnection);
    });
}

} // namespace ws
