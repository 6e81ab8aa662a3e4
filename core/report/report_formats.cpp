#include "report/report_formats.h"

#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace ws {

namespace {

constexpr double kMicrosecondsPerSecond = 1e6;

// A writer of per-flow or per-event detail was handed a report built without it.
void requireFullReport(const SimulationReport& report, const char* what) {
    if (report.detail != ReportDetail::Full)
        throw std::invalid_argument(std::string(what) +
                                    " needs a report built with ReportDetail::Full, not a summary");
}

nlohmann::json routeToJson(const Route& route) {
    if (route.isTree()) {
        nlohmann::json edges = nlohmann::json::array();
        for (const auto& [from, to] : route.edges)
            edges.push_back({from, to});
        return edges;
    }
    return route.path;
}

// Assigns each interval [start, end) a lane so that intervals in one lane never overlap:
// complete ("X") trace events on one track must nest, and concurrent flows do not.
// Greedy by start time: the lowest-numbered lane that is free again.
std::vector<int> packIntoLanes(const std::vector<std::pair<double, double>>& intervals) {
    std::vector<std::size_t> order(intervals.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return intervals[a].first < intervals[b].first;
    });
    std::vector<double> laneFreeAt;
    std::vector<int> lanes(intervals.size(), 0);
    for (std::size_t index : order) {
        const auto [start, end] = intervals[index];
        std::size_t lane = 0;
        while (lane < laneFreeAt.size() && laneFreeAt[lane] > start)
            ++lane;
        if (lane == laneFreeAt.size())
            laneFreeAt.push_back(end);
        else
            laneFreeAt[lane] = end;
        lanes[index] = static_cast<int>(lane);
    }
    return lanes;
}

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", fraction * 100.0);
    return buffer;
}

nlohmann::json memoryToJson(const MemoryBreakdown& memory) {
    return {{"weights_bytes", memory.weights},
            {"gradients_bytes", memory.gradients},
            {"optimizer_bytes", memory.optimizer},
            {"activations_bytes", memory.activations},
            {"stream_buffers_bytes", memory.streamBuffers},
            {"comm_reserve_bytes", memory.commReserve},
            {"total_bytes", memory.total()},
            {"sram_bytes", memory.sramCapacity},
            {"hbm_bytes", memory.hbmCapacity},
            {"fits_in_sram", memory.fitsInSram()},
            {"out_of_memory", memory.outOfMemory()},
            {"dominant", memory.dominantTerm()}};
}

// Streams a JSON document without building its tree: the small parts (one link, one flow, one
// event) are nlohmann objects dumped compactly, one per line, so memory stays that of one
// part and the 100 MB report of a 16x16 ring all-reduce is written as fast as it is simulated
// (docs/cli.md, simulate --json).
class JsonStream {
public:
    explicit JsonStream(std::ostream& out) : m_out(out) {}

    // `"key": value` inside the current object, value dumped compactly.
    void member(const std::string& key, const nlohmann::json& value) {
        separate();
        m_out << nlohmann::json(key).dump() << ": " << value.dump();
    }
    // Every member of `object`, as member() writes them.
    void members(const nlohmann::json& object) {
        for (const auto& [key, value] : object.items())
            member(key, value);
    }
    // `"key": [` or `"key": {`; the elements or members that follow go one per line.
    void open(const std::string& key, char bracket) {
        separate();
        m_out << nlohmann::json(key).dump() << ": " << bracket;
        m_first.push_back(true);
    }
    void openObject() {
        separate();
        m_out << '{';
        m_first.push_back(true);
    }
    // One element of the current array.
    void element(const nlohmann::json& value) {
        separate();
        m_out << value.dump();
    }
    void close(char bracket) {
        const bool empty = m_first.back();
        m_first.pop_back();
        if (!empty)
            m_out << '\n' << std::string(2 * m_first.size(), ' ');
        m_out << bracket;
    }

private:
    void separate() {
        if (m_first.empty())
            return;
        if (!m_first.back())
            m_out << ',';
        m_first.back() = false;
        m_out << '\n' << std::string(2 * m_first.size(), ' ');
    }

    std::ostream& m_out;
    std::vector<bool> m_first; // per open bracket: nothing written inside it yet
};

