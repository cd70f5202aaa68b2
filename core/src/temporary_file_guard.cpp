#include "temporary_file_guard.hpp"

#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

namespace ridgeline {

namespace {

// Fixed places, so that the handler reads them without allocating or locking. The pid keeps
// a forked child (a case's) from removing its parent's file.
struct Place {
  std::atomic<pid_t> owner{0};  // 0: free; -1: reserved, no name yet; else the writer's pid
  char path[4096] = {};
};
constexpr int kPlaces = 16;
Place g_places[kPlaces];

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

extern "C" void remove_temporaries_and_end(int sig) {
  const pid_t self = ::getpid();
  for (Place& p : g_places)
    if (p.owner.load(std::memory_order_acquire) == self) ::unlink(p.path);
  std::signal(sig, SIG_DFL);
  ::raise(sig);  // delivered as the handler returns: the process ends as the signal would end it
}

void install_handlers() {
  for (int sig : kSignals) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_end;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace

TemporaryFileGuard::TemporaryFileGuard() {
  static std::once_flag once;
  std::call_once(once, install_handlers);
  for (int i = 0; i < kPlaces; ++i) {
    pid_t free_place = 0;
    if (g_places[i].owner.compare_exchange_strong(free_place, -1)) {
      slot_ = i;
      return;
    }
  }
}

void TemporaryFileGuard::created(const std::string& path) const {
  if (slot_ < 0 || path.size() >= sizeof g_places[slot_].path) return;
  std::memcpy(g_places[slot_].path, path.c_str(), path.size() + 1);
  g_places[slot_].owner.store(::getpid(), std::memory_order_release);
}

TemporaryFileGuard::~TemporaryFileGuard() {
  if (slot_ >= 0) g_places[slot_].owner.store(0, std::memory_order_release);
}

}  // namespace ridgeline
