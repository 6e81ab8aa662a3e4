#include "routing/routing_policy.h"

#include "routing/adaptive_routing.h"
#include "routing/shortest_routing.h"
#include "routing/xy_routing.h"
#include "routing/yx_routing.h"

namespace ws {

std::unique_ptr<RoutingPolicy> makeRoutingPolicy(RoutingMode mode) {
    switch (mode) {
    case RoutingMode::XY:
        return std::make_unique<XyRouting>();
    case RoutingMode::YX:
        return std::make_unique<YxRouting>();
    case RoutingMode::Shortest:
        return std::make_unique<ShortestRouting>();
    case RoutingMode::Adaptive:
        return std::make_unique<AdaptiveRouting>();
    }
    return std::make_unique<XyRouting>();
}

} // namespace ws
