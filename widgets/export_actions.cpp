#include "export_actions.h"

#include "app_settings.h"
#include "builtin_scenarios.h"
#include "charts_panel.h"
#include "mesh_view.h"
#include "scenario_document.h"
#include "std_string_text.h"
#include "tcme_panel.h"

#include "io/atomic_file.h"
#include "io/file_write_error.h"
#include "io/scenario_io.h"
#include "report/die_metrics_csv.h"
#include "report/launch_settings.h"
#include "report/report_formats.h"
#include "scenario/strategy_spec.h"
#include "scenario/workload.h"

#include <sstream>

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <optional>

namespace ws {

namespace {} // namespace

ExportActions::ExportActions(QWidget* dialogParent, const AppSettings& settings,
                             ScenarioDocument* document, MeshView* mesh, ChartsPanel* charts,
                             TcmePanel* tcme)
    : QObject(dialogParent), m_dialogParent(dialogParent), m_settings(settings),
      m_document(document), m_mesh(mesh), m_charts(charts), m_tcme(tcme) {}

QString ExportActions::askPath(const QString& title, const QString& filter, const QString& suffix) {
    // "gpt3_175b_6x8_fsdp_tatp_launch.txt": the document's name and what the file holds.
    const QString name = QFileInfo(m_document->displayName()).completeBaseName() + suffix;
    const QString path = QFileDialog::getSaveFileName(
        m_dialogParent, title, folderToWriteIn(m_settings.lastDirectory()) + '/' + name, filter);
    if (isShippedPath(path)) { // docs/gui.md "Files": never over what the project ships
        emit statusMessage(
            tr("Not exported: %1 is in the folder of the files WaferScope ships (%2), "
               "which are read-only; choose another folder")
                .arg(path, shippedFolder()));
        return {};
    }
    return path;
}

void ExportActions::writeText(const QString& path, const std::string& text) {
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), text);
        emit statusMessage(tr("Exported %1").arg(path));
    } catch (const FileWriteError& error) {
        emit statusMessage(tr("Could not write %1: %2").arg(path, qs(error.reason())));
    }
}

void ExportActions::exportMeshImage() {
    const QString path =
        askPath(tr("Export mesh view"), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"),
                QStringLiteral("_mesh.png"));
    if (path.isEmpty())
        return;
    const QRect area = m_mesh->rect();
    bool ok = true;
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(area.size());
        svg.setViewBox(area);
        svg.setTitle(m_document->displayName());
        QPainter painter(&svg);
        m_mesh->render(painter, area);
    } else if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(area.size(), QPageSize::Point));
        pdf.setResolution(72);
        QPainter painter(&pdf);
        m_mesh->render(painter, area);
    } else {
        QImage image(area.size(), QImage::Format_ARGB32);
        QPainter painter(&image);
        m_mesh->render(painter, area);
        painter.end();
        ok = image.save(path);
    }
    emit statusMessage(ok ? tr("Exported %1").arg(path) : tr("Could not write %1").arg(path));
}

void ExportActions::exportReport(const QString& kind) {
    const auto analysis = m_mesh->analysis();
    if (!analysis)
        return;
    const QString filter = kind == QLatin1String("csv")     ? tr("CSV (*.csv)")
                           : kind == QLatin1String("trace") ? tr("Chrome trace (*.json)")
                                                            : tr("JSON (*.json)");
    const QString suffix = kind == QLatin1String("csv")     ? QStringLiteral("_links.csv")
                           : kind == QLatin1String("trace") ? QStringLiteral("_trace.json")
                                                            : QStringLiteral("_report.json");
    const QString path = askPath(tr("Export"), filter, suffix);
    if (path.isEmpty())
        return;
    if (kind == QLatin1String("csv")) {
        writeText(path, linkLoadsCsv(analysis->report));
        return;
    }
    std::ostringstream text;
    if (kind == QLatin1String("trace"))
        writeChromeTrace(text, analysis->report);
    else
        writeReportJson(text, analysis->report, ReportDetail::Full);
    writeText(path, text.str());
}

void ExportActions::exportDieMetrics() {
    const auto analysis = m_mesh->analysis();
    if (!analysis)
        return;
    const QString path =
        askPath(tr("Export per-die metrics"), tr("CSV (*.csv)"), QStringLiteral("_dies.csv"));
    if (!path.isEmpty())
        writeText(path, dieMetricsCsv(analysis->report));
}

void ExportActions::exportChartImage() {
    const int index = m_charts->currentChart();
    const QString path = askPath(tr("Export chart “%1”").arg(m_charts->chartName(index)),
                                 tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"),
                                 QStringLiteral("_chart.png"));
    if (path.isEmpty())
        return;
    QString error;
    emit statusMessage(m_charts->exportChart(index, path, &error) ? tr("Exported %1").arg(path)
                                                                  : error);
}

void ExportActions::exportLaunchSettings() {
    const Scenario& scenario = m_document->scenario();
    if (!scenario.strategy) {
        emit statusMessage(tr("No launch settings: the scenario has no strategy"));
        return;
    }
    std::string text;
    try {
        const std::optional<Workload>& workload = scenario.workload;
        text = launchSettingsText(
            launchSettings(scenario, *scenario.strategy, workload ? &*workload : nullptr),
            LaunchFramework::All);
    } catch (const std::exception& error) {
        emit statusMessage(tr("No launch settings: %1").arg(qs(error.what())));
        return;
    }
    // Plain text (command-line arguments, a JSON config, a Python sketch): not a script to run.
    const QString path = askPath(tr("Export launch settings"), tr("Text (*.txt);;All files (*)"),
                                 QStringLiteral("_launch.txt"));
    if (!path.isEmpty())
        writeText(path, text);
}

void ExportActions::exportTunedScenario() {
    const std::optional<Scenario> tuned = m_tcme->tunedScenario();
    if (!tuned) {
        emit statusMessage(
            m_tcme->isBusy() ? tr("TCME is still running: export the tuned scenario when it stops")
            : m_tcme->iterationCount() > 0
                ? tr("No tuned scenario: TCME's iterations changed nothing")
                : tr("No tuned scenario: run a TCME step first (Optimize menu)"));
        return;
    }
    const QString path = askPath(tr("Export tuned scenario"), tr("Scenarios (*.json)"),
                                 QStringLiteral("_tuned.json"));
    if (path.isEmpty())
        return;
    try {
        saveScenario(*tuned, QFile::encodeName(path).toStdString());
        emit statusMessage(tr("Exported %1").arg(path));
    } catch (const FileWriteError& error) {
        emit statusMessage(tr("Could not write %1: %2").arg(path, qs(error.reason())));
    }
}

} // namespace ws
