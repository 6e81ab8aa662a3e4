#include "cli_commands.h"
#include "evaluation/memory_reuse.h"

#include <iostream>

int main(int argc, char** argv) {
    ws::restartWithHugePages(argv);
    ws::keepFreedMemoryForReuse();
    std::vector<std::string> args(argv + 1, argv + argc);
    return ws::runCli(args, std::cout, std::cerr);
}
