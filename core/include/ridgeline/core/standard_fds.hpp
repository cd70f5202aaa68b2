#pragma once
// Standard input, output and error, open whatever the caller closed. A process started with
// `>&-` would otherwise hand fd 1 to the first file it opens (a lock file, a Run), and what
// it prints would land in that file. Called first thing in main().

namespace ridgeline {

struct StandardFds {
  bool input_closed = false, output_closed = false, error_closed = false;
};

// Each of fds 0-2 that is closed is opened on /dev/null; says which were.
StandardFds reserve_standard_fds();

}  // namespace ridgeline