// The 1F1B schedule's passes (docs/cli.md): empty with one stage.
nlohmann::json pipelineToJson(const std::vector<PipelinePass>& passes) {
    nlohmann::json out = nlohmann::json::array();
    for (const PipelinePass& pass : passes)
        out.push_back({{"stage", pass.stage},
                       {"micro_batch", pass.microBatch},
                       {"pass", pass.forward ? "forward" : "backward"},
                       {"start_s", pass.startS},
                       {"end_s", pass.endS}});
    return out;
}

nlohmann::json stepToJson(const StepMetrics& step) {
    return {{"step_s", step.stepS},
            {"window_s", step.windowS},
            {"window_layers", step.windowLayers},
            {"layer_s", step.layerS},
            {"head_s", step.headS},
            {"sync_s", step.syncS},
            {"optimizer_s", step.optimizerS},
            {"breakdown",
             {{"compute_s", step.computeS},
              {"hbm_stall_s", step.hbmStallS},
              {"overhead_s", step.overheadS},
              {"optimizer_s", step.optimizerS},
              {"exposed_s", step.exposedS}}},
            {"tasks",
             {{"total", step.tasks},
              {"memory_bound", step.memoryBoundTasks},
              {"overhead_bound", step.overheadBoundTasks}}},
            {"tokens_per_s", step.tokensPerSecond},
            {"model_flops", step.modelFlops},
            {"achieved_flops_per_s", step.achievedFlopsPerSecond},
            {"mfu", step.mfu},
            {"dies_used", step.diesUsed},
            {"strategy", step.strategy},
            {"pp", step.pp},
            {"pp_bubble_fraction", step.ppBubbleFraction},
            {"pipeline", pipelineToJson(step.pipeline)},
            {"sram",
             {{"usable_bytes", step.sram.usableBytes},
              {"largest_working_set_bytes", step.sram.largestWorkingSetBytes},
              {"fits", step.sram.fits},
              {"single_buffered", step.sram.singleBuffered}}},
            {"notes", step.notes}};
}

nlohmann::json flowToJson(const FlowReport& flow) {
    nlohmann::json entry = {{"id", flow.id}, {"op", flow.op}, {"op_kind", flow.opKind}};
    if (flow.reduction) { // docs/cli.md: its contributors send, its root receives
        entry["src"] = flow.dsts;
        entry["dst"] = flow.src;
        entry["reduction"] = true;
    } else {
        entry["src"] = flow.src;
        if (flow.route.isTree())
            entry["dst"] = flow.dsts;
        else
            entry["dst"] = flow.dsts.front();
    }
    entry["bytes"] = flow.bytes;
    entry[flow.route.isTree() ? "tree" : "path"] = routeToJson(flow.route);
    entry["hops"] = flow.route.hops;
    entry["start_s"] = flow.startS;
    entry["last_byte_s"] = flow.lastByteS;
    entry["end_s"] = flow.endS;
    return entry;
}

nlohmann::json eventToJson(const DieEvent& event, bool step) {
    nlohmann::json entry = {{"kind", toString(event.kind)},
                            {"start_s", event.startS},
                            {"end_s", event.endS},
                            {"round", event.round},
                            {"label", event.label}};
    if (event.kind == DieEvent::Kind::Compute && step) {
        entry["flops"] = event.flops;
        entry["hbm_bytes"] = event.hbmBytes;
        entry["bound"] = toString(event.bound);
    }
    return entry;
}

// A die's fields but its events.
nlohmann::json dieToJson(const DieReport& die, bool step) {
    nlohmann::json entry = {{"id", die.id},
                            {"alive", die.alive},
                            {"compute_s", die.computeS},
                            {"utilization", die.utilization},
                            {"peak_memory_bytes", die.peakMemoryBytes}};
    if (step)
        entry["hbm_bytes"] = die.hbmBytes;
    if (die.memory)
        entry["memory"] = memoryToJson(*die.memory);
    if (!die.tensors.empty()) {
        nlohmann::json tensors = nlohmann::json::array();
        for (const TensorReport& tensor : die.tensors)
            tensors.push_back({{"gemm", tensor.gemm},
                               {"I", tensor.input},
                               {"W", tensor.weight},
                               {"O", tensor.output}});
        entry["tensors"] = std::move(tensors);
    }
    return entry;
}

} // namespace

std::optional<ReportDetail> reportDetailFromString(const std::string& text) {
    if (text == "full")
        return ReportDetail::Full;
    if (text == "summary")
        return ReportDetail::Summary;
    return std::nullopt;
}

