#include "search_results_model.h"

#include "units/quantity.h"

#include <QFont>
#include <QLocale>

#include <limits>

namespace ws {

SearchResultsModel::SearchResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchResultsModel::setResult(std::shared_ptr<const SearchResult> result) {
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

double SearchResultsModel::stepTime(const StrategyScore& score) {
    return score.simulatedStepS.value_or(score.analyticStepS);
}

bool SearchResultsModel::isBaseline(int row) const {
    return m_result && row >= static_cast<int>(m_result->top.size()) && row < rowCount();
}

std::optional<StrategyScore> SearchResultsModel::scoreAt(int row) const {
    if (!m_result || row < 0 || row >= rowCount())
        return std::nullopt;
    const auto index = static_cast<std::size_t>(row);
    if (index < m_result->top.size())
        return m_result->top[index];
    return m_result->baselines[index - m_result->top.size()].score;
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_result)
        return 0;
    return static_cast<int>(m_result->top.size() + m_result->baselines.size());
}

int SearchResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const bool baseline = isBaseline(row);
    if (role == IsBaselineRole)
        return baseline;
    const std::optional<StrategyScore> score = scoreAt(row);
    const double best = stepTime(m_result->top.front());
    if (role == SortRole) {
        if (!score)
            return index.column() == NameColumn || index.column() == StrategyColumn
                       ? data(index, Qt::DisplayRole)
                       : QVariant(std::numeric_limits<double>::infinity());
        switch (index.column()) {
        case StepTimeColumn:
            return stepTime(*score);
        case TokensColumn:
            return score->tokensPerSecond;
        case MemoryColumn:
            return score->memoryPerDieBytes;
        case SpeedupColumn:
            return best > 0.0 ? stepTime(*score) / best : 0.0;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= StepTimeColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && row == 0) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto text = [](const std::string& s) { return QString::fromStdString(s); };
    const std::size_t top = m_result->top.size();
    switch (index.column()) {
    case NameColumn:
        if (baseline)
            return text(m_result->baselines[static_cast<std::size_t>(row) - top].name);
        return row == 0 ? tr("best") : QStringLiteral("#%1").arg(row + 1);
    case StrategyColumn:
        if (!score)
            return text(m_result->baselines[static_cast<std::size_t>(row) - top].whyNot);
        if (role == Qt::ToolTipRole && baseline)
            return tr("%1\n(%2)")
                .arg(text(score->label),
                     text(m_result->baselines[static_cast<std::size_t>(row) - top].family));
        return text(score->label);
    case StepTimeColumn:
        if (!score)
            return QStringLiteral("–");
        return score->simulatedStepS
                   ? text(formatSeconds(*score->simulatedStepS))
                   : tr("%1 (model)").arg(text(formatSeconds(score->analyticStepS)));
    case TokensColumn:
        return score ? QLocale().toString(score->tokensPerSecond, 'f', 0) : QStringLiteral("–");
    case MemoryColumn:
        if (!score)
            return QStringLiteral("–");
        return score->outOfMemory
                   ? tr("%1, out of memory").arg(text(formatBytes(score->memoryPerDieBytes)))
                   : text(formatBytes(score->memoryPerDieBytes));
    case SpeedupColumn:
        if (!score || best <= 0.0)
            return QStringLiteral("–");
        return QStringLiteral("%1×").arg(stepTime(*score) / best, 0, 'f', 2);
    default:
        return {};
    }
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section == SpeedupColumn)
        return tr("Step time over the best strategy's: how much slower than the search's best");
    if (role == Qt::ToolTipRole && section == StepTimeColumn)
        return tr("Simulated step time; \"model\" marks the analytical estimate where the full "
                  "simulator was not run");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Result");
    case StrategyColumn:
        return tr("Strategy");
    case StepTimeColumn:
        return tr("Step time");
    case TokensColumn:
        return tr("Tokens/s");
    case MemoryColumn:
        return tr("Memory/die");
    case SpeedupColumn:
        return tr("vs best");
    default:
        return {};
    }
}

} // namespace ws
