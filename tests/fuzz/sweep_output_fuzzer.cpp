// libFuzzer target over the sweep output reader (tests/fuzz/README.md), which the desktop app
// runs on any .csv or .jsonl a user opens: any bytes, read as CSV and as JSON Lines, either
// read as a sweep output (a line number for every row) or throw a ScenarioError naming the
// line, never anything else. A crash, a sanitizer report or a leak is a finding too.

#include "scenario/scenario_error.h"
#include "sweep/sweep_output.h"
#include "sweep/sweep_table.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "sweep_output_fuzzer: %s: %s\n", what, detail.c_str());
    std::abort();
}

void readAs(const std::string& text, ws::SweepFormat format) {
    try {
        const ws::SweepOutput output = ws::parseSweepOutput(text, format);
        if (output.rows.size() != output.lines.size())
            fail("rows and lines differ in number", std::to_string(output.rows.size()));
    } catch (const ws::ScenarioError&) {
        // Refused with the line and the problem: what bad input should get.
    } catch (const std::exception& error) {
        fail("not a ScenarioError", error.what());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    readAs(text, ws::SweepFormat::Csv);
    readAs(text, ws::SweepFormat::JsonLines);
    return 0;
}
