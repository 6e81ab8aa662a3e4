#pragma once

#include <stdexcept>
#include <string>

namespace ws {

// A problem with a scenario, located by a key path such as "traffic[2].group[1]" (empty for
// the file as a whole). what() is "key.path: problem"; callers that know the file name print
// "FILE: key.path: problem", as docs/cli.md section 2 requires.
class ScenarioError : public std::runtime_error {
public:
    ScenarioError(std::string keyPath, std::string problem)
        : std::runtime_error(keyPath.empty() ? problem : keyPath + ": " + problem),
          m_keyPath(std::move(keyPath)), m_problem(std::move(problem)) {}

    const std::string& keyPath() const { return m_keyPath; }
    const std::string& problem() const { return m_problem; }

private:
    std::string m_keyPath;
    std::string m_problem;
};

} // namespace ws
