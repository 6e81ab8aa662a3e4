#include "sim/max_min_solver.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>

namespace ws {

namespace {

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

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
    m_rate.assign(flows, 0.0);
    m_linkTouchedStamp.assign(links, 0);
    m_linkStamp.assign(links, 0);
    m_flowStamp.assign(flows, 0);
    m_flowFrozen.assign(flows, 0);
    m_capacityLeft.assign(links, 0.0);
    m_unfrozenCount.assign(links, 0);
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
    for (int slot = m_flowLinkBegin[idx(flow)]; slot < m_flowLinkEnd[idx(flow)]; ++slot) {
        const LinkId link = m_flowLinks[idx(slot)];
        auto& list = m_linkFlows[idx(link)];
        m_slotPos[idx(slot)] = static_cast<int>(list.size());
        list.push_back({flow, slot});
        touch(link);
    }
    m_rate[idx(flow)] = 0.0;
    ++m_activeFlowCount;
}

void MaxMinSolver::deactivate(int flow) {
    for (int slot = m_flowLinkBegin[idx(flow)]; slot < m_flowLinkEnd[idx(flow)]; ++slot) {
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
    m_rate[idx(flow)] = 0.0;
    --m_activeFlowCount;
}

const std::vector<int>& MaxMinSolver::solveTouched() {
    collectComponent();
    fill();
    m_touchedLinks.clear();
    ++m_touchStamp;
    return m_componentFlows;
}

// Breadth-first over the bipartite link/flow graph from the touched links.
void MaxMinSolver::collectComponent() {
    ++m_epoch;
    m_componentLinks.clear();
    m_componentFlows.clear();
    for (const LinkId link : m_touchedLinks) {
        m_linkStamp[idx(link)] = m_epoch;
        m_componentLinks.push_back(link);
    }
    for (std::size_t i = 0; i < m_componentLinks.size(); ++i) {
        const LinkId link = m_componentLinks[i];
        for (const LinkEntry& entry : m_linkFlows[idx(link)]) {
            if (m_flowStamp[idx(entry.flow)] == m_epoch) {
                continue;
            }
            m_flowStamp[idx(entry.flow)] = m_epoch;
            m_componentFlows.push_back(entry.flow);
            for (int slot = m_flowLinkBegin[idx(entry.flow)]; slot < m_flowLinkEnd[idx(entry.flow)];
                 ++slot) {
                const LinkId other = m_flowLinks[idx(slot)];
                if (m_linkStamp[idx(other)] != m_epoch) {
                    m_linkStamp[idx(other)] = m_epoch;
                    m_componentLinks.push_back(other);
                }
            }
        }
    }
}

// Sorts m_sorted by (share, link position). Per solve this is the costliest step after the
// incidence walks: an LSD radix sort on the key bits (positive doubles order like their bit
// patterns) is about three times faster than std::sort for the thousands of links of a
// large component; stable, hence deterministic.
void MaxMinSolver::sortByShare() {
    constexpr std::size_t kRadixFrom = 256;
    if (m_sorted.size() < kRadixFrom) {
        std::sort(m_sorted.begin(), m_sorted.end());
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
    const auto later = std::greater<std::pair<double, LinkId>>();
    m_sorted.clear();
    m_heap.clear();
    for (const LinkId link : m_componentLinks) {
        const int count = static_cast<int>(m_linkFlows[idx(link)].size());
        m_capacityLeft[idx(link)] = m_bandwidth[idx(link)];
        m_unfrozenCount[idx(link)] = count;
        if (count > 0) {
            m_sorted.emplace_back(m_bandwidth[idx(link)] / count, link);
        }
    }
    sortByShare();

    const double infinity = std::numeric_limits<double>::infinity();
    std::size_t cursor = 0;
    while (true) {
        std::pair<double, LinkId> next;
        if (cursor < m_sorted.size() && (m_heap.empty() || m_sorted[cursor] < m_heap.front())) {
            next = m_sorted[cursor++];
        } else if (!m_heap.empty()) {
            std::pop_heap(m_heap.begin(), m_heap.end(), later);
            next = m_heap.back();
            m_heap.pop_back();
        } else {
            break;
        }
        const auto [key, link] = next;
        const int count = m_unfrozenCount[idx(link)];
        if (count == 0) {
            continue; // every flow on it was frozen by other links
        }
        const double share = m_capacityLeft[idx(link)] / count;
        if (share > key) {
            // Out of date. It is still the minimum if no other key is below its current share
            // (other links' shares are at least their keys); otherwise re-key it.
            double following = cursor < m_sorted.size() ? m_sorted[cursor].first : infinity;
            if (!m_heap.empty()) {
                following = std::min(following, m_heap.front().first);
            }
            if (share > following) {
                m_heap.emplace_back(share, link);
                std::push_heap(m_heap.begin(), m_heap.end(), later);
                continue;
            }
        }
        for (const LinkEntry& entry : m_linkFlows[idx(link)]) {
            if (m_flowFrozen[idx(entry.flow)] == m_epoch) {
                continue;
            }
            m_flowFrozen[idx(entry.flow)] = m_epoch;
            m_rate[idx(entry.flow)] = share;
            for (int slot = m_flowLinkBegin[idx(entry.flow)]; slot < m_flowLinkEnd[idx(entry.flow)];
                 ++slot) {
                const LinkId other = m_flowLinks[idx(slot)];
                // Rounding can leave a saturated link a hair below zero; clamp.
                m_capacityLeft[idx(other)] = std::max(0.0, m_capacityLeft[idx(other)] - share);
                --m_unfrozenCount[idx(other)];
            }
        }
    }
}

} // namespace ws
