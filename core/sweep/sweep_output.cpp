#include "sweep/sweep_output.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "sweep/sweep_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

namespace ws {

namespace {

// The ten columns after the axes of every sweep output: sample, ok, error, step_s, ..., oom.
const std::vector<std::string>& figureColumns() {
    return kSweepFigureColumns;
}

enum Figure { Sample, Ok, Error, StepS, TokensPerS, Mfu, MakespanS, MaxLinkBytes, PeakMemory, Oom };

std::string lineKey(std::size_t line) {
    return "line " + std::to_string(line);
}

std::string joined(const std::vector<std::string>& texts) {
    std::string all;
    for (const std::string& text : texts)
        all += (all.empty() ? "" : ", ") + text;
    return all;
}

// A CSV axis cell as the value the sweep file wrote: 4, 0.05 and true read as JSON; "2 TB/s"
// (not JSON) and "snake" stay strings.
nlohmann::json cellValue(const std::string& text) {
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded() || value.is_string())
        return text;
    return value;
}

std::optional<double> numberCell(const std::string& text, const std::string& column,
                                 std::size_t line) {
    if (text.empty())
        return std::nullopt;
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || stop != end)
        throw ScenarioError(lineKey(line), column + " '" + text + "' is not a number");
    return value;
}

std::optional<bool> boolCell(const std::string& text, const std::string& column, std::size_t line) {
    if (text == "true" || text == "false")
        return text == "true";
    if (text.empty())
        return std::nullopt;
    throw ScenarioError(lineKey(line), column + " '" + text + "' is not true or false");
}

// The extra cells of a row (after the ten figures), named by `extras`: its note and its search.
void readExtras(SweepRow& row, const std::vector<std::string>& extras,
                const std::vector<std::string>& cells, std::size_t line) {
    for (std::size_t e = 0; e < extras.size(); ++e) {
        const std::string& name = extras[e];
        const std::string& cell = cells[e];
        if (name == "dies_used") {
            // A count of dies: a whole number from 1 to the largest grid a file may have.
            const std::optional<double> dies = numberCell(cell, name, line);
            if (dies && !(*dies >= 1 && *dies <= 1e9 && *dies == std::floor(*dies)))
                throw ScenarioError(lineKey(line),
                                    "dies_used '" + cell + "' is not a count of dies");
            if (dies)
                row.diesUsed = static_cast<int>(*dies);
        } else if (name == "pp_bubble") {
            row.ppBubble = numberCell(cell, name, line);
        } else if (name == "note") {
            row.note = cell;
        } else if (name == "best_strategy") {
            row.bestStrategy = cell;
        } else if (name == "best_family") {
            row.bestFamily = cell;
        } else if (name == "best_step_s") {
            row.bestStepS = numberCell(cell, name, line);
        } else if (name == "runner_up_family") {
            row.runnerUpFamily = cell;
        } else if (name == "margin") {
            row.margin = numberCell(cell, name, line);
        }
    }
}

// A row from its axis values and its ten figure cells (as CSV text), then its extra cells,
// checked.
SweepRow rowOf(std::vector<nlohmann::json> values, const std::vector<std::string>& cells,
               std::size_t line, const std::vector<std::string>& extras = {}) {
    const std::vector<std::string>& names = figureColumns();
    SweepRow row;
    row.point.values = std::move(values);
    const std::string& sample = cells[Sample];
    int number = -1;
    const auto [stop, error] =
        std::from_chars(sample.data(), sample.data() + sample.size(), number);
    if (error != std::errc() || stop != sample.data() + sample.size() || number < 0)
        throw ScenarioError(lineKey(line),
                            "sample '" + sample + "' is not a sample number (0, 1, 2, ...)");
    row.point.sample = number;
    const std::optional<bool> ok = boolCell(cells[Ok], names[Ok], line);
    if (!ok)
        throw ScenarioError(lineKey(line), "ok is empty: a sweep's row is true or false");
    row.ok = *ok;
    row.error = cells[Error];
    row.stepS = numberCell(cells[StepS], names[StepS], line);
    row.tokensPerSecond = numberCell(cells[TokensPerS], names[TokensPerS], line);
    row.mfu = numberCell(cells[Mfu], names[Mfu], line);
    // A simulated row has every one of these; a failed row none.
    for (const Figure figure : {MakespanS, MaxLinkBytes, PeakMemory, Oom})
        if (row.ok == cells[figure].empty())
            throw ScenarioError(lineKey(line), row.ok
                                                   ? "a row with ok true has no " + names[figure]
                                                   : "a row with ok false has a " + names[figure]);
    row.makespanS = numberCell(cells[MakespanS], names[MakespanS], line).value_or(0.0);
    row.maxLinkBytes = numberCell(cells[MaxLinkBytes], names[MaxLinkBytes], line).value_or(0.0);
    row.peakMemoryBytes = numberCell(cells[PeakMemory], names[PeakMemory], line).value_or(0.0);
    row.outOfMemory = boolCell(cells[Oom], names[Oom], line).value_or(false) ||
                      (!row.ok && isOutOfMemoryError(row.error));
    readExtras(row, extras,
               std::vector<std::string>(cells.begin() + static_cast<std::ptrdiff_t>(names.size()),
                                        cells.end()),
               line);
    return row;
}

