#include "cli_subcommand.h"

#include "cli_commands.h"
#include "cli_options.h"

#include "io/file_write_error.h"
#include "scenario/scenario_error.h"

#include <exception>

namespace ws {

int runSubcommand(const std::string& command, const std::string& file, std::ostream& err,
                  const std::function<int()>& body) {
    try {
        return body();
    } catch (const CliUsageError& error) {
        err << "waferscope-cli: " << error.message << "\n(see waferscope-cli --help)\n";
        return kExitBadInput;
    } catch (const ScenarioError& error) {
        err << file << ": " << error.what() << '\n';
        return kExitBadInput;
    } catch (const FileWriteError& error) {
        // The message names the output file, not the scenario that was read.
        err << "waferscope-cli: " << error.what() << '\n';
        return kExitRunFailed;
    } catch (const std::exception& error) {
        err << "waferscope-cli: " << command << ' ' << file << ": " << error.what() << '\n';
        return kExitRunFailed;
    }
}

} // namespace ws
