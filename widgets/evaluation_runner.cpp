#include "evaluation_runner.h"

namespace ws {

EvaluationRunner::EvaluationRunner(QObject* parent)
    : QObject(parent), m_job(new BackgroundJob(this)) {
    connect(m_job, &BackgroundJob::busyChanged, this, &EvaluationRunner::busyChanged);
}

void EvaluationRunner::evaluate(const Scenario& scenario) {
    using Analysis = std::shared_ptr<const ScenarioAnalysis>;
    m_job->start<Analysis>(
        [scenario, compare = m_compareNetworkModels](const JobToken& token) {
            return analyseScenario(scenario, token.predicate(), compare);
        },
        [this](Analysis analysis) {
            m_latest = std::move(analysis);
            emit analysisReady(m_latest);
        },
        [this](const QString& message) { emit analysisFailed(message); });
}

void EvaluationRunner::cancel() {
    if (!m_job->isBusy() || m_job->isCancelling())
        return;
    m_job->cancel();
    emit evaluationCancelled();
}

bool EvaluationRunner::waitForIdle(int timeoutMs) {
    return m_job->waitForIdle(timeoutMs);
}

} // namespace ws
