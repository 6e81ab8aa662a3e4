#pragma once

#include "load_color_map.h"
#include "mesh_geometry.h"
#include "scenario_analysis.h"

#include <QBrush>
#include <QList>
#include <QPair>
#include <QPen>
#include <QRect>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ws {

// The die mesh with a heatmap of every directed link (docs/gui.md, The mesh; docs/architecture.md
// item 9).
//
// Dies are tiles with their id; the fill colour is the die's DP group and the border colour its
// TATP group, both listed in the legend; dead dies and links are hatched. Every directed link is
// its own bar, coloured by load on the viridis map (bytes, utilisation or flows sharing it),
// with a scale in the legend. Painting is by level of detail, as in Qt's Chip example: tiny
// tiles get fills only, then borders and group colours, then labels and link arrows; links are
// drawn with one drawRects call per colour bucket, so a 32x32 wafer stays smooth.
//
// A system of several wafers (docs/gui.md "The mesh") is one grid: each wafer's block of dies is
// outlined in slate, and the off-wafer links joining them are bars like any other, in the
// heatmap colour of their load, edged in the same slate (both in the legend).
//
// Interaction: wheel zooms about the cursor, dragging empty space (or with the middle or right
// button) pans; hovering a link shows its id, bytes, utilisation and flows; clicking a link
// selects it and highlights the paths through it; clicking a die selects it (Ctrl adds to the
// selection). Dragging selected dies onto another die asks for a swap (dieSwapRequested):
// the dies trade places with those at the same offset from the drop target; a right click on a
// die opens its menu (Die speed…: dieSpeedRequested). The view itself never edits the scenario.
// Slow dies (wafer.faults.slow_dies) are hatched in amber with their speed as a badge. With
// pipeline stages (strategy.pp) a die's tooltip and badge ("S1") name its stage and the legend
// counts them. Zoom and pan are navigation, not document edits.
//
// A GPU cluster (docs/gui.md "The mesh") has no die grid: each node is a row of its GPUs (tiles as
// dies are) over its node switch, with the rail or fat-tree switches as labelled bars
// (cluster_layout.h). Every link joins a GPU to a switch (or a leaf to the spine) and is a bar
// in its load's colour like a die-to-die link, edged in the colour of the switch it joins; the
// legend names the switches and the three link tiers. Switches have tooltips but are not
// dies: they cannot be selected or dragged.
class MeshView : public QWidget {
    Q_OBJECT
public:
    // Link loads to colour by instead of the analysis's own: TCME's before or after, one round.
    struct LinkLoadOverride {
        std::vector<double> bytes; // by LinkId
        double makespanS = 0;      // for utilisation
        QString caption;           // shown in the legend title, e.g. "TCME: after iteration 2"
        // The state these loads are compared with (TCME's before and after), by LinkId: the
        // colour scale then spans both, so that one colour means one load in either. Empty: the
        // scale spans these loads alone.
        std::vector<double> comparedBytes;
        double comparedMakespanS = 0;
    };
    // What the TCME panel wants shown: the iteration's target link and the rerouted paths.
    struct TcmeOverlay {
        LinkId hotLink = -1;
        std::vector<std::vector<DieId>> oldPaths;
        std::vector<std::vector<DieId>> newPaths;
    };

    // Compare mode (docs/gui.md, Compare): links coloured by the current result's value minus
    // the pinned result's, in the current metric, on a diverging map whose scale is symmetric
    // about 0. Shown only while both ran on the same links (report_comparison.h, sameLinks);
    // it takes precedence over a LinkLoadOverride.
    struct LinkDifference {
        std::shared_ptr<const ScenarioAnalysis> pinned;
        QString caption; // "current − pinned (step 6.2 s)"
    };
    // Where the advisor's selected finding shows (advisor_panel.h): its dies outlined and its
    // links framed, named in the legend's overlays. A view state, like a selection: no edit.
    struct FindingHighlight {
        std::vector<DieId> dies;
        std::vector<LinkId> links;
        QString caption; // the finding's id, "load_imbalance"
    };

