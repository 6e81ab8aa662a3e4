#pragma once

#include "sweep_chart_data.h"

#include "sweep/sweep_output.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// A sweep that searched at every point (docs/cli.md section 10, `search`), drawn over two of
// its axes (docs/gui.md "Sweep results"): one cell per pair of values, naming the family whose
// best strategy won there and by how much the runner-up family lost.
struct SweepRegimeCell {
    int column = 0, row = 0; // the x and y axes' value indexes (SweepAxisValues::values)
    int samples = 0;         // rows at the cell
    // Rows whose search found nothing that fits. A row whose own strategy failed (ok false)
    // still counts with its search's answer.
    int failed = 0;
    // The family that won the most samples (ties: the first in strategyFamilies()); "" when no
    // sample has a winner. `wins` is how many samples it won.
    std::string bestFamily;
    int wins = 0;
    // The winning samples' means: the best step, and the runner-up family's best step and the
    // margin (runner-up over best, minus 1) over those of them that have a runner-up.
    double bestStepS = 0.0;
    std::string bestStrategy;   // the winning sample with the shortest best step's
    std::string runnerUpFamily; // the most frequent among the winning samples; "" when none
    std::optional<double> runnerUpStepS;
    std::optional<double> margin;
};

struct SweepRegimeMap {
    std::size_t xAxis = 0, yAxis = 0;       // among the output's axes
    std::vector<std::string> columns, rows; // the axes' values as written: x, then y
    std::vector<std::string> families;      // that win a cell, in strategyFamilies() order
    std::vector<SweepRegimeCell> cells;     // row-major: rows.size() x columns.size()
    std::vector<std::string> heldAxes;      // other axes, held at their first value: "sp 2"
    std::size_t rowsLeftOut = 0;            // rows at another value of a held axis
    double largestMargin = 0.0;             // over the cells, for the shading's scale
    const SweepRegimeCell& at(std::size_t column, std::size_t row) const {
        return cells[row * columns.size() + column];
    }
};

// Whether `output` can be drawn as a map: a search's columns and at least two axes.
bool hasRegimeMap(const SweepOutput& output);

// The map of `output` over the axes `xAxis` and `yAxis` (distinct, among the output's axes),
// any other axis held at its first value. Rows of a cell are its samples.
//   Example: a sweep of link_bandwidth {1, 4 TB/s} x hbm {72, 96 GB} whose rows' best_family
//   are tatp, tp_sp, tatp, tatp gives a 2x2 map whose families are {tatp, tp_sp}.
SweepRegimeMap sweepRegimeMap(const SweepOutput& output, const std::vector<SweepAxisValues>& axes,
                              std::size_t xAxis, std::size_t yAxis);

} // namespace ws
