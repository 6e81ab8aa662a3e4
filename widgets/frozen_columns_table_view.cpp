#include "frozen_columns_table_view.h"

#include <QHeaderView>
#include <QScopedValueRollback>
#include <QScrollBar>

#include <algorithm>

namespace ws {

FrozenColumnsTableView::FrozenColumnsTableView(QWidget* parent)
    : QTableView(parent), m_frozen(new QTableView(this)) {
    m_frozen->setObjectName(QStringLiteral("frozenColumns"));
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setEditTriggers(NoEditTriggers);
    // A line where the figures slide under the frozen columns.
    m_frozen->setStyleSheet(
        QStringLiteral("QTableView { border: none; border-right: 1px solid palette(mid); }"));
    m_frozen->hide();
    // Pixels, not whole columns: a column half under the overlay stays reachable.
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(m_frozen);

    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) {
                if (logical < m_frozenCount) {
                    const QScopedValueRollback copying(m_copyingWidths, true);
                    m_frozen->setColumnWidth(logical, size);
                    updateFrozenGeometry();
                }
            });
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) {
                // The user dragged the overlay's border (not this view's widths copied over).
                if (!m_copyingWidths && logical < m_frozenCount && columnWidth(logical) != size)
                    setColumnWidth(logical, size);
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) { m_frozen->setRowHeight(logical, size); });
    // A click on the overlay's header sorts as a click on this header would.
    m_frozen->horizontalHeader()->setSectionsClickable(true);
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int logical) {
        if (!isSortingEnabled())
            return;
        const QHeaderView& header = *horizontalHeader();
        const Qt::SortOrder order = header.sortIndicatorSection() == logical &&
                                            header.sortIndicatorOrder() == Qt::AscendingOrder
                                        ? Qt::DescendingOrder
                                        : Qt::AscendingOrder;
        sortByColumn(logical, order);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int logical, Qt::SortOrder order) {
                m_frozen->horizontalHeader()->setSortIndicatorShown(
                    horizontalHeader()->isSortIndicatorShown());
                m_frozen->horizontalHeader()->setSortIndicator(logical, order);
            });
    // The overlay never keeps the focus: a click on it leaves the keys with the table.
    connect(m_frozen, &QAbstractItemView::pressed, this,
            [this] { setFocus(Qt::MouseFocusReason); });
    // A double-click on the overlay is one on the row.
    connect(m_frozen, &QAbstractItemView::activated, this, &QAbstractItemView::activated);
    connect(m_frozen, &QAbstractItemView::doubleClicked, this, &QAbstractItemView::doubleClicked);
}

void FrozenColumnsTableView::setModel(QAbstractItemModel* model) {
    // Only this class's own connections: the view's are QTableView's to keep or drop.
    for (const QMetaObject::Connection& connection : m_modelConnections)
        disconnect(connection);
    m_modelConnections.clear();
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel()); // one selection in both
    if (model) {
        const auto sync = &FrozenColumnsTableView::syncColumns;
        m_modelConnections = {connect(model, &QAbstractItemModel::modelReset, this, sync),
                              connect(model, &QAbstractItemModel::columnsInserted, this, sync),
                              connect(model, &QAbstractItemModel::columnsRemoved, this, sync)};
    }
    syncColumns();
}

void FrozenColumnsTableView::setFrozenColumnCount(int count) {
    m_frozenCount = std::max(0, count);
    syncColumns();
}

int FrozenColumnsTableView::frozenWidth() const {
    if (m_frozen->isHidden())
        return 0;
    int width = 0;
    for (int column = 0; column < m_frozenCount && model() && column < model()->columnCount();
         ++column)
        if (!isColumnHidden(column))
            width += columnWidth(column);
    return width;
}

void FrozenColumnsTableView::syncColumns() {
    const int columns = model() ? model()->columnCount() : 0;
    const int frozen = std::min(m_frozenCount, columns);
    const QScopedValueRollback copying(m_copyingWidths, true);
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    for (int column = 0; column < columns; ++column) {
        m_frozen->setColumnHidden(column, column >= frozen || isColumnHidden(column));
        if (column < frozen)
            m_frozen->setColumnWidth(column, columnWidth(column));
    }
    // Rows resized one by one follow through sectionResized.
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    m_frozen->setVisible(frozen > 0);
    updateFrozenGeometry();
}

void FrozenColumnsTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

void FrozenColumnsTableView::updateGeometries() {
    QTableView::updateGeometries();
    updateFrozenGeometry();
}

void FrozenColumnsTableView::updateFrozenGeometry() {
    // Over this view's frame, beside the row header, as tall as the header and the cells.
    m_frozen->setGeometry(
        verticalHeader()->isVisible() ? verticalHeader()->width() + frameWidth() : frameWidth(),
        frameWidth(), frozenWidth(), viewport()->height() + horizontalHeader()->height());
    m_frozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
}

void FrozenColumnsTableView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    const int sideways = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    if (index.column() < m_frozenCount) {
        // A frozen cell is always in view sideways: only up or down to its row.
        horizontalScrollBar()->setValue(sideways);
        return;
    }
    // The cells under the frozen columns are out of view: a cell there scrolls out from under.
    const int left = visualRect(index).left();
    if (left < frozenWidth())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + left - frozenWidth());
}

} // namespace ws
