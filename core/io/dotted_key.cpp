#include "io/dotted_key.h"

#include "scenario/scenario_error.h"

namespace ws {

void setDottedKey(nlohmann::ordered_json& document, const std::string& key,
                  const nlohmann::json& value) {
    nlohmann::ordered_json* node = &document;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot == std::string::npos ? dot : dot - start);
        if (part.empty())
            throw ScenarioError(key, "not a dotted scenario key");
        if (!node->is_object())
            throw ScenarioError(key, "'" + key.substr(0, start == 0 ? 0 : start - 1) +
                                         "' is not an object");
        if (dot == std::string::npos) {
            if (value.is_null())
                node->erase(part);
            else
                (*node)[part] = value;
            return;
        }
        node = &(*node)[part]; // created as null, then made an object by the next step
        if (node->is_null())
            *node = nlohmann::ordered_json::object();
        start = dot + 1;
    }
}

} // namespace ws
