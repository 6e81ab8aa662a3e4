#pragma once

#include <QTableView>

#include <vector>

namespace ws {

// A table whose first columns stay in view while the others scroll sideways (the sweep's axis
// columns, docs/gui.md "Sweep results"). A second view over the same model and selection lies
// over the left edge showing only those columns; it scrolls up and down with this one, takes
// its column widths and row heights, and sorts through this one's header. Keyboard focus and
// the current index stay with this view.
class FrozenColumnsTableView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnsTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;
    // How many leading columns stay in view (0: none); kept across model resets.
    void setFrozenColumnCount(int count);
    int frozenColumnCount() const { return m_frozenCount; }
    QTableView* frozenView() const { return m_frozen; }
    // The width of the frozen columns in pixels: cells left of it are covered.
    int frozenWidth() const;
    // A frozen cell scrolls only up or down (sideways it is always in view); any other cell
    // also out from under the frozen columns.
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void updateGeometries() override;

private:
    // Shows the frozen columns (and only those) in the overlay, at this view's widths.
    void syncColumns();
    void updateFrozenGeometry();

    QTableView* m_frozen;
    int m_frozenCount = 0;
    std::vector<QMetaObject::Connection> m_modelConnections; // the model's signals to syncColumns
    bool m_copyingWidths = false; // the overlay's resizes are this view's, not the user's
};

} // namespace ws
