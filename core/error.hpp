// Two error tiers (STYLE.md): a UserError is the user's input being wrong and maps to exit 2 with
// one line `file:line:column: error: field: message`; an InternalError is a broken invariant of
// ours and maps to exit 70. Library code throws; only app/cli/main.cpp turns them into exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace ddpsim {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 70;

// Where in the user's input something is. line and column are 1-based; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// A value that does not parse (e.g. "25" for a bandwidth). Carries no location: the caller that
// knows where the value came from rethrows it as a UserError.
class ValueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UserError : public std::runtime_error {
 public:
  UserError(SourceLocation where, std::string field, std::string message);
  explicit UserError(std::string message);  // no file involved (e.g. a CLI flag)

  const SourceLocation& where() const { return where_; }
  const std::string& field() const { return field_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string field_;
  std::string message_;
};

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Throws InternalError with the failing expression and location when `cond` is false.
#define DDPSIM_CHECK(cond, msg)                                                              \
  do {                                                                                       \
    if (!(cond))                                                                             \
      throw ::ddpsim::InternalError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                                    ": check failed: " #cond ": " + (msg));                  \
  } while (false)

}  // namespace ddpsim
