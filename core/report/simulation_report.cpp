#include "report/simulation_report.h"

#include "sim/run_cancelled.h"
#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace ws {

namespace {

constexpr double kPicojoule = 1e-12;
constexpr double kBitsPerByte = 8.0;

} // namespace

double transferEnergyJ(double bytes, double picojoulesPerBit) {
    return bytes * kBitsPerByte * picojoulesPerBit * kPicojoule;
}

double offWaferPicojoulesPerBit(const Scenario& scenario) {
    return scenario.system ? scenario.system->picojoulesPerBit.value_or(
                                 scenario.wafer.energy.d2dPicojoulesPerBit)
                           : scenario.wafer.energy.d2dPicojoulesPerBit;
}

// Every byte the links carried, at the energy per bit of its link: the wafer's, or the
// system's for an off-wafer link.
void setLinkEnergy(SimulationReport& report, const Scenario& scenario) {
    double onWaferBytes = 0.0;
    double offWaferBytes = 0.0;
    for (const LinkReport& link : report.links)
        (link.offWafer ? offWaferBytes : onWaferBytes) += link.bytes;
    report.energyD2dJ = transferEnergyJ(onWaferBytes, scenario.wafer.energy.d2dPicojoulesPerBit);
    report.energyOffWaferJ = transferEnergyJ(offWaferBytes, offWaferPicojoulesPerBit(scenario));
}

double SimulationReport::totalLinkBytes() const {
    double total = 0.0;
    for (const LinkReport& link : links)
        total += link.bytes;
    return total;
}

std::vector<LinkReport> SimulationReport::hottestLinks(std::size_t count) const {
    std::vector<LinkReport> loaded;
    for (const LinkReport& link : links)
        if (link.bytes > 0)
            loaded.push_back(link);
    std::stable_sort(loaded.begin(), loaded.end(),
                     [](const LinkReport& a, const LinkReport& b) { return a.busyS > b.busyS; });
    if (loaded.size() > count)
        loaded.resize(count);
    return loaded;
}

std::string hottestLinkText(const SimulationReport& report, const WaferTopology& topology) {
    const std::vector<LinkReport> hottest = report.hottestLinks(1);
    if (hottest.empty())
        return {};
    const LinkReport& link = hottest.front();
    std::ostringstream text;
    text << "hottest link " << linkName(topology, link.from, link.to) << ": busy "
         << formatSeconds(link.busyS) << " (" << std::lround(link.utilization * 100.0)
         << "% of the window), " << formatBytes(link.bytes);
    return text.str();
}

std::string toString(DieEvent::Kind kind) {
    switch (kind) {
    case DieEvent::Kind::Compute:
        return "compute";
    case DieEvent::Kind::Send:
        return "send";
    case DieEvent::Kind::Recv:
        return "recv";
    case DieEvent::Kind::Idle:
        return "idle";
    }
    return "unknown";
}

std::vector<LinkReport> linkReports(const WaferTopology& topology, const SimResult& result,
                                    const std::vector<double>& linkBandwidth) {
    std::vector<LinkReport> links;
    links.reserve(static_cast<std::size_t>(topology.linkCount()));
    for (const LinkProperties& props : topology.links()) {
        const auto index = static_cast<std::size_t>(props.id);
        LinkReport link;
        link.id = props.id;
        link.from = props.from;
        link.to = props.to;
        link.alive = props.alive;
        link.offWafer = props.offWafer();
        link.bytes = index < result.linkBytes.size() ? result.linkBytes[index] : 0.0;
        link.busyS = index < result.linkBusyS.size() ? result.linkBusyS[index] : 0.0;
        const double bandwidth = linkBandwidth[index];
        link.utilization = result.makespanS > 0 && bandwidth > 0
                               ? link.bytes / (bandwidth * result.makespanS)
                               : 0.0;
        links.push_back(link);
    }
    return links;
}

HardwareSummary hardwareSummaryOf(const Scenario& scenario) {
    const WaferSpec& wafer = scenario.wafer;
    HardwareSummary summary{
        wafer.preset, wafer.flopsPerLinkByte(),           wafer.flopsPerHbmByte(),
        {},           scenario.linkTierSpeeds().offWafer, scenario.cluster};
    if (scenario.cluster) {
        summary.preset = scenario.cluster->preset;
        summary.nodes = wafer.rows;
        summary.gpusPerNode = wafer.cols;
    }
    if (scenario.system)
        summary.wafers = std::pair(scenario.system->waferRows, scenario.system->waferCols);
    return summary;
}

