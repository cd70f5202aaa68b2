#pragma once
#include <string>
#include <string_view>

namespace ridgeline::cli {

// Colour only on a terminal, and never when NO_COLOR is set.
bool stderr_is_terminal();
bool colour_enabled();
std::string paint(std::string_view text, int ansi_colour);

}  // namespace ridgeline::cli
