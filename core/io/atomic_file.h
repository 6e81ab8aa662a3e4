#pragma once

#include "io/file_write_error.h"

#include <filesystem>
#include <string>

namespace ws {

// Replaces the file at `path` with `content` so that a reader, or a crash, sees the old file or
// the new one, whole, never a part of either. The content goes to a temporary file beside
// `path` (the same directory, so the same file system and an atomic rename), is flushed and
// synced to disk, then renamed over `path`; a replaced file keeps its permissions. On failure
// the temporary file is removed, `path` is as it was, and FileWriteError names `path` and why.
void writeFileAtomically(const std::filesystem::path& path, const std::string& content);

} // namespace ws
