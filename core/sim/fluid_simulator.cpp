#include "sim/fluid_simulator.h"

#include "sim/fluid_simulation.h"
#include "sim/store_and_forward_simulation.h"

namespace ws {

SimResult simulate(const SimProblem& problem, const std::function<bool()>& cancel) {
    if (problem.network.model == NetworkModel::StoreAndForward)
        return simulate(problem, nullptr, cancel);
    return simulate(problem, std::make_shared<const TaskGraph>(TaskGraph::build(problem)), cancel);
}

SimResult simulate(const SimProblem& problem, std::shared_ptr<const TaskGraph> graph,
                   const std::function<bool()>& cancel) {
    if (problem.network.model == NetworkModel::StoreAndForward) {
        StoreAndForwardSimulation simulation(problem, &cancel);
        simulation.runToEnd();
        return simulation.takeResult();
    }
    FluidSimulation simulation(problem, std::move(graph), &cancel);
    simulation.runToEnd();
    return simulation.takeResult();
}

} // namespace ws
