#include "sim/max_min_solver.h"

#include "sim/index_cast.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <tuple>

namespace ws {

namespace {

// (share, link) pairs in ascending order: std::pair's operator< for shares that are never NaN,
// without the three-way comparison C++20 routes that through. Function objects, so that the
// sorts and heaps inline them.
struct ShareBefore {
    bool operator()(const std::pair<double, LinkId>& a, const std::pair<double, LinkId>& b) const {
        return a.first < b.first || (a.first == b.first && a.second < b.second);
    }
};
struct ShareAfter {
    bool operator()(const std::pair<double, LinkId>& a, const std::pair<double, LinkId>& b) const {
        return ShareBefore{}(b, a);
    }
};

} // namespace

MaxMinSolver::MaxMinSolver(std::vector<double> linkBandwidth, std::vector<int> flowLinkOffsets,
                           std::vector<LinkId> flowLinks)
    : m_bandwidth(std::move(linkBandwidth)), m_flowLinks(std::move(flowLinks)) {
    const std::size_t links = m_bandwidth.size();
    const std::size_t flows = flowLinkOffsets.empty() ? 0 : flowLinkOffsets.size() - 1;
    m_flowLinkBegin.resize(flows);
    m_flowLinkEnd.resize(flows);
    for (std::size_t f = 0; f < flows; ++f) {
        m_flowLinkBegin[f] = flowLinkOffsets[f];
        m_flowLinkEnd[f] = flowLinkOffsets[f + 1];
    }
    m_slotPos.assign(m_flowLinks.size(), -1);
    m_linkFlows.resize(links);
    m_activeSlotOf.assign(flows, -1);
    m_linkTouchedStamp.assign(links, 0);
    m_linkStamp.assign(links, 0);
    m_localLink.assign(links, 0);
}

void MaxMinSolver::touch(LinkId link) {
    if (m_linkTouchedStamp[idx(link)] != m_touchStamp) {
        m_linkTouchedStamp[idx(link)] = m_touchStamp;
        m_touchedLinks.push_back(link);
    }
}

void MaxMinSolver::setFlowLinks(int flow, std::span<const LinkId> links) {
    // The old slots stay behind unused: no active flow refers to them.
    m_flowLinkBegin[idx(flow)] = static_cast<int>(m_flowLinks.size());
    m_flowLinks.insert(m_flowLinks.end(), links.begin(), links.end());
    m_flowLinkEnd[idx(flow)] = static_cast<int>(m_flowLinks.size());
    m_slotPos.resize(m_flowLinks.size(), -1);
}

void MaxMinSolver::activate(int flow) {
    ActiveFlow added;
    added.fresh = m_touchStamp;
    added.flow = flow;
    added.linkBegin = m_flowLinkBegin[idx(flow)];
    added.linkEnd = m_flowLinkEnd[idx(flow)];
    const int pooled = m_active.acquire(added);
    const ActiveFlow& active = m_active[pooled];
    m_activeSlotOf[idx(flow)] = pooled;
    for (int slot = active.linkBegin; slot < active.linkEnd; ++slot) {
        const LinkId link = m_flowLinks[idx(slot)];
        auto& list = m_linkFlows[idx(link)];
        m_slotPos[idx(slot)] = static_cast<int>(list.size());
        list.push_back({pooled, slot});
        touch(link);
    }
    ++m_activeFlowCount;
}

void MaxMinSolver::deactivate(int flow) {
    const int pooled = m_activeSlotOf[idx(flow)];
    const ActiveFlow& active = m_active[pooled];
    for (int slot = active.linkBegin; slot < active.linkEnd; ++slot) {
        const LinkId link = m_flowLinks[idx(slot)];
        auto& list = m_linkFlows[idx(link)];
        const int at = m_slotPos[idx(slot)];
        // Swap-remove: O(1), order within a link does not affect the allocation.
        list[idx(at)] = list.back();
        m_slotPos[idx(list[idx(at)].slot)] = at;
        list.pop_back();
        m_slotPos[idx(slot)] = -1;
        touch(link);
    }
    // A flow that never had a rate (added and removed between two solves) gives no floor but 0.
    const bool fresh = active.fresh == m_touchStamp;
    m_removalFloor = std::min(m_removalFloor, fresh ? 0.0 : active.rate);
    m_active.release(pooled);
    m_activeSlotOf[idx(flow)] = -1;
    --m_activeFlowCount;
}

// Rates at the floor in exact arithmetic can come out a few ulps below it (a removed flow and the
// flows it shared a bottleneck with reach 1/7 along different sums), and such a flow must be
// re-solved. So only rates below the floor by more than this fraction of it are kept.
constexpr double kFloorMargin = 1e-6;
// A flow left out of a re-solve breaks the result only if its rate exceeds the level of a link
// that froze re-solved flows; equal rates (ties) do not, and rounding makes equal ones differ in
// their last bits, so only an excess beyond this fraction of the level counts.
constexpr double kTieMargin = 1e-9;
// Re-solves that found a left-out flow above a link's level and were widened to include it;
// after this many, the solve takes every flow at or above the floor (which needs no check).
constexpr int kMaxWidenings = 3;
// bytes/s: what a link that left out no flow at or above the floor records as its fastest.
constexpr double kNoneLeftOut = -1.0;

const std::vector<int>& MaxMinSolver::solveTouched() {
    const double floor = floorOfTouchedLinks() * (1.0 - kFloorMargin);
    for (int widenings = 0;; ++widenings) {
        const Reach reach = widenings < kMaxWidenings ? Reach::Bottlenecked : Reach::AboveFloor;
        collectComponent(floor, reach);
        fill();
        if (reach == Reach::AboveFloor || !forceFlowsAboveTheirLevels()) {
            break;
        }
    }
    commitRates();
    m_touchedLinks.clear();
    m_removalFloor = std::numeric_limits<double>::infinity();
    ++m_touchStamp;
    return m_resolvedFlows;
}

// The lowest level at which the changes since the last solve can alter the filling (see the
// header): the removal floor, and for every touched link that gained flows the level at which it
// would now fill: the smallest L with sum over kept flows of min(L, old rate) + fresh * L equal to
// its bandwidth.
double MaxMinSolver::floorOfTouchedLinks() {
    double floor = m_removalFloor;
    for (const LinkId link : m_touchedLinks) {
        int fresh = 0;
        m_oldRates.clear();
        for (const LinkEntry& entry : m_linkFlows[idx(link)]) {
            const ActiveFlow& active = m_active[entry.active];
            if (active.fresh == m_touchStamp) {
                ++fresh;
            } else {
                m_oldRates.push_back(active.rate);
            }
        }
        if (fresh == 0) {
            continue;
        }
        std::sort(m_oldRates.begin(), m_oldRates.end());
        // Take the kept rates smallest first while each lies below the level the rest would get.
        double capacity = m_bandwidth[idx(link)];
        std::size_t below = 0;
        double level = capacity / static_cast<double>(fresh + m_oldRates.size());
        while (below < m_oldRates.size() && m_oldRates[below] < level) {
            capacity -= m_oldRates[below];
            ++below;
            level = capacity / static_cast<double>(fresh + m_oldRates.size() - below);
        }
        floor = std::min(floor, level);
    }
    return floor;
}

inline bool MaxMinSolver::reaches(const ActiveFlow& active, LinkId link, double floor,
                                  Reach reach) const {
    if (active.fresh == m_touchStamp) {
        return true;
    }
    if (active.rate < floor) {
        return false;
    }
    return reach == Reach::AboveFloor || active.bottleneck == link || active.forced == m_touchStamp;
}

// Breadth-first over the bipartite link/flow graph from the touched links, through the flows to
// re-solve (see `reaches`), numbering links and those flows as they are met and recording both
// incidences locally; a flow left out only takes its rate off each link's capacity. A link's
// flows are read when the walk reaches the link (every reached link once), a flow's links when
// the walk first meets the flow. A flow at or above the floor that one link leaves out can still
// be met later through its bottleneck, so a link that left such a flow out is read once more at
// the end, in the order of its global list as before (so the filling, and its rounding, depend on
// nothing but the problem and its history).
void MaxMinSolver::collectComponent(double floor, Reach reach) {
    ++m_epoch;
    m_componentLinks.clear();
    m_componentFlows.clear();
    m_resolvedFlows.clear();
    m_linkFlowBegin.clear();
    m_linkFlowEnd.clear();
    m_linkFlowsLocal.clear();
    m_flowLinkBeginLocal.clear();
    m_flowLinksLocal.clear();
    m_capacityLeft.clear();
    m_leftOutRate.clear();
    m_anyLeftOut = false;
    const auto addLink = [&](LinkId link) {
        m_linkStamp[idx(link)] = m_epoch;
        m_localLink[idx(link)] = static_cast<int>(m_componentLinks.size());
        m_componentLinks.push_back(link);
    };
    // One link's local flow list, capacity after the flows left out and fastest flow left out at
    // or above the floor (kNoneLeftOut if none). `walk` also takes in the flows the walk reaches
    // there.
    const auto readLink = [&](LinkId link, bool walk) {
        double capacity = m_bandwidth[idx(link)];
        double leftOut = kNoneLeftOut;
        m_linkFlowBegin.push_back(static_cast<int>(m_linkFlowsLocal.size()));
        for (const LinkEntry& entry : m_linkFlows[idx(link)]) {
            ActiveFlow& active = m_active[entry.active];
            if (active.stamp != m_epoch) {
                if (!walk || !reaches(active, link, floor, reach)) {
                    capacity -= active.rate;
                    if (active.rate >= floor) {
                        leftOut = std::max(leftOut, active.rate);
                    }
                    continue;
                }
                active.stamp = m_epoch;
                active.local = static_cast<int>(m_componentFlows.size());
                m_componentFlows.push_back(entry.active);
                m_resolvedFlows.push_back(active.flow);
                m_flowLinkBeginLocal.push_back(static_cast<int>(m_flowLinksLocal.size()));
                for (int slot = active.linkBegin; slot < active.linkEnd; ++slot) {
                    const LinkId other = m_flowLinks[idx(slot)];
                    if (m_linkStamp[idx(other)] != m_epoch) {
                        addLink(other);
                    }
                    m_flowLinksLocal.push_back(m_localLink[idx(other)]);
                }
            }
            m_linkFlowsLocal.push_back(active.local);
        }
        m_linkFlowEnd.push_back(static_cast<int>(m_linkFlowsLocal.size()));
        // Rounding can leave a link's kept rates a hair above its bandwidth; clamp.
        return std::pair{std::max(0.0, capacity), leftOut};
    };
    for (const LinkId link : m_touchedLinks) {
        addLink(link);
    }
    for (std::size_t i = 0; i < m_componentLinks.size(); ++i) {
        const auto [capacity, leftOut] = readLink(m_componentLinks[i], true);
        m_capacityLeft.push_back(capacity);
        m_leftOutRate.push_back(leftOut);
    }
    m_flowLinkBeginLocal.push_back(static_cast<int>(m_flowLinksLocal.size()));
    for (std::size_t i = 0; i < m_componentLinks.size(); ++i) {
        if (m_leftOutRate[i] != kNoneLeftOut) {
            m_anyLeftOut = true;
            std::tie(m_capacityLeft[i], m_leftOutRate[i]) = readLink(m_componentLinks[i], false);
            m_linkFlowBegin[i] = m_linkFlowBegin.back();
            m_linkFlowEnd[i] = m_linkFlowEnd.back();
            m_linkFlowBegin.pop_back();
            m_linkFlowEnd.pop_back();
        }
    }
}

// After a fill: a flow left out of it keeps its rate, which is its max-min rate as long as no
// re-solved flow's bottleneck carries it at a higher rate (every flow then still has a
// bottleneck: a full link on which no flow goes faster). Marks the left-out flows that do, to be
// re-solved, and says whether there were any.
bool MaxMinSolver::forceFlowsAboveTheirLevels() {
    if (!m_anyLeftOut) {
        return false;
    }
    bool forced = false;
    for (std::size_t local = 0; local < m_componentLinks.size(); ++local) {
        const double limit = m_linkLevel[local] * (1.0 + kTieMargin);
        if (m_leftOutRate[local] <= limit) {
            continue;
        }
        for (const LinkEntry& entry : m_linkFlows[idx(m_componentLinks[local])]) {
            ActiveFlow& active = m_active[entry.active];
            if (active.stamp != m_epoch && active.rate > limit) {
                active.forced = m_touchStamp;
                forced = true;
            }
        }
    }
    return forced;
}

void MaxMinSolver::commitRates() {
    for (std::size_t local = 0; local < m_componentFlows.size(); ++local) {
        ActiveFlow& active = m_active[m_componentFlows[local]];
        active.rate = m_newRate[local];
        active.bottleneck = m_componentLinks[idx(m_newBottleneck[local])];
    }
}

// Sorts m_sorted by (share, link position). Per solve this is the costliest step after the
// incidence walks: an LSD radix sort on the key bits (positive doubles order like their bit
// patterns) is about three times faster than std::sort for the thousands of links of a
// large component; stable, hence deterministic.
void MaxMinSolver::sortByShare() {
    constexpr std::size_t kRadixFrom = 256;
    if (m_sorted.size() < kRadixFrom) {
        std::sort(m_sorted.begin(), m_sorted.end(), ShareBefore{});
        return;
    }
    const std::size_t n = m_sorted.size();
    std::array<std::array<int, 257>, 8> counts{};
    for (const auto& entry : m_sorted) {
        const auto bits = std::bit_cast<std::uint64_t>(entry.first);
        for (std::size_t pass = 0; pass < 8; ++pass) {
            ++counts[pass][((bits >> (8 * pass)) & 0xff) + 1];
        }
    }
    m_sortBuffer.resize(n);
    for (std::size_t pass = 0; pass < 8; ++pass) {
        auto& start = counts[pass];
        bool allSameDigit = false;
        for (std::size_t digit = 1; digit <= 256; ++digit) {
            allSameDigit = allSameDigit || start[digit] == static_cast<int>(n);
            start[digit] += start[digit - 1];
        }
        if (allSameDigit) {
            continue;
        }
        for (const auto& entry : m_sorted) {
            const auto bits = std::bit_cast<std::uint64_t>(entry.first);
            m_sortBuffer[idx(start[(bits >> (8 * pass)) & 0xff]++)] = entry;
        }
        m_sorted.swap(m_sortBuffer);
    }
}

void MaxMinSolver::fill() {
    // Every link starts at share = bandwidth / flows. Shares only grow while filling, so links
    // are taken from the initial keys in sorted order, merged with a small heap of links whose
    // share grew before their turn came (re-keyed lazily, when they surface).
    const std::size_t linkCount = m_componentLinks.size();
    m_sorted.clear();
    m_heap.clear();
    m_unfrozenCount.resize(linkCount);
    m_linkLevel.assign(linkCount, std::numeric_limits<double>::infinity());
    m_frozen.assign(m_componentFlows.size(), 0);
    m_newRate.resize(m_componentFlows.size());
    m_newBottleneck.resize(m_componentFlows.size());
    for (std::size_t local = 0; local < linkCount; ++local) {
        const int count = m_linkFlowEnd[local] - m_linkFlowBegin[local];
        m_unfrozenCount[local] = count;
        if (count > 0) {
            m_sorted.emplace_back(m_capacityLeft[local] / count, m_componentLinks[local]);
        }
    }
    sortByShare();

    const double infinity = std::numeric_limits<double>::infinity();
    std::size_t cursor = 0;
    std::size_t unfrozen = m_componentFlows.size();
    while (unfrozen > 0) { // after that every link's unfrozen count is 0: nothing left to give
        std::pair<double, LinkId> next;
        if (cursor < m_sorted.size() &&
            (m_heap.empty() || ShareBefore{}(m_sorted[cursor], m_heap.front()))) {
            next = m_sorted[cursor++];
        } else if (!m_heap.empty()) {
            std::pop_heap(m_heap.begin(), m_heap.end(), ShareAfter{});
            next = m_heap.back();
            m_heap.pop_back();
        } else {
            break;
        }
        const auto [key, link] = next;
        const std::size_t local = idx(m_localLink[idx(link)]);
        const int count = m_unfrozenCount[local];
        if (count == 0) {
            continue; // every flow on it was frozen by other links
        }
        const double share = m_capacityLeft[local] / count;
        if (share > key) {
            // Out of date. It is still the minimum if no other key is below its current share
            // (other links' shares are at least their keys); otherwise re-key it.
            double following = cursor < m_sorted.size() ? m_sorted[cursor].first : infinity;
            if (!m_heap.empty()) {
                following = std::min(following, m_heap.front().first);
            }
            if (share > following) {
                m_heap.emplace_back(share, link);
                std::push_heap(m_heap.begin(), m_heap.end(), ShareAfter{});
                continue;
            }
        }
        m_linkLevel[local] = share;
        for (int at = m_linkFlowBegin[local]; at < m_linkFlowEnd[local]; ++at) {
            const std::size_t flow = idx(m_linkFlowsLocal[idx(at)]);
            if (m_frozen[flow] != 0) {
                continue;
            }
            m_frozen[flow] = 1;
            --unfrozen;
            m_newRate[flow] = share;
            m_newBottleneck[flow] = static_cast<int>(local);
            for (int slot = m_flowLinkBeginLocal[flow]; slot < m_flowLinkBeginLocal[flow + 1];
                 ++slot) {
                const std::size_t other = idx(m_flowLinksLocal[idx(slot)]);
                // Rounding can leave a saturated link a hair below zero; clamp.
                m_capacityLeft[other] = std::max(0.0, m_capacityLeft[other] - share);
                --m_unfrozenCount[other];
            }
        }
    }
}

} // namespace ws
