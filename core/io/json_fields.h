#pragma once

#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

// Reads the fields of one JSON object for the file format's readers (core/io), with the one
// field reader of io/json_values.h.
// Every problem is a ScenarioError, located one of two ways:
// - nested: the object is part of the scenario, so each field has its own key path
//   ("workload.model" + "hidden" -> "workload.model.hidden: must be ...");
// - imported: the object is a file the scenario points to (a Hugging Face config.json), whose
//   keys are not scenario keys; every error is at the key naming the file and the problem
//   starts with the field ("workload.hf_config: hidden_size: must be ..."). In imported
//   objects a null counts as absent, because Hugging Face writes null for unset fields.
class JsonFields {
public:
    static JsonFields nested(const nlohmann::json& object, std::string path);
    static JsonFields imported(const nlohmann::json& object, std::string path);

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
    // The object as a whole: "workload: ..." or, imported, "workload.hf_config: ...".
    [[noreturn]] void failObject(const std::string& problem) const;

    // Nested only: rejects keys outside `known` (suggesting the closest) and returns the
    // "x-..." ones, which are kept.
    nlohmann::json rejectUnknownKeys(const std::vector<std::string>& known) const;

    bool has(const std::string& key) const { return find(key) != nullptr; }
    const nlohmann::json* find(const std::string& key) const;

    // Integers may be written 5 or 5.0, never 5.5; the range is inclusive and is stated in
    // the message ("must be 1 to 1000, got 0").
    std::int64_t integer(const std::string& key, std::int64_t low, std::int64_t high) const;
    std::int64_t integer(const std::string& key, std::int64_t low, std::int64_t high,
                         std::int64_t fallback) const;
    double number(const std::string& key, double low, double high, double fallback) const;
    bool boolean(const std::string& key, bool fallback) const;
    std::string string(const std::string& key) const;
    std::string string(const std::string& key, const std::string& fallback) const;

    const std::string& path() const { return m_path; }

private:
    JsonFields(const nlohmann::json& object, std::string path, bool imported)
        : m_object(object), m_path(std::move(path)), m_imported(imported) {}
    const nlohmann::json& require(const std::string& key) const;
    // Calls read(path) with the key's path; in an imported object, a problem it reports is
    // moved to the object's own path with the key in front ("workload.hf_config: hidden_size:").
    template <typename Read> auto at(const std::string& key, Read read) const;

    const nlohmann::json& m_object; // not owned: a JsonFields lives only while its object does
    std::string m_path;
    bool m_imported;
};

} // namespace ws
