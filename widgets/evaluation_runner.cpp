#include "evaluation_runner.h"

#include "scenario/scenario_error.h"

namespace ws {

EvaluationRunner::EvaluationRunner(QObject* parent)
    : QObject(parent), m_job(new BackgroundJob(this)) {
    connect(m_job, &BackgroundJob::busyChanged, this, &EvaluationRunner::busyChanged);
}

void EvaluationRunner::evaluate(const Scenario& scenario) {
    using Analysis = std::shared_ptr<const ScenarioAnalysis>;
    // Either the analysis, or why there is none and the hardware to draw instead.
    struct Outcome {
        Analysis analysis;
        QString error;
        Analysis hardware;
    };
    m_job->start<Outcome>(
        [scenario, compare = m_compareNetworkModels](const JobToken& token) {
            try {
                return Outcome{analyseScenario(scenario, token.predicate(), compare), {}, {}};
            } catch (const ScenarioError& error) {
                Outcome failed{{}, QString::fromStdString(error.what()), {}};
                try {
                    failed.hardware = analyseHardware(scenario, error.what(), token.predicate());
                } catch (const ScenarioError&) {
                    // the hardware itself does not simulate: nothing to draw
                }
                return failed;
            }
        },
        [this](Outcome outcome) {
            if (!outcome.analysis) {
                emit analysisFailed(outcome.error, outcome.hardware);
                return;
            }
            m_latest = std::move(outcome.analysis);
            emit analysisReady(m_latest);
        },
        [this](const QString& message) { emit analysisFailed(message, nullptr); });
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
