#include "strategy/snake_mapping.h"

#include "scenario/scenario_error.h"

#include <optional>
#include <string>
#include <tuple>

namespace ws {
namespace {

// Boustrophedon through an h x w rectangle, relative coordinates: along the longer side, so
// that a 2x4 rectangle is walked 0 1 2 3 / 7 6 5 4 and a 4x2 one column by column. Every
// consecutive pair is a 4-neighbour pair.
std::vector<DieCoord> snakePath(int h, int w) {
    std::vector<DieCoord> path;
    path.reserve(static_cast<std::size_t>(h) * static_cast<std::size_t>(w));
    if (w >= h) {
        for (int r = 0; r < h; ++r)
            for (int k = 0; k < w; ++k)
                path.push_back({r, r % 2 == 0 ? k : w - 1 - k});
    } else {
        for (int c = 0; c < w; ++c)
            for (int k = 0; k < h; ++k)
                path.push_back({c % 2 == 0 ? k : h - 1 - k, c});
    }
    return path;
}

std::vector<std::pair<int, int>> factorPairs(int n) {
    std::vector<std::pair<int, int>> pairs;
    for (int h = 1; h <= n; ++h)
        if (n % h == 0)
            pairs.emplace_back(h, n / h);
    return pairs;
}

// Lower is better; see the class comment for the order.
using Score = std::tuple<int, int, int, int, int, int, int, int>;

struct Layout {
    int h = 1;
    int w = 1;
    int oy = 0;
    int ox = 0;
    bool blocks = false;
    int blockRows = 1;
    int blockCols = 1;
    std::vector<DieCoord> slots; // slot (row, col) per group index, in rank order
    Score score;
};

// Which h x w rectangles (by top-left die) hold only live dies joined by live links along the
// snake path.
class RectangleCheck {
public:
    RectangleCheck(const WaferTopology& topology) : m_topology(topology) {
        const int rows = topology.rows();
        const int cols = topology.cols();
        m_deadPrefix.assign(static_cast<std::size_t>((rows + 1) * (cols + 1)), 0);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                m_deadPrefix[index(r + 1, c + 1)] =
                    (topology.isAlive(topology.dieAt({r, c})) ? 0 : 1) +
                    m_deadPrefix[index(r, c + 1)] + m_deadPrefix[index(r + 1, c)] -
                    m_deadPrefix[index(r, c)];
        for (const LinkProperties& link : topology.links())
            if (!link.alive && topology.isAlive(link.from) && topology.isAlive(link.to))
                m_anyDeadLink = true;
    }

    int deadDies(int r0, int c0, int h, int w) const {
        return m_deadPrefix[index(r0 + h, c0 + w)] - m_deadPrefix[index(r0, c0 + w)] -
               m_deadPrefix[index(r0 + h, c0)] + m_deadPrefix[index(r0, c0)];
    }

    bool usable(int r0, int c0, int h, int w, const std::vector<DieCoord>& path) const {
        if (deadDies(r0, c0, h, w) > 0)
            return false;
        if (!m_anyDeadLink)
            return true;
        for (std::size_t i = 1; i < path.size(); ++i) {
            const DieId a = m_topology.dieAt({r0 + path[i - 1].row, c0 + path[i - 1].col});
            const DieId b = m_topology.dieAt({r0 + path[i].row, c0 + path[i].col});
            if (!linkAlive(a, b) || !linkAlive(b, a))
                return false;
        }
        return true;
    }

private:
    std::size_t index(int r, int c) const {
        return static_cast<std::size_t>(r * (m_topology.cols() + 1) + c);
    }
    bool linkAlive(DieId from, DieId to) const {
        const auto link = m_topology.linkBetween(from, to);
        return link && m_topology.link(*link).alive;
    }

