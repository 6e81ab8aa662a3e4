#include "scenario_argument.h"

#include "python_errors.h"
#include "python_json.h"

#include "io/scenario_io.h"

#include <filesystem>
#include <string>

namespace py = pybind11;

namespace ws::python {

namespace {

// str, bytes or an os.PathLike as the file name, decoded as the file system does (os.fsdecode).
std::string pathArgument(py::handle argument) {
    return py::module_::import("os").attr("fsdecode")(argument).cast<std::string>();
}

bool isPath(py::handle argument) {
    return py::isinstance<py::str>(argument) || py::isinstance<py::bytes>(argument) ||
           py::hasattr(argument, "__fspath__");
}

} // namespace

std::shared_ptr<LoadedScenario> loadScenarioArgument(py::handle argument) {
    if (py::isinstance<LoadedScenario>(argument))
        return argument.cast<std::shared_ptr<LoadedScenario>>();
    if (py::isinstance<py::dict>(argument)) {
        const std::string text = pythonToJsonText(argument);
        try {
            return std::make_shared<LoadedScenario>(
                LoadedScenario{parseScenario(text, std::filesystem::current_path()), kDictSource});
        } catch (...) {
            rethrowForPython(kDictSource);
        }
    }
    if (isPath(argument)) {
        const std::string path = pathArgument(argument);
        try {
            return std::make_shared<LoadedScenario>(LoadedScenario{loadScenario(path), path});
        } catch (...) {
            rethrowForPython(path);
        }
    }
    throw py::type_error("expected a waferscope.Scenario, a path or a dict, not " +
                         py::type::of(argument).attr("__name__").cast<std::string>());
}

} // namespace ws::python
