// Writing results: to stdout, or to a file atomically (a temporary file in the same directory,
// then rename), so a failed run never leaves a half-written file in place of the user's.
#pragma once

#include <string>

namespace ddpsim::app {

// Writes `content` to `path` ("-" or "" = stdout). Throws UserError when the file cannot be written.
void write_output(const std::string& path, const std::string& content);

}  // namespace ddpsim::app
