#include "evaluation_runner.h"

#include "process_events_until.h"

#include <QtConcurrent>

namespace ws {

EvaluationRunner::EvaluationRunner(QObject* parent) : QObject(parent) {}

EvaluationRunner::~EvaluationRunner() {
    m_lastRun.waitForFinished(); // the job holds no pointer to this, but finish before exit
}

void EvaluationRunner::evaluate(const Scenario& scenario, const std::filesystem::path& directory) {
    const quint64 generation = ++m_generation;
    if (m_pending++ == 0)
        emit busyChanged(true);
    m_lastRun = QtConcurrent::run([scenario, directory]() -> Outcome {
                    try {
                        return {analyseScenario(scenario, directory), {}};
                    } catch (const std::exception& error) {
                        return {nullptr, QString::fromStdString(error.what())};
                    }
                }).then(this, [this, generation](const Outcome& outcome) {
        // Always answer from the event loop, even when the job finished before .then() was
        // attached (Qt then calls this at once, inside evaluate()): callers can rely on
        // evaluate() and cancel() returning before any answer.
        QMetaObject::invokeMethod(
            this, [this, generation, outcome] { finish(generation, outcome); },
            Qt::QueuedConnection);
    });
}

void EvaluationRunner::finish(quint64 generation, const Outcome& outcome) {
    const bool newest = generation == m_generation;
    if (newest) {
        if (outcome.analysis) {
            m_latest = outcome.analysis;
            emit analysisReady(m_latest);
        } else {
            emit analysisFailed(outcome.error);
        }
    }
    if (--m_pending == 0)
        emit busyChanged(false);
}

void EvaluationRunner::cancel() {
    if (m_pending == 0)
        return;
    ++m_generation; // every result in flight is now stale
    emit evaluationCancelled();
}

bool EvaluationRunner::waitForIdle(int timeoutMs) {
    return processEventsUntil([this] { return m_pending == 0; }, timeoutMs);
}

} // namespace ws
