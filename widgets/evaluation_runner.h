#pragma once

#include "scenario_analysis.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <filesystem>
#include <memory>

namespace ws {

// Simulates scenarios off the GUI thread (STYLE.md item 5): analyseScenario runs under
// QtConcurrent and its result comes back on the GUI thread. Only the newest request counts:
// a result whose generation is older than the last request is dropped, so a quick series of
// drags shows the last one's heatmap, never an older one's.
class EvaluationRunner : public QObject {
    Q_OBJECT
public:
    explicit EvaluationRunner(QObject* parent = nullptr);
    ~EvaluationRunner() override;

    void evaluate(const Scenario& scenario, const std::filesystem::path& directory);
    // Drops the requests in flight: their results will be ignored and evaluationCancelled is
    // emitted. The job itself runs to its end in the background (the simulator has no cancel
    // point), but the window never waits for it.
    void cancel();
    bool isBusy() const { return m_pending > 0; }
    std::shared_ptr<const ScenarioAnalysis> latest() const { return m_latest; }
    // Spins the event loop until the newest request is answered; false on timeout. For tests,
    // screenshots and benchmarks.
    bool waitForIdle(int timeoutMs = 60000);

signals:
    void analysisReady(std::shared_ptr<const ws::ScenarioAnalysis> analysis);
    void analysisFailed(const QString& message);
    void busyChanged(bool busy);
    void evaluationCancelled();

private:
    struct Outcome {
        std::shared_ptr<const ScenarioAnalysis> analysis;
        QString error;
    };

    void finish(quint64 generation, const Outcome& outcome);

    quint64 m_generation = 0;
    int m_pending = 0; // requests whose results have not come back, stale ones included
    std::shared_ptr<const ScenarioAnalysis> m_latest;
    QFuture<void> m_lastRun;
};

} // namespace ws
