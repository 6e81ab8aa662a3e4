#pragma once

#include "sweep/sweep_runner.h"
#include "sweep/sweep_spec.h"

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace ws {

// The output of a sweep (docs/cli.md section 10): one row per point, CSV or JSON Lines, with the
// columns: the axis keys, sample, ok, error, step_s, tokens_per_s, mfu,
// makespan_s, max_link_bytes, peak_memory_bytes, oom (kSweepFigureColumns); then dies_used and
// pp_bubble (kPlanningColumns), `note` in a sweep with fault axes, and best_strategy,
// best_family, best_step_s, runner_up_family, margin in a sweep with `search`
// (sweepExtraColumns). Numbers are written as the JSON reports write them (the
// shortest text that reads back to the same double).
enum class SweepFormat { Csv, JsonLines };
SweepFormat sweepFormatFor(const std::filesystem::path& file); // ".jsonl": JSON Lines, else CSV

std::vector<std::string> sweepColumns(const SweepSpec& spec);
// The ten columns after the axes, in every sweep's output.
inline const std::vector<std::string> kSweepFigureColumns = {"sample",
                                                             "ok",
                                                             "error",
                                                             "step_s",
                                                             "tokens_per_s",
                                                             "mfu",
                                                             "makespan_s",
                                                             "max_link_bytes",
                                                             "peak_memory_bytes",
                                                             "oom"};
// The figures a user plans with beside MFU (docs/cli.md section 10): written by every sweep
// since they were added; an output written before has none (it still reads, without them).
inline const std::vector<std::string> kPlanningColumns = {"dies_used", "pp_bubble"};
// The columns after `oom`: the planning two, `note` with fault axes, the search's five with
// `search`; in that order. kSearchColumns are the five.
std::vector<std::string> sweepExtraColumns(const SweepSpec& spec);
inline const std::vector<std::string> kSearchColumns = {
    "best_strategy", "best_family", "best_step_s", "runner_up_family", "margin"};
std::string sweepHeader(const SweepSpec& spec, SweepFormat format); // CSV's first line; "" else
std::string sweepLine(const SweepSpec& spec, const SweepRow& row, SweepFormat format);
// An axis value as its CSV cell: a string as it is, anything else as its JSON text.
std::string axisValueText(const nlohmann::json& value);

// One CSV record's cells, RFC 4180 quoting undone: `a,"b ""c""",` -> {a, b "c", ""}. `record`
// holds no record separator (a quoted cell may hold a line break: the caller joins the lines
// of a record whose quotes are not closed).
std::vector<std::string> csvCells(const std::string& record);

// A point as its row identifies it: its axis values as written, and its sample.
std::string pointKey(const SweepPoint& point);

// What an earlier run's output already holds, for resuming: the keys of its rows, and how many
// bytes of it are whole lines (a line cut short by an interrupted run is dropped and redone).
// Throws ScenarioError (at "output") when its columns are not this sweep's.
struct ExistingRows {
    std::set<std::string> keys;
    std::size_t completeBytes = 0;
    bool hasHeader = false;
};
ExistingRows readExistingRows(const std::string& text, const SweepSpec& spec, SweepFormat format);

} // namespace ws