void writeReportJson(std::ostream& out, const SimulationReport& report, ReportDetail detail) {
    if (detail == ReportDetail::Full)
        requireFullReport(report, "the full JSON report");
    JsonStream json(out);
    json.openObject();
    json.member("name", report.scenarioName);
    json.member("detail", detail == ReportDetail::Full ? "full" : "summary");
    nlohmann::json hardware = {{"flops_per_link_byte", report.hardware.flopsPerLinkByte},
                               {"flops_per_hbm_byte", report.hardware.flopsPerHbmByte}};
    if (report.hardware.preset)
        hardware["preset"] = *report.hardware.preset;
    if (report.hardware.wafers && report.hardware.offWafer) {
        hardware["wafers"] = {report.hardware.wafers->first, report.hardware.wafers->second};
        hardware["off_wafer_link_bandwidth"] = report.hardware.offWafer->bandwidth;
        hardware["off_wafer_link_latency_s"] = report.hardware.offWafer->latencyS;
    }
    if (const auto& cluster = report.hardware.cluster) {
        hardware["cluster"] = {{"nodes", report.hardware.nodes},
                               {"gpus_per_node", report.hardware.gpusPerNode},
                               {"inter", toString(cluster->network)},
                               {"nic_bandwidth", cluster->nicBandwidth.value},
                               {"inter_latency_s", cluster->interLatency.value},
                               {"oversubscription", cluster->oversubscription},
                               {"nodes_per_leaf", cluster->nodesPerLeaf}};
    }
    json.member("hardware", hardware);
    nlohmann::json network = {{"model", toString(report.network.model)}};
    if (report.network.model == NetworkModel::StoreAndForward)
        network["chunk_bytes"] = report.network.chunkBytes;
    json.member("network", network);
    json.member("makespan_s", report.makespanS);
    if (report.step)
        json.member("step", stepToJson(*report.step));
    json.member("energy_j", report.energyJ());
    nlohmann::json energy = {{"d2d_j", report.energyD2dJ},
                             {"compute_j", report.energyComputeJ},
                             {"hbm_j", report.energyHbmJ}};
    if (report.hardware.wafers)
        energy["off_wafer_j"] = report.energyOffWaferJ;
    json.member("energy", energy);
    json.member("warnings", report.warnings);
    if (!report.rounds.empty()) {
        json.open("rounds", '[');
        for (const RoundLoad& round : report.rounds)
            json.element({{"round", round.round},
                          {"max_link_bytes", round.maxLinkBytes},
                          {"window_s", round.windowS},
                          {"max_utilization", round.maxUtilization}});
        json.close(']');
    }
    json.open("links", '[');
    for (const LinkReport& link : report.links) {
        if (link.bytes <= 0)
            continue;
        nlohmann::json entry = {{"id", link.id},          {"from", link.from},
                                {"to", link.to},          {"bytes", link.bytes},
                                {"busy_s", link.busyS},   {"utilization", link.utilization},
                                {"flows", link.flowCount}};
        if (link.offWafer)
            entry["off_wafer"] = true;
        json.element(entry);
    }
    json.close(']');
    if (detail == ReportDetail::Full) {
        json.open("flows", '[');
        for (const FlowReport& flow : report.flows)
            json.element(flowToJson(flow));
        json.close(']');
    }
    const bool step = report.step.has_value();
    json.open("dies", '[');
    for (const DieReport& die : report.dies) {
        if (detail == ReportDetail::Summary) {
            json.element(dieToJson(die, step));
            continue;
        }
        json.openObject();
        json.members(dieToJson(die, step));
        json.open("events", '[');
        for (const DieEvent& event : die.events)
            json.element(eventToJson(event, step));
        json.close(']');
        json.close('}');
    }
    json.close(']');
    json.close('}');
    out << '\n';
}

nlohmann::json reportToJson(const SimulationReport& report) {
    std::ostringstream text;
    writeReportJson(text, report, ReportDetail::Full);
    return nlohmann::json::parse(text.str());
}

std::string linkLoadsCsv(const SimulationReport& report) {
    std::ostringstream out;
    out.precision(17);
    out << "link,from,to,alive,bytes,busy_s,utilization,flows\n";
    for (const LinkReport& link : report.links)
        out << link.id << ',' << link.from << ',' << link.to << ',' << (link.alive ? 1 : 0) << ','
            << link.bytes << ',' << link.busyS << ',' << link.utilization << ',' << link.flowCount
            << '\n';
    return out.str();
}