    static constexpr int kLegendWidth = 200; // pixels, on the right, not zoomed

    explicit MeshView(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis);
    std::shared_ptr<const ScenarioAnalysis> analysis() const { return m_analysis; }

    void setMetric(LinkMetric metric);
    LinkMetric linkMetric() const { return m_metric; }
    void setLinkLoadOverride(std::optional<LinkLoadOverride> loads);
    void setTcmeOverlay(std::optional<TcmeOverlay> overlay);
    void setLinkDifference(std::optional<LinkDifference> difference);
    // A difference is set and comparable with the analysis.
    bool showsDifference() const { return m_showsDifference; }
    // A banner over the mesh: "Simulating..." while a re-simulation runs, or an error.
    void setBanner(const QString& text, bool isError = false);
    QString banner() const { return m_banner; }

    std::optional<LinkId> selectedLink() const { return m_selectedLink; }
    const QList<int>& selectedDies() const { return m_selectedDies; }
    void selectLink(std::optional<LinkId> link);
    void selectDie(std::optional<DieId> die);
    // Draws one flow's route emphasised (from the timeline or the flows table); -1 clears.
    void highlightFlow(int flowIndex);
    // The advisor's finding; nullopt clears it. Kept until cleared (the advisor clears it when
    // its findings change).
    void setFindingHighlight(std::optional<FindingHighlight> highlight);
    const std::optional<FindingHighlight>& findingHighlight() const { return m_finding; }

