#include "walkthrough_panel.h"

#include "advisor_panel.h"
#include "builtin_scenarios.h"
#include "findings_model.h"
#include "std_string_text.h"
#include "tcme_panel.h"
#include "walkthrough_host.h"

#include "io/scenario_io.h"
#include "scenario/scenario_error.h"
#include "units/quantity.h"

#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

constexpr int kSteps = 7;

const FlowReport* flowById(const SimulationReport& report, const std::string& id) {
    const auto found = std::find_if(report.flows.begin(), report.flows.end(),
                                    [&](const FlowReport& flow) { return flow.id == id; });
    return found == report.flows.end() ? nullptr : &*found;
}

// The TATP transfer 0 -> 1 and the FSDP flow that shares its link, when the scenario is the
// teaching example (or close to it): what the walkthrough points at.
struct Conflict {
    LinkId link = -1;
    const FlowReport* tatp = nullptr;
    const FlowReport* fsdp = nullptr;
};

Conflict findConflict(const ScenarioAnalysis& analysis) {
    Conflict conflict;
    // The busiest link that carries both a TATP transfer (a p2p op here) and an all-gather.
    double best = -1;
    for (const LinkReport& link : analysis.report.links) {
        const FlowReport* tatp = nullptr;
        const FlowReport* fsdp = nullptr;
        for (int index : analysis.flowsOnLink[static_cast<std::size_t>(link.id)]) {
            const FlowReport& flow = analysis.report.flows[static_cast<std::size_t>(index)];
            if (!tatp && isTatpTransfer(flow))
                tatp = &flow;
            if (!fsdp && (flow.opKind == "allgather" || flow.opKind == "collective"))
                fsdp = &flow;
        }
        if (tatp && fsdp && link.bytes > best) {
            best = link.bytes;
            conflict = {link.id, tatp, fsdp};
        }
    }
    return conflict;
}

// "D0 = {0, 2} and D1 = {1, 3}": the groups as the scenario on screen has them.
QString groupList(const QString& prefix, const std::vector<std::vector<DieId>>& groups) {
    if (groups.empty())
        return WalkthroughPanel::tr("none in this scenario");
    QStringList parts;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        QStringList dies;
        for (DieId die : groups[g])
            dies << QString::number(die);
        parts << QStringLiteral("%1%2 = {%3}")
                     .arg(prefix)
                     .arg(g)
                     .arg(dies.join(QStringLiteral(", ")));
    }
    if (parts.size() == 1)
        return parts.front();
    const QString last = parts.takeLast();
    return WalkthroughPanel::tr("%1 and %2").arg(parts.join(QStringLiteral(", ")), last);
}

// "0 → 1 → 2", or a multicast tree's edges.
QString routeText(const Route& route) {
    QStringList parts;
    if (!route.isTree()) {
        for (DieId die : route.path)
            parts << QString::number(die);
        return parts.join(QStringLiteral(" → "));
    }
    for (const auto& [from, to] : route.edges)
        parts << QStringLiteral("%1 → %2").arg(from).arg(to);
    return WalkthroughPanel::tr("a tree (%1)").arg(parts.join(QStringLiteral(", ")));
}

// When the busiest link of all is not the one where the two kinds meet, says so: the status
// bar names the hottest link, and a selection elsewhere reads as a mistake.
QString hottestElsewhere(const SimulationReport& report, const LinkReport& shared) {
    const std::vector<LinkReport> hottest = report.hottestLinks(1);
    if (hottest.empty() || hottest.front().id == shared.id || hottest.front().bytes <= shared.bytes)
        return {};
    const LinkReport& top = hottest.front();
    return WalkthroughPanel::tr("<p>The busiest link of all, %1 → %2 (%3, the status bar's "
                                "\"hottest link\"), carries only one of the two kinds of "
                                "traffic; this one is the busiest where they meet.</p>")
        .arg(top.from)
        .arg(top.to)
        .arg(escapedHtml(formatBytes(top.bytes)));
}

