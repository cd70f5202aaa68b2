#include "ridgeline/core/shared_library.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>

// A sanitizer's runtime refuses RTLD_DEEPBIND (AddressSanitizer aborts the process): GCC
// says which sanitizer a build has by __SANITIZE_*__, clang by __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RIDGELINE_DEEPBIND_REFUSED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RIDGELINE_DEEPBIND_REFUSED 1
#endif
#endif

namespace ridgeline {

namespace {

// dlerror() names the file in the messages glibc gives; the name is added where it does not.
// `loaded_as` (a /proc/self/fd path) is shown as the name the caller gave.
std::string last_error(const std::string& name, const char* fallback,
                       const std::string& loaded_as = "") {
  const char* why = ::dlerror();
  std::string text = why ? why : fallback;
  if (!loaded_as.empty())
    for (std::size_t at = 0; (at = text.find(loaded_as, at)) != std::string::npos;
         at += name.size())
      text.replace(at, loaded_as.size(), name);
  if (text.find(name) == std::string::npos) text = name + ": " + text;
  return text;
}

bool absolute(const std::string& dir) {
  return !dir.empty() && dir.front() == '/';
}

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Who may change the file's code: a library another user can write is theirs to run.
std::string ownership_problem(const struct stat& st) {
  if (st.st_uid != 0 && st.st_uid != ::geteuid())
    return fmt::format("owned by user {}, neither root nor this user", st.st_uid);
  if (st.st_mode & S_IWOTH)
    return fmt::format("writable by every user (mode {:04o})", st.st_mode & 07777);
  if ((st.st_mode & S_IWGRP) && st.st_gid != ::getegid())
    return fmt::format("writable by group {} (mode {:04o})", st.st_gid, st.st_mode & 07777);
  return "";
}

// Whether only root and this user can change which file `canonical` (a path without symbolic
// links) names: every directory from the root down is owned by one of them and writable by no
// one else, or is sticky (as /tmp is) with the entry below it owned by one of them.
bool only_we_can_replace(const std::string& canonical) {
  std::string dir = "/";
  std::size_t start = 1;
  for (;;) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    const bool ours = st.st_uid == 0 || st.st_uid == ::geteuid();
    const bool others_write =
        (st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != ::getegid());
    const std::size_t end = canonical.find('/', start);
    const std::string next = canonical.substr(0, end);
    if (!ours) return false;
    if (others_write) {
      // In a sticky directory no one else can rename or remove an entry they do not own.
      struct stat entry {};
      if (!(st.st_mode & S_ISVTX) || ::lstat(next.c_str(), &entry) != 0 ||
          (entry.st_uid != 0 && entry.st_uid != ::geteuid()))
        return false;
    }
    if (end == std::string::npos) return true;  // `dir` holds the file itself
    dir = next;
    start = end + 1;
  }
}

// The path to load the checked file (`st`, from its open descriptor) by: its own, where no one but
// root and this user can put another file there meanwhile; "" where someone could.
std::string stable_path(const std::string& name, const struct stat& st) {
  char* resolved = ::realpath(name.c_str(), nullptr);
  if (!resolved) return "";
  std::string canonical(resolved);
  std::free(resolved);
  // dlopen expands $ORIGIN, $LIB and $PLATFORM in a name: one with a '$' may name another file.
  if (canonical.find('$') != std::string::npos) return "";
  struct stat now {};
  if (::stat(canonical.c_str(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino)
    return "";
  return only_we_can_replace(canonical) ? canonical : "";
}

}  // namespace

std::vector<std::string> loader_search_directories() {
  void* self = ::dlopen(nullptr, RTLD_LAZY);
  Dl_serinfo size{};
  if (!self || ::dlinfo(self, RTLD_DI_SERINFOSIZE, &size) != 0) return {};
  // Dl_serinfo holds pointers: the buffer is aligned for them.
  std::vector<std::max_align_t> buffer(size.dls_size / sizeof(std::max_align_t) + 1);
  auto* info = reinterpret_cast<Dl_serinfo*>(buffer.data());
  *info = size;  // RTLD_DI_SERINFO needs dls_size and dls_cnt as SERINFOSIZE gave them
  if (::dlinfo(self, RTLD_DI_SERINFO, info) != 0) return {};
  std::vector<std::string> dirs;
  for (unsigned i = 0; i < info->dls_cnt; ++i) dirs.emplace_back(info->dls_serpath[i].dls_name);
  return dirs;
}

std::string library_path_warning(const char* value) {
  if (!value) return "";
  std::string text(value);
  std::vector<std::string> risky;
  std::size_t start = 0;
  for (;;) {  // glibc splits LD_LIBRARY_PATH at ':' and ';'
    const std::size_t end = text.find_first_of(":;", start);
    const std::string element = text.substr(start, end - start);
    if (!absolute(element))
      risky.push_back(element.empty() ? "an empty element" : fmt::format("'{}'", element));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (risky.empty()) return "";
  return fmt::format(
      "warning: LD_LIBRARY_PATH has {}, which the dynamic loader resolves against the working "
      "directory: a library there named like one Ridgeline needs runs at startup (Ridgeline "
      "itself loads nothing from there)",
      fmt::join(risky, ", "));
}

SharedLibrary SharedLibrary::open(const std::string& name, SymbolLookup lookup) {
  // RTLD_DEEPBIND: the library's references bind to its own definitions (and its
  // dependencies') before any already in the process.
  const int flags = RTLD_NOW | RTLD_LOCAL | (lookup == SymbolLookup::own_first ? RTLD_DEEPBIND : 0);
  SharedLibrary lib;
  lib.name_ = name;
#ifdef RIDGELINE_DEEPBIND_REFUSED
  if (lookup == SymbolLookup::own_first) {
    lib.error_ = name +
                 ": not loaded: it needs its own symbols first (RTLD_DEEPBIND), which this "
                 "build's sanitizer runtime refuses";
    return lib;
  }
#endif
  if (name.find('/') != std::string::npos) {
    // O_NONBLOCK: opening a FIFO returns at once (dlopen of one waits forever for a writer).
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
      lib.error_ = fmt::format("{}: cannot open: {}", name, std::strerror(errno));
      return lib;
    }
    struct stat st {};
    std::string problem;
    if (::fstat(fd, &st) != 0)
      problem = std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
      problem = "not a regular file (a FIFO, device or directory)";
    else
      problem = ownership_problem(st);
    if (!problem.empty()) {
      ::close(fd);
      lib.error_ = fmt::format("{}: {}; not loaded", name, problem);
      return lib;
    }
    // The file checked is the file loaded. Where only root and this user can change the
    // directories on its path, its own path: a library may find its parts by the name it was
    // loaded by (MKL's libmkl_rt loads libmkl_core.so.2 and the rest from its directory).
    if (const std::string path = stable_path(name, st); !path.empty()) {
      lib.handle_ = ::dlopen(path.c_str(), flags);
      if (!lib.handle_) lib.error_ = last_error(name, "cannot be opened (no dlerror text)", path);
      ::close(fd);
      return lib;
    }
    // Elsewhere the descriptor, not the name, which another process could point elsewhere in
    // between. The descriptor stays open while the library is loaded (for good): the loader
    // knows a library by the name it was opened with, and a later file opened under the same
    // number would be taken for this one.
    const std::string by_descriptor = fmt::format("/proc/self/fd/{}", fd);
    lib.handle_ = ::dlopen(by_descriptor.c_str(), flags);
    if (!lib.handle_) {
      lib.error_ = last_error(name, "cannot be opened (no dlerror text)", by_descriptor);
      ::close(fd);
    }
    return lib;
  }
  // A soname. Where every directory the loader searches is absolute (the binaries' RUNPATHs
  // are checked when they are linked), the loader's own search cannot reach the working
  // directory. Where one is relative (the user's LD_LIBRARY_PATH), the absolute ones are
  // searched here, in the loader's order, and the loader is left only ld.so.cache.
  const std::vector<std::string> dirs = loader_search_directories();
  if (!std::all_of(dirs.begin(), dirs.end(), absolute)) {
    for (const std::string& dir : dirs)
      if (absolute(dir) && regular_file(dir + "/" + name)) {
        lib.handle_ = ::dlopen((dir + "/" + name).c_str(), flags);
        if (!lib.handle_) lib.error_ = last_error(name, "cannot be opened (no dlerror text)");
        return lib;
      }
    for (const std::string& dir : dirs)
      if (!absolute(dir) && ::access((dir + "/" + name).c_str(), F_OK) == 0) {
        lib.error_ = fmt::format(
            "{}: found only in '{}', a relative element of LD_LIBRARY_PATH (the working "
            "directory); not loaded from there",
            name, dir);
        return lib;
      }
  }
  lib.handle_ = ::dlopen(name.c_str(), flags);
  if (!lib.handle_) lib.error_ = last_error(name, "cannot be opened (no dlerror text)");
  return lib;
}

bool SharedLibrary::is_loaded(const std::string& name) {
  void* handle = ::dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) {
    ::dlerror();  // the failure is the answer, not an error to keep
    return false;
  }
  ::dlclose(handle);  // drops the reference RTLD_NOLOAD took; the library stays mapped
  return true;
}

void* SharedLibrary::address(const char* symbol) {
  if (!handle_) return nullptr;
  ::dlerror();
  void* p = ::dlsym(handle_, symbol);
  if (!p) error_ = last_error(name_, (std::string("undefined symbol: ") + symbol).c_str());
  return p;
}

}  // namespace ridgeline
