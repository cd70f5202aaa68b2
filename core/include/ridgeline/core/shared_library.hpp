#pragma once
// A shared library opened at run time (dlopen RTLD_NOW | RTLD_LOCAL) and its functions
// looked up by name: for libraries a process may lack or should not pay for at startup
// (CBLAS implementations, NVML, cuBLAS). Never dlclose()d: several of them keep threads or
// exit handlers that expect the library to stay mapped until the process ends.
//
// This is the one way Ridgeline loads a library at run time, and it never loads one from the
// working directory or any place the user did not name (issue #62): a library planted where a
// user types `ridgeline` must not run.
#include <string>
#include <vector>

namespace ridgeline {

// Where a loaded library's own references to symbols are looked up first: in the process
// (the loader's default, so one definition of a symbol serves every library), or in the
// library and its dependencies (RTLD_DEEPBIND) for a library that exports the same names as
// one already loaded (oneDNN 3 beside the oneDNN 2 Ridgeline is linked with). The sanitizers'
// runtimes refuse the second (AddressSanitizer aborts the process).
enum class SymbolLookup { global_first, own_first };

class SharedLibrary {
 public:
  // Opens `name`:
  // - a name with a slash is a file the caller was given (a user's --blas-lib): it must be a
  //   regular file, owned by root or this user and writable by no other user; it is opened
  //   once, and that open file is what is loaded, so a file swapped in after the check is
  //   never the one that runs: by its own path (symbolic links resolved) where only root and
  //   this user can change the directories on it, else through /proc/self/fd. A FIFO is
  //   refused at once, never waited on.
  // - a bare name is a soname (libnvidia-ml.so.1), found where the dynamic loader finds it
  //   (LD_LIBRARY_PATH, the binary's RUNPATH, ld.so.cache, the system's directories) except
  //   that a relative or empty element of that search (LD_LIBRARY_PATH=":/opt/x" names the
  //   working directory) is never searched: a library found only there is not loaded.
  // Check loaded(); error() says why not.
  static SharedLibrary open(const std::string& name,
                            SymbolLookup lookup = SymbolLookup::global_first);
  // Whether `name` is already mapped into this process (dlopen RTLD_NOLOAD); loads nothing.
  static bool is_loaded(const std::string& name);

  bool loaded() const { return handle_ != nullptr; }
  const std::string& name() const { return name_; }
  // Why open() or the last resolve() failed: dlerror()'s text, which names the file (for
  // instance "libx.so.1: cannot open shared object file: No such file or directory"), or the
  // check that refused it.
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

// The directories the dynamic loader searches for a soname this process loads, in order
// (LD_LIBRARY_PATH's elements, the binary's RUNPATH, the system's directories; not
// ld.so.cache), as glibc expands them: an empty element appears as a relative one.
std::vector<std::string> loader_search_directories();

// One warning line when LD_LIBRARY_PATH (`value`, null when unset) has an empty or relative
// element, which the loader resolves against the working directory; "" when it has none.
std::string library_path_warning(const char* value);

}  // namespace ridgeline