SimulationReport buildSimulationReport(const Scenario& scenario, const WaferTopology& topology,
                                       const TrafficPlan& plan, const SimResult& result,
                                       std::vector<std::string> warnings, ReportDetail detail,
                                       const std::function<bool()>& cancel) {
    SimulationReport report;
    report.scenarioName = scenario.name;
    report.detail = detail;
    report.flowCount = plan.flowCount;
    report.hardware = hardwareSummaryOf(scenario);
    report.network = scenario.networkSettings();
    report.makespanS = result.makespanS;
    report.warnings = std::move(warnings);

    report.links = linkReports(topology, result, plan.problem.linkBandwidth);

    report.dies.resize(static_cast<std::size_t>(topology.dieCount()));
    for (DieId die = 0; die < topology.dieCount(); ++die) {
        DieReport& dieReport = report.dies[static_cast<std::size_t>(die)];
        dieReport.id = die;
        dieReport.alive = topology.isAlive(die);
        if (static_cast<std::size_t>(die) < result.dieComputeS.size())
            dieReport.computeS = result.dieComputeS[static_cast<std::size_t>(die)];
        dieReport.utilization = result.makespanS > 0 ? dieReport.computeS / result.makespanS : 0;
    }

    // Flow f's task is task f and carries the flow's links (collectives/traffic_plan.h): the
    // counts need no flow records, which a summary run may have dropped.
    for (std::size_t f = 0; f < plan.flowCount; ++f)
        for (LinkId link : plan.problem.tasks[f].links)
            ++report.links[static_cast<std::size_t>(link)].flowCount;
    if (detail == ReportDetail::Summary) {
        setLinkEnergy(report, scenario);
        return report;
    }

    if (plan.flows.size() != plan.flowCount)
        throw std::invalid_argument("a full report needs the plan's flow records, and this plan "
                                    "dropped them (FlowRecords::Dropped)");
    report.flows.reserve(plan.flows.size());
    for (const Flow& flow : plan.flows) {
        pollCancelAt(report.flows.size(), cancel);
        const TaskTiming& timing = result.tasks[static_cast<std::size_t>(flow.task)];
        const TrafficOp& op = scenario.traffic[static_cast<std::size_t>(flow.opIndex)];
        FlowReport flowReport = flowReportOf(flow, timing, op.id, toString(op.kind), flow.step);
        addFlowEvents(report.dies, flowReport);
        report.flows.push_back(std::move(flowReport));
    }
    for (DieReport& die : report.dies)
        std::stable_sort(die.events.begin(), die.events.end(),
                         [](const DieEvent& a, const DieEvent& b) {
                             return std::tie(a.startS, a.kind) < std::tie(b.startS, b.kind);
                         });

    setLinkEnergy(report, scenario);
    return report;
}

FlowReport flowReportOf(const Flow& flow, const TaskTiming& timing, std::string op,
                        std::string opKind, int step) {
    FlowReport entry;
    entry.id = flow.id;
    entry.op = std::move(op);
    entry.opKind = std::move(opKind);
    entry.src = flow.src;
    entry.dsts = flow.dsts;
    entry.reduction = flow.reduction;
    entry.bytes = flow.bytes;
    entry.route = flow.route;
    entry.startS = timing.startS;
    entry.lastByteS = timing.lastByteS;
    entry.endS = timing.endS;
    entry.step = step;
    return entry;
}

void addFlowEvents(std::vector<DieReport>& dies, const FlowReport& flow) {
    const auto send = [&](DieId die) {
        dies[static_cast<std::size_t>(die)].events.push_back(
            {DieEvent::Kind::Send, flow.startS, flow.lastByteS, flow.step, flow.id});
    };
    const auto receive = [&](DieId die) {
        dies[static_cast<std::size_t>(die)].events.push_back(
            {DieEvent::Kind::Recv, flow.startS, flow.endS, flow.step, flow.id});
    };
    if (flow.reduction) {
        for (DieId die : flow.dsts)
            send(die);
        receive(flow.src);
        return;
    }
    send(flow.src);
    for (DieId die : flow.dsts)
        receive(die);
}

} // namespace ws
