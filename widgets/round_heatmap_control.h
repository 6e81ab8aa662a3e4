#pragma once

#include "mesh_view.h"
#include "scenario_analysis.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QSlider;

namespace ws {

// "Heatmap of round:" above the timeline: a slider over the rounds of the analysis on screen
// (a collective's step or a TATP round, FlowReport::step); moving it asks the mesh to show that
// round's link loads alone (core: step/round_link_bytes.h), with utilisation over the round's
// own span. The leftmost position shows the whole run again.
class RoundHeatmapControl : public QWidget {
    Q_OBJECT
public:
    explicit RoundHeatmapControl(QWidget* parent = nullptr);

    // A new analysis: the slider spans its rounds and goes back to "all".
    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    void showRound(int round); // -1: the whole run

signals:
    void loadsChanged(const std::optional<ws::MeshView::LinkLoadOverride>& loads);

private:
    std::shared_ptr<const ScenarioAnalysis> m_analysis;
    QSlider* m_slider;
    QLabel* m_label;
};

} // namespace ws
