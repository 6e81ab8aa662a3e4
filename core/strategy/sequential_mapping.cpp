#include "strategy/sequential_mapping.h"

namespace ws {

Placement SequentialMapping::place(const StrategySpec& strategy,
                                   const WaferTopology& topology) const {
    const auto ranks = static_cast<std::size_t>(strategy.dieCount());
    std::vector<DieId> dies;
    dies.reserve(ranks);
    for (DieId die = 0; die < topology.dieCount() && dies.size() < ranks; ++die)
        if (topology.isAlive(die))
            dies.push_back(die);
    // placeStrategy() checked that there are enough live dies.
    return Placement(strategy.dp, strategy.sp, strategy.tp, strategy.tatp, std::move(dies));
}

} // namespace ws
