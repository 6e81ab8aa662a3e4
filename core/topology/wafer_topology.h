#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

using DieId = int;  // row-major: die r * cols + c, die 0 at the top left
using LinkId = int; // dense, stable: see WaferTopology

enum class TopologyKind { Mesh, Torus };

struct DieCoord {
    int row = 0;
    int col = 0;
    friend bool operator==(const DieCoord&, const DieCoord&) = default;
};

struct DieProperties {
    DieId id = 0;
    DieCoord coord;
    bool alive = true;
};

// A directed die-to-die link. `alive` is false when the link itself is faulty or either die is.
// `offWafer`: it joins two wafers of a system (SPEC section 8), with the system's bandwidth,
// latency and energy rather than the wafer's.
struct LinkProperties {
    LinkId id = 0;
    DieId from = 0;
    DieId to = 0;
    bool alive = true;
    bool offWafer = false;
};

// The four neighbour directions, in the order link ids are assigned.
enum class Direction { East = 0, West = 1, South = 2, North = 3 };

struct TopologySpec {
    int rows = 1;
    int cols = 1;
    TopologyKind kind = TopologyKind::Mesh;
    std::vector<DieId> deadDies;
    std::vector<std::pair<DieId, DieId>> deadLinks; // directed (from, to); must be linked
    // A system of wafers (SPEC section 8): the grid is cut into wafers of waferRows x waferCols
    // dies (0: the whole grid is one wafer), and across each edge two neighbouring wafers share,
    // only `linksPerEdge` die pairs (0: every pair) are linked, spread evenly along it.
    int waferRows = 0;
    int waferCols = 0;
    int linksPerEdge = 0;
};

// The wafer as an immutable directed Boost.Graph: one vertex per die (dead ones included, so
// vertex index == DieId) and one edge per directed link between 4-neighbours (plus wrap-around
// on a torus). Link ids are dense and stable: links are numbered by source die, then by
// direction East, West, South, North; a direction that has no neighbour, or whose neighbour is
// already linked in an earlier direction (a torus of side 2), gets no id.
//
// Example: a 1x3 mesh has links 0: 0->1, 1: 1->2, 2: 1->0, 3: 2->1.
//
// A system of wafers is one grid with some links missing: the die pairs of a shared wafer edge
// that are not joined get no link (neighbour() still names them; linkBetween() does not), so
// routes detour to the joined pairs as they detour around faults. Of an edge of E die pairs,
// the K joined ones are at positions floor((2i + 1) E / 2K), i = 0 .. K-1 (evenly spread, the
// middle one for K = 1). Example: a [1, 2] system of 4x4 wafers with K = 2 is a 4x8 grid whose
// only off-wafer links join dies 11-12 and 27-28 (rows 1 and 3).
class WaferTopology {
public:
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                                        DieProperties, LinkProperties>;

    // Throws std::invalid_argument for sizes out of 1..256, ids out of range, a dead link
    // between dies that no link joins, wafers that do not tile the grid, a torus of several
    // wafers, or more joined pairs than an edge has.
    explicit WaferTopology(const TopologySpec& spec);

    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    TopologyKind kind() const { return m_kind; }
    int dieCount() const { return m_rows * m_cols; }
    int linkCount() const { return static_cast<int>(m_links.size()); }

    bool contains(DieId die) const { return die >= 0 && die < dieCount(); }
    DieCoord coord(DieId die) const { return {die / m_cols, die % m_cols}; }
    DieId dieAt(DieCoord coord) const { return coord.row * m_cols + coord.col; }
    bool isAlive(DieId die) const { return m_dieAlive[static_cast<std::size_t>(die)]; }

    const LinkProperties& link(LinkId id) const { return m_links[static_cast<std::size_t>(id)]; }
    const std::vector<LinkProperties>& links() const { return m_links; }
    // The link from `from` to its neighbour `to`, or nullopt if they are not neighbours.
    std::optional<LinkId> linkBetween(DieId from, DieId to) const;
    // The neighbour of `die` in a direction (wrapping on a torus), or nullopt at a mesh edge.
    std::optional<DieId> neighbour(DieId die, Direction direction) const;
    // Outgoing links of a die, in direction order.
    const std::vector<LinkId>& outLinks(DieId die) const {
        return m_outLinks[static_cast<std::size_t>(die)];
    }

    // The system's wafers (one, unless the spec cut the grid): dies per wafer side, wafers per
    // grid side, and the wafer a die is on (row-major over the wafers).
    int waferRows() const { return m_waferRows; }
    int waferCols() const { return m_waferCols; }
    int wafersDown() const { return m_rows / m_waferRows; }
    int wafersAcross() const { return m_cols / m_waferCols; }
    int waferCount() const { return wafersDown() * wafersAcross(); }
    int waferOf(DieId die) const {
        const DieCoord c = coord(die);
        return (c.row / m_waferRows) * wafersAcross() + c.col / m_waferCols;
    }

    // Hops of the shortest path on the full (fault-free) geometry.
    int manhattanDistance(DieId a, DieId b) const;

    const Graph& graph() const { return m_graph; }

private:
    int m_rows;
    int m_cols;
    TopologyKind m_kind;
    int m_waferRows;
    int m_waferCols;
    std::vector<bool> m_dieAlive;
    std::vector<LinkProperties> m_links;
    std::vector<std::vector<LinkId>> m_outLinks;
    std::vector<std::optional<LinkId>> m_linkByDirection; // die * 4 + direction
    Graph m_graph;
};

std::string linkName(const LinkProperties& link); // "3->4"

} // namespace ws
