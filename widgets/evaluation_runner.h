#pragma once

#include "background_job.h"
#include "scenario_analysis.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <memory>

namespace ws {

// Simulates scenarios off the GUI thread (docs/architecture.md item 5): analyseScenario runs as a
// BackgroundJob and its result comes back on the GUI thread. Only the newest request counts:
// an older request still running is stopped and its result dropped, so a quick series of drags
// shows the last one's heatmap, never an older one's.
class EvaluationRunner : public QObject {
    Q_OBJECT
public:
    explicit EvaluationRunner(QObject* parent = nullptr);

    void evaluate(const Scenario& scenario);
    // Whether each evaluation also simulates the other network model (the Strategy panel's
    // toggle): ScenarioAnalysis::networkComparison.
    void setCompareNetworkModels(bool compare) { m_compareNetworkModels = compare; }
    // Drops the request in flight and emits evaluationCancelled: the running simulation stops
    // at its next event (core's cancel predicate), so the thread is free again within
    // milliseconds; the window never waits for it.
    void cancel();
    bool isBusy() const { return m_job->isBusy(); }
    std::shared_ptr<const ScenarioAnalysis> latest() const { return m_latest; }
    // Spins the event loop until the newest request is answered; false on timeout. For tests,
    // screenshots and benchmarks.
    bool waitForIdle(int timeoutMs = 60000);

signals:
    void analysisReady(std::shared_ptr<const ws::ScenarioAnalysis> analysis);
    // The scenario does not simulate: why, and its hardware with nothing run on it
    // (analyseHardware), or null when even that does not simulate.
    void analysisFailed(const QString& message,
                        std::shared_ptr<const ws::ScenarioAnalysis> hardware);
    void busyChanged(bool busy);
    void evaluationCancelled();

private:
    BackgroundJob* m_job;
    std::shared_ptr<const ScenarioAnalysis> m_latest;
    bool m_compareNetworkModels = false;
};

} // namespace ws
