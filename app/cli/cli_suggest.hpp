// "did you mean --format?" for a mistyped option (issue 20): CLI11 only says the argument was not
// expected. Looks at the command line's --options that the chosen subcommand does not know.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace ddpsim::app {

// " (did you mean --format?)" or "".
std::string suggest_option(const CLI::App& app, int argc, char** argv);

}  // namespace ddpsim::app
