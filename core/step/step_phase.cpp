#include "step/step_phase.h"

namespace ws {

std::string toString(StepPhase phase) {
    switch (phase) {
    case StepPhase::Forward:
        return "forward";
    case StepPhase::Recompute:
        return "recompute";
    case StepPhase::Backward:
        return "backward";
    case StepPhase::Head:
        return "head";
    case StepPhase::GradientSync:
        return "gradient sync";
    case StepPhase::ExplicitTraffic:
        return "explicit traffic";
    case StepPhase::Optimizer:
        break;
    }
    return "optimizer";
}

} // namespace ws
