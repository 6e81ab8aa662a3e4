#pragma once

#include <stdexcept>
#include <string>

namespace ws {

// Why a user's edit cannot be made. what() is one sentence for the status bar ("strategy.tp: 5
// does not divide the model's 96 attention heads"); reason() lets a view react by kind.
class EditRefused : public std::runtime_error {
public:
    enum class Reason {
        NoStrategy,     // the edit changes a strategy the scenario does not have
        Infeasible,     // the result would not simulate (the core's own check says why)
        OffWafer,       // a die or an op would leave the wafer
        DieUnavailable, // a die that is dead or takes part in nothing (core: swapDieRoles)
        NoChange,       // the gesture asks for nothing (a drop where the drag started)
        Mismatch        // a result (search, TCME) was made for another wafer or workload
    };

    EditRefused(Reason reason, const std::string& sentence)
        : std::runtime_error(sentence), m_reason(reason) {}

    Reason reason() const { return m_reason; }

private:
    Reason m_reason;
};

} // namespace ws
