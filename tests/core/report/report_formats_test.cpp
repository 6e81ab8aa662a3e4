#include "report/report_formats.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <limits>
#include <sstream>

namespace ws {
namespace {

// A report with what a streaming writer gets wrong most easily: text that needs escaping, an
// empty array, a non-finite number and two dies, one without events.
SimulationReport awkwardReport() {
    SimulationReport report;
    report.scenarioName = "quote \" backslash \\ newline \n tab \t end";
    report.makespanS = 2e-6;
    report.warnings = {"w \"1\""};
    DieReport busy;
    busy.id = 0;
    DieEvent event;
    event.kind = DieEvent::Kind::Send;
    event.startS = 0;
    event.endS = 1e-6;
    event.label = "to die 1 \u00e9";
    busy.events = {event, event};
    DieReport idle;
    idle.id = 1;
    idle.utilization = std::numeric_limits<double>::quiet_NaN();
    report.dies = {busy, idle};
    return report;
}

TEST(ReportFormats, StreamedJsonParsesBackWithEveryField) {
    const SimulationReport report = awkwardReport();
    std::ostringstream text;
    writeReportJson(text, report, ReportDetail::Full);
    const auto json = nlohmann::json::parse(text.str());
    EXPECT_EQ(json.at("name"), report.scenarioName);
    EXPECT_EQ(json.at("warnings").at(0), "w \"1\"");
    EXPECT_TRUE(json.at("links").empty());
    EXPECT_TRUE(json.at("flows").empty());
    ASSERT_EQ(json.at("dies").size(), 2u);
    ASSERT_EQ(json.at("dies").at(0).at("events").size(), 2u);
    EXPECT_EQ(json.at("dies").at(0).at("events").at(1).at("label"), "to die 1 \u00e9");
    EXPECT_TRUE(json.at("dies").at(1).at("events").empty());
    EXPECT_TRUE(json.at("dies").at(1).at("utilization").is_null()); // as nlohmann writes NaN
    EXPECT_EQ(json.at("makespan_s"), 2e-6);
    EXPECT_EQ(json, reportToJson(report));
}

TEST(ReportFormats, SummaryLeavesOutOnlyTheDetail) {
    const SimulationReport report = awkwardReport();
    std::ostringstream text;
    writeReportJson(text, report, ReportDetail::Summary);
    auto full = reportToJson(report);
    full.erase("flows");
    full["detail"] = "summary";
    for (auto& die : full.at("dies"))
        die.erase("events");
    EXPECT_EQ(nlohmann::json::parse(text.str()), full);
    EXPECT_EQ(reportDetailFromString("summary"), ReportDetail::Summary);
    EXPECT_EQ(reportDetailFromString("full"), ReportDetail::Full);
    EXPECT_FALSE(reportDetailFromString("Summary"));
}

TEST(ReportFormats, StreamedTraceHasOneTrackPerBusyDieAndLane) {
    const SimulationReport report = awkwardReport();
    std::ostringstream text;
    writeChromeTrace(text, report);
    const auto trace = nlohmann::json::parse(text.str());
    EXPECT_EQ(trace.at("displayTimeUnit"), "ns");
    int complete = 0, threadNames = 0;
    for (const auto& event : trace.at("traceEvents")) {
        complete += event.at("ph") == "X" ? 1 : 0;
        threadNames += event.at("name") == "thread_name" ? 1 : 0;
    }
    EXPECT_EQ(complete, 2);
    EXPECT_EQ(threadNames, 2); // the two overlapping sends go to lanes "die 0" and "die 0 #2"
}

} // namespace
} // namespace ws
