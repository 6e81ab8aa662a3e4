#include "python_json.h"

namespace py = pybind11;

namespace ws::python {

py::object jsonTextToPython(const std::string& text) {
    return py::module_::import("json").attr("loads")(py::str(text));
}

std::string pythonToJsonText(py::handle value) {
    return py::module_::import("json").attr("dumps")(value).cast<std::string>();
}

} // namespace ws::python
