#pragma once

#include <QColor>

namespace ws {

// The current strategy's purple, the same in every plot that marks it (the search's scatter,
// the fault study's curves), so that a user who has learnt it in one finds it in the other.
inline const QColor kCurrentStrategyColour(148, 103, 189);

} // namespace ws
