#include "tcme_panel.h"

#include "process_events_until.h"
#include "scenario_document.h"
#include "std_string_text.h"

#include "evaluation/scenario_run.h"
#include "tcme/scenario_evaluation.h"
#include "units/quantity.h"

#include <QAction>
#include <QButtonGroup>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <utility>

namespace ws {

namespace {

// On an action's line of the iteration list: its index in the iteration's actions.
constexpr int kActionRole = Qt::UserRole + 1;

QString pathText(const std::vector<DieId>& path) {
    QStringList dies;
    for (DieId die : path)
        dies << QString::number(die);
    return dies.join(QStringLiteral("→"));
}

QString actionText(const TcmeAction& action) {
    switch (action.kind) {
    case TcmeAction::Kind::Reroute:
        return QCoreApplication::translate("ws", "reroute %1: %2 ⇒ %3")
            .arg(qs(action.flow), pathText(action.oldPath), pathText(action.newPath));
    case TcmeAction::Kind::Multicast:
        return QCoreApplication::translate("ws", "multicast %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    case TcmeAction::Kind::Hierarchical:
        return QCoreApplication::translate("ws", "hierarchical %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    case TcmeAction::Kind::Retree:
        return QCoreApplication::translate("ws", "retree %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    case TcmeAction::Kind::ReductionTree:
        return QCoreApplication::translate("ws", "reduction tree %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    case TcmeAction::Kind::Split:
        return QCoreApplication::translate("ws", "split %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    case TcmeAction::Kind::BidirectionalRing:
        return QCoreApplication::translate("ws", "bidirectional ring %1: %2")
            .arg(qs(action.flow), qs(action.detail));
    }
    return {};
}

} // namespace

// Why TCME kept an iteration's change, in words (docs/gui.md "TCME": a change that left the
// makespan and the largest link load where they were must say which rule kept it).
QString TcmePanel::keptBecause(const TcmeIteration& iteration) {
    switch (iteration.gain) {
    case TcmeGain::None:
        break;
    case TcmeGain::StepTime:
        return tr("kept: the step time fell");
    case TcmeGain::Makespan:
        return tr("kept: the makespan fell");
    case TcmeGain::HottestLink:
        return tr("kept: same makespan, the largest link load fell");
    case TcmeGain::Spread: {
        // The objective compares squared busy times (tcme_engine.cpp); with one link bandwidth,
        // as on one wafer, the same share as squared bytes.
        ScenarioEvaluation before, after;
        before.linkBytes = iteration.linkBytesBefore;
        after.linkBytes = iteration.linkBytesAfter;
        const double was = before.sumSquaredLinkBytes();
        return tr("kept: same makespan and largest link load, the load spreads more evenly (sum of "
                  "squared link bytes %1% lower), so that the next iteration can take another "
                  "of the equally hot links off the top")
            .arg(was > 0 ? (was - after.sumSquaredLinkBytes()) / was * 100 : 0.0, 0, 'f', 1);
    }
    }
    return tr("no change improves the objective");
}

namespace {
constexpr int kLegendMinHeight = 150; // pixels of chart below which its legend is hidden
} // namespace

TcmePanel::TcmePanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_job(new BackgroundJob(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QHBoxLayout;
    m_stepButton = new QPushButton(tr("Step"));
    m_stepButton->setToolTip(tr("One TCME iteration: find the target link, try merges and "
                                "reroutes, keep the best if it helps (F10)"));
    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setToolTip(tr("Step until a stop rule fires (F5); press again to stop"));
    m_resetButton = new QPushButton(tr("Reset"));
    m_applyButton = new QPushButton(tr("Apply"));
    m_applyButton->setToolTip(
        tr("Write the tuned routes and algorithms into the scenario (one undo step)"));
    for (QPushButton* button : {m_stepButton, m_runButton, m_resetButton, m_applyButton})
        buttons->addWidget(button);
    layout->addLayout(buttons);

    auto* toggle = new QHBoxLayout;
    toggle->addWidget(new QLabel(tr("Heatmap:")));
    m_beforeButton = new QPushButton(tr("Before"));
    m_afterButton = new QPushButton(tr("After"));
    auto* group = new QButtonGroup(this);
    for (QPushButton* button : {m_beforeButton, m_afterButton}) {
        button->setCheckable(true);
        group->addButton(button);
        toggle->addWidget(button);
    }
    m_afterButton->setChecked(true);
    m_beforeButton->setToolTip(
        tr("Colour the links by their loads as the scenario was opened, before TCME"));
    m_afterButton->setToolTip(tr("Colour the links by their loads after the selected iteration"));
    toggle->addStretch(1);
    layout->addLayout(toggle);

    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_iterations = new QTreeWidget;
    m_iterations->setHeaderHidden(true);
    m_iterations->setRootIsDecorated(true);
    // The list and the chart share one splitter, and their minimums are small, so that the
    // dock leaves the Inspector below it room (docs/gui.md "Layout").
    auto* split = new QSplitter(Qt::Vertical);
    split->setChildrenCollapsible(false);
    m_iterations->setMinimumHeight(48);
    split->addWidget(m_iterations);
    layout->addWidget(split, 1);

    m_chart = new QCustomPlot;
    m_chart->setMinimumHeight(90);
    m_chart->addGraph(m_chart->xAxis, m_chart->yAxis);
    m_chart->addGraph(m_chart->xAxis, m_chart->yAxis2);
    // The largest link load in bytes, not its utilisation: utilisation is bytes over bandwidth
    // times the makespan, and both fall together, so it stays flat while TCME works (docs/gui.md
    // "TCME").
    m_chart->graph(0)->setName(tr("largest link load (% of start)"));
    m_chart->graph(0)->setPen(QPen(QColor(220, 20, 20), 2));
    m_chart->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    m_chart->graph(1)->setName(tr("makespan (µs)"));
    // Dashed: when the makespan falls with the largest link load (the teaching example), the two
    // curves coincide and the red one shows through the gaps.
    m_chart->graph(1)->setPen(QPen(QColor(30, 90, 200), 2, Qt::DashLine));
    m_chart->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 6));
    m_chart->xAxis->setLabel(tr("iteration"));
    m_chart->yAxis->setLabel(tr("% of start"));
    m_chart->yAxis2->setLabel(tr("makespan µs"));
    m_chart->yAxis2->setVisible(true);
    m_chart->yAxis->setLabelColor(QColor(220, 20, 20));
    m_chart->yAxis2->setLabelColor(QColor(30, 90, 200));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_chart->xAxis->setTicker(ticker);
    m_chart->legend->setVisible(true);
    // In a short dock (a 1280x720 window) the legend would cover the curves and the axes: there
    // the axis labels, in the curves' colours, name them alone.
    connect(m_chart, &QCustomPlot::beforeReplot, this,
            [this] { m_chart->legend->setVisible(m_chart->height() >= kLegendMinHeight); });
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_chart->legend->setFont(legendFont);
    // See-through: on a short chart the curves cross the legend's corner as they fall.
    m_chart->legend->setBrush(QColor(255, 255, 255, 170));
    m_chart->legend->setBorderPen(QPen(QColor(160, 160, 160)));
    // Bottom right: both curves sit in the upper part of the plot (ranges start at 0).
    m_chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({100, 120}); // the chart readable from the start, not the list's wish

    m_stepAction = new QAction(tr("TCME &step"), this);
    m_runAction = new QAction(tr("TCME &run"), this);
    m_resetAction = new QAction(tr("&Reset TCME"), this);
    m_applyAction = new QAction(tr("&Apply tuned routes"), this);
    connect(m_stepAction, &QAction::triggered, this, &TcmePanel::step);
    connect(m_runAction, &QAction::triggered, this, &TcmePanel::run);
    connect(m_resetAction, &QAction::triggered, this, &TcmePanel::reset);
    connect(m_applyAction, &QAction::triggered, this, &TcmePanel::apply);
    connect(m_stepButton, &QPushButton::clicked, this, &TcmePanel::step);
    connect(m_runButton, &QPushButton::clicked, this, &TcmePanel::run);
    connect(m_resetButton, &QPushButton::clicked, this, &TcmePanel::reset);
    connect(m_applyButton, &QPushButton::clicked, this, &TcmePanel::apply);
    connect(m_beforeButton, &QPushButton::clicked, this, [this] { showAfter(false); });
    connect(m_afterButton, &QPushButton::clicked, this, [this] { showAfter(true); });
    connect(m_iterations, &QTreeWidget::currentItemChanged, this, [this] { publishOverlay(); });
    connect(m_document, &ScenarioDocument::scenarioChanged, this, [this] {
        if (!m_applying)
            invalidate();
    });
    refreshControls();
    refreshChart();
}

TcmePanel::~TcmePanel() = default; // a step in flight holds its own engine: nothing to wait for

int TcmePanel::iterationCount() const {
    return m_engine ? static_cast<int>(m_engine->iterations().size()) : 0;
}

std::vector<TcmeIteration> TcmePanel::iterations() const {
    if (m_busy || !m_engine)
        return {};
    return m_engine->iterations();
}

std::optional<Scenario> TcmePanel::tunedScenario() const {
    if (m_busy || iterationCount() == 0)
        return std::nullopt;
    const auto& iterations = m_engine->iterations();
    const bool changed = std::any_of(iterations.begin(), iterations.end(),
                                     [](const TcmeIteration& it) { return !it.actions.empty(); });
    if (!changed)
        return std::nullopt; // nothing to export: the scenario as it is
    return m_engine->tunedScenario();
}

void TcmePanel::invalidate() {
    m_running = false;
    m_cancelled = false;
    // A step in flight holds its own engine and topology: it finishes alone, its answer is
    // dropped, and the GUI thread does not wait for it.
    m_job->cancel();
    if (m_busy) {
        m_busy = false;
        emit busyChanged(false);
    }
    m_engine.reset();
    m_topology.reset();
    refreshList();
    refreshChart();
    refreshControls();
    emit overlayChanged(std::nullopt, std::nullopt);
}

void TcmePanel::reset() {
    invalidate();
    emit statusMessage(tr("TCME reset"));
}

QString TcmePanel::statusText() const {
    return m_status->text();
}

void TcmePanel::step() {
    if (m_busy || isFinished())
        return;
    m_cancelled = false;
    startStep();
}

void TcmePanel::run() {
    if (m_running) { // the button reads Stop
        m_running = false;
        m_cancelled = true;
        refreshControls();
        return;
    }
    if (m_busy || isFinished())
        return;
    m_running = true;
    m_cancelled = false;
    startStep();
}

void TcmePanel::startStep() {
    setBusy(true);
    // The job gets the engine to step, or builds one (its first evaluation can take a while on
    // a big training step); the GUI thread does not touch the engine while m_busy is set.
    std::shared_ptr<WaferTopology> topology = m_topology;
    std::shared_ptr<TcmeEngine> engine = m_engine;
    Scenario scenario = m_document->scenario();
    m_job->start<StepOutcome>(
        [topology, engine, scenario](const JobToken&) mutable {
            StepOutcome outcome;
            if (!engine) {
                // The overrides the CLI's optimize applies (evaluation/scenario_run.h).
                applyRunEnvironment(scenario, frontEndRunOptions());
                topology = std::make_shared<WaferTopology>(scenario.topologySpec());
                engine =
                    std::make_shared<TcmeEngine>(scenario, *topology, tcmeOptionsFrom(scenario));
            }
            if (!engine->finished())
                engine->step();
            outcome.topology = topology;
            outcome.engine = engine;
            return outcome;
        },
        [this](StepOutcome outcome) { finishStep(outcome); },
        [this](const QString& error) {
            StepOutcome outcome;
            outcome.error = error;
            finishStep(outcome);
        });
}

void TcmePanel::finishStep(const StepOutcome& outcome) {
    m_topology = outcome.topology;
    m_engine = outcome.engine;
    setBusy(false);
    if (!m_engine) {
        m_running = false;
        emit statusMessage(tr("TCME cannot run: %1").arg(outcome.error));
        refreshControls();
        m_status->setText(
            tr("<span style='color:#c00'>%1</span>").arg(outcome.error.toHtmlEscaped()));
        return;
    }
    refreshList();
    refreshChart();
    publishOverlay();
    if (m_running && !m_engine->finished()) {
        startStep();
        return;
    }
    m_running = false;
    refreshControls();
}

int TcmePanel::stepBlocking(int count) {
    int ran = 0;
    for (; ran < count && !isFinished(); ++ran) {
        step();
        if (!waitForIdle() || !m_engine)
            break;
    }
    return ran;
}

bool TcmePanel::waitForIdle(int timeoutMs) {
    return processEventsUntil([this] { return !m_busy; }, timeoutMs);
}

void TcmePanel::apply() {
    if (!m_engine || m_busy || m_engine->iterations().empty())
        return;
    const TcmeSnapshot& before = m_engine->initial();
    const TcmeSnapshot& after = m_engine->current();
    const Scenario tuned = m_engine->tunedScenario();
    const int count = static_cast<int>(m_engine->iterations().size());
    const QString iterations = count == 1 ? tr("1 iteration") : tr("%1 iterations").arg(count);
    const bool step = before.stepS > 0; // a training step: its time is what TCME minimised
    const QString text =
        (step ? tr("Apply TCME (%1): step %2 → %3") : tr("Apply TCME (%1): makespan %2 → %3"))
            .arg(iterations, qs(formatSeconds(step ? before.stepS : before.makespanS)),
                 qs(formatSeconds(step ? after.stepS : after.makespanS)));
    m_applying = true;
    QString reason;
    const bool applied = m_document->applyTunedRoutes(tuned, text, &reason);
    m_applying = false;
    if (!applied) {
        emit statusMessage(tr("Not applied: %1").arg(reason));
        return;
    }
    invalidate(); // the tuned scenario is now the document: start over from it
    emit statusMessage(text);
}

void TcmePanel::showAfter(bool after) {
    m_showAfter = after;
    m_afterButton->setChecked(after);
    m_beforeButton->setChecked(!after);
    publishOverlay();
}

void TcmePanel::setBusy(bool busy) {
    if (m_busy == busy)
        return;
    m_busy = busy;
    refreshControls();
    emit busyChanged(busy);
}

void TcmePanel::refreshControls() {
    refreshButtons();
    const std::pair<QAction*, QPushButton*> mirrors[] = {{m_stepAction, m_stepButton},
                                                         {m_runAction, m_runButton},
                                                         {m_resetAction, m_resetButton},
                                                         {m_applyAction, m_applyButton}};
    for (const auto& [action, button] : mirrors)
        action->setEnabled(button->isEnabled());
    m_runAction->setText(m_running ? tr("&Stop TCME") : tr("TCME &run"));
}

void TcmePanel::refreshButtons() {
    if (m_busy) { // an iteration is running: leave the engine alone, allow only Stop
        for (QPushButton* button : {m_stepButton, m_resetButton, m_applyButton})
            button->setEnabled(false);
        m_runButton->setEnabled(m_running);
        m_runButton->setText(m_running ? tr("Stop") : tr("Run"));
        return;
    }
    const bool finished = isFinished();
    const bool hasIterations = iterationCount() > 0;
    m_stepButton->setEnabled(!m_busy && !finished);
    m_runButton->setEnabled(m_running || (!m_busy && !finished));
    m_runButton->setText(m_running ? tr("Stop") : tr("Run"));
    m_resetButton->setEnabled(!m_busy && m_engine != nullptr);
    m_applyButton->setEnabled(!m_busy && hasIterations &&
                              !(m_engine->tunedScenario() == m_document->scenario()));
    m_beforeButton->setEnabled(hasIterations);
    m_afterButton->setEnabled(hasIterations);
    if (!m_engine) {
        m_status->setText(
            tr("Press <b>Step</b> to run one iteration of the optimizer on this scenario."));
        return;
    }
    const TcmeSnapshot& initial = m_engine->initial();
    const TcmeSnapshot& current = m_engine->current();
    QString text =
        tr("Makespan %1 → %2, largest link load %3 → %4.")
            .arg(qs(formatSeconds(initial.makespanS)), qs(formatSeconds(current.makespanS)),
                 qs(formatBytes(initial.maxLinkBytes)), qs(formatBytes(current.maxLinkBytes)));
    if (initial.stepS > 0)
        text = tr("Step %1 → %2. ")
                   .arg(qs(formatSeconds(initial.stepS)), qs(formatSeconds(current.stepS))) +
               text;
    if (const auto reason = m_engine->stopReason()) {
        QString why;
        switch (*reason) {
        case TcmeStopReason::MaxIter:
            why = tr("the iteration limit (tcme.max_iter) was reached");
            break;
        case TcmeStopReason::NoGain:
            why = tr("the gain stayed under tcme.min_gain for tcme.patience iterations");
            break;
        case TcmeStopReason::BelowTarget:
            why = tr("every link is under the target utilisation (tcme.target_utilization)");
            break;
        case TcmeStopReason::NoCandidate:
            why = tr("no change is left to try");
            break;
        case TcmeStopReason::Cancelled: // run() only: never a finished engine's reason
            break;
        }
        text += tr("<br><b>Stopped</b> (%1): %2.").arg(qs(toString(*reason)), why);
    } else if (m_cancelled) {
        text += tr("<br><b>Stopped</b> (%1) by you after %2; Step or Run goes on from here.")
                    .arg(qs(toString(TcmeStopReason::Cancelled)),
                         iterationCount() == 1 ? tr("1 iteration")
                                               : tr("%1 iterations").arg(iterationCount()));
    }
    m_status->setText(text);
}

void TcmePanel::refreshList() {
    m_iterations->clear();
    if (!m_engine)
        return;
    QTreeWidgetItem* last = nullptr;
    for (const TcmeIteration& iteration : m_engine->iterations()) {
        auto* item = new QTreeWidgetItem(m_iterations);
        item->setText(0, tr("Iteration %1: target link %2→%3, %4 (%5%), %6 flows from %7 groups")
                             .arg(iteration.index)
                             .arg(iteration.mclFrom)
                             .arg(iteration.mclTo)
                             .arg(qs(formatBytes(iteration.mclBytes)))
                             .arg(iteration.mclUtilization * 100, 0, 'f', 1)
                             .arg(iteration.conflictFlows)
                             .arg(iteration.conflictGroups));
        item->setData(0, Qt::UserRole, iteration.index);
        item->setToolTip(0, tr("queueing delay of the flows on it: %1")
                                .arg(qs(formatSeconds(iteration.queueingDelayS))));
        if (!iteration.phaseCollective.empty())
            item->setText(0, item->text(0) + tr(", during the critical phase of '%1' (%2)")
                                                 .arg(qs(iteration.phaseCollective),
                                                      qs(formatSeconds(iteration.phaseToS -
                                                                       iteration.phaseFromS))));
        for (std::size_t a = 0; a < iteration.actions.size(); ++a) {
            auto* actionItem = new QTreeWidgetItem(item, {actionText(iteration.actions[a])});
            actionItem->setData(0, kActionRole, static_cast<int>(a));
        }
        QString figures = tr("makespan %1 → %2, largest link load %3 → %4")
                              .arg(qs(formatSeconds(iteration.before.makespanS)),
                                   qs(formatSeconds(iteration.after.makespanS)),
                                   qs(formatBytes(iteration.before.maxLinkBytes)),
                                   qs(formatBytes(iteration.after.maxLinkBytes)));
        if (iteration.before.stepS > 0)
            figures = tr("step %1 → %2, ")
                          .arg(qs(formatSeconds(iteration.before.stepS)),
                               qs(formatSeconds(iteration.after.stepS))) +
                      figures;
        new QTreeWidgetItem(item, {figures});
        new QTreeWidgetItem(item, {keptBecause(iteration)});
        item->setExpanded(true);
        last = item;
    }
    if (!last)
        return;
    // An iteration that re-shaped trees opens on its first tree, so that one is drawn (a split
    // lists the op first, then its halves' trees). Its first children are its actions, in order.
    QTreeWidgetItem* current = last;
    const auto& actions = m_engine->iterations().back().actions;
    const auto firstTree =
        std::find_if(actions.begin(), actions.end(), [](const TcmeAction& action) {
            return action.kind == TcmeAction::Kind::Retree;
        });
    if (firstTree != actions.end())
        current = last->child(static_cast<int>(firstTree - actions.begin()));
    m_iterations->setCurrentItem(current);
}

void TcmePanel::refreshChart() {
    QVector<double> x, largestLoad, duration; // duration: step time or makespan
    // A training step's time is what TCME minimises first: chart it instead of the window.
    const bool step = m_engine && m_engine->initial().stepS > 0;
    m_chart->graph(1)->setName(step ? tr("step time (ms)") : tr("makespan (µs)"));
    m_chart->yAxis2->setLabel(step ? tr("step ms") : tr("makespan µs"));
    if (m_engine) {
        const double start = m_engine->initial().maxLinkBytes;
        auto add = [&](double index, const TcmeSnapshot& snapshot) {
            x << index;
            largestLoad << (start > 0 ? snapshot.maxLinkBytes / start * 100 : 0.0);
            duration << (step ? snapshot.stepS * 1e3 : snapshot.makespanS * 1e6);
        };
        add(0, m_engine->initial());
        for (const TcmeIteration& iteration : m_engine->iterations())
            add(iteration.index + 1, iteration.after);
    }
    m_chart->graph(0)->setData(x, largestLoad, true);
    m_chart->graph(1)->setData(x, duration, true);
    const double last = x.isEmpty() ? 1 : std::max(1.0, x.back());
    m_chart->xAxis->setRange(-0.3, last + 0.3);
    auto fit = [](QCPAxis* axis, const QVector<double>& values) {
        if (values.isEmpty()) {
            axis->setRange(0, 1);
            return;
        }
        const double top = *std::max_element(values.begin(), values.end());
        axis->setRange(0, top > 0 ? top * 1.12 : 1);
    };
    fit(m_chart->yAxis, largestLoad);
    fit(m_chart->yAxis2, duration);
    // Empty axes say nothing and hold the dock's height (the right column's, in a 1280x720
    // window): the chart appears with the first iteration (docs/gui.md "TCME").
    m_chart->setHidden(x.size() < 2);
    m_chart->replot(QCustomPlot::rpQueuedReplot);
}

int TcmePanel::selectedIteration() const {
    const QTreeWidgetItem* item = m_iterations->currentItem();
    while (item && item->parent())
        item = item->parent();
    return item ? item->data(0, Qt::UserRole).toInt() : iterationCount() - 1;
}

const TcmeAction* TcmePanel::selectedAction() const {
    const QTreeWidgetItem* item = m_iterations->currentItem();
    if (!m_engine || !item || !item->parent() || !item->data(0, kActionRole).isValid())
        return nullptr;
    const int index = item->parent()->data(0, Qt::UserRole).toInt();
    const int action = item->data(0, kActionRole).toInt();
    if (index < 0 || index >= iterationCount())
        return nullptr;
    const auto& actions = m_engine->iterations()[static_cast<std::size_t>(index)].actions;
    return action >= 0 && action < static_cast<int>(actions.size())
               ? &actions[static_cast<std::size_t>(action)]
               : nullptr;
}

void TcmePanel::publishOverlay() {
    const int index = selectedIteration();
    if (!m_engine || index < 0 || index >= iterationCount()) {
        emit overlayChanged(std::nullopt, std::nullopt);
        return;
    }
    const TcmeIteration& iteration = m_engine->iterations()[static_cast<std::size_t>(index)];
    MeshView::TcmeOverlay overlay;
    overlay.hotLink = iteration.mcl;
    // Every reroute up to the selected iteration: the paths that differ from the start.
    for (int i = 0; i <= index; ++i)
        for (const TcmeAction& action : m_engine->iterations()[static_cast<std::size_t>(i)].actions)
            if (action.kind == TcmeAction::Kind::Reroute) {
                overlay.oldPaths.push_back(action.oldPath);
                overlay.newPaths.push_back(action.newPath);
            }
    // A re-shaped tree only while its line is selected: one iteration re-shapes dozens of trees,
    // which drawn at once would cover every link.
    if (const TcmeAction* action = selectedAction();
        action && action->kind == TcmeAction::Kind::Retree) {
        for (const auto& [from, to] : action->oldTree)
            overlay.oldPaths.push_back({from, to});
        for (const auto& [from, to] : action->newTree)
            overlay.newPaths.push_back({from, to});
    }
    // Before is the scenario as opened, whichever iteration is selected: "before" a later
    // iteration read as the original and was not (docs/gui.md "TCME").
    const TcmeIteration& first = m_engine->iterations().front();
    const std::vector<double>& openedBytes = first.linkBytesBefore;
    const double openedMakespanS = first.before.makespanS;
    MeshView::LinkLoadOverride loads;
    loads.bytes = m_showAfter ? iteration.linkBytesAfter : openedBytes;
    loads.makespanS = m_showAfter ? iteration.after.makespanS : openedMakespanS;
    // One scale for both, so that switching Before/After changes colours only where loads do.
    loads.comparedBytes = m_showAfter ? openedBytes : iteration.linkBytesAfter;
    loads.comparedMakespanS = m_showAfter ? openedMakespanS : iteration.after.makespanS;
    loads.caption =
        m_showAfter ? tr("TCME: after iteration %1").arg(index) : tr("TCME: before, as opened");
    emit overlayChanged(overlay, loads);
}

} // namespace ws
