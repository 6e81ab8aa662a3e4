#include "search/search_space.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// Divisors of `value` that are at most `limit`, ascending.
std::vector<int> divisorsUpTo(double value, int limit) {
    std::vector<int> out;
    const double rounded = std::round(value);
    if (rounded < 1.0 || rounded != value)
        return {1};
    for (int d = 1; d <= limit; ++d)
        if (std::fmod(rounded, d) == 0.0)
            out.push_back(d);
    return out;
}

std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
    std::vector<int> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

template <class T> const T& pick(const std::vector<T>& values, std::mt19937_64& rng) {
    std::uniform_int_distribution<std::size_t> index(0, values.size() - 1);
    return values[index(rng)];
}

bool coin(std::mt19937_64& rng) {
    return (rng() >> 63) != 0;
}

Checkpointing randomCheckpointing(std::mt19937_64& rng) {
    return static_cast<Checkpointing>(rng() % 3);
}

// The memory lever of a neighbour: full checkpointing from none, none from full or selective.
Checkpointing toggled(Checkpointing checkpointing) {
    return checkpointing == Checkpointing::None ? Checkpointing::Full : Checkpointing::None;
}

// One of the two other kinds of checkpointing, at random.
Checkpointing otherCheckpointing(Checkpointing current, std::mt19937_64& rng) {
    const auto step = 1 + rng() % 2;
    return static_cast<Checkpointing>((static_cast<std::uint64_t>(current) + step) % 3);
}

// The largest value of `values` (ascending, starting at 1) that is at most `limit`.
int largestAtMost(const std::vector<int>& values, long long limit) {
    int best = 1;
    for (int v : values)
        if (v <= limit)
            best = v;
    return best;
}

} // namespace

void Genome::normalize() {
    if (dp == 1)
        fsdp = false;
    if (!fsdp)
        fsdpMulticast = false;
    if (tp == 1)
        sequenceParallel = false;
    if (!sequenceParallel || tatp > 1)
        tpOverlap = false;
    if (tatp == 1 && !tpOverlap)
        doubleBuffering = true;
}

std::uint64_t Genome::key() const {
    // Mixed radix, most significant first: fewer dies, then lower degrees, then options off.
    std::uint64_t k = static_cast<std::uint64_t>(dieCount());
    for (int value : {dp, sp, tp, tatp, microBatches})
        k = k * 65537u + static_cast<std::uint64_t>(value);
    for (bool flag :
         {fsdp, fsdpMulticast, !doubleBuffering, sequenceParallel, bidirectionalRings, tpOverlap})
        k = k * 2u + (flag ? 1u : 0u);
    k = k * 3u + static_cast<std::uint64_t>(checkpointing); // none, selective, full
    return k * 3u + static_cast<std::uint64_t>(placement);
}

SearchSpace::SearchSpace(const Workload& workload, const WaferTopology& topology)
    : m_transformer(workload.kind == WorkloadKind::Transformer),
      m_globalBatch(workload.globalBatch) {
    m_liveDies = 0;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        if (topology.isAlive(die))
            ++m_liveDies;
    const int limit = std::max(1, m_liveDies);
    m_pp = {1};
    if (m_transformer) {
        const TransformerConfig& model = workload.model;
        // Stages on whole wafers (strategy/pipeline_stages.h), or on a GPU cluster on whole
        // nodes (its grid's rows), as Megatron places them; the bands of one wafer, which the
        // placement also offers for comparison, are not searched.
        const int stagePlaces = topology.isCluster() ? topology.rows() : topology.waferCount();
        m_pp = intersect(divisorsUpTo(stagePlaces, limit), divisorsUpTo(model.layers, limit));
        m_dp = divisorsUpTo(static_cast<double>(workload.globalBatch), limit);
        m_sp = divisorsUpTo(static_cast<double>(workload.seqLen), limit);
        m_tp = intersect(divisorsUpTo(model.heads, limit), divisorsUpTo(model.ffnHidden, limit));
        m_tatp = divisorsUpTo(model.hidden, limit);
    } else {
        const GemmShape& g = workload.gemm;
        m_dp = divisorsUpTo(g.m, limit);
        m_sp = m_dp;
        m_tp = divisorsUpTo(g.n, limit);
        m_tatp = intersect(divisorsUpTo(g.m, limit), divisorsUpTo(g.n, limit));
    }
    for (int r = 0; r < topology.rows(); ++r)
        for (int k = 0; k < topology.cols(); ++k) {
            const int c = r % 2 == 0 ? k : topology.cols() - 1 - k;
            const DieId die = topology.dieAt({r, c});
            if (topology.isAlive(die))
                m_waferSnake.push_back(die);
        }
}

