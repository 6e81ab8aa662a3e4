#pragma once

#include <charconv>
#include <functional>
#include <string>
#include <vector>

namespace ws {

// A command line the subcommands (search, sweep) cannot read: the message, then the usage, exit 2.
struct CliUsageError {
    std::string message;
};

// An option's integer value in [low, high], or a CliUsageError naming the option.
template <class T>
T parseIntegerOption(const std::string& option, const std::string& text, T low, T high) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
        // Appended piece by piece: GCC 12 flags a chain of operator+ here (-Wrestrict, a false
        // positive).
        std::string message = option;
        message.append(" takes an integer from ").append(std::to_string(low));
        message.append(" to ").append(std::to_string(high));
        message.append(", not '").append(text).append("'");
        throw CliUsageError{message};
    }
    return value;
}

// Walks a subcommand's arguments (args[0] is the command's name): every argument starting with
// '-' goes to `option(name, value)`, which reads the option's argument with value() and returns
// false for an option it does not know; the one other argument is the FILE, returned.
// `fileName` says what FILE is in the message when it is missing ("a scenario FILE").
inline std::string readSubcommandArguments(
    const std::vector<std::string>& args, const std::string& fileName,
    const std::function<bool(const std::string&, const std::function<std::string()>&)>& option) {
    std::string file;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= args.size())
                throw CliUsageError{arg + " needs a value"};
            return args[++i];
        };
        if (arg.starts_with("-")) {
            if (!option(arg, value))
                throw CliUsageError{"unknown option '" + arg + "' for " + args[0]};
        } else if (file.empty()) {
            file = arg;
        } else {
            throw CliUsageError{"more than one FILE: '" + file + "' and '" + arg + "'"};
        }
    }
    if (file.empty())
        throw CliUsageError{args[0] + " needs " + fileName};
    return file;
}

} // namespace ws
