#pragma once

#include "search/strategy_search.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>

namespace ws {

// The search's best strategies (re-scored by the full simulator, best first) and, below them,
// the baselines, one row each, so that the user sees what the search gains over each system
// they would have picked by hand. Numbers are in SortRole as doubles.
class SearchResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        NameColumn,     // "best", "#2", "FSDP"
        StrategyColumn, // "dp 6 x tatp 8, fsdp, snake", or why a baseline has none
        StepTimeColumn, // simulated (analytical when not simulated, marked "model")
        TokensColumn,   // tokens per second
        MemoryColumn,   // per die; "out of memory" when over SRAM + HBM
        SpeedupColumn,  // this row's step time over the best's: "1.34×"
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1, IsBaselineRole };

    explicit SearchResultsModel(QObject* parent = nullptr);

    // Null empties the model.
    void setResult(std::shared_ptr<const SearchResult> result);
    const SearchResult* result() const { return m_result.get(); }

    // The scored strategy of a row: nullopt for a baseline without one.
    std::optional<StrategyScore> scoreAt(int row) const;
    bool isBaseline(int row) const;
    // The step time a row is judged by: simulated when there is one, else analytical.
    static double stepTime(const StrategyScore& score);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const SearchResult> m_result;
};

} // namespace ws