// The extra columns that end a header (docs/cli.md section 10): the planning two, `note`, then
// the search's five, each optional; the header without them is left in `columns`.
std::vector<std::string> takeExtras(std::vector<std::string>& columns) {
    std::vector<std::string> extras;
    const auto endsWith = [&](const std::vector<std::string>& tail) {
        return columns.size() >= tail.size() &&
               std::equal(tail.begin(), tail.end(), columns.end() - tail.size());
    };
    if (endsWith(kSearchColumns)) {
        columns.resize(columns.size() - kSearchColumns.size());
        extras = kSearchColumns;
    }
    if (endsWith({"note"})) {
        columns.pop_back();
        extras.insert(extras.begin(), "note");
    }
    if (endsWith(kPlanningColumns)) { // none in an output written before them
        columns.resize(columns.size() - kPlanningColumns.size());
        extras.insert(extras.begin(), kPlanningColumns.begin(), kPlanningColumns.end());
    }
    return extras;
}

// The axis columns of a header, or why it is not a sweep output's.
std::vector<std::string> axesOf(const std::vector<std::string>& columns, std::size_t line) {
    const std::vector<std::string>& figures = figureColumns();
    const std::string expected = "a sweep output's columns are its axes, then " + joined(figures) +
                                 " (docs/cli.md section 10)";
    for (const std::string& figure : figures)
        if (std::find(columns.begin(), columns.end(), figure) == columns.end())
            throw ScenarioError(lineKey(line), "no '" + figure +
                                                   "' column: this is not a sweep output; " +
                                                   expected);
    if (columns.size() <= figures.size() ||
        !std::equal(figures.begin(), figures.end(), columns.end() - figures.size()))
        throw ScenarioError(lineKey(line), "the columns are " + joined(columns) + "; " + expected);
    std::vector<std::string> axes(columns.begin(), columns.end() - figures.size());
    for (const std::string& axis : axes)
        if (axis.empty() || std::count(axes.begin(), axes.end(), axis) > 1)
            throw ScenarioError(lineKey(line), "axis column '" + axis + "' is " +
                                                   (axis.empty() ? "unnamed" : "repeated"));
    return axes;
}

// The text's records: a CSV record whose quotes are still open at a line break goes on to the
// next line (a quoted cell may hold one). `terminated` is false for a last record without its
// line break.
struct Record {
    std::string text;
    std::size_t line = 0; // its first line, 1-based
    bool terminated = true;
};

std::vector<Record> recordsOf(const std::string& text, bool csv) {
    std::vector<Record> records;
    std::size_t line = 0;
    bool open = false; // the last record's quotes are not closed
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string piece = text.substr(start, end - start);
        ++line;
        if (!piece.empty() && piece.back() == '\r')
            piece.pop_back();
        const bool quotesOdd = csv && std::count(piece.begin(), piece.end(), '"') % 2 == 1;
        if (open) {
            records.back().text += '\n' + piece;
            open = !quotesOdd;
        } else if (!piece.empty()) {
            records.push_back({std::move(piece), line, true});
            open = quotesOdd;
        }
        if (end == text.size() && !records.empty())
            records.back().terminated = false;
        start = end + 1;
    }
    if (open)
        records.back().terminated = false; // cut inside a quoted cell
    return records;
}

void readCsv(const std::vector<Record>& records, SweepOutput& output) {
    std::vector<std::string> header = csvCells(records.front().text);
    output.extras = takeExtras(header);
    output.axes = axesOf(header, records.front().line);
    const std::size_t columns = output.axes.size() + figureColumns().size() + output.extras.size();
    for (std::size_t r = 1; r < records.size(); ++r) {
        const Record& record = records[r];
        const std::vector<std::string> cells = csvCells(record.text);
        if (cells.size() != columns)
            throw ScenarioError(lineKey(record.line), "a row of " + std::to_string(cells.size()) +
                                                          " cells, where the header has " +
                                                          std::to_string(columns));
        std::vector<nlohmann::json> values;
        for (std::size_t a = 0; a < output.axes.size(); ++a)
            values.push_back(cellValue(cells[a]));
        output.rows.push_back(
            rowOf(std::move(values),
                  std::vector<std::string>(
                      cells.begin() + static_cast<std::ptrdiff_t>(output.axes.size()), cells.end()),
                  record.line, output.extras));
        output.lines.push_back(record.line);
    }
}

// A JSON Lines figure as the CSV cell sweepLine would write: null empty, a string as it is.
std::string figureCell(const nlohmann::ordered_json& value) {
    if (value.is_null())
        return {};
    return value.is_string() ? value.get<std::string>() : value.dump();
}

