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

const char* toString(StrategySpec::Balance balance) {
    return balance == StrategySpec::Balance::Speed ? "speed" : "even";
}

const char* toString(Checkpointing checkpointing) {
    switch (checkpointing) {
    case Checkpointing::None:
        return "none";
    case Checkpointing::Selective:
        return "selective";
    case Checkpointing::Full:
        break;
    }
    return "full";
}

std::optional<Checkpointing> checkpointingFromString(const std::string& text) {
    for (Checkpointing value : {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full})
        if (text == toString(value))
            return value;
    return std::nullopt;
}

std::string sequenceParallelProblem(const StrategySpec& strategy) {
    if (!strategy.sequenceParallel || strategy.tp > 1)
        return {};
    return "needs tp > 1: Megatron's sequence parallelism splits the norm and dropout "
           "activations over the TP group, and tp is " +
           std::to_string(strategy.tp);
}

} // namespace ws