std::vector<int> SearchSpace::microBatchValues(int dp) const {
    if (!m_transformer)
        return {1};
    std::vector<int> out;
    for (long long m = 1; m <= m_globalBatch && m <= 1024; ++m)
        if (m_globalBatch % m == 0 && (m_globalBatch / m) % dp == 0)
            out.push_back(static_cast<int>(m));
    return out;
}

Genome SearchSpace::random(std::mt19937_64& rng) const {
    Genome g;
    long long remaining = m_liveDies;
    if (m_pp.size() > 1) { // stages first: the other degrees split one stage's dies
        std::vector<int> fitting;
        for (int v : m_pp)
            if (v <= remaining)
                fitting.push_back(v);
        g.pp = pick(fitting, rng);
        remaining /= g.pp;
    }
    // Degrees in a random order so that none is systematically left with the fewest dies.
    int order[4] = {0, 1, 2, 3};
    std::shuffle(order, order + 4, rng);
    for (int which : order) {
        const std::vector<int>& values = which == 0   ? m_dp
                                         : which == 1 ? m_sp
                                         : which == 2 ? m_tp
                                                      : m_tatp;
        std::vector<int> fitting;
        for (int v : values)
            if (v <= remaining)
                fitting.push_back(v);
        const int value = pick(fitting, rng);
        remaining /= value;
        (which == 0 ? g.dp : which == 1 ? g.sp : which == 2 ? g.tp : g.tatp) = value;
    }
    g.fsdp = coin(rng);
    g.fsdpMulticast = coin(rng);
    g.doubleBuffering = coin(rng);
    g.checkpointing = m_transformer ? randomCheckpointing(rng) : Checkpointing::None;
    g.sequenceParallel = m_transformer && coin(rng);
    g.bidirectionalRings = coin(rng);
    g.tpOverlap = m_transformer && coin(rng);
    g.microBatches = pick(microBatchValues(g.dp), rng);
    g.placement = static_cast<PlacementGene>(std::uniform_int_distribution<int>(0, 2)(rng));
    return repair(g);
}

Genome SearchSpace::mutate(const Genome& parent, std::mt19937_64& rng) const {
    Genome g = parent;
    const int changes = 1 + static_cast<int>(rng() % 2);
    // pp's own case (10) only when it has a choice: on one wafer the draws are unchanged.
    const std::uint64_t cases = m_pp.size() > 1 ? 11 : 10;
    const auto genes = static_cast<std::uint64_t>(degreeGenes());
    for (int c = 0; c < changes; ++c) {
        switch (rng() % cases) {
        case 0:
        case 1: {
            // Move a factor between two degrees: keeps the die count roughly constant, the move
            // that matters most once the wafer is full.
            int* degrees[5] = {&g.dp, &g.sp, &g.tp, &g.tatp, &g.pp};
            const std::vector<int>* values[5] = {&m_dp, &m_sp, &m_tp, &m_tatp, &m_pp};
            const int from = static_cast<int>(rng() % genes);
            const int to = static_cast<int>(rng() % genes);
            *degrees[to] = pick(*values[to], rng);
            if (from != to) {
                const long long others = static_cast<long long>(g.dieCount()) / *degrees[from];
                *degrees[from] = largestAtMost(*values[from], m_liveDies / others);
            }
            break;
        }
        case 2:
            g.dp = pick(m_dp, rng);
            break;
        case 3:
            g.sp = pick(m_sp, rng);
            break;
        case 4:
            g.tp = pick(m_tp, rng);
            break;
        case 5:
            g.tatp = pick(m_tatp, rng);
            break;
        case 6:
            g.placement = static_cast<PlacementGene>(std::uniform_int_distribution<int>(0, 2)(rng));
            break;
        case 7:
            g.microBatches = pick(microBatchValues(g.dp), rng);
            break;
        case 8:
            g.fsdp = !g.fsdp;
            break;
        case 10:
            g.pp = pick(m_pp, rng);
            break;
        default:
            switch (rng() % 6) {
            case 0:
                g.checkpointing = otherCheckpointing(g.checkpointing, rng);
                break;
            case 1:
                g.doubleBuffering = !g.doubleBuffering;
                break;
            case 2:
                g.sequenceParallel = !g.sequenceParallel;
                break;
            case 3:
                g.bidirectionalRings = !g.bidirectionalRings;
                break;
            case 4:
                g.tpOverlap = !g.tpOverlap;
                break;
            default:
                g.fsdpMulticast = !g.fsdpMulticast;
                break;
            }
            break;
        }
    }
    return repair(g);
}

