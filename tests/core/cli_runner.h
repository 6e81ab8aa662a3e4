#pragma once

// Runs the real `waferscope-cli` binary (WAFERSCOPE_CLI_PATH) for the CLI test suites: its exit
// status and what it wrote on stdout and stderr.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

namespace ws::test {

struct CliRun {
    int status = -1; // exit status, or -1 if killed by a signal
    std::string out;
    std::string err;
};

inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream stream(path, std::ios::binary);
    std::ostringstream text;
    text << stream.rdbuf();
    return text.str();
}

// A folder of this test process's own (gtest_discover_tests runs each test in its own process),
// removed with everything in it when the process exits: runs must not leave /tmp growing.
inline std::filesystem::path scratchDir() {
    struct Scratch {
        std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("waferscope_cli_test_" + std::to_string(::getpid()));
        Scratch() { std::filesystem::create_directories(dir); }
        ~Scratch() {
            std::error_code ignored; // nothing to do about a folder that will not go
            std::filesystem::remove_all(dir, ignored);
        }
        Scratch(const Scratch&) = delete;
        Scratch& operator=(const Scratch&) = delete;
    };
    static const Scratch scratch;
    return scratch.dir;
}

// Single-quoted for the shell (paths here contain no quotes).
inline std::string quote(const std::string& text) {
    return "'" + text + "'";
}

// `environment` is prefixed to the command line: "TCME_MAX_ITER=2".
inline CliRun runCli(const std::string& arguments, const std::string& environment = "") {
    const std::filesystem::path dir = scratchDir();
    const std::filesystem::path out = dir / "stdout.txt";
    const std::filesystem::path err = dir / "stderr.txt";
    const std::string command = environment + " " + quote(WAFERSCOPE_CLI_PATH) + " " + arguments +
                                " >" + quote(out.string()) + " 2>" + quote(err.string());
    const int raw = std::system(command.c_str());
    CliRun run;
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    run.out = readFile(out);
    run.err = readFile(err);
    return run;
}

} // namespace ws::test
