#include "io/scenario_io.h"

#include "io/atomic_file.h"
#include "io/scenario_writer.h"
#include "io/stdio_file.h"
#include "io/strict_json.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

namespace ws {

std::string readWholeFile(const std::filesystem::path& file) {
    errno = 0;
    StdioFile handle(std::fopen(file.string().c_str(), "rb"));
    if (!handle)
        throw ScenarioError("", "cannot read file: " + systemReason(errno));
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const std::size_t count = std::fread(buffer, 1, sizeof buffer, handle.get());
        text.append(buffer, count);
        if (count < sizeof buffer)
            break;
    }
    // fopen() succeeds on a directory on Linux; the read then fails with EISDIR.
    if (std::ferror(handle.get()))
        throw ScenarioError("", "cannot read file: " + systemReason(errno));
    return text;
}

Scenario parseScenario(const std::string& jsonText, const std::filesystem::path& directory) {
    return parseScenario(parseStrictJson(jsonText), directory);
}

Scenario loadScenario(const std::filesystem::path& file) {
    return parseScenario(readWholeFile(file), file.parent_path());
}

void saveScenario(const Scenario& scenario, const std::filesystem::path& file) {
    writeFileAtomically(file, formatScenarioText(scenario));
}

} // namespace ws
