#pragma once
#include <filesystem>
#include <fstream>
#include <string_view>

namespace ridgeline {

// Replaces `file` with `content` so that readers see the old or the new file, never a
// part: write a temporary beside it, flush it to disk, rename over the target. A symbolic
// link is followed (its final target is replaced, the link stays); a device or FIFO is
// written through (see output_file.hpp).
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

// Appends one line and flushes it to disk, so a crash keeps every line already appended.
void append_line_durably(const std::filesystem::path& file, std::string_view line);

std::string read_text_file(const std::filesystem::path& file);
// The file opened for reading in binary; the same InputErrors as read_text_file's.
std::ifstream open_text_file(const std::filesystem::path& file);

}  // namespace ridgeline
