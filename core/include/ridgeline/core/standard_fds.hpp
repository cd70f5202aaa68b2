#pragma once
// Standard input, output and error, open whatever the caller closed. A process started with
// `>&-` would otherwise hand fd 1 to the first file it opens (a lock file, a Run), and what
// it prints would land in that file. Called first thing in main().

namespace ridgeline {

struct StandardFds {
  bool input_closed = false, output_closed = false, error_closed = false;
};

// Each of fds 0-2 that is closed is opened on /dev/null; says which were, and remembers it
// for standard_fd_was_closed.
StandardFds reserve_standard_fds();

// Whether `fd` (0, 1 or 2) was closed when reserve_standard_fds ran: the /dev/null behind it
// is a stand-in, and an output named as that descriptor (-o /dev/stdout) has nowhere to go.
bool standard_fd_was_closed(int fd);

}  // namespace ridgeline
