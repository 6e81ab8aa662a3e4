#include "io/environment_overrides.h"

#include "scenario/scenario_error.h"

#include <charconv>
#include <cstdlib>

namespace ws {

EnvironmentOverrides readEnvironmentOverrides(const EnvironmentLookup& lookup) {
    const EnvironmentLookup get = lookup ? lookup : [](const std::string& name) {
        const char* value = std::getenv(name.c_str());
        return value ? std::optional<std::string>(value) : std::nullopt;
    };
    EnvironmentOverrides overrides;
    if (const auto text = get("TCME_MAX_ITER")) {
        int value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, error] = std::from_chars(text->data(), end, value);
        if (error != std::errc() || ptr != end || value < 1 || value > 1000)
            throw ScenarioError("environment.TCME_MAX_ITER",
                                "'" + *text + "' is not an integer from 1 to 1000");
        overrides.tcmeMaxIter = value;
        overrides.notes.push_back("TCME_MAX_ITER=" + *text + " overrides tcme.max_iter");
    }
    if (const auto text = get("TCME_ROUTING")) {
        if (*text != "static" && *text != "adaptive")
            throw ScenarioError("environment.TCME_ROUTING",
                                "'" + *text + "' is neither 'static' nor 'adaptive'");
        overrides.adaptiveRouting = *text == "adaptive";
        overrides.notes.push_back(
            "TCME_ROUTING=" + *text +
            (*text == "adaptive" ? " sets routing.mode to adaptive" : " keeps routing.mode"));
    }
    if (const auto text = get("FSDP_ALLGATHER")) {
        if (*text != "ring" && *text != "multicast")
            throw ScenarioError("environment.FSDP_ALLGATHER",
                                "'" + *text + "' is neither 'ring' nor 'multicast'");
        overrides.fsdpAllGather = *text == "ring" ? Algorithm::Ring : Algorithm::Multicast;
        overrides.notes.push_back("FSDP_ALLGATHER=" + *text +
                                  " sets the algorithm of every FSDP all-gather");
    }
    return overrides;
}

void applyEnvironmentOverrides(const EnvironmentOverrides& overrides, Scenario& scenario) {
    if (overrides.tcmeMaxIter) {
        if (!scenario.tcme)
            scenario.tcme = TcmeSpec{};
        scenario.tcme->maxIter = *overrides.tcmeMaxIter;
    }
    if (overrides.adaptiveRouting && *overrides.adaptiveRouting) {
        if (!scenario.routing)
            scenario.routing = RoutingSpec{};
        scenario.routing->mode = RoutingMode::Adaptive;
    }
    // The step model reads the algorithm from the strategy, so every path that builds a step
    // (the CLI, the GUI, TCME, the search) honours the variable alike.
    if (overrides.fsdpAllGather && scenario.strategy)
        scenario.strategy->fsdpAllGatherMulticast =
            *overrides.fsdpAllGather == Algorithm::Multicast;
}

} // namespace ws
