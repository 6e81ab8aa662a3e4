#include "sweep_results_model.h"

#include "sweep/sweep_table.h"

#include "std_string_text.h"
#include "units/quantity.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <algorithm>

namespace ws {

namespace {

const QColor kFailedText(Qt::gray);
const QColor kOutOfMemoryText(160, 0, 0);

// A figure that may be absent: its text by `format`, or nothing.
QVariant shown(const std::optional<double>& value, QString (*format)(double)) {
    return value ? QVariant(format(*value)) : QVariant();
}

QString seconds(double value) {
    return qs(formatSeconds(value));
}

QString bytes(double value) {
    return qs(formatBytes(value));
}

QString tokens(double value) {
    return QLocale().toString(value, 'f', 0);
}

QString percent(double value) {
    return QStringLiteral("%1%").arg(value * 100.0, 0, 'f', 1);
}

} // namespace

SweepResultsModel::SweepResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepResultsModel::setOutput(std::shared_ptr<const SweepOutput> output) {
    beginResetModel();
    m_output = std::move(output);
    endResetModel();
}

int SweepResultsModel::axisCount() const {
    return m_output ? static_cast<int>(m_output->axes.size()) : 0;
}

int SweepResultsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_output)
        return 0;
    return static_cast<int>(m_output->rows.size());
}

int SweepResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_output ? 0 : axisCount() + FigureColumnCount;
}

QVariant SweepResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SweepRow& row = m_output->rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case SourceRowRole:
        return index.row();
    case FailedRole:
        return !row.ok;
    case OutOfMemoryRole:
        return row.outOfMemory;
    case Qt::ToolTipRole:
        if (!row.ok)
            return tr("Did not simulate: %1").arg(qs(row.error));
        if (row.outOfMemory)
            return tr("Out of memory: the fullest die needs %1").arg(bytes(row.peakMemoryBytes));
        return {};
    case Qt::ForegroundRole:
        if (!row.ok)
            return QBrush(kFailedText);
        break;
    default:
        break;
    }
    const int axes = axisCount();
    if (index.column() < axes) {
        const nlohmann::json& value = row.point.values[static_cast<std::size_t>(index.column())];
        if (role == Qt::DisplayRole)
            return qs(value.is_string() ? value.get<std::string>() : value.dump());
        if (role == SortRole)
            return value.is_number() ? QVariant(value.get<double>()) : data(index, Qt::DisplayRole);
        if (role == Qt::TextAlignmentRole && value.is_number())
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return figureData(row, static_cast<Columns>(index.column() - axes), role);
}

