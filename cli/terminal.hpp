#pragma once
#include <string>
#include <string_view>

namespace ridgeline::cli {

// Colour only on a terminal, never when NO_COLOR is set or TERM is dumb.
bool stderr_is_terminal();
// A terminal that takes escape sequences (cursor, colour): not TERM=dumb.
bool stderr_takes_escapes();
bool colour_enabled();
std::string paint(std::string_view text, int ansi_colour);

}  // namespace ridgeline::cli
