#include "group_panel.h"

#include "die_drag.h"
#include "std_string_text.h"

#include <QDragEnterEvent>
#include <QMimeData>

#include <algorithm>

namespace ws {

namespace {

int positionIn(const std::vector<DieId>& group, DieId die) {
    const auto found = std::find(group.begin(), group.end(), die);
    return found == group.end() ? -1 : static_cast<int>(found - group.begin());
}

} // namespace

GroupPanel::GroupPanel(QWidget* parent) : QTreeWidget(parent) {
    // One column: QTreeWidget's model gives children only to column 0, so extra columns would
    // fail QAbstractItemModelTester's parent checks.
    setColumnCount(1);
    setHeaderHidden(true);
    setAcceptDrops(true);
    viewport()->setAcceptDrops(true); // drag events are delivered to the viewport
    setDropIndicatorShown(true);
    setDragDropMode(QAbstractItemView::DropOnly);
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        QList<int> dies;
        if (item->data(0, DieRole).isValid())
            dies << item->data(0, DieRole).toInt();
        for (int child = 0; child < item->childCount(); ++child)
            dies << item->child(child)->data(0, DieRole).toInt();
        emit diesActivated(dies);
    });
}

void GroupPanel::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_analysis = std::move(analysis);
    clear();
    if (!m_analysis)
        return;
    const DieGroups& groups = m_analysis->groups;
    auto addKind = [&](const QString& title, const QString& kind, const QString& prefix,
                       const std::vector<std::vector<DieId>>& list, const QString& meaning) {
        auto* top = new QTreeWidgetItem(this, {tr("%1 (%2)").arg(title).arg(list.size())});
        top->setFlags(Qt::ItemIsEnabled);
        top->setToolTip(0, meaning);
        for (std::size_t g = 0; g < list.size(); ++g) {
            QStringList dies;
            for (DieId die : list[g])
                dies << QString::number(die);
            auto* item = new QTreeWidgetItem(
                top, {tr("%1%2: dies %3").arg(prefix).arg(g).arg(dies.join(QStringLiteral(", ")))});
            item->setData(0, KindRole, kind);
            item->setData(0, GroupRole, static_cast<int>(g));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDropEnabled);
            for (std::size_t position = 0; position < list[g].size(); ++position) {
                auto* dieItem = new QTreeWidgetItem(
                    item,
                    {kind == QLatin1String("tatp")
                         ? tr("die %1, stream position %2").arg(list[g][position]).arg(position)
                         : tr("die %1, replica %2").arg(list[g][position]).arg(position)});
                dieItem->setData(0, DieRole, list[g][position]);
                dieItem->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            }
        }
        top->setExpanded(true);
    };
    // What a group is, in the numbers of this placement: "DP groups (8)" for a dp 6 file is
    // right (one group per stream position, of 6 replicas each) but reads as a mistake unexplained.
    const auto sizeOf = [](const std::vector<std::vector<DieId>>& list) {
        return list.empty() ? 0 : static_cast<int>(list.front().size());
    };
    addKind(tr("DP groups"), QStringLiteral("dp"), QStringLiteral("D"), groups.dp,
            tr("A DP group is the dies that hold the same shard in each data-parallel replica: "
               "they synchronise gradients (with FSDP also gather weights) together. Here %1 "
               "groups of %2 dies: one group per die of a replica, one die per replica.")
                .arg(groups.dp.size())
                .arg(sizeOf(groups.dp)));
    addKind(tr("TATP groups"), QStringLiteral("tatp"), QStringLiteral("T"), groups.tatp,
            tr("A TATP group is the dies of one replica's tensor partition, a path along which "
               "sub-tensors stream one hop per round. Here %1 groups of %2 dies.")
                .arg(groups.tatp.size())
                .arg(sizeOf(groups.tatp)));
    if (groups.dp.empty() && groups.tatp.empty()) {
        // A strategy that does not place has groups in the file but none on this hardware.
        const QString why = qs(m_analysis->groupsError);
        auto* note =
            new QTreeWidgetItem(this, {why.isEmpty() ? tr("This scenario has no DP or TATP groups")
                                                     : tr("No groups: %1").arg(why)});
        note->setToolTip(0, why);
        note->setFlags(Qt::ItemIsEnabled);
    }
}

QList<QPair<int, int>> GroupPanel::swapsForDrop(const QList<int>& dies, const QString& kind,
                                                int group, QString* text) const {
    QList<QPair<int, int>> swaps;
    if (!m_analysis || dies.isEmpty()) {
        *text = tr("Nothing to drop");
        return swaps;
    }
    const DieGroups& groups = m_analysis->groups;
    const bool tatp = kind == QLatin1String("tatp");
    const auto& targets = tatp ? groups.tatp : groups.dp;
    if (group < 0 || group >= static_cast<int>(targets.size())) {
        *text = tr("No such group");
        return swaps;
    }
    const std::vector<DieId>& target = targets[static_cast<std::size_t>(group)];
    const QString name =
        (tatp ? QStringLiteral("T") : QStringLiteral("D")) + QString::number(group);
    for (int die : dies) {
        if (positionIn(target, die) >= 0) {
            *text = tr("Die %1 is already in group %2").arg(die).arg(name);
            return {};
        }
        // The slot to take: the die's position in its current group of this kind, so the
        // group keeps one die per stream position (TATP) or per replica (DP).
        const int current =
            (tatp ? groups.tatpOfDie : groups.dpOfDie)[static_cast<std::size_t>(die)];
        int position = 0;
        if (current >= 0)
            position = positionIn(
                (tatp ? groups.tatp : groups.dp)[static_cast<std::size_t>(current)], die);
        if (position >= static_cast<int>(target.size()))
            position = 0;
        swaps.append({die, target[static_cast<std::size_t>(position)]});
    }
    *text = swaps.size() == 1 ? tr("Move die %1 into %2 (swaps with die %3)")
                                    .arg(swaps[0].first)
                                    .arg(name)
                                    .arg(swaps[0].second)
                              : tr("Move %1 dies into %2").arg(swaps.size()).arg(name);
    return swaps;
}

QTreeWidgetItem* GroupPanel::groupItemAt(const QPoint& position) const {
    QTreeWidgetItem* item = itemAt(position);
    if (item && item->data(0, DieRole).isValid())
        item = item->parent(); // a die row stands for its group
    return item && item->data(0, KindRole).isValid() ? item : nullptr;
}

void GroupPanel::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasFormat(kDieMimeType))
        event->acceptProposedAction();
    else
        event->ignore();
}

void GroupPanel::dragMoveEvent(QDragMoveEvent* event) {
    QTreeWidgetItem* item = groupItemAt(event->position().toPoint());
    if (item && event->mimeData()->hasFormat(kDieMimeType)) {
        setCurrentItem(item); // highlights the group the dies would join
        event->acceptProposedAction();
    } else {
        event->ignore();
    }
}

void GroupPanel::dropEvent(QDropEvent* event) {
    if (dropDies(decodeDies(event->mimeData()), event->position().toPoint()))
        event->acceptProposedAction();
    else
        event->ignore();
}

bool GroupPanel::dropDies(const QList<int>& dies, const QPoint& position) {
    QTreeWidgetItem* item = groupItemAt(position);
    if (!item || dies.isEmpty())
        return false;
    QString text;
    const auto swaps = swapsForDrop(dies, item->data(0, KindRole).toString(),
                                    item->data(0, GroupRole).toInt(), &text);
    if (swaps.isEmpty())
        emit statusMessage(text);
    else
        emit dieSwapRequested(swaps, text);
    return true;
}

} // namespace ws
