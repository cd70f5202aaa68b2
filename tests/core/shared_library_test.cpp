#include "ridgeline/core/shared_library.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "scratch_dir.hpp"

namespace ridgeline {

TEST(SharedLibrary, AMissingLibrarySaysWhichAndWhyInOneLine) {
  const SharedLibrary lib = SharedLibrary::open("libridgeline-no-such-library.so.7");
  EXPECT_FALSE(lib.loaded());
  const std::string& why = lib.error();
  EXPECT_EQ(why.rfind("libridgeline-no-such-library.so.7: ", 0), 0u) << why;
  EXPECT_NE(why.find("cannot open shared object file"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  EXPECT_FALSE(SharedLibrary::is_loaded("libridgeline-no-such-library.so.7"));
}

TEST(SharedLibrary, ResolvesTypedFunctionsAndNamesAMissingOne) {
  SharedLibrary libm = SharedLibrary::open("libm.so.6");
  ASSERT_TRUE(libm.loaded()) << libm.error();
  EXPECT_TRUE(libm.error().empty());
  decltype(&::cbrt) cube_root = nullptr;
  ASSERT_TRUE(libm.resolve(cube_root, "cbrt")) << libm.error();
  EXPECT_DOUBLE_EQ(cube_root(27.0), 3.0);
  decltype(&::cbrt) missing = &::cbrt;
  EXPECT_FALSE(libm.resolve(missing, "ridgeline_no_such_function"));
  EXPECT_EQ(missing, nullptr);
  EXPECT_NE(libm.error().find("libm.so.6"), std::string::npos) << libm.error();
  EXPECT_NE(libm.error().find("ridgeline_no_such_function"), std::string::npos) << libm.error();
}

TEST(SharedLibrary, IsLoadedLoadsNothing) {
  EXPECT_TRUE(SharedLibrary::is_loaded("libc.so.6"));  // every process has it
  // A library this test binary does not link (zlib, in every Debian image): asking twice
  // leaves it unloaded, opening loads it.
  if (SharedLibrary::is_loaded("libz.so.1")) GTEST_SKIP() << "libz.so.1 was already loaded";
  EXPECT_FALSE(SharedLibrary::is_loaded("libz.so.1"));
  if (!SharedLibrary::open("libz.so.1").loaded()) GTEST_SKIP() << "no libz.so.1 here";
  EXPECT_TRUE(SharedLibrary::is_loaded("libz.so.1"));
}

// A file given by path (a user's --blas-lib) is checked before anything in it runs, and the
// open file checked is the one loaded.
class SharedLibraryFile : public ScratchDirTest {
 protected:
  SharedLibraryFile() : ScratchDirTest("ridgeline_shared_library_") {}
  // A copy of zlib in the folder, with `mode`; empty where this machine has no zlib.
  std::filesystem::path copy_of_zlib(std::filesystem::perms mode) {
    // This build's architecture's zlib (an arm64 test under qemu-user on an amd64 host sees
    // the host's too, which it cannot load).
#if defined(__x86_64__)
    for (const char* lib :
         {"/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
          "/lib64/libz.so.1", "/usr/lib64/libz.so.1"})
#else
    for (const char* lib :
         {"/lib/aarch64-linux-gnu/libz.so.1", "/usr/lib/aarch64-linux-gnu/libz.so.1"})
#endif
      if (std::filesystem::exists(lib)) {
        const std::filesystem::path copy = dir_ / "libcopy.so";
        std::filesystem::copy_file(lib, copy, std::filesystem::copy_options::overwrite_existing);
        std::filesystem::permissions(copy, mode);
        return copy;
      }
    return {};
  }
};

TEST_F(SharedLibraryFile, AFileOthersCanWriteIsRefusedAndAFileOnlyWeCanIsLoaded) {
  using std::filesystem::perms;
  const auto everyone = perms::owner_read | perms::owner_write | perms::group_read |
                        perms::group_write | perms::others_read | perms::others_write;
  const std::filesystem::path open_to_all = copy_of_zlib(everyone);
  if (open_to_all.empty()) GTEST_SKIP() << "no libz.so.1 on this machine";
  const SharedLibrary refused = SharedLibrary::open(open_to_all.string());
  EXPECT_FALSE(refused.loaded());
  EXPECT_NE(refused.error().find("writable by every user (mode 0666)"), std::string::npos)
      << refused.error();
  EXPECT_EQ(refused.error().rfind(open_to_all.string(), 0), 0u) << refused.error();

  const std::filesystem::path ours =
      copy_of_zlib(perms::owner_read | perms::owner_write | perms::group_read | perms::others_read);
  SharedLibrary lib = SharedLibrary::open(ours.string());
  ASSERT_TRUE(lib.loaded()) << lib.error();
  const char* (*version)() = nullptr;
  ASSERT_TRUE(lib.resolve(version, "zlibVersion")) << lib.error();
  EXPECT_NE(version(), nullptr);
}

TEST_F(SharedLibraryFile, AFifoIsRefusedAtOnceAndAMissingFileIsNamed) {
  const std::filesystem::path fifo = dir_ / "lib.so";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const SharedLibrary lib = SharedLibrary::open(fifo.string());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_FALSE(lib.loaded());
  EXPECT_NE(lib.error().find("not a regular file"), std::string::npos) << lib.error();
  const SharedLibrary missing = SharedLibrary::open((dir_ / "none.so").string());
  EXPECT_NE(missing.error().find("none.so: cannot open: No such file"), std::string::npos)
      << missing.error();
}

TEST_F(SharedLibraryFile, AnErrorNamesTheFileAsGivenNotTheDescriptorLoaded) {
  const std::filesystem::path text = write("libtext.so", "not an ELF file\n");
  const SharedLibrary lib = SharedLibrary::open(text.string());
  EXPECT_FALSE(lib.loaded());
  EXPECT_EQ(lib.error().find("/proc/self/fd"), std::string::npos) << lib.error();
  EXPECT_NE(lib.error().find(text.string()), std::string::npos) << lib.error();
}

// The name the loader knows a library by: what a library that finds its parts beside itself
// (MKL's libmkl_rt) reads its directory from.
std::string loaded_as(SharedLibrary& lib, const char* symbol) {
  Dl_info info{};
  void* address = lib.address(symbol);
  return address && ::dladdr(address, &info) && info.dli_fname ? info.dli_fname : "";
}

TEST_F(SharedLibraryFile, AFileOnlyWeCanReplaceIsLoadedByItsOwnPathElseByItsDescriptor) {
  using std::filesystem::perms;
  const auto readable = perms::owner_read | perms::owner_write | perms::group_read |
                        perms::others_read | perms::owner_exec | perms::group_exec |
                        perms::others_exec;
  const std::filesystem::path ours = copy_of_zlib(readable);
  if (ours.empty()) GTEST_SKIP() << "no libz.so.1 on this machine";
  {
    // The scratch folder is ours, in /tmp (sticky): no one else can replace the file.
    SharedLibrary lib = SharedLibrary::open(ours.string());
    ASSERT_TRUE(lib.loaded()) << lib.error();
    EXPECT_EQ(loaded_as(lib, "zlibVersion"), std::filesystem::canonical(ours).string());
  }
  // A folder anyone can write (not sticky): another user could swap the file between the check
  // and the load, so the open file checked is loaded through its descriptor.
  const std::filesystem::path open_dir = dir_ / "open";
  std::filesystem::create_directory(open_dir);
  std::filesystem::permissions(open_dir, perms::all);
  const std::filesystem::path there = open_dir / "libthere.so";
  std::filesystem::copy_file(ours, there);
  std::filesystem::permissions(there, readable);
  SharedLibrary lib = SharedLibrary::open(there.string());
  ASSERT_TRUE(lib.loaded()) << lib.error();
  EXPECT_EQ(loaded_as(lib, "zlibVersion").rfind("/proc/self/fd/", 0), 0u)
      << loaded_as(lib, "zlibVersion");
}

// A library loaded with the process's symbols first calls the process's definition of a name
// it also defines; with its own first (oneDNN 3 beside the oneDNN 2 Ridgeline links), its own.
TEST(SharedLibrary, ALibraryLoadedWithItsOwnSymbolsFirstCallsItsOwnDefinitions) {
  // The test puts a definition in the process's global scope, as a linked library would.
  ASSERT_NE(::dlopen(FIXTURE_SYMBOL_PROCESS, RTLD_NOW | RTLD_GLOBAL), nullptr) << ::dlerror();
  SharedLibrary global_first = SharedLibrary::open(FIXTURE_SYMBOL_GLOBAL_FIRST);
  SharedLibrary own_first = SharedLibrary::open(FIXTURE_SYMBOL_OWN_FIRST, SymbolLookup::own_first);
  ASSERT_TRUE(global_first.loaded()) << global_first.error();
  // A sanitizer's runtime refuses it: said, never attempted.
  if (!own_first.loaded() && own_first.error().find("sanitizer") != std::string::npos)
    GTEST_SKIP() << own_first.error();
  ASSERT_TRUE(own_first.loaded()) << own_first.error();
  int (*seen)() = nullptr;
  ASSERT_TRUE(global_first.resolve(seen, "fixture_owner_seen"));
  EXPECT_EQ(seen(), 2);
  ASSERT_TRUE(own_first.resolve(seen, "fixture_owner_seen"));
  EXPECT_EQ(seen(), 1);
}

TEST(LoaderSearch, EveryDirectoryThisBinarySearchesIsAbsolute) {
  if (std::getenv("LD_LIBRARY_PATH")) GTEST_SKIP() << "LD_LIBRARY_PATH is set: the user's own";
  const std::vector<std::string> dirs = loader_search_directories();
  ASSERT_FALSE(dirs.empty());
  for (const std::string& dir : dirs) EXPECT_EQ(dir.rfind('/', 0), 0u) << dir;
}

TEST(LoaderSearch, ARelativeOrEmptyLibraryPathElementIsWarnedAbout) {
  EXPECT_EQ(library_path_warning(nullptr), "");
  EXPECT_EQ(library_path_warning("/usr/lib:/opt/x/lib"), "");
  for (const char* risky : {":/usr/lib", "/usr/lib:", "/a::/b", ""}) {
    const std::string w = library_path_warning(risky);
    EXPECT_NE(w.find("an empty element"), std::string::npos) << risky << ": " << w;
    EXPECT_NE(w.find("working directory"), std::string::npos) << w;
  }
  EXPECT_NE(library_path_warning("build/lib:/usr/lib").find("'build/lib'"), std::string::npos);
  EXPECT_NE(library_path_warning("/a;lib").find("'lib'"), std::string::npos);  // ';' splits too
}

}  // namespace ridgeline
