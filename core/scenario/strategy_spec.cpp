#include "scenario/strategy_spec.h"

namespace ws {

const char* toString(StrategySpec::MappingKind mapping) {
    switch (mapping) {
    case StrategySpec::Sequential:
        return "sequential";
    case StrategySpec::Snake:
        return "snake";
    case StrategySpec::Explicit:
        return "explicit";
    }
    return "sequential";
}

const char* toString(TatpSchedule schedule) {
    return schedule == TatpSchedule::Ring ? "ring" : "bidirectional";
}

} // namespace ws
