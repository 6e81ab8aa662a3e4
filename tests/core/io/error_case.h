#pragma once

#include <cctype>
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

// The case's gtest name: its label with every character but letters and digits made '_'.
template <typename ParamInfo> std::string errorCaseName(const ParamInfo& param) {
    std::string name = param.param.label;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name;
}

} // namespace ws::test
