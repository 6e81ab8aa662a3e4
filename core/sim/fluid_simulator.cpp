#include "sim/fluid_simulator.h"

#include "sim/fluid_simulation.h"
#include "sim/store_and_forward_simulation.h"

namespace ws {

SimResult simulate(const SimProblem& problem, const std::function<bool()>& cancel) {
    if (problem.network.model == NetworkModel::StoreAndForward) {
        StoreAndForwardSimulation simulation(problem, &cancel);
        simulation.runToEnd();
        return simulation.takeResult();
    }
    FluidSimulation simulation(problem, &cancel);
    simulation.runToEnd();
    return simulation.takeResult();
}

} // namespace ws
