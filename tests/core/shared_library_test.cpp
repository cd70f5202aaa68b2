#include "ridgeline/core/shared_library.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace ridgeline
