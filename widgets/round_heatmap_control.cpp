#include "round_heatmap_control.h"

#include "step/round_link_bytes.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>

namespace ws {

RoundHeatmapControl::RoundHeatmapControl(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Heatmap of round:")));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setRange(-1, -1);
    m_slider->setToolTip(tr("Colour the mesh by the link loads of one round (collective step or "
                            "TATP round); leftmost: the whole run"));
    m_label = new QLabel(tr("all"));
    m_label->setMinimumWidth(60);
    row->addWidget(m_slider, 1);
    row->addWidget(m_label);
    connect(m_slider, &QSlider::valueChanged, this, &RoundHeatmapControl::showRound);
}

void RoundHeatmapControl::setAnalysis(std::shared_ptr<const ScenarioAnalysis> analysis) {
    m_analysis = std::move(analysis);
    int lastRound = -1;
    if (m_analysis)
        for (const FlowReport& flow : m_analysis->report.flows)
            lastRound = std::max(lastRound, flow.step);
    const QSignalBlocker blocker(m_slider);
    m_slider->setRange(-1, lastRound);
    m_slider->setValue(-1);
    m_label->setText(tr("all"));
}

void RoundHeatmapControl::showRound(int round) {
    if (!m_analysis || round < 0) {
        m_label->setText(tr("all"));
        emit loadsChanged(std::nullopt);
        return;
    }
    const std::vector<FlowReport>& flows = m_analysis->report.flows;
    const std::size_t linkCount = m_analysis->report.links.size();
    auto stepOf = [](const FlowReport& flow) { return flow.step; };
    auto perRound = roundLinkBytes(flows, stepOf, linkCount, round);
    MeshView::LinkLoadOverride loads;
    loads.bytes = perRound.empty() ? std::vector<double>(linkCount, 0.0)
                                   : std::move(perRound.begin()->second);
    double first = 0, last = 0;
    bool any = false;
    for (const FlowReport& flow : flows) {
        if (flow.step != round)
            continue;
        first = any ? std::min(first, flow.startS) : flow.startS;
        last = any ? std::max(last, flow.endS) : flow.endS;
        any = true;
    }
    loads.makespanS = last - first; // utilisation over the round's own span
    loads.caption = tr("round %1 only").arg(round);
    m_label->setText(tr("round %1").arg(round));
    emit loadsChanged(loads);
}

} // namespace ws