QString iterationsText(int count) {
    return count == 1 ? WalkthroughPanel::tr("1 iteration")
                      : WalkthroughPanel::tr("%1 iterations").arg(count);
}

// What TCME kept, iteration by iteration, from its own record.
QString actionsText(const std::vector<TcmeIteration>& iterations) {
    QStringList lines;
    for (const TcmeIteration& iteration : iterations) {
        if (iteration.actions.empty()) {
            lines << WalkthroughPanel::tr("Iteration %1 kept no change.").arg(iteration.index);
            continue;
        }
        QStringList actions;
        for (const TcmeAction& action : iteration.actions) {
            QString text = escapedHtml(action.flow);
            if (!action.oldPath.empty()) {
                Route before, after;
                before.path = action.oldPath;
                after.path = action.newPath;
                text += QStringLiteral(": %1 ⇒ %2").arg(routeText(before), routeText(after));
            } else if (!action.detail.empty()) {
                text += QStringLiteral(": ") + escapedHtml(action.detail);
            }
            actions << text;
        }
        lines << WalkthroughPanel::tr("Iteration %1 kept %2 (makespan %3 → %4; %5).")
                     .arg(iteration.index)
                     .arg(actions.join(QStringLiteral("; ")),
                          escapedHtml(formatSeconds(iteration.before.makespanS)),
                          escapedHtml(formatSeconds(iteration.after.makespanS)),
                          TcmePanel::keptBecause(iteration).toHtmlEscaped());
    }
    return lines.join(QStringLiteral(" "));
}

// The last step's example (docs/advisor.md's worked example): four dies stream one GEMM by TATP
// and die 1 reaches 40% of its peak. Small enough to stay in SRAM with no task overhead, so that
// every task is compute-bound and the balancer's gain is the closed form's (docs/compute-model.md
// section 8). Built here rather than shipped in resources/: it belongs to the tour.
Scenario slowDieExample() {
    return parseScenario(R"({"format": "waferscope.scenario", "version": 1,
        "name": "A slow die in a TATP line",
        "description": "Four dies stream one GEMM by TATP; die 1 reaches 40% of its peak FLOP/s.",
        "wafer": {"rows": 1, "cols": 4, "die": {"task_overhead": "0 s", "gemm_tile": 1},
                  "faults": {"slow_dies": {"1": 0.4}}},
        "workload": {"kind": "gemm", "m": 4096, "k": 2048, "n": 2048},
        "strategy": {"tatp": 4}})");
}

QString roundedPercent(double fraction) {
    return QString::number(fraction * 100, 'g', 3) + QLatin1Char('%');
}

// The headline time of a report: the step's, or the makespan without one.
double headlineSeconds(const SimulationReport& report) {
    return report.step ? report.step->stepS : report.makespanS;
}

} // namespace

