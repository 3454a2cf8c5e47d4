#include "core/error.hpp"

#include "core/text.hpp"

namespace ddpsim {
namespace {

// One line, valid UTF-8: file names, keys and values inside messages come from users.
std::string render(const SourceLocation& where, const std::string& field, const std::string& message)
{
  std::string out;
  if (!where.file.empty()) {
    out += printable(where.file);
    if (where.line > 0) out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
    out += ": ";
  }
  out += "error: ";
  if (!field.empty()) out += printable(field) + ": ";
  return out + printable(message);
}

}  // namespace

UserError::UserError(SourceLocation where, std::string field, std::string message)
    : std::runtime_error(render(where, field, message)),
      where_(std::move(where)),
      field_(std::move(field)),
      message_(std::move(message))
{
}

UserError::UserError(std::string message) : UserError(SourceLocation{}, "", std::move(message)) {}

}  // namespace ddpsim
