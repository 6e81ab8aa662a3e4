#include "sim/fluid_simulator.h"

#include "sim/fluid_simulation.h"

namespace ws {

SimResult simulate(const SimProblem& problem, const std::function<bool()>& cancel) {
    FluidSimulation simulation(problem, &cancel);
    simulation.runToEnd();
    return simulation.takeResult();
}

} // namespace ws
