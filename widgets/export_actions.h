#pragma once

#include <QObject>
#include <QString>

#include <string>

class QWidget;

namespace ws {

class AppSettings;
class ChartsPanel;
class MeshView;
class ScenarioDocument;
class TcmePanel;

// File > Export: each action asks for a path, writes the file and says what happened in
// statusMessage (docs/exports.md). Text files go through core's one atomic writer
// (io/atomic_file.h), so a failed export leaves no half-written file; images go through Qt.
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(QWidget* dialogParent, const AppSettings& settings, ScenarioDocument* document,
                  MeshView* mesh, ChartsPanel* charts, TcmePanel* tcme);

    void exportMeshImage();
    // `kind`: "csv" (link loads), "trace" (Chrome trace) or "json" (the report).
    void exportReport(const QString& kind);
    void exportDieMetrics();
    void exportChartImage();
    void exportLaunchSettings();
    void exportTunedScenario();

signals:
    void statusMessage(const QString& text);

private:
    // The file the user chooses, starting outside the shipped folder; "" when cancelled or
    // when the choice is a shipped file (refused with a status message, docs/gui.md "Files").
    // `suffix` ("_launch.txt") follows the document's name in the proposed file name.
    QString askPath(const QString& title, const QString& filter, const QString& suffix);
    void writeText(const QString& path, const std::string& text);

    QWidget* m_dialogParent;
    const AppSettings& m_settings;
    ScenarioDocument* m_document;
    MeshView* m_mesh;
    ChartsPanel* m_charts;
    TcmePanel* m_tcme;
};

} // namespace ws
