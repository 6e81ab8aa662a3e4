#pragma once

#include <ostream>
#include <string>

namespace ws::test {

// One bad input of a parameterised reader test: the scenario text, the key path its error must
// name and a phrase its message must contain. `label` names the case in gtest's output.
struct ErrorCase {
    const char* label;
    std::string text;
    const char* keyPath;
    const char* phrase;
};

inline void PrintTo(const ErrorCase& c, std::ostream* out) {
    *out << c.label;
}

} // namespace ws::test
