#pragma once

#include "advice/finding.h"

#include <QAbstractTableModel>
#include <QColor>

#include <string>
#include <vector>

namespace ws {

// The advisor's findings (advice/finding.h), one row each in the advisor's order (errors, then
// warnings, then info). The severity column carries an icon and the severity's colour; SortRole
// holds the severity's rank (0 error, 1 warning, 2 info), so that sorting by it keeps errors
// first; FindingIndexRole the row's index into findings().
class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, IdColumn, MessageColumn, ColumnCount };
    enum Roles { SortRole = Qt::UserRole + 1, FindingIndexRole };

    explicit FindingsModel(QObject* parent = nullptr);

    void setFindings(std::vector<Finding> findings);
    const std::vector<Finding>& findings() const { return m_findings; }
    // The finding of a row, null outside the model.
    const Finding* findingAt(int row) const;
    // The first row of the finding `id`, -1 for none.
    int rowOf(const std::string& id) const;

    // One colour per severity, on the row's severity and id (named in the column's tooltip).
    static QColor severityColor(Finding::Severity severity);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<Finding> m_findings;
};

} // namespace ws
