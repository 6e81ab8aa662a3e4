#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <system_error>

namespace ws {

// The scenario reader and the atomic writer use C stdio because it reports errno, which
// iostreams do not. StdioFile closes its handle when it goes out of scope.
struct StdioFileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using StdioFile = std::unique_ptr<std::FILE, StdioFileCloser>;

// errno in words ("No such file or directory"); a call that failed without setting errno
// (errno 0) still gets a reason, `whenUnset`.
inline std::string systemReason(int error, const char* whenUnset = "unknown error") {
    return error == 0 ? std::string(whenUnset) : std::generic_category().message(error);
}

} // namespace ws
