#pragma once

#include "load_color_map.h"
#include "scenario_analysis.h"

#include "scenario/scenario.h"
#include "topology/wafer_topology.h"

#include <QString>

#include <memory>
#include <optional>

namespace ws {

class AdvisorPanel;
class TcmePanel;

// What the walkthrough (walkthrough_panel.h) may ask of the window it guides a user through:
// the scenario and its analysis on screen, the few gestures it makes on the user's behalf, and
// the TCME and Advisor panels it drives. MainWindow implements it; the walkthrough sees nothing
// else of the window, and tells the host nothing but these requests.
class WalkthroughHost {
public:
    virtual ~WalkthroughHost() = default;

    virtual const Scenario& documentScenario() const = 0;
    virtual void openTeachingExample() = 0;
    // Replaces the document with one of the tour's own examples, titled `name` (the slow-die
    // line of its last step). False when the user chose to keep unsaved edits of a file.
    virtual bool openExample(const Scenario& scenario, const QString& name) = 0;
    // The analysis on screen; null while none has arrived or a newer one is being simulated.
    virtual std::shared_ptr<const ScenarioAnalysis> settledAnalysis() const = 0;
    virtual void bringViewForward(const QString& name) = 0; // MainWindow::viewNames()
    virtual void selectLink(std::optional<LinkId> link) = 0;
    virtual void colourLinksBy(LinkMetric metric) = 0;
    virtual void highlightFlowOnTimeline(const QString& flowId) = 0;
    virtual TcmePanel& tcme() = 0;
    virtual AdvisorPanel& advisor() = 0;
};

} // namespace ws
