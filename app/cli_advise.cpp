#include "cli_advise.h"

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_subcommand.h"

#include "advice/advisor.h"
#include "evaluation/run_options.h"
#include "io/json_text.h"
#include "io/scenario_io.h"

#include <ostream>
#include <stdexcept>

namespace ws {

namespace {

// "strategy.balance = \"speed\", strategy.dp = 2": the fix as the keys a user would type.
std::string fixText(const nlohmann::ordered_json& fix) {
    std::string text;
    for (auto it = fix.begin(); it != fix.end(); ++it) {
        std::string value = it.value().dump();
        if (value.size() > 60)
            value = value.substr(0, 57) + "...";
        text += (text.empty() ? "" : ", ") + it.key() + " = " + value;
    }
    return text;
}

void printFindings(const std::vector<Finding>& findings, const std::string& file,
                   std::ostream& out) {
    if (findings.empty()) {
        out << file << ": no findings: the simulation shows none of the advisor's problems\n";
        return;
    }
    out << file << ": " << findings.size() << (findings.size() == 1 ? " finding" : " findings")
        << '\n';
    for (const Finding& finding : findings) {
        out << toString(finding.severity) << "  " << finding.id << ": " << finding.message << '\n';
        if (finding.fix)
            out << "    fix: " << fixText(*finding.fix) << '\n';
    }
}

} // namespace

int runAdviseCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string file;
    return runSubcommand("advise", file, err, [&] {
        bool json = false;
        file = readSubcommandArguments(args, "a scenario FILE",
                                       [&](const std::string& arg, const auto&) {
                                           if (arg != "--json")
                                               return false;
                                           json = true;
                                           return true;
                                       });
        const Scenario scenario = loadScenario(file);
        const std::vector<Finding> findings = adviseScenario(scenario, frontEndRunOptions());
        if (json)
            out << findingsJson(findings).dump(2) << '\n';
        else
            printFindings(findings, file, out);
        return kExitOk;
    });
}

} // namespace ws
