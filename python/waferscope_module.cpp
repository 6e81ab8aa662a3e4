// The Python module `waferscope` (docs/python.md): the CLI's simulate,
// optimize, search, advise and validate-model, each returning its `--json` report as a dict. The
// reports are built by the same core functions as the CLI's, written as the same JSON text and read
// back with json.loads, so a dict equals the parsed output of `waferscope-cli COMMAND --json FILE`
// in the same environment (TCME_MAX_ITER, TCME_ROUTING, FSDP_ALLGATHER apply here too).
// Every run releases the GIL: a notebook may run several in threads.

#include "loaded_scenario.h"
#include "python_errors.h"
#include "python_json.h"
#include "scenario_argument.h"

#include "advice/advisor.h"
#include "command/optimize_command.h"
#include "command/search_command.h"
#include "evaluation/scenario_run.h"
#include "io/scenario_io.h"
#include "report/report_formats.h"
#include "validation/model_validation.h"

#include "waferscope_version.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // std::optional arguments (max_iter, threads)

#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace py = pybind11;

namespace ws::python {

namespace {

// Runs `makeReportText` (scenario in, JSON text out) with the GIL released, then reads the
// text back as Python values; the core's exceptions become the CLI's messages.
template <class MakeReportText>
py::object runReport(const py::object& scenarioArgument, MakeReportText&& makeReportText) {
    const std::shared_ptr<const LoadedScenario> loaded = loadScenarioArgument(scenarioArgument);
    std::string text;
    try {
        py::gil_scoped_release released;
        text = makeReportText(loaded->scenario);
    } catch (...) {
        rethrowForPython(loaded->source);
    }
    return jsonTextToPython(text);
}

// An integer keyword argument in [low, high], else a ValueError worded as the CLI's refusal
// of the option ("budget takes an integer from 1 to 10000000, not 0").
template <class T> T integerArgument(const char* name, const py::int_& value, T low, T high) {
    if (value < py::int_(low) || value > py::int_(high))
        throw py::value_error(std::string(name) + " takes an integer from " + std::to_string(low) +
                              " to " + std::to_string(high) + ", not " +
                              py::repr(value).cast<std::string>());
    return value.cast<T>();
}

py::object simulate(const py::object& scenario, const std::string& detailName) {
    const std::optional<ReportDetail> detail = reportDetailFromString(detailName);
    if (!detail)
        throw py::value_error("detail takes full or summary, not '" + detailName + "'");
    return runReport(scenario, [&](const Scenario& parsed) {
        std::ostringstream text;
        writeReportJson(text, simulateScenarioReport(parsed, frontEndRunOptions(), *detail),
                        *detail);
        return text.str();
    });
}

py::object optimize(const py::object& scenario, const std::optional<py::int_>& maxIter) {
    std::optional<int> cap;
    if (maxIter)
        cap = integerArgument<int>("max_iter", *maxIter, 1, kMaxOptimizeIterations);
    return runReport(scenario, [&](const Scenario& parsed) {
        return optimizeReportJson(optimizeScenario(parsed, cap, frontEndRunOptions())).dump();
    });
}

py::object search(const py::object& scenario, const py::int_& budget, const py::int_& seed,
                  const std::optional<py::int_>& threads) {
    SearchOptions options;
    options.budget = integerArgument<int>("budget", budget, 1, kMaxSearchBudget);
    options.seed =
        integerArgument<std::uint64_t>("seed", seed, 0, std::numeric_limits<std::uint64_t>::max());
    if (threads)
        options.threads = integerArgument<int>("threads", *threads, 1, kMaxSearchThreads);
    return runReport(scenario, [&](const Scenario& parsed) {
        const SearchOutcome outcome = searchScenario(parsed, options, frontEndRunOptions());
        return searchReportJson(outcome.result, options).dump();
    });
}

py::object advise(const py::object& scenario) {
    return runReport(scenario, [](const Scenario& parsed) {
        return findingsJson(adviseScenario(parsed, frontEndRunOptions())).dump();
    });
}

// A suite is a file, never a dict: its points name scenario files relative to it. Compared as
// written, without the environment's overrides, as the CLI's validate-model compares it.
py::object validateModelReport(const py::object& suitePath) {
    const std::string path = py::str(py::module_::import("os").attr("fspath")(suitePath));
    std::string text;
    try {
        py::gil_scoped_release released;
        text = validationJson(ws::validateModel(loadValidationSuite(path), RunOptions{})).dump();
    } catch (...) {
        rethrowForPython(path);
    }
    return jsonTextToPython(text);
}

std::string scenarioRepr(const LoadedScenario& loaded) {
    return "<waferscope.Scenario " + py::repr(py::str(loaded.scenario.name)).cast<std::string>() +
           " from " + py::repr(py::str(loaded.source)).cast<std::string>() + ">";
}

} // namespace

} // namespace ws::python

PYBIND11_MODULE(waferscope, module) {
    using namespace ws;
    using namespace ws::python;
    module.doc() = "WaferScope: simulate, optimize, search and advise wafer-scale training "
                   "scenarios; each function returns the report of `waferscope-cli COMMAND "
                   "--json` as a dict (docs/python.md).";
    module.attr("__version__") = kWaferScopeVersion;

    py::class_<LoadedScenario, std::shared_ptr<LoadedScenario>>(
        module, "Scenario",
        "A parsed scenario and where it came from (made by waferscope.load). Immutable.")
        .def_property_readonly(
            "source", [](const LoadedScenario& loaded) { return loaded.source; },
            "The path as given, or '<dict>': the FILE of error messages.")
        .def_property_readonly("name",
                               [](const LoadedScenario& loaded) { return loaded.scenario.name; })
        .def(
            "to_dict",
            [](const LoadedScenario& loaded) {
                return jsonTextToPython(toJson(loaded.scenario).dump());
            },
            "The scenario as a dict, written the way a user would write the file.")
        .def("__repr__", &scenarioRepr);

    module.def(
        "load", [](const py::object& pathOrDict) { return loadScenarioArgument(pathOrDict); },
        py::arg("path_or_dict"),
        "Reads a scenario: a path (str or os.PathLike) or a dict (its relative paths against "
        "the current directory). Bad input raises ValueError with the CLI's message "
        "('FILE: key.path: problem').");
    module.def("simulate", &simulate, py::arg("scenario"), py::kw_only(),
               py::arg("detail") = "full",
               "The `simulate --json` report as a dict; detail='summary' leaves out the flows "
               "and die events (`--json=summary`).");
    module.def("optimize", &optimize, py::arg("scenario"), py::kw_only(),
               py::arg("max_iter") = py::none(),
               "Runs TCME and returns the `optimize --json` report; max_iter caps the "
               "iterations (`--max-iter`).");
    module.def("search", &search, py::arg("scenario"), py::kw_only(),
               py::arg("budget") = SearchOptions{}.budget, py::arg("seed") = SearchOptions{}.seed,
               py::arg("threads") = py::none(),
               "Runs the strategy search and returns the `search --json` report; threads=None "
               "uses every hardware thread. The report is the same for a seed whatever threads "
               "is.");
    module.def("advise", &advise, py::arg("scenario"),
               "The advisor's findings, the `advise --json` report.");
    module.def("validate_model", &validateModelReport, py::arg("suite"),
               "Simulates every point of a validation suite (a path) and returns the "
               "`validate-model --json` report: published against simulated, errors, drift.");
}
