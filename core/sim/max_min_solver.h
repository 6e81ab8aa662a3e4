#pragma once

#include "sim/slot_pool.h"
#include "topology/wafer_topology.h"

#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace ws {

// Max-min fair rates (docs/network-model.md) for a changing set of active flows, re-solved
// incrementally. Three facts bound what a change can move:
//  - Max-min allocations decompose over connected components (flows linked through shared
//    links), so only the component of the links touched since the last solve can change.
//  - Progressive filling raises one level for every unfrozen flow; below the lowest level at
//    which a change could matter, the filling is the same with and without it. That level, the
//    "floor", is a removed flow's old rate (below it the flow was frozen nowhere, and without it
//    its links only fill later), and for a link that gained flows the level at which it would
//    now fill, its other flows keeping their old rates. So every flow whose old rate is below
//    the lowest floor of the changes keeps it exactly.
//  - An allocation is the max-min one if and only if every flow has a bottleneck: a full link on
//    which no flow goes faster. Each flow remembers the link that froze it (its bottleneck). A
//    change reaches a link's flows only through the flows bottlenecked on it: the walk from the
//    touched links takes, on each link, the fresh flows and the flows at or above the floor
//    bottlenecked there, and then all their links. A flow it leaves out keeps its rate and its
//    bottleneck (which the walk did not reach, so nothing on it changed), and takes its rate off
//    the capacity of the links it shares with the re-solved flows. That is the max-min
//    allocation unless a left-out flow now goes faster than the level at which one of those
//    links froze re-solved flows (a link that lost capacity to a flow that sped up); then those
//    flows are re-solved too, and after a few such widenings every flow at or above the floor is.
//    A flow finishing at the bottom of a wafer-wide collective so re-solves the flows its
//    bottlenecks feed, not the whole wafer.
//
// Progressive filling, run as "bottleneck first": repeatedly take the link with the smallest fair
// share remaining_capacity / unfrozen_flows, give each of its unfrozen flows that share, freeze
// them and subtract the share from the other links they cross. A link's fair share never
// decreases while filling (the flows removed from it got at most its share), so links can be
// visited in the order of their initial shares, with a small heap for the few whose share grew
// before their turn (lazily re-keyed when they surface). The filling stops once every flow is
// frozen (the links left would give nothing). Cost per solve: one sort of the re-solved links
// plus a walk over their flow-link incidences.
//
// Worked example: links L1, L2 of 1 GB/s; flow A on both, B on L1, C and D on L2. L2's share is
// 1/3 (smallest), so A, C, D get 1/3 GB/s; L1 then has 2/3 left for B alone. If B then ends,
// the floor is B's 2/3 and A, C, D (1/3 each) keep their rates: nothing is re-solved. If C ends
// instead, the floor is 1/3, so A and D are re-solved (1/2 each) and B with them (1/2).
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

    // Re-solves the rates of the active flows that the changes since the last solve can move (see
    // above) and clears the touched set. Returns those flows (valid until the next call), in a
    // deterministic order; every other active flow keeps its rate.
    const std::vector<int>& solveTouched();

    // bytes/s; meaningful for an active flow after the solve that followed its activation (0 for
    // an inactive one).
    double rate(int flow) const {
        const int at = m_activeSlotOf[static_cast<std::size_t>(flow)];
        return at < 0 ? 0.0 : m_active[at].rate;
    }
    int activeFlowCount() const { return m_activeFlowCount; }

