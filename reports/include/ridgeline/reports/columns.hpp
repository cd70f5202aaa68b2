#pragma once
// Plain-text tables for the terminal (list, collectors, the profile summary): each column as wide
// as its widest cell (so a long kernel name or dtype list never pushes the next column out of
// line), the last column free. Cells are plain text; widths count characters (UTF-8 code points).
#include <string>
#include <vector>

namespace ridgeline {

using TextRow = std::vector<std::string>;

// The rows as lines, each starting with `indent`, columns separated by two spaces; a
// column listed in `right` is right-aligned.
std::string format_columns(const std::vector<TextRow>& rows, const std::string& indent = "  ",
                           const std::vector<std::size_t>& right = {});

// The number of characters the terminal shows for `text`: UTF-8 code points, ANSI colour
// sequences not counted.
std::size_t visible_width(const std::string& text);

}  // namespace ridgeline
