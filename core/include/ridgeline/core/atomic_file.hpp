#pragma once
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace ridgeline {

// Replaces `file` with `content` so that readers see the old or the new file, never a
// part: write a temporary beside it, flush it to disk, rename over the target. A symbolic
// link is followed (its final target is replaced, the link stays); a device or FIFO is
// written through (see output_file.hpp). A regular file this process did not write before
// is kept as NAME.prev (a second name for it, made under a temporary name and renamed into
// place: a planted NAME.prev link is replaced, never followed).
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

// NAME becomes NAME.prev (renamed; a planted NAME.prev link is replaced, not followed) where
// it is a regular file or a link (the link itself moves); the next write_file_atomically(NAME)
// then keeps nothing more.
void move_aside(const std::filesystem::path& file);

// Appends one line and flushes it to disk, so a crash keeps every line already appended. The
// file is opened without following a link and must be a regular file of this user.
void append_line_durably(const std::filesystem::path& file, std::string_view line);

// How long a FIFO is waited for (a writer to read from, a reader to write to) before one line
// refuses it, and how much a pipe or device may give (a Run of 100,000 rows is 165 MiB).
inline constexpr int kStreamWaitSeconds = 10;
inline constexpr std::size_t kMaxStreamBytes = std::size_t{2} << 30;

// A file the user gave, whole (text_file.cpp). Refused with one line: a directory; what cannot
// be text from its first 4 KiB (a NUL byte, bytes that are not UTF-8: /dev/zero, /dev/urandom,
// a sparse file); a FIFO nobody writes to within kStreamWaitSeconds; more than kMaxStreamBytes
// from a pipe or device.
std::string read_text_file(const std::filesystem::path& file);
// The file opened for reading in binary; the same InputErrors as read_text_file's.
std::ifstream open_text_file(const std::filesystem::path& file);

}  // namespace ridgeline
