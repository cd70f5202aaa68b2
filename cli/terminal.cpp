#include "terminal.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

namespace ridgeline::cli {

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

bool stderr_takes_escapes() {
  const char* term = std::getenv("TERM");
  return stderr_is_terminal() && !(term && std::string_view(term) == "dumb");
}

bool colour_enabled() {
  const char* no_colour = std::getenv("NO_COLOR");
  return stderr_takes_escapes() && !(no_colour && *no_colour);
}

std::string paint(std::string_view text, int ansi_colour) {
  if (!colour_enabled()) return std::string(text);
  return fmt::format("\033[{}m{}\033[0m", ansi_colour, text);
}

}  // namespace ridgeline::cli