private:
    // An active flow's state, in a pool of the active flows only (sim/slot_pool.h), so that the
    // walks over the links' flow lists read it from cache: by flow id it would be spread over
    // tens of megabytes.
    struct ActiveFlow {
        double rate = 0.0;      // bytes/s
        unsigned fresh = 0;     // == m_touchStamp if activated since the last solve
        unsigned stamp = 0;     // == m_epoch when re-solved by the current solve
        unsigned forced = 0;    // == m_touchStamp if the current solve must re-solve it
        int local = 0;          // its local index in that solve (valid when stamped)
        LinkId bottleneck = -1; // the link that froze it in the solve that set its rate
        int flow = -1;          // its flow id
        int linkBegin = 0;      // its links: m_flowLinks[linkBegin, linkEnd)
        int linkEnd = 0;
    };
    struct LinkEntry {
        int active; // index into m_active
        int slot;   // index into m_flowLinks of this (flow, link) pair
    };

    // Which flows at or above the floor a solve re-solves: only those a change reaches through
    // their bottlenecks, or (the fallback, which needs no check) all of them.
    enum class Reach { Bottlenecked, AboveFloor };

    void touch(LinkId link);
    double floorOfTouchedLinks();
    bool reaches(const ActiveFlow& active, LinkId link, double floor, Reach reach) const;
    void collectComponent(double floor, Reach reach);
    void fill();
    bool forceFlowsAboveTheirLevels();
    void commitRates();
    void sortByShare();

    std::vector<double> m_bandwidth;  // bytes/s by LinkId
    std::vector<int> m_flowLinkBegin; // by flow: its links are m_flowLinks[begin, end)
    std::vector<int> m_flowLinkEnd;
    std::vector<LinkId> m_flowLinks; // by slot: every flow's links, each flow's contiguous
    std::vector<int> m_slotPos;      // by slot: position in its link's m_linkFlows list
    std::vector<std::vector<LinkEntry>> m_linkFlows; // active flows per link (unordered)
    SlotPool<ActiveFlow> m_active;
    std::vector<int> m_activeSlotOf; // by flow: its slot in m_active while active
    int m_activeFlowCount = 0;
    // bytes/s: the lowest old rate of a flow removed since the last solve.
    double m_removalFloor = std::numeric_limits<double>::infinity();

    // Scratch, reused between solves so the event loop does not allocate once warmed up.
    std::vector<LinkId> m_touchedLinks;
    std::vector<unsigned> m_linkTouchedStamp; // == m_touchStamp while in m_touchedLinks
    unsigned m_touchStamp = 1;
    std::vector<unsigned> m_linkStamp; // == m_epoch when reached by the current solve's walk
    unsigned m_epoch = 0;
    // The flows to re-solve and the links they cross, as a dense local problem that the filling
    // reads contiguously: links and flows are numbered in the order the breadth-first walk meets
    // them, and both incidences are kept as ranges in the order of the global lists (so the
    // filling, and its rounding, depend on nothing but the problem and its history).
    std::vector<LinkId> m_componentLinks;  // by local link: its LinkId
    std::vector<int> m_componentFlows;     // by local flow: its m_active index (re-solved only)
    std::vector<int> m_resolvedFlows;      // by local flow: its flow id (what solveTouched returns)
    std::vector<int> m_localLink;          // by LinkId: its local index (valid when stamped)
    std::vector<int> m_linkFlowBegin;      // by local link: its re-solved flows are
    std::vector<int> m_linkFlowEnd;        // m_linkFlowsLocal[begin, end)
    std::vector<int> m_linkFlowsLocal;     // re-solved local flows of each local link
    std::vector<int> m_flowLinkBeginLocal; // by local flow, + 1: CSR into m_flowLinksLocal
    std::vector<int> m_flowLinksLocal;     // local links of each local flow
    std::vector<double> m_oldRates;        // scratch for one link's kept rates
    std::vector<double> m_capacityLeft;    // bytes/s by local link, after the flows left out
    std::vector<double> m_leftOutRate;     // bytes/s by local link: its fastest flow left out
    bool m_anyLeftOut = false;             // whether any local link left out such a flow
    std::vector<double> m_linkLevel;       // bytes/s by local link: the share it froze flows at
    std::vector<double> m_newRate;         // bytes/s by local flow, until committed
    std::vector<int> m_newBottleneck;      // by local flow: the local link that froze it
    std::vector<int> m_unfrozenCount;      // by local link: re-solved flows not yet frozen
    std::vector<char> m_frozen;            // by local flow
    std::vector<std::pair<double, LinkId>> m_sorted;     // (initial share, link), ascending
    std::vector<std::pair<double, LinkId>> m_sortBuffer; // radix sort scratch
    std::vector<std::pair<double, LinkId>> m_heap;       // (re-keyed share, link), min-heap
};

} // namespace ws
