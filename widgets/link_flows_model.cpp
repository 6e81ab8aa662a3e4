#include "link_flows_model.h"

#include "units/quantity.h"

namespace ws {

LinkFlowsModel::LinkFlowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void LinkFlowsModel::setLink(std::shared_ptr<const ScenarioAnalysis> analysis, int link) {
    beginResetModel();
    m_analysis = std::move(analysis);
    m_link = link;
    m_flows.clear();
    if (m_analysis && link >= 0 && link < static_cast<int>(m_analysis->flowsOnLink.size()))
        m_flows = m_analysis->flowsOnLink[static_cast<std::size_t>(link)];
    endResetModel();
}

int LinkFlowsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_flows.size());
}

int LinkFlowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LinkFlowsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int flowIndex = m_flows[static_cast<std::size_t>(index.row())];
    const FlowReport& flow = m_analysis->report.flows[static_cast<std::size_t>(flowIndex)];
    if (role == FlowIndexRole)
        return flowIndex;
    if (role == SortRole) {
        switch (index.column()) {
        case BytesColumn:
            return flow.bytes;
        case StartColumn:
            return flow.startS;
        case EndColumn:
            return flow.endS;
        default:
            break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == BytesColumn || index.column() == StartColumn ||
         index.column() == EndColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case FlowColumn:
        return QString::fromStdString(flow.id);
    case KindColumn:
        return QString::fromStdString(flow.opKind);
    case BytesColumn:
        return QString::fromStdString(formatBytes(flow.bytes));
    case StartColumn:
        return QString::fromStdString(formatSeconds(flow.startS));
    case EndColumn:
        return QString::fromStdString(formatSeconds(flow.endS));
    case RouteColumn: {
        QStringList dies;
        if (!flow.route.path.empty()) {
            for (DieId die : flow.route.path)
                dies << QString::number(die);
            return dies.join(QStringLiteral("→"));
        }
        for (const auto& [from, to] : flow.route.edges)
            dies << QStringLiteral("%1→%2").arg(from).arg(to);
        return tr("tree: %1").arg(dies.join(QStringLiteral(", ")));
    }
    default:
        return {};
    }
}

QVariant LinkFlowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == FlowColumn)
        // Flow ids are made in core (step/training_step.cpp, collectives/collective_expansion.h).
        return tr("A flow's id: the op or collective (in a training step \"<what> g<group> "
                  "#<n>\": its DP or TATP group and its number in the step), then /s<step> (the "
                  "algorithm's step, e.g. a ring's round) and /r<rank> (the sending rank within "
                  "the group). Example: \"fsdp fwd weights g0 #0/s0/r3\" is rank 3's first ring "
                  "step of the first FSDP weight gather of DP group 0.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FlowColumn:
        return tr("Flow");
    case KindColumn:
        return tr("Kind");
    case BytesColumn:
        return tr("Bytes");
    case StartColumn:
        return tr("Start");
    case EndColumn:
        return tr("Delivered");
    case RouteColumn:
        return tr("Route");
    default:
        return {};
    }
}

} // namespace ws
