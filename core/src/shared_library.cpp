#include "ridgeline/core/shared_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

namespace ridgeline {

namespace {

// dlerror() names the file in the messages glibc gives; the name is added where it does not.
std::string last_error(const std::string& name, const char* fallback) {
  const char* why = ::dlerror();
  std::string text = why ? why : fallback;
  if (text.find(name) == std::string::npos) text = name + ": " + text;
  return text;
}

}  // namespace

SharedLibrary SharedLibrary::open(const std::string& name) {
  SharedLibrary lib;
  lib.name_ = name;
  // A path (not a bare soname the loader searches for) must be a regular file: dlopen of a
  // FIFO waits forever for a writer, of a device reads it.
  struct stat st {};
  if (name.find('/') != std::string::npos && ::stat(name.c_str(), &st) == 0 &&
      !S_ISREG(st.st_mode)) {
    lib.error_ = name + ": not a regular file (a FIFO, device or directory), not loaded";
    return lib;
  }
  lib.handle_ = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
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
