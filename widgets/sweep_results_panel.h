#pragma once

#include "sweep_chart_data.h"
#include "sweep_regime_map.h"

#include "scenario/scenario.h"
#include "sweep/sweep_output.h"
#include "sweep/sweep_spec.h"

#include <QString>
#include <QWidget>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ws {

class FrozenColumnsTableView;

class BackgroundJob;
class SweepResultsModel;

// The Sweep results dock (docs/gui.md "Sweep results"): the output of `waferscope-cli sweep`
// (CSV or JSON Lines) as a sortable table and a chart of any metric against any axis, one line
// per combination of the other axes, the mean of the samples with bars from the lowest to the
// highest. The file is read off the GUI thread (a 100,000-row output opens without a freeze).
//
// A sweep that searched at every point (`search`: its rows name the winning family) with two
// axes or more opens as a regime map instead of a chart: one cell per pair of values of two
// axes, coloured by the winning family, paler where the runner-up family came close, its
// margin written in it; hovering a cell names both families and their step times.
//
// A row's scenario opens with a double-click (or Open scenario): the output does not hold the
// base scenario, so the panel needs the sweep file. It looks beside the output for the one
// *.json sweep file whose axes are the output's axis columns; with none or several it asks
// (setSweepFileChooser, a file dialog by default) when a row is opened. The scenario is the
// one that was simulated (core's scenarioAt: the axis values set, faults drawn), handed to the
// main window as pointScenarioRequested: the panel never touches the document itself.
class SweepResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepResultsPanel(QWidget* parent = nullptr);
    ~SweepResultsPanel() override;

    // Reads `path` off the GUI thread: then outputLoaded, or loadFailed with "FILE: line 3:
    // problem". The results shown stay until a new file reads.
    void open(const QString& path);
    bool isBusy() const;
    bool waitForIdle(int timeoutMs = 60000); // tests, screenshots
    QString filePath() const { return m_path; }
    QString loadingPath() const { return m_loadingPath; } // the latest open()'s
    const SweepOutput* output() const { return m_output.get(); }

    // The sweep file a row's scenario is made from; false with the reason in `error` when it
    // cannot be read or its axes are not the output's.
    bool setSweepFile(const QString& path, QString* error);
    QString sweepFilePath() const { return m_specPath; }
    // What asks for the sweep file when none was found beside the output: returns a path, or
    // "" when the user cancels. A file dialog unless replaced (tests).
    void setSweepFileChooser(std::function<QString()> choose);

    // What the right pane draws: a chart of a metric, or (a search's output only) the map.
    enum class View { Chart, RegimeMap };
    void setView(View view);
    View view() const;
    bool canShowRegimeMap() const; // the output has a search's columns and two axes

    void setMetric(SweepMetric metric);
    void setAxis(int axis); // among the output's axis columns
    SweepMetric sweepMetric() const;
    int axis() const;
    void setMapRows(int axis); // the map's vertical axis, among the output's axis columns
    int mapRows() const;
    // The map drawn (View::RegimeMap), or nullptr.
    const SweepRegimeMap* regimeMap() const { return m_map ? &*m_map : nullptr; }
    // What hovering the map at `pixel` (in the plot's coordinates) shows: the cell's axis
    // values, both families and their step times; "" off the cells or without a map.
    QString regimeToolTipAt(const QPointF& pixel) const;
    QString regimeCellToolTip(int column, int row) const;
    // Makes the scenario of the output's row `row` (its position in the file) and asks for it
    // to be opened; false, with the reason as a statusMessage, when it cannot.
    bool openRow(int row);

    FrozenColumnsTableView* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    QString captionText() const;
    QString noteText() const;

signals:
    void statusMessage(const QString& text);
    void outputLoaded(const QString& path);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    // A row's scenario, to open as a new untitled document called `name`.
    void pointScenarioRequested(const ws::Scenario& scenario, const QString& name);

private:
    struct Loaded;
    void showLoaded(const std::shared_ptr<const Loaded>& loaded);
    void replot();
    void drawChart();
    void drawRegimeMap();
    void showViewChoices();
    void refreshNote();
    void openCurrentRow();

    BackgroundJob* m_job;
    QString m_path;        // the output shown
    QString m_loadingPath; // the output being read
    std::shared_ptr<const SweepOutput> m_output;
    std::shared_ptr<const std::vector<SweepAxisValues>> m_axes;
    std::vector<std::filesystem::path> m_candidates; // sweep files found beside the output
    QString m_candidateError;                        // why the one candidate could not be read
    std::shared_ptr<const SweepSpec> m_spec;
    QString m_specPath;
    std::function<QString()> m_chooseSweepFile;

    QLabel* m_title;
    QLabel* m_note;
    QPushButton* m_chooseButton;
    QPushButton* m_openButton;
    SweepResultsModel* m_model;
    QSortFilterProxyModel* m_sorted;
    FrozenColumnsTableView* m_table;
    QComboBox* m_view;
    QLabel* m_plotLabel;
    QComboBox* m_metric;
    QLabel* m_againstLabel;
    QComboBox* m_axis;
    QLabel* m_andLabel;
    QComboBox* m_mapRows;
    std::optional<SweepRegimeMap> m_map;
    QLabel* m_caption;
    QCustomPlot* m_plot;
};

} // namespace ws