Genome SearchSpace::crossover(const Genome& a, const Genome& b, std::mt19937_64& rng) const {
    Genome g;
    g.pp = m_pp.size() > 1 && coin(rng) ? a.pp : b.pp; // no draw when pp has one value
    g.dp = coin(rng) ? a.dp : b.dp;
    g.sp = coin(rng) ? a.sp : b.sp;
    g.tp = coin(rng) ? a.tp : b.tp;
    g.tatp = coin(rng) ? a.tatp : b.tatp;
    g.fsdp = coin(rng) ? a.fsdp : b.fsdp;
    g.fsdpMulticast = coin(rng) ? a.fsdpMulticast : b.fsdpMulticast;
    g.doubleBuffering = coin(rng) ? a.doubleBuffering : b.doubleBuffering;
    g.checkpointing = coin(rng) ? a.checkpointing : b.checkpointing;
    g.sequenceParallel = coin(rng) ? a.sequenceParallel : b.sequenceParallel;
    g.bidirectionalRings = coin(rng) ? a.bidirectionalRings : b.bidirectionalRings;
    g.tpOverlap = coin(rng) ? a.tpOverlap : b.tpOverlap;
    g.microBatches = coin(rng) ? a.microBatches : b.microBatches;
    g.placement = coin(rng) ? a.placement : b.placement;
    return repair(g);
}

Genome SearchSpace::repair(Genome g) const {
    // Shrink the largest degree until the product fits: keeps the others as inherited. pp
    // comes last, so a stage degree as large as it shrinks first.
    while (static_cast<long long>(g.pp) * g.dp * g.sp * g.tp * g.tatp > m_liveDies) {
        int* degrees[5] = {&g.dp, &g.sp, &g.tp, &g.tatp, &g.pp};
        const std::vector<int>* values[5] = {&m_dp, &m_sp, &m_tp, &m_tatp, &m_pp};
        int largest = 0;
        for (int i = 1; i < 5; ++i)
            if (*degrees[i] > *degrees[largest])
                largest = i;
        *degrees[largest] = largestAtMost(*values[largest], *degrees[largest] - 1);
    }
    const std::vector<int> micro = microBatchValues(g.dp);
    if (std::find(micro.begin(), micro.end(), g.microBatches) == micro.end())
        g.microBatches = largestAtMost(micro, g.microBatches);
    if (!m_transformer) {
        g.checkpointing = Checkpointing::None;
        g.sequenceParallel = false;
        g.tpOverlap = false;
    }
    if (g.placement == PlacementGene::WaferSnake && (g.sp != 1 || g.tp != 1 || g.pp != 1))
        g.placement = PlacementGene::Snake;
    g.normalize();
    return g;
}

Genome SearchSpace::member(Genome g) const {
    int* degrees[5] = {&g.dp, &g.sp, &g.tp, &g.tatp, &g.pp};
    const std::vector<int>* values[5] = {&m_dp, &m_sp, &m_tp, &m_tatp, &m_pp};
    for (int i = 0; i < 5; ++i)
        if (std::find(values[i]->begin(), values[i]->end(), *degrees[i]) == values[i]->end())
            *degrees[i] = largestAtMost(*values[i], *degrees[i]);
    return repair(g);
}

std::vector<Genome> SearchSpace::neighbours(const Genome& g) const {
    std::vector<Genome> out;
    auto add = [&](Genome candidate) {
        candidate = repair(candidate);
        if (!(candidate == g) && std::find(out.begin(), out.end(), candidate) == out.end())
            out.push_back(candidate);
    };
    const std::vector<int>* values[5] = {&m_dp, &m_sp, &m_tp, &m_tatp, &m_pp};
    const int genes = degreeGenes();
    for (int which = 0; which < genes; ++which)
        for (int v : *values[which])
            for (int other = -1; other < genes; ++other) {
                if (other == which)
                    continue;
                Genome n = g;
                int* degrees[5] = {&n.dp, &n.sp, &n.tp, &n.tatp, &n.pp};
                *degrees[which] = v;
                if (other >= 0) {
                    *degrees[other] = 1;
                    *degrees[other] = largestAtMost(*values[other], m_liveDies / n.dieCount());
                }
                add(n);
                // The same move with the memory levers pulled: a new split often fits only
                // with the most micro-batches or with checkpointing toggled (none and full).
                Genome lean = n;
                lean.microBatches = microBatchValues(lean.dp).back();
                add(lean);
                if (m_transformer) {
                    lean.checkpointing = toggled(lean.checkpointing);
                    add(lean);
                    n.checkpointing = toggled(n.checkpointing);
                    add(n);
                }
            }
    for (int micro : microBatchValues(g.dp)) {
        Genome n = g;
        n.microBatches = micro;
        add(n);
    }
    for (int placement = 0; placement < 3; ++placement) {
        Genome n = g;
        n.placement = static_cast<PlacementGene>(placement);
        add(n);
    }
    for (int flag = 0; flag < 6; ++flag) {
        Genome n = g;
        bool* flags[6] = {&n.fsdp,
                          &n.fsdpMulticast,
                          &n.doubleBuffering,
                          &n.sequenceParallel,
                          &n.bidirectionalRings,
                          &n.tpOverlap};
        *flags[flag] = !*flags[flag];
        if (flag == 1)
            n.fsdp = true; // a multicast all-gather only exists with FSDP
        if (flag == 5)
            n.sequenceParallel = true; // tp_overlap streams sequence parallelism's collectives
        add(n);
    }
    if (m_transformer)
        for (Checkpointing checkpointing :
             {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full}) {
            Genome n = g;
            n.checkpointing = checkpointing;
            add(n);
        }
    return out;
}

