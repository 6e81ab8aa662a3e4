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

std::string tpOverlapProblem(const StrategySpec& strategy) {
    if (!strategy.tpOverlap)
        return {};
    if (!strategy.sequenceParallel || strategy.tp < 2)
        return "needs sequence_parallel (and tp > 1): it overlaps the all-gathers and "
               "reduce-scatters of Megatron's sequence parallelism with the GEMMs beside them";
    if (strategy.tatp > 1)
        return "needs tatp = 1: a TATP group streams its own blocks, and tatp is " +
               std::to_string(strategy.tatp);
    return {};
}

} // namespace ws
