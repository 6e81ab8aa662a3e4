#include "sweep/sweep_table.h"

#include "scenario/scenario_error.h"

#include <nlohmann/json.hpp>

namespace ws {

namespace {

std::string numberText(double value) {
    return nlohmann::json(value).dump();
}

std::string csvCell(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string keyOf(const std::vector<std::string>& axisTexts, const std::string& sample) {
    std::string key;
    for (const std::string& text : axisTexts)
        key += text + '\x1f';
    return key + sample;
}

} // namespace

std::string axisValueText(const nlohmann::json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::vector<std::string> csvCells(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cells.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cells.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

SweepFormat sweepFormatFor(const std::filesystem::path& file) {
    return file.extension() == ".jsonl" ? SweepFormat::JsonLines : SweepFormat::Csv;
}

std::vector<std::string> sweepExtraColumns(const SweepSpec& spec) {
    std::vector<std::string> columns = kPlanningColumns;
    if (hasFaultAxes(spec))
        columns.push_back("note");
    if (spec.search)
        columns.insert(columns.end(), kSearchColumns.begin(), kSearchColumns.end());
    return columns;
}

std::vector<std::string> sweepColumns(const SweepSpec& spec) {
    std::vector<std::string> columns;
    for (const SweepAxis& axis : spec.axes)
        columns.push_back(axis.key);
    columns.insert(columns.end(), kSweepFigureColumns.begin(), kSweepFigureColumns.end());
    const std::vector<std::string> extra = sweepExtraColumns(spec);
    columns.insert(columns.end(), extra.begin(), extra.end());
    return columns;
}

std::string sweepHeader(const SweepSpec& spec, SweepFormat format) {
    if (format != SweepFormat::Csv)
        return {};
    std::string line;
    for (const std::string& column : sweepColumns(spec))
        line += (line.empty() ? "" : ",") + csvCell(column);
    return line + '\n';
}

std::string sweepLine(const SweepSpec& spec, const SweepRow& row, SweepFormat format) {
    const auto optional = [](const std::optional<double>& value) {
        return value ? nlohmann::json(*value) : nlohmann::json();
    };
    if (format == SweepFormat::JsonLines) {
        nlohmann::ordered_json object;
        for (std::size_t a = 0; a < spec.axes.size(); ++a)
            object[spec.axes[a].key] = row.point.values[a];
        object["sample"] = row.point.sample;
        object["ok"] = row.ok;
        object["error"] = row.ok ? nlohmann::json() : nlohmann::json(row.error);
        object["step_s"] = optional(row.stepS);
        object["tokens_per_s"] = optional(row.tokensPerSecond);
        object["mfu"] = optional(row.mfu);
        object["makespan_s"] = row.ok ? nlohmann::json(row.makespanS) : nlohmann::json();
        object["max_link_bytes"] = row.ok ? nlohmann::json(row.maxLinkBytes) : nlohmann::json();
        object["peak_memory_bytes"] =
            row.ok ? nlohmann::json(row.peakMemoryBytes) : nlohmann::json();
        object["oom"] = row.ok ? nlohmann::json(row.outOfMemory) : nlohmann::json();
        object["dies_used"] = row.diesUsed ? nlohmann::json(*row.diesUsed) : nlohmann::json();
        object["pp_bubble"] = optional(row.ppBubble);
        const auto text = [](const std::string& value) {
            return value.empty() ? nlohmann::json() : nlohmann::json(value);
        };
        if (hasFaultAxes(spec))
            object["note"] = text(row.note);
        if (spec.search) {
            object["best_strategy"] = text(row.bestStrategy);
            object["best_family"] = text(row.bestFamily);
            object["best_step_s"] = optional(row.bestStepS);
            object["runner_up_family"] = text(row.runnerUpFamily);
            object["margin"] = optional(row.margin);
        }
        return object.dump() + '\n';
    }
    const auto cell = [](const std::optional<double>& value) {
        return value ? numberText(*value) : std::string();
    };
    std::string line;
    for (const nlohmann::json& value : row.point.values)
        line += csvCell(axisValueText(value)) + ',';
    line += std::to_string(row.point.sample) + ',' + (row.ok ? "true" : "false") + ',' +
            csvCell(row.error) + ',' + cell(row.stepS) + ',' + cell(row.tokensPerSecond) + ',' +
            cell(row.mfu) + ',';
    if (row.ok)
        line += numberText(row.makespanS) + ',' + numberText(row.maxLinkBytes) + ',' +
                numberText(row.peakMemoryBytes) + ',' + (row.outOfMemory ? "true" : "false");
    else
        line += ",,,";
    line += ',' + (row.diesUsed ? std::to_string(*row.diesUsed) : std::string()) + ',' +
            cell(row.ppBubble);
    if (hasFaultAxes(spec))
        line += ',' + csvCell(row.note);
    if (spec.search)
        line += ',' + csvCell(row.bestStrategy) + ',' + csvCell(row.bestFamily) + ',' +
                cell(row.bestStepS) + ',' + csvCell(row.runnerUpFamily) + ',' + cell(row.margin);
    return line + '\n';
}

std::string pointKey(const SweepPoint& point) {
    std::vector<std::string> texts;
    for (const nlohmann::json& value : point.values)
        texts.push_back(axisValueText(value));
    return keyOf(texts, std::to_string(point.sample));
}

ExistingRows readExistingRows(const std::string& text, const SweepSpec& spec, SweepFormat format) {
    ExistingRows rows;
    const std::vector<std::string> columns = sweepColumns(spec);
    const std::size_t axes = spec.axes.size();
    std::size_t start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos;
         start = end + 1, end = text.find('\n', start)) {
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        rows.completeBytes = end + 1;
        if (line.empty())
            continue;
        if (format == SweepFormat::Csv) {
            const std::vector<std::string> cells = csvCells(line);
            if (!rows.hasHeader) {
                if (cells != columns) {
                    // An output begun before the planning columns existed: the rows this run
                    // would add have two cells more than its header.
                    std::vector<std::string> older = columns;
                    older.erase(older.begin() +
                                    static_cast<std::ptrdiff_t>(axes + kSweepFigureColumns.size()),
                                older.begin() +
                                    static_cast<std::ptrdiff_t>(axes + kSweepFigureColumns.size() +
                                                                kPlanningColumns.size()));
                    throw ScenarioError(
                        "output",
                        cells == older
                            ? "it was written before sweeps wrote dies_used and pp_bubble, so "
                              "this run cannot add rows to it: move it aside or write to another "
                              "file"
                            : "its header is not this sweep's columns: remove the file or write "
                              "to another");
                }
                rows.hasHeader = true;
                continue;
            }
            if (cells.size() != columns.size())
                throw ScenarioError("output", "a row has " + std::to_string(cells.size()) +
                                                  " cells, the sweep " +
                                                  std::to_string(columns.size()));
            rows.keys.insert(
                keyOf(std::vector<std::string>(cells.begin(), cells.begin() + axes), cells[axes]));
            continue;
        }
        nlohmann::json object;
        try {
            object = nlohmann::json::parse(line);
        } catch (const nlohmann::json::parse_error&) {
            throw ScenarioError("output", "a line is not JSON: remove the file or write to "
                                          "another");
        }
        std::vector<std::string> texts;
        for (const SweepAxis& axis : spec.axes) {
            if (!object.is_object() || !object.contains(axis.key))
                throw ScenarioError("output", "a row has no '" + axis.key +
                                                  "': it is not this sweep's output");
            texts.push_back(axisValueText(object.at(axis.key)));
        }
        if (!object.contains("sample") || !object.at("sample").is_number_integer())
            throw ScenarioError("output", "a row has no sample: it is not this sweep's output");
        rows.keys.insert(keyOf(texts, std::to_string(object.at("sample").get<int>())));
    }
    return rows;
}

} // namespace ws
