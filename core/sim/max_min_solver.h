#pragma once

#include "topology/wafer_topology.h"

#include <span>
#include <utility>
#include <vector>

namespace ws {

// Max-min fair rates (docs/network-model.md) for a changing set of active flows, re-solved
// incrementally: only the connected component (flows linked through shared links) of the links
// touched since the last solve is recomputed. Max-min allocations decompose over components, so
// every other flow keeps its rate exactly.
//
// Progressive filling, run as "bottleneck first": repeatedly take the link with the smallest fair
// share remaining_capacity / unfrozen_flows, give each of its unfrozen flows that share, freeze
// them and subtract the share from the other links they cross. A link's fair share never
// decreases while filling (the flows removed from it got at most its share), so links can be
// visited in the order of their initial shares, with a small heap for the few whose share grew
// before their turn (lazily re-keyed when they surface). Cost per solve: one sort of the
// component's links plus a walk over its flow-link incidences.
//
// Worked example: links L1, L2 of 1 GB/s; flow A on both, B on L1, C and D on L2. L2's share is
// 1/3 (smallest), so A, C, D get 1/3 GB/s; L1 then has 2/3 left for B alone.
//
// Flows are identified by dense ids (TaskIds); `flowLinkOffsets` / `flowLinks` give each flow's
// links in CSR form (flow f crosses flowLinks[offsets[f] .. offsets[f+1])), each link once.
// setFlowLinks replaces an inactive flow's links (its range then lies past the others').
class MaxMinSolver {
public:
    MaxMinSolver(std::vector<double> linkBandwidth, std::vector<int> flowLinkOffsets,
                 std::vector<LinkId> flowLinks);

    // Gives an inactive flow other links (a variant of the problem: FluidSimulation::switchTo).
    void setFlowLinks(int flow, std::span<const LinkId> links);

    // Makes a flow compete for bandwidth from now on (its links are marked touched).
    void activate(int flow);
    // Removes an active flow (its links are marked touched so that the others speed up).
    void deactivate(int flow);

    bool hasTouchedLinks() const { return !m_touchedLinks.empty(); }

    // Re-solves the rates of every active flow connected to a touched link and clears the touched
    // set. Returns those flows (valid until the next call), in a deterministic order.
    const std::vector<int>& solveTouched();

    // bytes/s; meaningful for an active flow after the solve that followed its activation.
    double rate(int flow) const { return m_rate[static_cast<std::size_t>(flow)]; }
    int activeFlowCount() const { return m_activeFlowCount; }

private:
    struct LinkEntry {
        int flow;
        int slot; // index into m_flowLinks of this (flow, link) pair
    };

    void touch(LinkId link);
    void collectComponent();
    void fill();
    void sortByShare();

    std::vector<double> m_bandwidth;  // bytes/s by LinkId
    std::vector<int> m_flowLinkBegin; // by flow: its links are m_flowLinks[begin, end)
    std::vector<int> m_flowLinkEnd;
    std::vector<LinkId> m_flowLinks; // by slot: every flow's links, each flow's contiguous
    std::vector<int> m_slotPos;      // by slot: position in its link's m_linkFlows list
    std::vector<std::vector<LinkEntry>> m_linkFlows; // active flows per link (unordered)
    std::vector<double> m_rate;                      // bytes/s by flow
    int m_activeFlowCount = 0;

    // Scratch, reused between solves so the event loop does not allocate once warmed up.
    std::vector<LinkId> m_touchedLinks;
    std::vector<unsigned> m_linkTouchedStamp; // == m_touchStamp while in m_touchedLinks
    unsigned m_touchStamp = 1;
    std::vector<unsigned> m_linkStamp;  // == m_epoch when in the current component
    std::vector<unsigned> m_flowStamp;  // == m_epoch when in the current component
    std::vector<unsigned> m_flowFrozen; // == m_epoch when frozen in the current solve
    unsigned m_epoch = 0;
    std::vector<LinkId> m_componentLinks;
    std::vector<int> m_componentFlows;
    std::vector<double> m_capacityLeft;              // bytes/s by LinkId, valid for component links
    std::vector<int> m_unfrozenCount;                // by LinkId, valid for component links
    std::vector<std::pair<double, LinkId>> m_sorted; // (initial share, link), ascending
    std::vector<std::pair<double, LinkId>> m_sortBuffer; // radix sort scratch
    std::vector<std::pair<double, LinkId>> m_heap;       // (re-keyed share, link), min-heap
};

} // namespace ws
