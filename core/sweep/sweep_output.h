#pragma once

#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"
#include "sweep/sweep_table.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// A sweep's output read back whole (docs/cli.md section 10), for viewing: the
// GUI's Sweep results dock. The reverse of sweepHeader and sweepLine.
struct SweepOutput {
    // The axis columns, in the file's order: every column but the ten figure columns that end
    // a sweep's header (sweepColumns of a sweep without axes). At least one.
    std::vector<std::string> axes;
    // The columns after the figure columns, in the file's order: `note` (a sweep with fault
    // axes), then the search's five (kSearchColumns, a sweep with `search`); empty without them.
    std::vector<std::string> extras;
    // One per row, in the file's order. point.values holds the row's axis values: a JSON Lines
    // value as written; a CSV cell that reads as JSON (4, 0.05, true) as that value, any other
    // (2 TB/s, snake) as a string. point.index is the row's position in the file: the output
    // does not hold the sweep's numbering (sweepPointOf finds it). A row with ok false has its
    // error and no figures (stepS etc. empty, the others 0).
    std::vector<SweepRow> rows;
    // Each row's first line in the file, 1-based (the header is line 1 of a CSV).
    std::vector<std::size_t> lines;
    // The last line had no line break and did not read as a row: a run interrupted, or still
    // writing, cut it short (resuming the sweep redoes its point). It is left out.
    bool droppedCutLine = false;
};

// Reads a sweep output's text. Anything that is not one is a ScenarioError whose key path is
// the line ("line 3") and whose problem says what is wrong: an empty text, a header without
// the figure columns ("no 'ok' column: ..."), a row with another number of cells, a sample,
// ok, figure or oom cell that does not read as one, a JSON line that is not an object or whose
// keys are not the first line's. Never any other exception.
//   Example: "strategy.tatp,sample,ok,error,step_s,...\n4,0,true,,0.5,..." reads as axes
//   {"strategy.tatp"} and one row with point.values {4}, ok, stepS 0.5.
SweepOutput parseSweepOutput(const std::string& text, SweepFormat format);

// Reads the file (its format from its extension: sweepFormatFor). A ScenarioError's what() is
// then "FILE: line 3: problem" (or "FILE: cannot read file: reason").
SweepOutput loadSweepOutput(const std::filesystem::path& file);

// The point of `spec` whose axis values are `values` (compared as their CSV text: 4 and "4"
// match) and whose sample is `sample`, with its index in the sweep: what a row of the sweep's
// output was evaluated as. Nullopt when a value is none of its axis's, or the sample is out of
// range (the output is of another sweep).
std::optional<SweepPoint> sweepPointOf(const SweepSpec& spec,
                                       const std::vector<nlohmann::json>& values, int sample);

// The files in `directory` (not its subfolders) named *.json that are sweep files (format
// "waferscope.sweep") whose axes are `axes`, in that order: the candidates for the sweep an
// output in `directory` came from. Sorted by name; the files are not checked further
// (loadSweep does that). Unreadable files and folders are skipped.
std::vector<std::filesystem::path> findSweepFiles(const std::filesystem::path& directory,
                                                  const std::vector<std::string>& axes);

} // namespace ws
