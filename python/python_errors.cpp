#include "python_errors.h"

#include "scenario/scenario_error.h"

#include <pybind11/pybind11.h>

#include <exception>
#include <stdexcept>

namespace py = pybind11;

namespace ws::python {

void rethrowForPython(const std::string& source) {
    try {
        throw;
    } catch (const ScenarioError& error) {
        throw py::value_error(source + ": " + error.what());
    } catch (const py::builtin_exception&) {
        throw;
    } catch (const py::error_already_set&) {
        throw;
    } catch (const std::exception& error) {
        // pybind11 turns std::runtime_error into RuntimeError with this message.
        throw std::runtime_error(source + ": " + error.what());
    }
}

} // namespace ws::python
