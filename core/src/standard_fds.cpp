#include "ridgeline/core/standard_fds.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace ridgeline {

namespace {
bool g_closed[3] = {};
}  // namespace

bool standard_fd_was_closed(int fd) {
  return fd >= 0 && fd < 3 && g_closed[fd];
}

StandardFds reserve_standard_fds() {
  bool(&closed)[3] = g_closed;
  closed[0] = closed[1] = closed[2] = false;
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    closed[fd] = true;
    // open returns the lowest free descriptor: this one, as the lower ones are open by now.
    const int opened = ::open("/dev/null", O_RDWR);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
  return {closed[0], closed[1], closed[2]};
}

}  // namespace ridgeline