void writeChromeTrace(std::ostream& out, const SimulationReport& report) {
    requireFullReport(report, "the Chrome trace");
    constexpr int kDiesPid = 1;
    constexpr int kLinksPid = 2;
    // Thread ids: lane * kLaneStride + die (or link) id, so lane 0 is the id itself.
    constexpr int kLaneStride = 1 << 20;

    JsonStream json(out);
    json.openObject();
    json.open("traceEvents", '[');
    json.element(
        {{"ph", "M"}, {"pid", kDiesPid}, {"name", "process_name"}, {"args", {{"name", "dies"}}}});
    json.element(
        {{"ph", "M"}, {"pid", kLinksPid}, {"name", "process_name"}, {"args", {{"name", "links"}}}});

    auto nameThread = [&](int pid, int tid, const std::string& name, int sortIndex) {
        json.element({{"ph", "M"},
                      {"pid", pid},
                      {"tid", tid},
                      {"name", "thread_name"},
                      {"args", {{"name", name}}}});
        json.element({{"ph", "M"},
                      {"pid", pid},
                      {"tid", tid},
                      {"name", "thread_sort_index"},
                      {"args", {{"sort_index", sortIndex}}}});
    };
    auto complete = [&](int pid, int tid, const std::string& name, const char* category,
                        double startS, double endS, nlohmann::json args) {
        json.element({{"ph", "X"},
                      {"pid", pid},
                      {"tid", tid},
                      {"name", name},
                      {"cat", category},
                      {"ts", startS * kMicrosecondsPerSecond},
                      {"dur", (endS - startS) * kMicrosecondsPerSecond},
                      {"args", std::move(args)}});
    };

    for (const DieReport& die : report.dies) {
        if (die.events.empty())
            continue;
        std::vector<std::pair<double, double>> intervals;
        for (const DieEvent& event : die.events)
            intervals.emplace_back(event.startS, event.endS);
        const std::vector<int> lanes = packIntoLanes(intervals);
        const int laneCount = lanes.empty() ? 0 : *std::max_element(lanes.begin(), lanes.end()) + 1;
        for (int lane = 0; lane < laneCount; ++lane)
            nameThread(kDiesPid, lane * kLaneStride + die.id,
                       "die " + std::to_string(die.id) +
                           (lane ? " #" + std::to_string(lane + 1) : ""),
                       die.id * 64 + lane);
        for (std::size_t i = 0; i < die.events.size(); ++i) {
            const DieEvent& event = die.events[i];
            complete(kDiesPid, lanes[i] * kLaneStride + die.id,
                     toString(event.kind) + " " + event.label, toString(event.kind).c_str(),
                     event.startS, event.endS, {{"round", event.round}});
        }
    }

    std::vector<std::vector<std::size_t>> flowsOnLink(report.links.size());
    for (std::size_t f = 0; f < report.flows.size(); ++f)
        for (LinkId link : report.flows[f].route.links)
            flowsOnLink[static_cast<std::size_t>(link)].push_back(f);
    for (const LinkReport& link : report.links) {
        const auto& onLink = flowsOnLink[static_cast<std::size_t>(link.id)];
        if (onLink.empty())
            continue;
        std::vector<std::pair<double, double>> intervals;
        for (std::size_t f : onLink)
            intervals.emplace_back(report.flows[f].startS, report.flows[f].lastByteS);
        const std::vector<int> lanes = packIntoLanes(intervals);
        const int laneCount = *std::max_element(lanes.begin(), lanes.end()) + 1;
        const std::string name = std::to_string(link.from) + "->" + std::to_string(link.to);
        for (int lane = 0; lane < laneCount; ++lane)
            nameThread(kLinksPid, lane * kLaneStride + link.id,
                       "link " + name + (lane ? " #" + std::to_string(lane + 1) : ""),
                       link.id * 64 + lane);
        for (std::size_t i = 0; i < onLink.size(); ++i) {
            const FlowReport& flow = report.flows[onLink[i]];
            complete(kLinksPid, lanes[i] * kLaneStride + link.id, flow.id, "flow", flow.startS,
                     flow.lastByteS, {{"bytes", flow.bytes}, {"link", name}});
        }
    }
    json.close(']');
    json.member("displayTimeUnit", "ns");
    json.close('}');
    out << '\n';
}

