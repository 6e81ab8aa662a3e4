#include "fault_editor.h"

#include "scenario_document.h"

#include "topology/wafer_topology.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

// A list row's fault: its kind and its dies, in the item's data.
constexpr int kKindRole = Qt::UserRole;
constexpr int kDieRole = Qt::UserRole + 1;
constexpr int kToRole = Qt::UserRole + 2;
constexpr int kBothWaysRole = Qt::UserRole + 3;

} // namespace

FaultEditor::FaultEditor(ScenarioDocument* document, QWidget* parent)
    : DocumentForm(document, parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_box = new QGroupBox(tr("Faults"));
    outer->addWidget(m_box);
    auto* layout = new QVBoxLayout(m_box);

    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("faultList"));
    m_list->setToolTip(tr("The wafer's faults (wafer.faults): dead dies, dead links and slow "
                          "dies. Remove brings the selected one back to health"));
    m_list->setMinimumHeight(60);
    m_list->setMaximumHeight(120);
    layout->addWidget(m_list);
    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("removeFault"));
    m_remove->setToolTip(tr("Bring the selected die or link back, at full speed (one undo step)"));
    auto* removeRow = new QHBoxLayout;
    removeRow->addStretch(1);
    removeRow->addWidget(m_remove);
    layout->addLayout(removeRow);

    // The add row: what, which die (and which neighbour, or what speed), Add.
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("faultKindToAdd"));
    m_kind->addItems({tr("Dead die"), tr("Dead link"), tr("Slow die")}); // index = Kind
    m_die = new QSpinBox;
    m_die->setObjectName(QStringLiteral("faultDie"));
    m_die->setToolTip(tr("The die (its id on the mesh)"));
    m_to = new QSpinBox;
    m_to->setObjectName(QStringLiteral("faultTo"));
    m_to->setPrefix(tr("to "));
    m_to->setToolTip(tr("The neighbour at the link's other end"));
    m_bothWays = new QCheckBox(tr("both ways"));
    m_bothWays->setObjectName(QStringLiteral("faultBothWays"));
    m_bothWays->setChecked(true);
    m_bothWays->setToolTip(tr("Both directions of the link (\"a-b\"), or only from the first die "
                              "to the second (\"a->b\")"));
    m_speed = new QSpinBox;
    m_speed->setObjectName(QStringLiteral("faultSpeed"));
    m_speed->setRange(1, 99);
    m_speed->setValue(50);
    m_speed->setSuffix(tr("%"));
    m_speed->setToolTip(tr("The share of its peak FLOP/s the die reaches "
                           "(wafer.faults.slow_dies); its HBM and links keep their speed"));
    m_add = new QPushButton(tr("Add"));
    m_add->setObjectName(QStringLiteral("addFault"));
    auto* addRow = new QHBoxLayout;
    addRow->addWidget(m_kind);
    addRow->addWidget(m_die);
    addRow->addWidget(m_to);
    addRow->addWidget(m_speed);
    addRow->addWidget(m_add);
    layout->addLayout(addRow);
    auto* wayRow = new QHBoxLayout;
    wayRow->addStretch(1);
    wayRow->addWidget(m_bothWays);
    layout->addLayout(wayRow);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &FaultEditor::showKindFields);
    connect(m_list, &QListWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(!m_list->selectedItems().isEmpty()); });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeFault(m_list->currentRow()); });
    connect(m_add, &QPushButton::clicked, this, [this] {
        addFault(static_cast<Kind>(m_kind->currentIndex()), m_die->value(), m_to->value(),
                 m_speed->value(), m_bothWays->isChecked());
    });
    refresh();
    showKindFields();
}

void FaultEditor::showKindFields() {
    const int kind = m_kind->currentIndex();
    m_to->setVisible(kind == DeadLink);
    m_bothWays->setVisible(kind == DeadLink);
    m_speed->setVisible(kind == SlowDie);
}

void FaultEditor::addFault(Kind kind, int die, int to, int speedPercent, bool bothWays) {
    applyEdit([&](QString* reason) {
        switch (kind) {
        case DeadDie:
            return m_document->setDieDead(die, true, reason);
        case DeadLink: {
            const WaferTopology topology(m_document->scenario().topologySpec());
            return m_document->setLinkDead(topology, die, to, true, reason, bothWays);
        }
        case SlowDie:
            break;
        }
        return m_document->setDieSpeed(die, speedPercent / 100.0, reason);
    });
}