StrategySpec SearchSpace::toStrategy(const Genome& g) const {
    StrategySpec s;
    s.pp = g.pp;
    s.dp = g.dp;
    s.sp = g.sp;
    s.tp = g.tp;
    s.tatp = g.tatp;
    s.fsdp = g.fsdp;
    s.fsdpAllGatherMulticast = g.fsdpMulticast;
    s.doubleBuffering = g.doubleBuffering;
    s.activationCheckpointing = g.checkpointing;
    s.sequenceParallel = g.sequenceParallel;
    s.bidirectionalRings = g.bidirectionalRings;
    s.tpOverlap = g.tpOverlap;
    s.microBatches = g.microBatches;
    switch (g.placement) {
    case PlacementGene::Sequential:
        s.mapping = StrategySpec::Sequential;
        break;
    case PlacementGene::Snake:
        s.mapping = StrategySpec::Snake;
        break;
    case PlacementGene::WaferSnake: {
        s.mapping = StrategySpec::Explicit;
        s.tatpGroups.assign(static_cast<std::size_t>(g.dp), {});
        s.dpGroups.assign(static_cast<std::size_t>(g.tatp), {});
        for (int d = 0; d < g.dp; ++d)
            for (int a = 0; a < g.tatp; ++a) {
                const DieId die = m_waferSnake[static_cast<std::size_t>(d * g.tatp + a)];
                s.tatpGroups[static_cast<std::size_t>(d)].push_back(die);
                s.dpGroups[static_cast<std::size_t>(a)].push_back(die);
            }
        break;
    }
    }
    return s;
}

Genome SearchSpace::genomeOf(const StrategySpec& s) {
    Genome g;
    g.pp = s.pp;
    g.dp = s.dp;
    g.sp = s.sp;
    g.tp = s.tp;
    g.tatp = s.tatp;
    g.fsdp = s.fsdp;
    g.fsdpMulticast = s.fsdpAllGatherMulticast;
    g.doubleBuffering = s.doubleBuffering;
    g.checkpointing = s.activationCheckpointing;
    g.sequenceParallel = s.sequenceParallel;
    g.bidirectionalRings = s.bidirectionalRings;
    g.tpOverlap = s.tpOverlap;
    g.microBatches = s.microBatches;
    switch (s.mapping) {
    case StrategySpec::Sequential:
        g.placement = PlacementGene::Sequential;
        break;
    case StrategySpec::Snake:
        g.placement = PlacementGene::Snake;
        break;
    case StrategySpec::Explicit:
        g.placement =
            s.sp == 1 && s.tp == 1 && s.pp == 1 ? PlacementGene::WaferSnake : PlacementGene::Snake;
        break;
    }
    return g;
}

std::string strategyLabel(const StrategySpec& s) {
    std::string label;
    auto degree = [&](const char* name, int value) {
        if (value > 1)
            label += (label.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(value);
    };
    degree("pp", s.pp);
    degree("dp", s.dp);
    degree("sp", s.sp);
    degree("tp", s.tp);
    degree("tatp", s.tatp);
    if (label.empty())
        label = "1 die";
    if (s.fsdp && s.dp > 1)
        label += s.fsdpAllGatherMulticast ? ", fsdp (multicast)" : ", fsdp";
    if (s.sequenceParallel)
        label += ", sequence parallel";
    if (s.tpOverlap)
        label += ", tp overlap";
    if (s.bidirectionalRings)
        label += ", bidirectional rings";
    if (s.microBatches > 1)
        label += ", " + std::to_string(s.microBatches) + " micro-batches";
    if (s.activationCheckpointing == Checkpointing::Full)
        label += ", checkpointing";
    else if (s.activationCheckpointing == Checkpointing::Selective)
        label += ", selective recomputation";
    if ((s.tatp > 1 || s.tpOverlap) && !s.doubleBuffering)
        label += ", single-buffered";
    if (s.tatpSchedule == TatpSchedule::Ring && s.tatp > 1)
        label += ", ring stream";
    label += s.mapping == StrategySpec::Explicit ? ", wafer snake groups"
                                                 : std::string(", ") + toString(s.mapping);
    return label;
}

} // namespace ws
