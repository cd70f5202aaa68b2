#pragma once
// A shared library opened at run time (dlopen RTLD_NOW | RTLD_LOCAL) and its functions
// looked up by name: for libraries a process may lack or should not pay for at startup
// (CBLAS implementations, NVML, cuBLAS). Never dlclose()d: several of them keep threads or
// exit handlers that expect the library to stay mapped until the process ends.
#include <string>

namespace ridgeline {

class SharedLibrary {
 public:
  // Opens `name`, a file name searched as the dynamic linker does (LD_LIBRARY_PATH, the
  // calling binary's RUNPATH, ld.so.cache) or a path. Check loaded(); error() says why not.
  static SharedLibrary open(const std::string& name);
  // Whether `name` is already mapped into this process (dlopen RTLD_NOLOAD); loads nothing.
  static bool is_loaded(const std::string& name);

  bool loaded() const { return handle_ != nullptr; }
  const std::string& name() const { return name_; }
  // Why open() or the last resolve() failed: dlerror()'s text, which names the file (for
  // instance "libx.so.1: cannot open shared object file: No such file or directory").
  const std::string& error() const { return error_; }

  // Sets `fn` to the function `symbol`; false, with error() set, when the library lacks it.
  template <class Fn>
  bool resolve(Fn*& fn, const char* symbol) {
    fn = reinterpret_cast<Fn*>(address(symbol));
    return fn != nullptr;
  }
  void* address(const char* symbol);

 private:
  std::string name_;
  void* handle_ = nullptr;
  std::string error_;
};

}  // namespace ridgeline