    void zoomToFit();
    void zoomIn();  // by 1.25 about the middle of the view (+, View > Zoom in)
    void zoomOut(); // by 0.8 (-)
    // Zooms in until the tiles are large enough to show their ids (kIdTilePixels), about the
    // selected die or else the middle of the view; does nothing when they already show. On a
    // 192-die system or a 160-GPU cluster the fitted view is too small for ids (docs/gui.md "The
    // mesh").
    void zoomToReadableIds();
    // The smallest tile, in pixels, that shows its die's or GPU's id (and a switch its name).
    static constexpr double kIdTilePixels = 26;
    // The legend's rows that explain more in a tooltip, as last painted: where each is and its
    // tooltip. The group rows name the groups their colour marks; a system adds its wafer
    // boundary and off-wafer link rows ("Wafer boundary: ...", "Off-wafer link: ...").
    const std::vector<std::pair<QRect, QString>>& legendRows() const { return m_legendRows; }
    void zoomBy(double factor, QPointF anchor);
    const MeshGeometry& geometry() const { return m_geometry; }
    // The fraction of the scale a link's load reaches (what its colour encodes), for tests;
    // in [-1, 1] while a difference is shown.
    double linkFraction(LinkId link) const;
    // Paints mesh and legend into any device (the widget, an image, an SVG or PDF export).
    void render(QPainter& painter, const QRect& area) const;

signals:
    void linkSelected(int link); // -1: none
    void dieSelected(int die);   // -1: none
    // Die pairs to swap, in order, as one edit described by `text`.
    void dieSwapRequested(const QList<QPair<int, int>>& swaps, const QString& text);
    // Die `die` should compute at `speed` of its peak FLOP/s, 1 for full speed (the die's context
    // menu: Die speed…, Full speed). The view edits nothing: the window asks the document.
    void dieSpeedRequested(int die, double speed);
    // The die's or link's menu: Dead die, Dead link (checkable). The window asks the document.
    void dieDeadRequested(int die, bool dead);
    void linkDeadRequested(int from, int to, bool dead);
    void statusMessage(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override; // tooltips

private:
    enum class Gesture { None, Pressed, Panning, DraggingDies };

    QRectF meshArea() const; // the widget minus the legend
    double linkValue(LinkId link) const;
    // The metric's value of `link` carrying `bytes` in a run of `makespanS`.
    double linkValueOf(LinkId link, double bytes, double makespanS) const;
    double maxLinkValue() const;
    // The metric's value of `link` as `report` has it (no override): bytes, utilisation, flows.
    double reportedValue(const SimulationReport& report, LinkId link) const;
    QString linkToolTip(LinkId link) const;
    QString dieToolTip(DieId die) const;
    QString switchToolTip(int vertex) const; // a cluster's switch
    static QString tierName(LinkTier tier);  // "NVSwitch link"
    QString formatValue(double value) const;
    // The dragged dies, and the one that follows the cursor (the pressed die).
    std::vector<DieId> dragSelection() const;
    DieId dragAnchor(DieId target) const;
    // Core's verdict on dropping the selection on `target` (edit/scenario_edits.h: moveDies).
    bool dropIsValid(DieId target) const;
    // Core's swaps for the drop (planDieMove), and the text of the edit or of the refusal.
    QList<QPair<int, int>> swapsForDrop(DieId target, QString* text) const;
    void startExternalDrag();
    // A die's context menu (a right click without a drag, or the Menu key on a selected die):
    // Die speed… asks for a percentage of peak (askDieSpeed); Full speed when the die is slow;
    // Dead die, checked while it is dead.
    void showDieMenu(DieId die, const QPoint& globalPosition);
    // A link's (a right click on its bar, or the Menu key on the selected link): Dead link.
    void showLinkMenu(LinkId link, const QPoint& globalPosition);
    void askDieSpeed(DieId die);
    void recomputeScale(); // also whether the difference is shown

    void paintTiles(QPainter& painter, const QRectF& visible) const;
    void paintWafers(QPainter& painter, const QRectF& visible) const; // a system's outlines
    // A cluster's switches as bars, named once the GPUs' ids show (cluster_layout.h).
    void paintSwitches(QPainter& painter, const QRectF& visible) const;
    void paintLinks(QPainter& painter, const QRectF& visible) const;
    void paintLabels(QPainter& painter, const QRectF& visible) const;
    // With pipeline stages: "stage k" at the top-left corner of the dies each stage uses.
    void paintStageLabels(QPainter& painter, const QRectF& visible) const;
    void paintOverlays(QPainter& painter) const;
    void paintPath(QPainter& painter, const std::vector<DieId>& path) const;
    void paintLegend(QPainter& painter, const QRect& area) const;
    // A system's legend rows' tooltips: the wafer boundary's and the off-wafer link's.
    std::pair<QString, QString> systemLegendToolTips() const;
    // A legend row with a tooltip: a cluster's switches and link tiers (clusterLegend).
    struct LegendEntry {
        QBrush brush;
        QPen pen;
        QString text;
        QString toolTip;
    };
    std::vector<LegendEntry> clusterLegend() const;

    std::shared_ptr<const ScenarioAnalysis> m_analysis;
    LinkMetric m_metric = LinkMetric::Bytes;
    std::optional<LinkLoadOverride> m_override;
    std::optional<TcmeOverlay> m_tcme;
    std::optional<FindingHighlight> m_finding;
    std::optional<LinkDifference> m_difference;
    // m_difference is set and ran on the analysis's links: kept, not recomputed per link (the
    // check walks every link, and linkValue is asked for every link on every paint).
    bool m_showsDifference = false;
    QString m_banner;
    bool m_bannerIsError = false;
    mutable QRectF m_bannerRect; // where the banner was last painted, for its tooltip
    // The legend's rows with a tooltip as last painted (legendRows()).
    mutable std::vector<std::pair<QRect, QString>> m_legendRows;
    static constexpr int kBannerLines = 4;
    double m_maxValue = 0; // the top of the colour scale for the current metric

    MeshGeometry m_geometry;
    bool m_userNavigated = false; // until the user zooms or pans, the wafer is kept fitted

    std::optional<LinkId> m_selectedLink;
    QList<int> m_selectedDies;
    int m_highlightedFlow = -1;

    Gesture m_gesture = Gesture::None;
    QPoint m_pressPosition;
    Qt::MouseButton m_pressButton = Qt::NoButton;
    QPointF m_panStartOffset;
    std::optional<DieId> m_pressedDie;
    std::optional<DieId> m_dropTarget;    // highlighted: core accepts the drop there
    std::optional<DieId> m_hoveredTarget; // the die under the cursor when last asked
};

} // namespace ws