void readJsonLines(const std::vector<Record>& records, SweepOutput& output) {
    std::vector<std::string> columns;
    for (const Record& record : records) {
        const nlohmann::ordered_json object =
            nlohmann::ordered_json::parse(record.text, nullptr, false);
        if (object.is_discarded() || !object.is_object())
            throw ScenarioError(lineKey(record.line), object.is_discarded()
                                                          ? "not JSON: a sweep output's JSON Lines "
                                                            "hold one object per line"
                                                          : "not a JSON object: a sweep output's "
                                                            "JSON Lines hold one object per line");
        std::vector<std::string> keys;
        for (const auto& [key, value] : object.items())
            keys.push_back(key);
        if (columns.empty()) {
            columns = keys;
            std::vector<std::string> header = keys;
            output.extras = takeExtras(header);
            output.axes = axesOf(header, record.line);
        } else if (keys != columns) {
            throw ScenarioError(lineKey(record.line), "its keys (" + joined(keys) +
                                                          ") are not the first line's (" +
                                                          joined(columns) + ")");
        }
        std::vector<nlohmann::json> values;
        for (const std::string& axis : output.axes)
            values.emplace_back(object.at(axis));
        std::vector<std::string> cells;
        for (const std::string& figure : figureColumns())
            cells.push_back(figureCell(object.at(figure)));
        for (const std::string& extra : output.extras)
            cells.push_back(figureCell(object.at(extra)));
        output.rows.push_back(rowOf(std::move(values), cells, record.line, output.extras));
        output.lines.push_back(record.line);
    }
}

} // namespace

SweepOutput parseSweepOutput(const std::string& text, SweepFormat format) {
    const bool csv = format == SweepFormat::Csv;
    std::vector<Record> records = recordsOf(text, csv);
    SweepOutput output;
    // A last line cut short is dropped, as a resumed sweep drops it (readExistingRows); a
    // whole header (or first object) is needed to know the columns at all.
    if (records.size() > 1 && !records.back().terminated) {
        try {
            SweepOutput last;
            std::vector<Record> probe{records.front(), records.back()};
            if (csv)
                readCsv(probe, last);
            else
                readJsonLines({records.back()}, last);
        } catch (const ScenarioError&) {
            records.pop_back();
            output.droppedCutLine = true;
        }
    }
    if (records.empty())
        throw ScenarioError("", "the file is empty: a sweep output has a header line (CSV) or "
                                "one JSON object per line");
    if (csv)
        readCsv(records, output);
    else
        readJsonLines(records, output);
    for (std::size_t r = 0; r < output.rows.size(); ++r)
        output.rows[r].point.index = r;
    return output;
}

SweepOutput loadSweepOutput(const std::filesystem::path& file) {
    try {
        return parseSweepOutput(readWholeFile(file), sweepFormatFor(file));
    } catch (const ScenarioError& error) {
        throw ScenarioError(file.string() + (error.keyPath().empty() ? "" : ": " + error.keyPath()),
                            error.problem());
    }
}

std::optional<SweepPoint> sweepPointOf(const SweepSpec& spec,
                                       const std::vector<nlohmann::json>& values, int sample) {
    if (values.size() != spec.axes.size() || sample < 0 || sample >= spec.samples)
        return std::nullopt;
    // pointAt's numbering: the last axis fastest, then the sample.
    std::size_t index = 0;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        const std::vector<nlohmann::json>& axis = spec.axes[a].values;
        const std::string text = axisValueText(values[a]);
        const auto found = std::find_if(axis.begin(), axis.end(), [&](const nlohmann::json& v) {
            return axisValueText(v) == text;
        });
        if (found == axis.end())
            return std::nullopt;
        index = index * axis.size() + static_cast<std::size_t>(found - axis.begin());
    }
    return pointAt(spec, index * static_cast<std::size_t>(spec.samples) +
                             static_cast<std::size_t>(sample));
}

std::vector<std::filesystem::path> findSweepFiles(const std::filesystem::path& directory,
                                                  const std::vector<std::string>& axes) {
    // A sweep file is small: anything much larger is some other JSON (a report), not read.
    constexpr std::uintmax_t kLargestSweepFile = 16 * 1024 * 1024;
    std::vector<std::filesystem::path> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
        std::error_code fileError;
        if (entry.path().extension() != ".json" || !entry.is_regular_file(fileError) ||
            entry.file_size(fileError) > kLargestSweepFile || fileError)
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const nlohmann::ordered_json sweep =
            nlohmann::ordered_json::parse(text.str(), nullptr, false);
        if (sweep.is_discarded() || !sweep.is_object() || !sweep.contains("format") ||
            sweep.at("format") != "waferscope.sweep" || !sweep.contains("axes") ||
            !sweep.at("axes").is_object())
            continue;
        std::vector<std::string> keys;
        for (const auto& [key, values] : sweep.at("axes").items())
            keys.push_back(key);
        if (keys == axes)
            found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace ws
