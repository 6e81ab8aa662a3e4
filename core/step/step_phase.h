#pragma once

#include <string>

namespace ws {

// The phase a task belongs to, as the timeline groups tasks: the plan's tasks
// (step/step_plan.h) and the simulator tasks built from them (StepTaskInfo), and the explicit
// traffic a scenario runs beside its step.
enum class StepPhase : unsigned char {
    Forward,
    Recompute,
    Backward,
    Head,
    GradientSync,
    Optimizer,
    ExplicitTraffic
};

// "forward", "recompute", "backward", "head", "gradient sync", "optimizer", "explicit traffic".
std::string toString(StepPhase phase);

} // namespace ws