std::string networkModelSummary(const NetworkSettings& network) {
    if (network.model == NetworkModel::StoreAndForward)
        return "store-and-forward in " + formatBytes(network.chunkBytes) +
               " chunks (FIFO links, one chunk at a time)";
    return "fluid (max-min fair sharing, cut-through; --compare-modes runs store-and-forward "
           "too)";
}

std::string humanSummary(const SimulationReport& report, const WaferTopology& topology) {
    std::ostringstream out;
    int deadDies = 0;
    for (DieId die = 0; die < topology.dieCount(); ++die)
        deadDies += topology.isAlive(die) ? 0 : 1;
    int deadLinks = 0;
    for (const LinkProperties& link : topology.links())
        deadLinks += link.alive ? 0 : 1;

    if (!report.scenarioName.empty())
        out << report.scenarioName << '\n';
    if (const auto& cluster = report.hardware.cluster) {
        out << "cluster:   " << topology.rows() << (topology.rows() == 1 ? " node x " : " nodes x ")
            << topology.cols() << " GPUs, " << toString(cluster->network) << " network, "
            << formatBytesPerSecond(cluster->nicBandwidth.value) << " per GPU NIC";
        if (cluster->network == ClusterNetwork::FatTree)
            out << ", " << cluster->nodesPerLeaf << " nodes per leaf, oversubscription "
                << cluster->oversubscription;
    } else {
        out << "wafer:     " << topology.rows() << 'x' << topology.cols() << ' '
            << toString(topology.kind()) << ", " << topology.dieCount() << " dies";
    }
    if (deadDies || deadLinks)
        out << " (" << deadDies << " dead dies, " << deadLinks << " dead directed links)";
    out << '\n';
    if (report.hardware.wafers && report.hardware.offWafer) {
        const long offWaferLinks =
            std::count_if(topology.links().begin(), topology.links().end(),
                          [](const LinkProperties& link) { return link.offWafer(); });
        out << "system:    " << report.hardware.wafers->first << 'x'
            << report.hardware.wafers->second << " wafers of " << topology.waferRows() << 'x'
            << topology.waferCols() << " dies, " << offWaferLinks << " directed off-wafer links of "
            << formatBytesPerSecond(report.hardware.offWafer->bandwidth) << " and "
            << formatSeconds(report.hardware.offWafer->latencyS) << '\n';
    }
    out << "hardware:  ";
    if (report.hardware.preset)
        out << "preset " << *report.hardware.preset << "; ";
    out << std::llround(report.hardware.flopsPerLinkByte) << " FLOP per byte of link, "
        << std::llround(report.hardware.flopsPerHbmByte) << " FLOP per byte of HBM\n";
    out << "network:   " << networkModelSummary(report.network) << '\n';
    out << "traffic:   " << report.flowCount << " flows, " << formatBytes(report.totalLinkBytes())
        << " carried over links\n";
    if (report.step) {
        const StepMetrics& step = *report.step;
        char line[200];
        out << "strategy:  " << step.strategy << " (" << step.diesUsed << " dies)\n";
        out << "step:      " << formatSeconds(step.stepS) << " (";
        if (step.windowLayers > 1)
            out << "window of " << step.windowLayers << " layers " << formatSeconds(step.windowS)
                << ", steady layer " << formatSeconds(step.layerS) << ", ";
        else
            out << "one layer " << formatSeconds(step.windowS) << ", ";
        out << "head " << formatSeconds(step.headS) << ", exposed gradient sync "
            << formatSeconds(step.syncS) << ", optimizer " << formatSeconds(step.optimizerS)
            << ")\n";
        if (step.pp > 1) {
            int microBatches = 0;
            for (const PipelinePass& pass : step.pipeline)
                microBatches = std::max(microBatches, pass.microBatch + 1);
            out << "pipeline:  " << step.pp << " stages, 1F1B over " << microBatches
                << " micro-batches; bubble " << percent(step.ppBubbleFraction)
                << " of the schedule\n";
        }
        out << "breakdown: compute " << formatSeconds(step.computeS) << ", HBM stalls "
            << formatSeconds(step.hbmStallS) << ", task overhead " << formatSeconds(step.overheadS)
            << ", optimizer " << formatSeconds(step.optimizerS) << ", exposed communication "
            << formatSeconds(step.exposedS) << " (per die)\n";
        std::snprintf(line, sizeof line,
                      "tasks:     %.4g compute tasks per step, %s memory-bound, %s "
                      "overhead-bound\n",
                      step.tasks,
                      percent(step.tasks > 0 ? step.memoryBoundTasks / step.tasks : 0).c_str(),
                      percent(step.tasks > 0 ? step.overheadBoundTasks / step.tasks : 0).c_str());
        out << line;
        out << "sram:      largest working set " << formatBytes(step.sram.largestWorkingSetBytes)
            << " of " << formatBytes(step.sram.usableBytes)
            << " usable: " << (step.sram.fits ? "fits" : "overflows, operands re-read from HBM")
            << (step.sram.singleBuffered ? "; single buffering" : "") << "\n";
        std::snprintf(
            line, sizeof line, "throughput: %.4g tokens/s, %.4g TFLOP/s achieved, MFU %s\n",
            step.tokensPerSecond, step.achievedFlopsPerSecond / 1e12, percent(step.mfu).c_str());
        out << line;
        for (const DieReport& die : report.dies) {
            if (!die.memory)
                continue;
            const MemoryBreakdown& m = *die.memory;
            out << "memory:    " << formatBytes(m.total()) << " per die (weights "
                << formatBytes(m.weights) << ", gradients " << formatBytes(m.gradients)
                << ", optimizer " << formatBytes(m.optimizer) << ", activations "
                << formatBytes(m.activations) << ", stream buffers " << formatBytes(m.streamBuffers)
                << ", reserve " << formatBytes(m.commReserve) << ")\n           "
                << (m.outOfMemory()
                        ? "OUT OF MEMORY: exceeds SRAM + HBM; largest term: " + m.dominantTerm()
                    : m.fitsInSram() ? std::string("fits in SRAM")
                                     : "spills to HBM (" + formatBytes(m.hbmCapacity) + ")")
                << '\n';
            break; // every die the strategy uses holds the same
        }
        for (const std::string& note : step.notes)
            out << "note:      " << note << '\n';
        out << "simulated: " << formatSeconds(report.makespanS) << " window (below: its links)\n";
    } else {
        out << "makespan:  " << formatSeconds(report.makespanS) << '\n';
    }
    char energyLine[200];
    if (report.hardware.wafers)
        std::snprintf(energyLine, sizeof energyLine,
                      "energy:    %.4g J (links %.4g J on the wafers and %.4g J between them, "
                      "compute %.4g J, HBM %.4g J)\n",
                      report.energyJ(), report.energyD2dJ, report.energyOffWaferJ,
                      report.energyComputeJ, report.energyHbmJ);
    else
        std::snprintf(energyLine, sizeof energyLine,
                      "energy:    %.4g J (links %.4g J, compute %.4g J, HBM %.4g J)\n",
                      report.energyJ(), report.energyD2dJ, report.energyComputeJ,
                      report.energyHbmJ);
    out << energyLine;
    const auto hottest = report.hottestLinks(5);
    if (!hottest.empty()) {
        out << "hottest links (bytes, busy time, utilisation over the makespan, flows):\n";
        for (const LinkReport& link : hottest) {
            char line[200];
            // A cluster's links end at switches, named (WaferTopology::vertexName).
            if (topology.isCluster())
                std::snprintf(line, sizeof line, "  %-22s %12s %12s %8s %6d\n",
                              linkName(topology, topology.link(link.id)).c_str(),
                              formatBytes(link.bytes).c_str(), formatSeconds(link.busyS).c_str(),
                              percent(link.utilization).c_str(), link.flowCount);
            else
                std::snprintf(line, sizeof line, "  %5d->%-5d %12s %12s %8s %6d%s\n", link.from,
                              link.to, formatBytes(link.bytes).c_str(),
                              formatSeconds(link.busyS).c_str(), percent(link.utilization).c_str(),
                              link.flowCount, link.offWafer ? "  off-wafer" : "");
            out << line;
        }
    }
    for (const std::string& warning : report.warnings)
        out << "warning:   " << warning << '\n';
    if (report.network.model == NetworkModel::Fluid) // the reminder docs/network-model.md asks for
        out << "note:      fluid max-min model; packet-level simulators finish multi-bottleneck "
               "patterns later\n";
    return out.str();
}

} // namespace ws
