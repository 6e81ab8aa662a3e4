#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws {

// A file that could not be written (a missing directory, a full disk, no permission). Not a
// ScenarioError: the input was fine, the run failed, so the CLI exits 1, not 2 (docs/cli.md
// section 2). what() is "cannot write PATH: reason".
class FileWriteError : public std::runtime_error {
public:
    FileWriteError(std::filesystem::path path, std::string reason)
        : std::runtime_error("cannot write " + path.string() + ": " + reason),
          m_path(std::move(path)), m_reason(std::move(reason)) {}

    const std::filesystem::path& path() const { return m_path; }
    // The system's wording, e.g. "No such file or directory".
    const std::string& reason() const { return m_reason; }

private:
    std::filesystem::path m_path;
    std::string m_reason;
};

} // namespace ws
