#include "io/scenario_io.h"

#include "io/scenario_writer.h"
#include "io/strict_json.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace ws {
namespace {

// RAII for the C stdio handles used below (they give errno, which iostreams do not).
struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

std::string systemReason(int error) {
    return std::generic_category().message(error);
}

std::string readWholeFile(const std::filesystem::path& file) {
    errno = 0;
    FileHandle handle(std::fopen(file.string().c_str(), "rb"));
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

// A name no concurrent save picks: ".NAME.tmp-<random>" in the target's directory, so that
// the final rename stays within one file system (and is therefore atomic).
std::filesystem::path temporaryPathBeside(const std::filesystem::path& file) {
    std::random_device random;
    char suffix[20];
    std::snprintf(suffix, sizeof suffix, "%08x%08x", random(), random());
    return file.parent_path() / ("." + file.filename().string() + ".tmp-" + suffix);
}

[[noreturn]] void failWrite(const std::filesystem::path& temporary, const std::string& reason) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw ScenarioError("", "cannot write file: " + reason);
}

} // namespace

Scenario parseScenario(const std::string& jsonText) {
    return parseScenario(parseStrictJson(jsonText));
}

Scenario loadScenario(const std::filesystem::path& file) {
    return parseScenario(readWholeFile(file));
}

void saveScenario(const Scenario& scenario, const std::filesystem::path& file) {
    const std::string text = formatScenarioText(scenario);
    const std::filesystem::path temporary = temporaryPathBeside(file);
    {
        errno = 0;
        FileHandle handle(std::fopen(temporary.string().c_str(), "wb"));
        if (!handle)
            throw ScenarioError("", "cannot write file: " + systemReason(errno));
        if (std::fwrite(text.data(), 1, text.size(), handle.get()) != text.size() ||
            std::fflush(handle.get()) != 0)
            failWrite(temporary, systemReason(errno));
#if defined(__unix__) || defined(__APPLE__)
        // Data on disk before the rename, so a crash leaves the old or the new file, whole.
        if (::fsync(::fileno(handle.get())) != 0)
            failWrite(temporary, systemReason(errno));
#endif
        if (std::fclose(handle.release()) != 0)
            failWrite(temporary, systemReason(errno));
    }
    std::error_code error;
    // Keep the permissions of the file being replaced (a fresh temp file has the umask's).
    const auto status = std::filesystem::status(file, error);
    if (!error && std::filesystem::exists(status))
        std::filesystem::permissions(temporary, status.permissions(), error);
    std::filesystem::rename(temporary, file, error);
    if (error)
        failWrite(temporary, error.message());
}

} // namespace ws
