#include "sweep_regime_map.h"

#include "search/strategy_family.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ws {

bool hasRegimeMap(const SweepOutput& output) {
    return output.axes.size() >= 2 && std::find(output.extras.begin(), output.extras.end(),
                                                "best_family") != output.extras.end();
}

namespace {

// Where `family` stands in strategyFamilies(); unknown names (a newer file) after them all.
std::size_t familyRank(const std::string& family) {
    const std::vector<std::string>& known = strategyFamilies();
    return static_cast<std::size_t>(std::find(known.begin(), known.end(), family) - known.begin());
}

// The most frequent of `counts`; ties go to the earlier family in strategyFamilies().
std::string mostFrequent(const std::map<std::string, int>& counts) {
    std::string best;
    int most = 0;
    for (const auto& [family, count] : counts)
        if (count > most || (count == most && familyRank(family) < familyRank(best))) {
            best = family;
            most = count;
        }
    return best;
}

} // namespace

SweepRegimeMap sweepRegimeMap(const SweepOutput& output, const std::vector<SweepAxisValues>& axes,
                              std::size_t xAxis, std::size_t yAxis) {
    if (xAxis == yAxis || xAxis >= axes.size() || yAxis >= axes.size())
        throw std::invalid_argument("sweepRegimeMap: two distinct axes of the output");
    SweepRegimeMap map;
    map.xAxis = xAxis;
    map.yAxis = yAxis;
    map.columns = axes[xAxis].texts;
    map.rows = axes[yAxis].texts;
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (a != xAxis && a != yAxis && !axes[a].texts.empty())
            map.heldAxes.push_back(output.axes[a] + " " + axes[a].texts.front());

    const std::size_t columns = map.columns.size();
    std::vector<std::vector<const SweepRow*>> samples(columns * map.rows.size());
    for (std::size_t r = 0; r < output.rows.size(); ++r) {
        bool held = true;
        for (std::size_t a = 0; a < axes.size(); ++a)
            held = held && (a == xAxis || a == yAxis || axes[a].codes[r] == 0);
        if (!held) {
            ++map.rowsLeftOut;
            continue;
        }
        const auto column = static_cast<std::size_t>(axes[xAxis].codes[r]);
        const auto row = static_cast<std::size_t>(axes[yAxis].codes[r]);
        samples[row * columns + column].push_back(&output.rows[r]);
    }

    std::map<std::string, bool> winners;
    map.cells.resize(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        SweepRegimeCell& cell = map.cells[i];
        cell.column = static_cast<int>(i % columns);
        cell.row = static_cast<int>(i / columns);
        cell.samples = static_cast<int>(samples[i].size());
        std::map<std::string, int> wins;
        for (const SweepRow* row : samples[i]) {
            // The row's own strategy may have failed (out of memory, say): the search's columns
            // are still its point's answer.
            if (row->bestFamily.empty() || !row->bestStepS)
                ++cell.failed;
            else
                ++wins[row->bestFamily];
        }
        cell.bestFamily = mostFrequent(wins);
        if (cell.bestFamily.empty())
            continue;
        winners[cell.bestFamily] = true;
        cell.wins = wins[cell.bestFamily];
        std::map<std::string, int> runnersUp;
        double stepSum = 0.0, runnerUpSum = 0.0, marginSum = 0.0, shortest = 0.0;
        int withRunnerUp = 0;
        for (const SweepRow* row : samples[i]) {
            if (row->bestFamily != cell.bestFamily || !row->bestStepS)
                continue;
            stepSum += *row->bestStepS;
            if (cell.bestStrategy.empty() || *row->bestStepS < shortest) {
                cell.bestStrategy = row->bestStrategy;
                shortest = *row->bestStepS;
            }
            if (row->margin && !row->runnerUpFamily.empty()) {
                ++runnersUp[row->runnerUpFamily];
                runnerUpSum += *row->bestStepS * (1.0 + *row->margin);
                marginSum += *row->margin;
                ++withRunnerUp;
            }
        }
        cell.bestStepS = stepSum / cell.wins;
        cell.runnerUpFamily = mostFrequent(runnersUp);
        if (withRunnerUp > 0) {
            cell.runnerUpStepS = runnerUpSum / withRunnerUp;
            cell.margin = marginSum / withRunnerUp;
            map.largestMargin = std::max(map.largestMargin, *cell.margin);
        }
    }
    for (const auto& [family, won] : winners)
        map.families.push_back(family);
    std::sort(map.families.begin(), map.families.end(),
              [](const std::string& a, const std::string& b) {
                  return familyRank(a) != familyRank(b) ? familyRank(a) < familyRank(b) : a < b;
              });
    return map;
}

} // namespace ws
