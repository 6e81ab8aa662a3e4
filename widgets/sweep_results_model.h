#pragma once

#include "sweep/sweep_output.h"

#include <QAbstractTableModel>

#include <memory>

namespace ws {

// A sweep's output as a table (docs/gui.md "Sweep results"): one row per row of the file, in
// its order; the axis columns first (as many as the file has), then the figures. Numbers are
// in SortRole as doubles (a missing figure is an invalid QVariant: last in an ascending sort);
// a failed row is grey with its error as every cell's tooltip; an out-of-memory row's memory
// and OOM cells are dark red.
class SweepResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The columns after the axes: column(SampleColumn) is axes + 0.
    enum Columns {
        SampleColumn,
        StepColumn,       // step_s, as "1.234 s"
        TokensColumn,     // tokens_per_s
        MfuColumn,        // mfu, as a percentage
        DiesUsedColumn,   // dies_used: MFU is per die used (GPUs on a cluster)
        BubbleColumn,     // pp_bubble, as a percentage
        MakespanColumn,   // makespan_s
        MaxLinkColumn,    // max_link_bytes, as "1.5 GB"
        PeakMemoryColumn, // peak_memory_bytes
        OomColumn,        // "out of memory" or empty
        ErrorColumn,      // a failed row's reason
        FigureColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole + 1,
        SourceRowRole, // the row's index in the output (its position in the file)
        FailedRole,    // ok false
        OutOfMemoryRole
    };

    explicit SweepResultsModel(QObject* parent = nullptr);

    // Null empties the model.
    void setOutput(std::shared_ptr<const SweepOutput> output);
    const SweepOutput* output() const { return m_output.get(); }
    int axisCount() const;
    // The view's column of a figure column.
    int column(Columns figure) const { return axisCount() + figure; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant figureData(const SweepRow& row, Columns figure, int role) const;

    std::shared_ptr<const SweepOutput> m_output;
};

} // namespace ws
