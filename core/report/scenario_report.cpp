#include "report/scenario_report.h"

#include "collectives/traffic_plan.h"
#include "report/step_report.h"
#include "sim/fluid_simulator.h"
#include "step/training_step.h"

namespace ws {

SimulationReport simulateScenarioReport(const Scenario& scenario, const WaferTopology& topology,
                                        const std::filesystem::path& scenarioDirectory) {
    if (scenario.workload || scenario.strategy) {
        const TrainingStep step =
            buildTrainingStep(scenario, topology, scenarioDirectory, std::nullopt);
        return buildStepReport(scenario, topology, step, simulate(step.graph.problem()), {});
    }
    const TrafficPlan plan = planTraffic(scenario, topology);
    return buildSimulationReport(scenario, topology, plan, simulate(plan.problem), {});
}

} // namespace ws