    const WaferTopology& m_topology;
    std::vector<int> m_deadPrefix; // (rows+1) x (cols+1) prefix sums of dead dies
    bool m_anyDeadLink = false;
};

std::string shapeText(int h, int w) {
    return std::to_string(h) + "x" + std::to_string(w);
}

} // namespace

Placement SnakeMapping::place(const StrategySpec& strategy, const WaferTopology& topology) const {
    const int rows = topology.rows();
    const int cols = topology.cols();
    const int groupsPerReplica = strategy.sp * strategy.tp;
    const int groupCount = strategy.dp * groupsPerReplica;
    const RectangleCheck check(topology);

    std::optional<Layout> best;
    std::vector<std::string> fittingShapes;
    int mostSlots = 0;
    std::string mostSlotsShape;

    for (const auto& [h, w] : factorPairs(strategy.tatp)) {
        if (h > rows || w > cols)
            continue;
        fittingShapes.push_back(shapeText(h, w));
        const std::vector<DieCoord> path = snakePath(h, w);
        const bool exact = rows % h == 0 && cols % w == 0;
        for (int oy = 0; oy <= rows % h; ++oy) {
            for (int ox = 0; ox <= cols % w; ++ox) {
                const int slotRows = (rows - oy) / h;
                const int slotCols = (cols - ox) / w;
                std::vector<char> usable(static_cast<std::size_t>(slotRows * slotCols));
                int usableCount = 0;
                for (int i = 0; i < slotRows; ++i)
                    for (int j = 0; j < slotCols; ++j) {
                        const bool ok = check.usable(oy + i * h, ox + j * w, h, w, path);
                        usable[static_cast<std::size_t>(i * slotCols + j)] = ok ? 1 : 0;
                        usableCount += ok ? 1 : 0;
                    }
                if (usableCount > mostSlots) {
                    mostSlots = usableCount;
                    mostSlotsShape = shapeText(h, w);
                }
                if (usableCount < groupCount)
                    continue;
                const auto isUsable = [&](int i, int j) {
                    return usable[static_cast<std::size_t>(i * slotCols + j)] != 0;
                };
                const auto consider = [&](Layout layout) {
                    if (!best || layout.score < best->score)
                        best = std::move(layout);
                };

                // Replicas as br x bc blocks of slots, blocks in row-major order.
                for (const auto& [br, bc] : factorPairs(groupsPerReplica)) {
                    if (br > slotRows || bc > slotCols)
                        continue;
                    const std::vector<DieCoord> inBlock = snakePath(br, bc);
                    Layout layout{h, w, oy, ox, true, br, bc, {}, {}};
                    int replicas = 0;
                    for (int bi = 0; bi + br <= slotRows && replicas < strategy.dp; bi += br)
                        for (int bj = 0; bj + bc <= slotCols && replicas < strategy.dp; bj += bc) {
                            bool whole = true;
                            for (const DieCoord& k : inBlock)
                                whole = whole && isUsable(bi + k.row, bj + k.col);
                            if (!whole)
                                continue;
                            for (const DieCoord& k : inBlock)
                                layout.slots.push_back({bi + k.row, bj + k.col});
                            ++replicas;
                        }
                    if (replicas < strategy.dp)
                        continue;
                    layout.score = {0,       exact ? 0 : 1,   h + w, h > w ? 1 : 0,
                                    br + bc, br > bc ? 1 : 0, oy,    ox};
                    consider(std::move(layout));
                }

                // Fallback: one snake through the usable slots.
                Layout layout{h, w, oy, ox, false, 1, 1, {}, {}};
                for (const DieCoord& k : snakePath(slotRows, slotCols))
                    if (isUsable(k.row, k.col) &&
                        static_cast<int>(layout.slots.size()) < groupCount)
                        layout.slots.push_back(k);
                layout.score = {1, exact ? 0 : 1, h + w, h > w ? 1 : 0, 0, 0, oy, ox};
                consider(std::move(layout));
            }
        }
    }

    if (!best) {
        const std::string wafer = std::to_string(rows) + "x" + std::to_string(cols);
        if (fittingShapes.empty())
            throw ScenarioError("strategy.mapping",
                                "snake mapping lays each TATP group on an h x w rectangle with "
                                "h*w = tatp = " +
                                    std::to_string(strategy.tatp) + ", but none fits the " + wafer +
                                    " wafer; use \"sequential\" or explicit groups");
        std::string shapes;
        for (const std::string& shape : fittingShapes)
            shapes += (shapes.empty() ? "" : ", ") + shape;
        throw ScenarioError(
            "strategy.mapping",
            "snake mapping needs " + std::to_string(groupCount) + " TATP groups (dp*sp*tp) of " +
                std::to_string(strategy.tatp) + " dies, each on a rectangle (" + shapes +
                ") of live dies with live links, but the " + wafer + " wafer" +
                (mostSlots > 0 ? " has room for at most " + std::to_string(mostSlots) + " (as " +
                                     mostSlotsShape + ")"
                               : " has room for none") +
                "; lower dp, or use \"sequential\" or explicit groups");
    }

    const std::vector<DieCoord> path = snakePath(best->h, best->w);
    std::vector<DieId> dies;
    dies.reserve(static_cast<std::size_t>(groupCount) * path.size());
    for (const DieCoord& slot : best->slots) {
        const int top = best->oy + slot.row * best->h;
        const int left = best->ox + slot.col * best->w;
        for (const DieCoord& k : path)
            dies.push_back(topology.dieAt({top + k.row, left + k.col}));
    }
    std::string note = "snake: TATP groups on " + shapeText(best->h, best->w) + " rectangles";
    if (best->oy != 0 || best->ox != 0)
        note += " from row " + std::to_string(best->oy) + ", column " + std::to_string(best->ox);
    if (best->blocks)
        note += "; each replica's " + std::to_string(groupsPerReplica) + " group(s) form a " +
                shapeText(best->blockRows, best->blockCols) + " block of rectangles";
    else
        note += "; faults leave no rectangular replica blocks, so each replica's groups "
                "follow one snake through the usable rectangles";
    return Placement(strategy.dp, strategy.sp, strategy.tp, strategy.tatp, std::move(dies), {note});
}

} // namespace ws
