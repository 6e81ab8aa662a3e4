#include "walkthrough_panel.h"

#include "builtin_scenarios.h"
#include "evaluation_runner.h"
#include "main_window.h"
#include "mesh_view.h"
#include "scenario_document.h"
#include "tcme_panel.h"
#include "timeline_view.h"

#include "units/quantity.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

constexpr int kSteps = 6;

QString qs(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

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
            if (!tatp && (flow.opKind == "p2p" || flow.opKind == "tatp"))
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

} // namespace

WalkthroughPanel::WalkthroughPanel(MainWindow* window) : QWidget(window), m_window(window) {
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
    if (m_window->document()->displayName() != QLatin1String("contention_fsdp_tatp_4x4.json") ||
        m_window->document()->isModified())
        m_window->openScenario(defaultScenarioResource(), nullptr, true);
    m_window->waitForIdle();
    showStep(0);
}

QString WalkthroughPanel::currentText() const {
    return m_text->toPlainText();
}

void WalkthroughPanel::showStep(int step) {
    m_step = std::clamp(step, 0, kSteps - 1);
    m_window->waitForIdle();
    m_text->setHtml(stepHtml(m_step));
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < kSteps);
}

QString WalkthroughPanel::stepHtml(int step) {
    MeshView* mesh = m_window->meshView();
    const auto analysis = mesh->analysis();
    if (!analysis) {
        m_title->setText(tr("Walkthrough"));
        return tr("The scenario has not been simulated yet.");
    }
    const SimulationReport& report = analysis->report;
    const Conflict conflict = findConflict(*analysis);
    const double bandwidth = analysis->scenario.wafer.linkBandwidth.value;
    const double latency = analysis->scenario.wafer.linkLatency.value;
    m_title->setText(tr("Step %1 of %2").arg(step + 1).arg(kSteps));

    switch (step) {
    case 0:
        mesh->selectLink(std::nullopt);
        mesh->setMetric(LinkMetric::Bytes);
        m_window->showView(QStringLiteral("mesh"));
        return tr("<h3>Two strategies on one wafer</h3>"
                  "<p>Row 0 of this 4x4 wafer runs two kinds of parallelism at once. "
                  "<b>FSDP</b> (data parallel with sharded weights) pairs dies that hold the same "
                  "slice of the model: the <b>fill colour</b> shows these DP groups, D0 = {0, 2} "
                  "and D1 = {1, 3}. Before each layer they all-gather their weight shards.</p>"
                  "<p><b>TATP</b> (topology-aware tensor partitioning) splits each GEMM over "
                  "neighbours that stream sub-tensors to each other one hop at a time: the "
                  "<b>border colour</b> shows these TATP groups, T0 = {0, 1} and T1 = {2, 3}.</p>"
                  "<p>Each link between two dies is two bars, one per direction, coloured by the "
                  "bytes it carried in the simulation (legend on the right). The whole exchange "
                  "takes <b>%1</b>.</p>")
            .arg(qs(formatSeconds(report.makespanS)));
    case 1: {
        if (conflict.link < 0)
            return tr("<p>This scenario has no link shared by a TATP transfer and an all-gather.</p>");
        mesh->selectLink(conflict.link);
        const LinkReport& link = report.links[static_cast<std::size_t>(conflict.link)];
        return tr("<h3>The conflicting link</h3>"
                  "<p>The link <b>%1 → %2</b> is now selected (black outline; the routes "
                  "through it are drawn in magenta). It carried <b>%3</b> shared by %4 flows.</p>"
                  "<p>Under XY routing, die 0's all-gather to die 2 goes 0 → 1 → 2: it has to "
                  "cross the very link the TATP pair {0, 1} streams over. FSDP and TATP traffic "
                  "collide although no die asked for it.</p>"
                  "<p>Inspector &gt; Link flows lists the flows; hover any link for the same.</p>")
            .arg(link.from)
            .arg(link.to)
            .arg(qs(formatBytes(link.bytes)))
            .arg(link.flowCount);
    }
    case 2: {
        if (conflict.link < 0)
            return {};
        const FlowReport& tatp = *conflict.tatp;
        const FlowReport& fsdp = *conflict.fsdp;
        const double alone = tatp.bytes / bandwidth + latency * std::max(1, tatp.route.hops);
        const double took = tatp.endS - tatp.startS;
        m_window->showView(QStringLiteral("timeline"));
        if (TimelineView* timeline = m_window->timelineView())
            timeline->highlightFlow(QString::fromStdString(tatp.id));
        return tr("<h3>Two flows, one link</h3>"
                  "<p><b>%1</b> (TATP, %2) and <b>%3</b> (FSDP, %4) share the link. The simulator "
                  "shares a link's bandwidth fairly (max-min) among the flows crossing it, so "
                  "each gets only part of it.</p>"
                  "<p>Alone, %1 would take %5 (bytes / bandwidth + latency). Sharing, it took "
                  "<b>%6</b>: the timeline (highlighted) shows die %7's send stretched by the "
                  "all-gather. TATP's compute waits for these streams, so the whole step waits.</p>")
            .arg(qs(tatp.id), qs(formatBytes(tatp.bytes)), qs(fsdp.id), qs(formatBytes(fsdp.bytes)),
                 qs(formatSeconds(alone)), qs(formatSeconds(took)))
            .arg(tatp.src);
    }
    case 3: {
        TcmePanel* tcme = m_window->tcmePanel();
        m_window->showView(QStringLiteral("tcme"));
        if (tcme->iterationCount() == 0)
            tcme->stepBlocking(2);
        m_window->waitForIdle();
        return tr("<h3>TCME separates them</h3>"
                  "<p>The optimizer (TCME panel, right) finds the most congested link, lists "
                  "the flows that cross it and tries to take some off: merging duplicate "
                  "transfers into multicast trees, or rerouting a flow on a bypass path weighted "
                  "by current load. A change is kept only if the simulated makespan (then the "
                  "hottest link's load) improves.</p>"
                  "<p>Two iterations have run. On the mesh the hottest link is outlined in red, "
                  "each rerouted flow's old path is dashed grey and its new path orange: the FSDP "
                  "all-gather now travels through row 1 and leaves the TATP links alone. The "
                  "chart plots the makespan per iteration.</p>");
    }
    case 4: {
        TcmePanel* tcme = m_window->tcmePanel();
        tcme->showAfter(false);
        return tr("<h3>Before and after</h3>"
                  "<p>The heatmap now shows the loads <b>before</b> the iteration; press "
                  "<b>After</b> in the TCME panel to compare. The iteration list gives the "
                  "numbers: the makespan and the hottest link's bytes before and after each "
                  "iteration.</p>"
                  "<p>Press <b>Next</b> to apply the tuned routes to the scenario (one undo step: "
                  "Ctrl+Z brings the old routes back) and see the new timeline.</p>");
    }
    case 5: {
        TcmePanel* tcme = m_window->tcmePanel();
        const double before = report.makespanS;
        if (tcme->iterationCount() > 0)
            tcme->apply();
        m_window->waitForIdle();
        const auto tuned = m_window->meshView()->analysis();
        const Conflict after = findConflict(*tuned);
        m_window->showView(QStringLiteral("timeline"));
        QString tatpLine;
        if (conflict.tatp)
            if (const FlowReport* flow = flowById(tuned->report, conflict.tatp->id))
                tatpLine = tr("<p>%1 now takes <b>%2</b>.</p>")
                               .arg(qs(flow->id), qs(formatSeconds(flow->endS - flow->startS)));
        return tr("<h3>The timeline after</h3>"
                  "<p>The scenario now pins the tuned routes (routing.paths). The makespan went "
                  "from %1 to <b>%2</b>.</p>%3"
                  "<p>%4</p>"
                  "<p>Try it yourself: drag die 2 onto die 6 to move it out of row 0, and watch "
                  "the heatmap follow; Ctrl+Z undoes.</p>")
            .arg(qs(formatSeconds(before)), qs(formatSeconds(tuned->report.makespanS)), tatpLine,
                 after.link < 0 ? tr("No link is shared by a TATP transfer and an all-gather any more.")
                                : tr("The busiest link still shared by both carries %1.")
                                      .arg(qs(formatBytes(tuned->report.links[static_cast<std::size_t>(after.link)].bytes))));
    }
    default:
        return {};
    }
}

} // namespace ws