QVariant SweepResultsModel::figureData(const SweepRow& row, Columns figure, int role) const {
    if (role == Qt::TextAlignmentRole)
        return figure == ErrorColumn || figure == OomColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole)
        return row.outOfMemory && (figure == OomColumn || figure == PeakMemoryColumn)
                   ? QVariant(QBrush(kOutOfMemoryText))
                   : QVariant();
    const std::optional<double> makespan =
        row.ok ? std::optional<double>(row.makespanS) : std::nullopt;
    const std::optional<double> link =
        row.ok ? std::optional<double>(row.maxLinkBytes) : std::nullopt;
    const std::optional<double> memory =
        row.ok ? std::optional<double>(row.peakMemoryBytes) : std::nullopt;
    if (role == SortRole) {
        const auto number = [](const std::optional<double>& value) {
            return value ? QVariant(*value) : QVariant();
        };
        switch (figure) {
        case SampleColumn:
            return row.point.sample;
        case StepColumn:
            return number(row.stepS);
        case TokensColumn:
            return number(row.tokensPerSecond);
        case MfuColumn:
            return number(row.mfu);
        case DiesUsedColumn:
            return row.diesUsed ? QVariant(*row.diesUsed) : QVariant();
        case BubbleColumn:
            return number(row.ppBubble);
        case MakespanColumn:
            return number(makespan);
        case MaxLinkColumn:
            return number(link);
        case PeakMemoryColumn:
            return number(memory);
        case OomColumn:
            return row.ok ? QVariant(row.outOfMemory ? 1 : 0) : QVariant();
        case ErrorColumn:
            return qs(row.error);
        case FigureColumnCount:
            break;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (figure) {
    case SampleColumn:
        return row.point.sample;
    case StepColumn:
        return shown(row.stepS, seconds);
    case TokensColumn:
        return shown(row.tokensPerSecond, tokens);
    case MfuColumn:
        return shown(row.mfu, percent);
    case DiesUsedColumn:
        return row.diesUsed ? QVariant(*row.diesUsed) : QVariant();
    case BubbleColumn:
        return shown(row.ppBubble, percent);
    case MakespanColumn:
        return shown(makespan, seconds);
    case MaxLinkColumn:
        return shown(link, bytes);
    case PeakMemoryColumn:
        return shown(memory, bytes);
    case OomColumn:
        return row.outOfMemory ? tr("out of memory") : QString();
    case ErrorColumn:
        return qs(row.error);
    case FigureColumnCount:
        break;
    }
    return {};
}

QVariant SweepResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical)
        return {};
    if (section < 0 || section >= columnCount())
        return {};
    const int axes = axisCount();
    if (section < axes) {
        const std::string& key = m_output->axes[static_cast<std::size_t>(section)];
        if (role == Qt::DisplayRole) {
            // The key's last part ("link_bandwidth"), narrow enough to keep in view beside
            // the figures, unless another axis ends the same way.
            auto lastPart = [](const std::string& k) { return k.substr(k.rfind('.') + 1); };
            const auto sameEnd = std::count_if(
                m_output->axes.begin(), m_output->axes.end(),
                [&](const std::string& other) { return lastPart(other) == lastPart(key); });
            return qs(sameEnd > 1 ? key : lastPart(key));
        }
        if (role == Qt::ToolTipRole)
            return tr("An axis of the sweep: the scenario key %1").arg(qs(key));
        return {};
    }
    struct Header {
        const char* title;
        const char* tip;
    };
    static const Header headers[FigureColumnCount] = {
        {QT_TR_NOOP("sample"), QT_TR_NOOP("The repetition of the point (fault sweeps draw new "
                                          "faults for each)")},
        {QT_TR_NOOP("step time"), QT_TR_NOOP("step_s: one whole training step")},
        {QT_TR_NOOP("tokens/s"), QT_TR_NOOP("tokens_per_s: training throughput")},
        {QT_TR_NOOP("MFU"), QT_TR_NOOP("mfu: model FLOPs utilisation, per die used")},
        {QT_TR_NOOP("dies used"), QT_TR_NOOP("dies_used: the dies (GPUs on a cluster) the "
                                             "point's strategy ran on; a fault sweep's dp "
                                             "shrinks to fit the live ones")},
        {QT_TR_NOOP("bubble"), QT_TR_NOOP("pp_bubble: the share of the 1F1B schedule a "
                                          "pipeline stage is idle (0 with one stage)")},
        {QT_TR_NOOP("makespan"), QT_TR_NOOP("makespan_s: the simulated window")},
        {QT_TR_NOOP("busiest link"), QT_TR_NOOP("max_link_bytes: the traffic of the busiest "
                                                "link")},
        {QT_TR_NOOP("peak memory"), QT_TR_NOOP("peak_memory_bytes: the fullest die's memory")},
        {QT_TR_NOOP("OOM"), QT_TR_NOOP("oom: a die needs more than its SRAM and HBM")},
        {QT_TR_NOOP("error"), QT_TR_NOOP("Why a point did not simulate (ok false)")}};
    const Header& header = headers[section - axes];
    if (role == Qt::DisplayRole)
        return tr(header.title);
    if (role == Qt::ToolTipRole)
        return tr(header.tip);
    return {};
}

} // namespace ws
