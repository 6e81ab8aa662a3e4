// waferscope [FILE] [--screenshot OUT.png] [--view NAME] [--tcme-steps N] (docs/cli.md).
// FILE may be a sweep's output (*.csv, *.jsonl): it opens in the Sweep results dock.
// With --screenshot the main window is rendered (offscreen works) after N optimizer steps,
// saved as a PNG, and the app exits: 0 on success, 1 if the run failed, 2 for bad usage.
#include "advisor_panel.h"
#include "builtin_scenarios.h"
#include "evaluation/memory_reuse.h"
#include "main_window.h"
#include "search_panel.h"
#include "sweep_results_panel.h"
#include "tcme_panel.h"
#include "waferscope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

int main(int argc, char** argv) {
    ws::restartWithHugePages(argv);
    ws::keepFreedMemoryForReuse(); // before QApplication starts any thread
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("WaferScope"));
    QApplication::setOrganizationName(QStringLiteral("WaferScope"));
    QApplication::setApplicationVersion(QString::fromLatin1(ws::kWaferScopeVersion));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "WaferScope: link heatmaps, group editing and the TCME optimizer for hybrid-parallel "
        "training on wafer-scale chips."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("Scenario to open (default: the FSDP/TATP contention example)."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("Render the main window to OUT.png and exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("View to bring forward: %1.")
                                      .arg(ws::MainWindow::viewNames().join(QStringLiteral(", "))),
                                  QStringLiteral("NAME"), QStringLiteral("mesh"));
    const QCommandLineOption tcmeSteps(QStringLiteral("tcme-steps"),
                                       QStringLiteral("Run N TCME iterations first."),
                                       QStringLiteral("N"), QStringLiteral("0"));
    parser.addOptions({screenshot, view, tcmeSteps});
    parser.process(application);

    QTextStream err(stderr);
    bool stepsOk = false;
    const int steps = parser.value(tcmeSteps).toInt(&stepsOk);
    if (!stepsOk || steps < 0 || steps > 1000) {
        err << "waferscope: --tcme-steps takes an integer from 0 to 1000, not '"
            << parser.value(tcmeSteps) << "'\n";
        return 2;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "waferscope: at most one FILE\n";
        return 2;
    }
    if (!ws::MainWindow::viewNames().contains(parser.value(view))) {
        err << "waferscope: unknown view '" << parser.value(view) << "'; expected one of "
            << ws::MainWindow::viewNames().join(QStringLiteral(", ")) << "\n";
        return 2;
    }

    ws::MainWindow window;
    const QString file = parser.positionalArguments().value(0, ws::defaultScenarioResource());
    QString error;
    const bool batch = parser.isSet(screenshot);
    // A sweep's output opens beside the default example: it is results, not a document.
    const bool sweepResults = ws::MainWindow::isSweepOutput(file);
    QString sweepError;
    QObject::connect(window.sweepResultsPanel(), &ws::SweepResultsPanel::loadFailed,
                     [&sweepError](const QString& problem) { sweepError = problem; });
    if (sweepResults)
        window.openScenario(ws::defaultScenarioResource(), nullptr, true);
    if (!window.openScenario(file, &error, batch)) {
        err << error << "\n";
        if (batch)
            return 2;
    }
    window.show();
    window.showView(parser.value(view));
    if (!batch) {
        window.offerRecovery(); // edits a crashed or killed session left unsaved
        if (steps > 0) {
            window.waitForIdle();
            window.tcmePanel()->stepBlocking(steps);
        }
        return QApplication::exec();
    }

    if (!window.waitForIdle()) {
        err << "waferscope: the simulation did not finish in time\n";
        return 1;
    }
    if (sweepResults && !sweepError.isEmpty()) {
        err << sweepError << "\n";
        return 2;
    }
    if (sweepResults) // the dock was raised when the file opened; --view keeps it in front
        window.showView(parser.isSet(view) ? parser.value(view) : QStringLiteral("sweep"));
    if (steps > 0) {
        const int ran = window.tcmePanel()->stepBlocking(steps);
        if (ran < steps)
            err << "waferscope: TCME stopped after " << ran << " of " << steps << " steps\n";
    }
    // The search view is worth a picture only with a search in it.
    if (parser.value(view) == QLatin1String("search") && !window.searchPanel()->searchBlocking())
        err << "waferscope: the strategy search did not run (see the Search dock)\n";
    window.waitForIdle();
    window.advisorPanel()->waitForIdle(); // the findings of the document shown, when in front
    QApplication::processEvents();
    const QString out = parser.value(screenshot);
    if (!window.grab().save(out)) {
        err << "waferscope: cannot write " << out << "\n";
        return 1;
    }
    err << "waferscope: wrote " << out << "\n";
    return 0;
}
