#pragma once

#include "scenario_analysis.h"

#include <QAbstractTableModel>

#include <memory>

namespace ws {

// The flows whose route crosses one link (the link the user clicked on the mesh), one row each.
// Numbers are in SortRole as doubles (bytes, seconds), so sorting is numeric.
class LinkFlowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        FlowColumn,
        KindColumn,
        BytesColumn,
        StartColumn,
        EndColumn,
        RouteColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1, FlowIndexRole };

    explicit LinkFlowsModel(QObject* parent = nullptr);

    // link < 0 or a null analysis empties the model.
    void setLink(std::shared_ptr<const ScenarioAnalysis> analysis, int link);
    int link() const { return m_link; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ScenarioAnalysis> m_analysis;
    int m_link = -1;
    std::vector<int> m_flows; // indices into m_analysis->report.flows
};

} // namespace ws
