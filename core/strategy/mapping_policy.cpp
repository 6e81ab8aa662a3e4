#include "strategy/mapping_policy.h"

#include "strategy/explicit_mapping.h"
#include "strategy/sequential_mapping.h"
#include "strategy/snake_mapping.h"

namespace ws {

std::unique_ptr<MappingPolicy> makeMappingPolicy(StrategySpec::MappingKind kind) {
    switch (kind) {
    case StrategySpec::Sequential:
        return std::make_unique<SequentialMapping>();
    case StrategySpec::Snake:
        return std::make_unique<SnakeMapping>();
    case StrategySpec::Explicit:
        return std::make_unique<ExplicitMapping>();
    }
    return std::make_unique<SequentialMapping>();
}

std::unique_ptr<MappingPolicy> makeMappingPolicy(const std::string& name) {
    for (const auto kind : {StrategySpec::Sequential, StrategySpec::Snake, StrategySpec::Explicit})
        if (name == toString(kind))
            return makeMappingPolicy(kind);
    return nullptr;
}

} // namespace ws
