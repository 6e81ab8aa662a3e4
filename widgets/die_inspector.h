#pragma once

#include "scenario_analysis.h"

#include <QTextBrowser>

#include <memory>

namespace ws {

// What one die holds and does: its groups, compute time and utilisation, its sub-tensors in
// the unified representation and its memory against SRAM and HBM (training steps).
class DieInspector : public QTextBrowser {
    Q_OBJECT
public:
    explicit DieInspector(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    void showDie(int die); // -1: a hint to click a die

private:
    void refresh();

    std::shared_ptr<const ScenarioAnalysis> m_analysis;
    int m_die = -1;
};

} // namespace ws
