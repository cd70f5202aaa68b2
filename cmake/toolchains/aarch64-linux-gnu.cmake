# Cross-compiling for arm64 Debian 12 on an x86-64 one (the arm64 preset): Debian's cross
# toolchain (g++-aarch64-linux-gnu) against the arm64 libraries installed through multiarch
# (scripts/install-deps --arm64), which live in /usr/lib/aarch64-linux-gnu beside the host's.
# Tests and test discovery run under qemu-user (qemu-aarch64-static); QEMU_CPU picks the
# emulated CPU, the SVE vector length among its options (scripts/run-tests-arm64).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The host's own libraries (/usr/lib/x86_64-linux-gnu) are never looked in: only the arm64
# multiarch directory and the architecture-independent ones (/usr/include, /usr/share).
set(CMAKE_IGNORE_PREFIX_PATH /usr/lib/x86_64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