WalkthroughPanel::WalkthroughPanel(WalkthroughHost& host, QWidget* parent)
    : QWidget(parent), m_host(host) {
    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel;
    QFont font = m_title->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    m_title->setFont(font);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_text = new QTextBrowser;
    m_text->setOpenLinks(false);
    layout->addWidget(m_text, 1);
    auto* buttons = new QHBoxLayout;
    m_back = new QPushButton(tr("◀ Back"));
    m_next = new QPushButton(tr("Next ▶"));
    buttons->addWidget(m_back);
    buttons->addStretch(1);
    buttons->addWidget(m_next);
    layout->addLayout(buttons);
    connect(m_back, &QPushButton::clicked, this, [this] { showStep(m_step - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { showStep(m_step + 1); });
}

int WalkthroughPanel::stepCount() const {
    return kSteps;
}

void WalkthroughPanel::start() {
    // The tour is about the teaching example as shipped: open it unless the document is that
    // very scenario (by content, whatever its file is called).
    QFile file(defaultScenarioResource());
    std::optional<Scenario> example;
    if (file.open(QIODevice::ReadOnly)) {
        try {
            example = parseScenario(file.readAll().toStdString());
        } catch (const ScenarioError&) {
        }
    }
    if (!example || !(m_host.documentScenario() == *example))
        m_host.openTeachingExample();
    showStep(0);
}

QString WalkthroughPanel::currentText() const {
    return m_text->toPlainText();
}

void WalkthroughPanel::showStep(int step) {
    m_step = std::clamp(step, 0, kSteps - 1);
    m_actedOnStep = -1;
    refresh();
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < kSteps);
}

// Called on every new simulation and whenever TCME goes busy or idle: the text always describes
// what is on screen now, and a step's action (select the link, run TCME, apply) is taken once
// its inputs exist. A step whose simulation is still running says so and is completed when the
// answer arrives.
void WalkthroughPanel::refresh() {
    if (m_step < 0 || !m_host.settledAnalysis()) {
        m_title->setText(tr("Step %1 of %2").arg(m_step + 1).arg(kSteps));
        m_text->setHtml(tr("<p><i>Simulating the scenario…</i></p>"));
        return;
    }
    const bool act = m_actedOnStep != m_step;
    m_actedOnStep = m_step;
    m_text->setHtml(stepHtml(m_step, act));
}

QString WalkthroughPanel::stepHtml(int step, bool act) {
    TcmePanel* tcme = &m_host.tcme();
    const auto analysis = m_host.settledAnalysis();
    const SimulationReport& report = analysis->report;
    const Conflict conflict = findConflict(*analysis);
    const WaferSpec& wafer = analysis->scenario.wafer;
    m_title->setText(tr("Step %1 of %2").arg(step + 1).arg(kSteps));

    switch (step) {
    case 0:
        if (act) {
            m_host.selectLink(std::nullopt);
            m_host.colourLinksBy(LinkMetric::Bytes);
            m_host.bringViewForward(QStringLiteral("mesh"));
        }
        return tr("<h3>Two strategies on one wafer</h3>"
                  "<p>This %1x%2 wafer runs two kinds of parallelism at once. "
                  "<b>FSDP</b> (data parallel with sharded weights) groups dies that hold the same "
                  "slice of the model: the <b>fill colour</b> shows these DP groups, %3. Before "
                  "each layer they all-gather their weight shards.</p>"
                  "<p><b>TATP</b> (topology-aware tensor partitioning) splits each GEMM over "
                  "neighbours that stream sub-tensors to each other one hop at a time: the "
                  "<b>border colour</b> shows these TATP groups, %4.</p>"
                  "<p>Each link between two dies is two bars, one per direction, coloured by the "
                  "bytes it carried in the simulation (legend on the right). The whole exchange "
                  "takes <b>%5</b>.</p>")
            .arg(analysis->scenario.gridRows())
            .arg(analysis->scenario.gridCols())
            .arg(groupList(QStringLiteral("D"), analysis->groups.dp),
                 groupList(QStringLiteral("T"), analysis->groups.tatp),
                 escapedHtml(formatSeconds(report.makespanS)));
    case 1: {
        if (conflict.link < 0)
            return tr(
                "<p>This scenario has no link shared by a TATP transfer and an all-gather.</p>");
        if (act)
            m_host.selectLink(conflict.link);
        const LinkReport& link = report.links[static_cast<std::size_t>(conflict.link)];
        const FlowReport& fsdp = *conflict.fsdp;
        const FlowReport& tatp = *conflict.tatp;
        return tr("<h3>The conflicting link</h3>"
                  "<p>The link <b>%1 → %2</b> is now selected (black outline; the routes "
                  "through it are drawn, TATP transfers in teal and collective flows in "
                  "magenta). It carried <b>%3</b> shared by %4.</p>"
                  "<p>Under %5 routing, the all-gather flow %6 from die %7 goes %8: it has to "
                  "cross the very link the TATP transfer %9 streams over. FSDP and TATP traffic "
                  "collide although no die asked for it.</p>"
                  "%10"
                  "<p>Inspector &gt; Link flows lists the flows; hover any link for the same.</p>")
            .arg(link.from)
            .arg(link.to)
            .arg(escapedHtml(formatBytes(link.bytes)),
                 link.flowCount == 1 ? tr("1 flow") : tr("%1 flows").arg(link.flowCount),
                 escapedHtml(toString(analysis->scenario.routingMode())), escapedHtml(fsdp.id))
            .arg(fsdp.src)
            .arg(routeText(fsdp.route), escapedHtml(tatp.id), hottestElsewhere(report, link));
    }
    case 2: {
        if (conflict.link < 0)
            return {};
        const FlowReport& tatp = *conflict.tatp;
        const FlowReport& fsdp = *conflict.fsdp;
        const double alone = tatp.bytes / wafer.linkBandwidth.value +
                             wafer.linkLatency.value * std::max(1, tatp.route.hops);
        const double took = tatp.endS - tatp.startS;
        if (act) {
            m_host.bringViewForward(QStringLiteral("timeline"));
            m_host.highlightFlowOnTimeline(QString::fromStdString(tatp.id));
        }
        const bool computes = std::any_of(report.dies.begin(), report.dies.end(),
                                          [](const DieReport& die) { return die.computeS > 0; });
        return tr("<h3>Two flows, one link</h3>"
                  "<p><b>%1</b> (TATP, %2) and <b>%3</b> (FSDP, %4) share the link. The simulator "
                  "shares a link's bandwidth fairly (max-min) among the flows crossing it, so "
                  "each gets only part of it.</p>"
                  "<p>Alone, %1 would take %5 (bytes / bandwidth + latency). Sharing, it took "
                  "<b>%6</b>: the timeline (highlighted) shows die %7's send stretched by the "
                  "all-gather. %8</p>")
            .arg(escapedHtml(tatp.id), escapedHtml(formatBytes(tatp.bytes)), escapedHtml(fsdp.id),
                 escapedHtml(formatBytes(fsdp.bytes)), escapedHtml(formatSeconds(alone)),
                 escapedHtml(formatSeconds(took)))
            .arg(tatp.src)
            .arg(computes ? tr("TATP's compute waits for these streams, so the whole step waits.")
                          : tr("Every transfer that waits for this one starts later, and the "
                               "makespan grows with it."));
    }
    case 3: {
        if (act) {
            m_host.bringViewForward(QStringLiteral("tcme"));
            if (tcme->iterationCount() == 0 && !tcme->isBusy() && !tcme->isFinished())
                tcme->run(); // until TCME's own stop rule; refresh() follows its progress
        }
        if (tcme->isBusy())
            return tr("<h3>TCME separates them</h3><p><i>TCME is running: %1 so far…</i></p>")
                .arg(iterationsText(tcme->iterationCount()));
        return tr("<h3>TCME separates them</h3>"
                  "<p>The optimizer (TCME panel, right) finds the most congested link, lists "
                  "the flows that cross it and tries to take some off: merging duplicate "
                  "transfers into multicast trees, or rerouting a flow on a bypass path weighted "
                  "by current load. A change is kept only if it improves the simulation: a "
                  "lower makespan; at an equal makespan, a lower largest link load; with both "
                  "equal, a more even spread of load, so that the next iteration can take "
                  "another of several equally hot links off the top. Each iteration below "
                  "says which.</p>"
                  "<p>%1 ran. %2</p>"
                  "<p>On the mesh the iteration's target link is outlined in red, each rerouted "
                  "flow's old "
                  "path is dashed grey and its new path orange. The chart plots the makespan per "
                  "iteration.</p>")
            .arg(iterationsText(tcme->iterationCount()), actionsText(tcme->iterations()));
    }
    case 4:
        if (act)
            tcme->showAfter(false);
        return tr("<h3>Before and after</h3>"
                  "<p>The heatmap now shows the loads <b>before</b> TCME, as the scenario was "
                  "opened; press <b>After</b> in the TCME panel to see them after the selected "
                  "iteration. Both use one colour scale, so a colour that changes is a load that "
                  "changed. The iteration list gives the numbers: the makespan and the largest "
                  "link load before and after each iteration.</p>"
                  "<p>Press <b>Next</b> to apply the tuned routes to the scenario (one undo step: "
                  "Ctrl+Z brings the old routes back) and see the new timeline.</p>");
    case 5: {
        if (act) {
            // The whole timeline after: step 2's link and flow no longer filter it.
            m_host.selectLink(std::nullopt);
            m_host.highlightFlowOnTimeline(QString());
            m_host.bringViewForward(QStringLiteral("timeline"));
            m_makespanBeforeApply.reset();
            if (tcme->iterationCount() > 0 && !tcme->isBusy()) {
                m_makespanBeforeApply = report.makespanS;
                m_tatpBeforeApply = conflict.tatp ? conflict.tatp->id : std::string();
                tcme->apply(); // re-simulates: refresh() completes the text when it is back
                return tr("<p><i>Simulating the tuned scenario…</i></p>");
            }
        }
        if (!m_makespanBeforeApply)
            return tr("<h3>The timeline after</h3><p>TCME found no change to apply on this "
                      "scenario, so its routes stay as they were.</p>");
        const Conflict after = conflict;
        QString tatpLine;
        if (const FlowReport* flow = flowById(report, m_tatpBeforeApply))
            tatpLine = tr("<p>%1 now takes <b>%2</b>.</p>")
                           .arg(escapedHtml(flow->id),
                                escapedHtml(formatSeconds(flow->endS - flow->startS)));
        return tr("<h3>The timeline after</h3>"
                  "<p>The scenario now pins the tuned routes (routing.paths). The makespan went "
                  "from %1 to <b>%2</b>.</p>%3"
                  "<p>%4</p>"
                  "<p>Try it yourself: drag a die of a TATP group onto a free die and watch the "
                  "heatmap follow (a drop the core refuses is explained in the status bar); "
                  "Ctrl+Z undoes.</p>")
            .arg(escapedHtml(formatSeconds(*m_makespanBeforeApply)),
                 escapedHtml(formatSeconds(report.makespanS)), tatpLine,
                 after.link < 0
                     ? tr("No link is shared by a TATP transfer and an all-gather any more.")
                     : tr("The busiest link still shared by both carries %1.")
                           .arg(escapedHtml(formatBytes(
                               report.links[static_cast<std::size_t>(after.link)].bytes))));
    }
    case 6:
        return slowDieHtml(act);
    default:
        return {};
    }
}

QString WalkthroughPanel::slowDieHtml(bool act) {
    AdvisorPanel& advisor = m_host.advisor();
    if (act) {
        m_findingSelected = false;
        m_stepBeforeFix.reset();
        m_host.selectLink(std::nullopt);
        m_host.highlightFlowOnTimeline(QString());
        m_host.bringViewForward(QStringLiteral("advisor"));
        if (const Scenario example = slowDieExample(); !(m_host.documentScenario() == example)) {
            if (!m_host.openExample(example, QStringLiteral("slow_die_line_1x4.json")))
                return tr("<h3>A slow die</h3><p>This step opens an example of its own: save or "
                          "discard your edits, then press Back and Next.</p>");
            return tr("<p><i>Opening the slow-die example…</i></p>");
        }
    }
    const auto analysis = m_host.settledAnalysis();
    const Scenario& scenario = analysis->scenario;
    const WaferSpec& wafer = scenario.wafer;
    if (wafer.slowDies.empty() || !scenario.strategy)
        return tr("<h3>A slow die</h3><p>This scenario has no slow die: press Back and Next to "
                  "open the tour's example again.</p>");
    const auto [slowDie, slowSpeed] = *wafer.slowDies.begin();
    // The group's mean speed, which shares by speed run at (docs/compute-model.md section 8).
    double speeds = 0.0;
    std::size_t members = 0;
    for (const auto& group : analysis->groups.tatp)
        if (std::find(group.begin(), group.end(), slowDie) != group.end())
            for (DieId die : group) {
                speeds += wafer.dieSpeed(die);
                ++members;
            }
    const double now = headlineSeconds(analysis->report);
    if (scenario.strategy->balance == StrategySpec::Balance::Speed) {
        const QString before =
            m_stepBeforeFix ? tr(" from %1").arg(escapedHtml(formatSeconds(*m_stepBeforeFix)))
                            : QString();
        // What the Advisor says of the balanced scenario, as it is on screen.
        const QString advice =
            !advisor.isCurrent() ? tr("The Advisor is diagnosing the balanced scenario.")
            : advisor.model()->rowOf("load_imbalance") < 0
                ? tr("The Advisor simulated it again: the imbalance is gone from its list.")
                : tr("The Advisor still finds an imbalance: its list says why.");
        return tr("<h3>Balanced by speed</h3>"
                  "<p>The fix is applied: <tt>strategy.balance</tt> is now \"speed\" (the "
                  "Strategy dock's <b>Balance</b> box says so; Ctrl+Z undoes it). Each die's share "
                  "of the sub-tensors is in proportion to its speed, so the group runs at its "
                  "members' mean speed, %1 of peak, instead of die %2's %3: the step went%4 to "
                  "<b>%5</b>.</p>"
                  "<p>%6 Right-click a die on the mesh to make it slow (Die speed…) and watch the "
                  "Advisor follow.</p>")
            .arg(roundedPercent(members > 0 ? speeds / static_cast<double>(members) : 1.0))
            .arg(slowDie)
            .arg(roundedPercent(slowSpeed), before, escapedHtml(formatSeconds(now)), advice);
    }
    if (advisor.isBusy() || !advisor.isCurrent())
        return tr("<h3>A slow die</h3><p><i>The Advisor is diagnosing the scenario…</i></p>");
    const int row = advisor.model()->rowOf("load_imbalance");
    const Finding* imbalance = advisor.model()->findingAt(row);
    if (!imbalance)
        return tr("<h3>A slow die</h3><p>The Advisor finds no load imbalance in this scenario: "
                  "its TATP group is balanced already.</p>");
    if (!m_findingSelected) { // once: the user may select another finding afterwards
        m_findingSelected = advisor.selectFinding(QStringLiteral("load_imbalance"));
        m_stepBeforeFix = now;
    }
    const QString fix =
        imbalance->fix && imbalance->fixAfterS
            ? tr("<p>Its fix, <tt>strategy.balance = \"speed\"</tt>, was simulated before it was "
                 "offered: the step takes %1 instead of %2. Press <b>Apply fix: load_imbalance</b> "
                 "in the Advisor (one undo step).</p>")
                  .arg(escapedHtml(formatSeconds(*imbalance->fixAfterS)),
                       escapedHtml(formatSeconds(now)))
            : tr("<p>The Advisor offers no fix for it here.</p>");
    return tr("<h3>A slow die</h3>"
              "<p>This %1x%2 wafer streams one GEMM through a TATP group of %3 dies, and die %4 is "
              "<b>slow</b>: it reaches %5 of its peak FLOP/s (<tt>wafer.faults.slow_dies</tt>). "
              "On the mesh it is hatched in amber, its speed in a badge; right-click any die to "
              "set its speed.</p>"
              "<p>With even shares (the Strategy dock's <b>Balance</b>: even) every member "
              "computes the same sub-tensors, so the others wait for die %4 each round: the step "
              "takes <b>%6</b>. The <b>Advisor</b> diagnoses the scenario from its own "
              "simulation; its finding <b>load_imbalance</b> is selected and the group outlined "
              "in purple on the mesh:</p><p><i>%7</i></p>%8")
        .arg(scenario.gridRows())
        .arg(scenario.gridCols())
        .arg(members)
        .arg(slowDie)
        .arg(roundedPercent(slowSpeed), escapedHtml(formatSeconds(now)),
             escapedHtml(imbalance->message), fix);
}

} // namespace ws
