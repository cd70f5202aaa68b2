#pragma once
// Files the user names for output (-o): checked before any work is done, written without
// destroying anything. A symbolic link is followed and its final target replaced
// atomically; a device or FIFO (/dev/null, /dev/stdout, a named pipe) is written through,
// never replaced by a regular file.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

struct OutputFile {
  std::filesystem::path named;   // as the user wrote it
  std::filesystem::path target;  // the file written: the end of a symlink chain, else `named`
  bool stream = false;           // an existing device, FIFO or socket, or a descriptor: written
                                 // through, never moved aside or replaced
  // Where `named` is one of this process's open descriptors (/dev/stdout, /dev/fd/3,
  // /proc/self/fd/1), reached through any links: that descriptor, written where it stands
  // (a file the shell opened with > or >>, a pipe, a terminal); -1 otherwise.
  int descriptor = -1;
};

// Follows symbolic links to the file they lead to (which may not exist yet); an
// InputError for a loop, or for a standard descriptor that was closed when the process
// started (`-o /dev/stdout >&-`: nothing could read what is written).
OutputFile resolve_output_file(const std::filesystem::path& named, std::string_view option = "-o");

// Whether `out` is where this process's standard output goes (the same descriptor, or the
// same file, pipe or terminal).
bool is_standard_output(const OutputFile& out);

// resolve_output_file, then the checks that can fail before any work: an empty name, a
// directory, a missing or unwritable directory. InputError with one line naming `option`.
OutputFile check_output_file(const std::filesystem::path& named, std::string_view option = "-o");

// `path` absolute, its existing directories' links resolved (weakly_canonical; lexically
// normal where that fails): one spelling per place, for telling files apart.
std::filesystem::path resolved_path(const std::filesystem::path& path);

// A file a command reads or writes and what named it ("-o", "--json", "the base run").
struct NamedFile {
  std::string what;
  std::filesystem::path path;
};

// Before any work: an InputError (one line) where an output is one of the inputs or another
// output: the same device and inode where the file exists, else the same resolved path (links
// followed, as the write would). Devices and FIFOs are written through, never replaced, and
// never clash.
void check_distinct_files(const std::vector<NamedFile>& inputs,
                          const std::vector<NamedFile>& outputs);

// Held while this process writes `target` (a regular file): a second process asking for
// the same target is refused with an InputError that says who holds it (or, with `wait`,
// waits its turn). The lock is an flock on a hidden file beside the target (".NAME.lock"),
// released when this is destroyed or the process dies; the file stays and is reused. It is
// opened without following a link and used only where it is a regular file of this user with
// one name: anything else planted there (a link to a victim, a FIFO, another user's file) is
// refused with one line, never truncated or written.
class OutputLock {
 public:
  OutputLock(const std::filesystem::path& target, std::string_view what, bool wait = false);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace ridgeline
