#include "io/strict_json.h"

#include "scenario/scenario_error.h"

#include <algorithm>
#include <set>
#include <vector>

namespace ws {
namespace {

// Follows the parser through the document so that a duplicate key (or an overflowing number)
// can be reported with the key path the validator would use: "traffic[1].group".
class KeyPathTracker {
public:
    bool onEvent(nlohmann::json::parse_event_t event, const nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
        case Event::object_start:
            m_frames.push_back(Frame{true, {}, {}, 0});
            break;
        case Event::array_start:
            m_frames.push_back(Frame{false, {}, {}, 0});
            break;
        case Event::key: {
            Frame& top = m_frames.back();
            std::string key = parsed.get<std::string>();
            top.key = key;
            if (!top.keys.insert(std::move(key)).second)
                throw ScenarioError(currentPath(), "duplicate key '" + top.key +
                                                       "' (JSON objects must not repeat a key)");
            break;
        }
        case Event::object_end:
        case Event::array_end:
            m_frames.pop_back();
            advance();
            break;
        case Event::value:
            advance();
            break;
        }
        return true;
    }

    // The key path of the value being parsed: every enclosing key and array index.
    std::string currentPath() const {
        std::string path;
        for (const Frame& frame : m_frames) {
            if (frame.isObject) {
                if (frame.key.empty() && frame.keys.empty())
                    break; // no key read yet in this object
                if (!path.empty())
                    path += '.';
                path += frame.key;
            } else {
                path += "[" + std::to_string(frame.index) + "]";
            }
        }
        return path;
    }

private:
    struct Frame {
        bool isObject;
        std::set<std::string> keys; // objects: keys seen so far
        std::string key;            // objects: the key whose value is being parsed
        std::size_t index;          // arrays: index of the element being parsed
    };

    // A value (scalar or container) has ended: an enclosing array moves to its next element.
    void advance() {
        if (!m_frames.empty() && !m_frames.back().isObject)
            ++m_frames.back().index;
    }

    std::vector<Frame> m_frames;
};

// "[json.exception.parse_error.101] parse error at line 3, column 4: syntax error while
// parsing object - unexpected string literal; expected '}'" becomes "unexpected string
// literal; expected '}' (while parsing an object)": our key path already gives the position.
std::string describeSyntaxError(const std::string& what) {
    std::string text = what;
    if (const std::size_t id = text.find("] ");
        !text.empty() && text[0] == '[' && id != std::string::npos)
        text = text.substr(id + 2);
    if (const std::size_t colon = text.find(": ");
        text.rfind("parse error", 0) == 0 && colon != std::string::npos)
        text = text.substr(colon + 2);
    const std::string prefix = "syntax error while parsing ";
    if (text.rfind(prefix, 0) == 0) {
        const std::size_t dash = text.find(" - ");
        if (dash != std::string::npos) {
            const std::string context = text.substr(prefix.size(), dash - prefix.size());
            text = text.substr(dash + 3) + " (while parsing " + context + ")";
        }
    }
    return text;
}

// 1-based line and column of the byte at `offset` (0-based), clamped to the text.
std::string lineColumn(const std::string& text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const auto begin = text.begin();
    const auto at = begin + static_cast<std::ptrdiff_t>(offset);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(begin, at, '\n'));
    const std::size_t lastNewline = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t lineStart =
        (lastNewline == std::string::npos || lastNewline >= offset) ? 0 : lastNewline + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

} // namespace

nlohmann::json parseStrictJson(const std::string& text) {
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }))
        throw ScenarioError("line 1, column 1",
                            "JSON syntax error: the file is empty (expected a JSON object)");
    KeyPathTracker tracker;
    try {
        return nlohmann::json::parse(
            text, [&tracker](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
                return tracker.onEvent(event, parsed);
            });
    } catch (const nlohmann::json::parse_error& error) {
        // `byte` counts the characters read, so the parser stopped at byte - 1 (0-based).
        const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
        throw ScenarioError(lineColumn(text, offset),
                            "JSON syntax error: " + describeSyntaxError(error.what()));
    } catch (const nlohmann::json::out_of_range& error) {
        // Only "number overflow parsing '1e400'" reaches here.
        throw ScenarioError(tracker.currentPath(),
                            "JSON syntax error: " + describeSyntaxError(error.what()));
    }
}

} // namespace ws
