#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace ws::python {

// JSON text as Python values (json.loads): objects become dicts in the text's key order,
// numbers ints or floats as written (nlohmann writes a double's shortest round-trip digits, so
// each float is the very double the core computed). Needs the GIL.
pybind11::object jsonTextToPython(const std::string& text);

// A Python value (a scenario dict) as JSON text (json.dumps). Needs the GIL; a value JSON
// cannot hold is json's TypeError.
std::string pythonToJsonText(pybind11::handle value);

} // namespace ws::python