void FaultEditor::removeFault(int row) {
    const QListWidgetItem* item = m_list->item(row);
    if (item == nullptr || !item->data(kKindRole).isValid())
        return; // none, or the "No faults" line
    const auto kind = static_cast<Kind>(item->data(kKindRole).toInt());
    const int die = item->data(kDieRole).toInt();
    const int to = item->data(kToRole).toInt();
    const bool bothWays = item->data(kBothWaysRole).toBool();
    applyEdit([&](QString* reason) {
        switch (kind) {
        case DeadDie:
            return m_document->setDieDead(die, false, reason);
        case DeadLink: {
            const WaferTopology topology(m_document->scenario().topologySpec());
            return m_document->setLinkDead(topology, die, to, false, reason, bothWays);
        }
        case SlowDie:
            break;
        }
        return m_document->setDieSpeed(die, 1.0, reason);
    });
}

void FaultEditor::refreshFields() {
    const Scenario& scenario = m_document->scenario();
    const bool cluster = scenario.cluster.has_value();
    // The hardware's own words; a cluster's faults are its GPUs' (its links are switches').
    m_box->setTitle(cluster ? tr("Faults (GPUs)") : tr("Faults"));
    m_kind->setItemText(DeadDie, cluster ? tr("Dead GPU") : tr("Dead die"));
    m_kind->setItemText(SlowDie, cluster ? tr("Slow GPU") : tr("Slow die"));
    if (cluster && m_kind->currentIndex() == DeadLink)
        m_kind->setCurrentIndex(DeadDie);
    if (auto* model = qobject_cast<QStandardItemModel*>(m_kind->model()))
        if (QStandardItem* linkItem = model->item(DeadLink))
            linkItem->setEnabled(!cluster);
    const QString unit = cluster ? tr("GPU") : tr("die");
    m_die->setRange(0, std::max(0, scenario.dieCount() - 1));
    m_to->setRange(0, std::max(0, scenario.dieCount() - 1));

    const int selected = m_list->currentRow();
    m_list->clear();
    const auto add = [this](const QString& text, Kind kind, int die, int to, bool bothWays) {
        auto* item = new QListWidgetItem(text, m_list);
        item->setData(kKindRole, static_cast<int>(kind));
        item->setData(kDieRole, die);
        item->setData(kToRole, to);
        item->setData(kBothWaysRole, bothWays);
    };
    for (const DieId die : scenario.wafer.deadDies)
        add(tr("%1 %2: dead").arg(unit).arg(die), DeadDie, die, 0, false);
    // Directed dead links, one row per physical link: both of its directions dead (written
    // "a-b" or as "a->b" and "b->a") read as one row, "dead both ways".
    std::vector<std::pair<DieId, DieId>> directed;
    for (const LinkRef& link : scenario.wafer.deadLinks) {
        directed.emplace_back(link.from, link.to);
        if (link.bothDirections)
            directed.emplace_back(link.to, link.from);
    }
    const auto isDead = [&directed](DieId from, DieId to) {
        return std::find(directed.begin(), directed.end(), std::make_pair(from, to)) !=
               directed.end();
    };
    std::vector<std::pair<DieId, DieId>> shown;
    for (const auto& [from, to] : directed) {
        const bool bothWays = isDead(to, from);
        const std::pair<DieId, DieId> row =
            bothWays ? std::make_pair(std::min(from, to), std::max(from, to))
                     : std::make_pair(from, to);
        if (std::find(shown.begin(), shown.end(), row) != shown.end())
            continue;
        shown.push_back(row);
        add(bothWays ? tr("link %1-%2: dead both ways").arg(row.first).arg(row.second)
                     : tr("link %1->%2: dead").arg(row.first).arg(row.second),
            DeadLink, row.first, row.second, bothWays);
    }
    for (const auto& [die, speed] : scenario.wafer.slowDies)
        add(tr("%1 %2: %3% of its peak").arg(unit).arg(die).arg(speed * 100, 0, 'g', 4), SlowDie,
            die, 0, false);
    if (m_list->count() == 0) {
        auto* none =
            new QListWidgetItem(tr("No faults: every %1 and link is healthy").arg(unit), m_list);
        none->setFlags(Qt::NoItemFlags);
    } else if (selected >= 0 && selected < m_list->count()) {
        m_list->setCurrentRow(selected);
    }
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
}

} // namespace ws
