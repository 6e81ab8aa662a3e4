#include "findings_model.h"

#include <QApplication>
#include <QIcon>
#include <QStyle>

#include <utility>

namespace ws {

namespace {

int rankOf(Finding::Severity severity) {
    switch (severity) {
    case Finding::Severity::Error:
        return 0;
    case Finding::Severity::Warning:
        return 1;
    case Finding::Severity::Info:
        break;
    }
    return 2;
}

QIcon iconOf(Finding::Severity severity) {
    const QStyle::StandardPixmap pixmap =
        severity == Finding::Severity::Error     ? QStyle::SP_MessageBoxCritical
        : severity == Finding::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                 : QStyle::SP_MessageBoxInformation;
    return QApplication::style()->standardIcon(pixmap);
}

} // namespace

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingsModel::setFindings(std::vector<Finding> findings) {
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

const Finding* FindingsModel::findingAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_findings[static_cast<std::size_t>(row)] : nullptr;
}

int FindingsModel::rowOf(const std::string& id) const {
    for (int row = 0; row < rowCount(); ++row)
        if (m_findings[static_cast<std::size_t>(row)].id == id)
            return row;
    return -1;
}

QColor FindingsModel::severityColor(Finding::Severity severity) {
    switch (severity) {
    case Finding::Severity::Error:
        return {190, 20, 20};
    case Finding::Severity::Warning:
        return {170, 100, 0};
    case Finding::Severity::Info:
        break;
    }
    return {30, 90, 170};
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Finding& finding = m_findings[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case FindingIndexRole:
        return index.row();
    case SortRole:
        if (column == SeverityColumn)
            return rankOf(finding.severity);
        break; // the text sorts the other columns
    case Qt::DecorationRole:
        return column == SeverityColumn ? QVariant(iconOf(finding.severity)) : QVariant();
    case Qt::ForegroundRole:
        return column == MessageColumn ? QVariant() : QVariant(severityColor(finding.severity));
    case Qt::ToolTipRole:
        if (column == MessageColumn)
            return QString::fromStdString(finding.message);
        break;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (role == SortRole || role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (column) {
        case SeverityColumn:
            return QString::fromLatin1(toString(finding.severity));
        case IdColumn:
            return QString::fromStdString(finding.id);
        case MessageColumn:
            return QString::fromStdString(finding.message);
        default:
            break;
        }
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == SeverityColumn)
        return tr("Red: error (the scenario cannot run as it is), amber: warning, blue: info");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case IdColumn:
        return tr("Finding");
    case MessageColumn:
        return tr("What the simulation shows");
    default:
        return {};
    }
}

} // namespace ws
