#pragma once

#include "scenario/strategy_spec.h"
#include "strategy/placement.h"
#include "topology/wafer_topology.h"

#include <memory>
#include <string>

namespace ws {

// How ranks are mapped to dies: one small class per StrategySpec::MappingKind, created by
// name. placeStrategy() has already checked that the degrees are positive and that the wafer
// has at least dieCount() live dies; a policy throws ScenarioError for anything else it cannot
// do, at "strategy.mapping" or "strategy.groups...". Policies never place a rank on a dead die.
class MappingPolicy {
public:
    virtual ~MappingPolicy() = default;
    virtual const char* name() const = 0; // as in files: "sequential", "snake", "explicit"
    virtual Placement place(const StrategySpec& strategy, const WaferTopology& topology) const = 0;
};

std::unique_ptr<MappingPolicy> makeMappingPolicy(StrategySpec::MappingKind kind);
// By file name ("sequential", "snake", "explicit"); nullptr for an unknown name.
std::unique_ptr<MappingPolicy> makeMappingPolicy(const std::string& name);

} // namespace ws
