#include "io/atomic_file.h"

#include "io/stdio_file.h"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <random>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace ws {
namespace {

// ".NAME.tmp-<random>" in the target's directory: hidden, named after the target, and not a
// name a concurrent writer picks.
std::filesystem::path temporaryPathBeside(const std::filesystem::path& path) {
    std::random_device random;
    char suffix[20];
    std::snprintf(suffix, sizeof suffix, "%08x%08x", random(), random());
    return path.parent_path() / ("." + path.filename().string() + ".tmp-" + suffix);
}

} // namespace

void writeFileAtomically(const std::filesystem::path& path, const std::string& content) {
    const std::filesystem::path temporary = temporaryPathBeside(path);
    // Removes the temporary file (if it was made) and reports `reason` for the target.
    auto fail = [&](const std::string& reason) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return FileWriteError(path, reason);
    };
    {
        errno = 0;
        // "x": never open a file that already exists (C11), so no one else's file is reused.
        StdioFile handle(std::fopen(temporary.string().c_str(), "wbx"));
        if (!handle)
            throw FileWriteError(path, systemReason(errno, "write failed")); // nothing was created
        errno = 0;
        if (std::fwrite(content.data(), 1, content.size(), handle.get()) != content.size() ||
            std::fflush(handle.get()) != 0)
            throw fail(systemReason(errno, "write failed"));
#if defined(__unix__) || defined(__APPLE__)
        // Data on disk before the rename, so a crash leaves the old or the new file, whole.
        if (::fsync(::fileno(handle.get())) != 0)
            throw fail(systemReason(errno, "write failed"));
#endif
        errno = 0;
        if (std::fclose(handle.release()) != 0)
            throw fail(systemReason(errno, "write failed"));
    }
    std::error_code error;
    // Keep the permissions of the file being replaced (a fresh file has the umask's).
    const auto status = std::filesystem::status(path, error);
    if (!error && std::filesystem::exists(status))
        std::filesystem::permissions(temporary, status.permissions(), error);
    std::filesystem::rename(temporary, path, error);
    if (error)
        throw fail(error.message());
}

} // namespace ws
