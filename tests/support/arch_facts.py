"""What the Python tests name of this machine's architecture. The CLI they run is this Python's
architecture's build (the cross-built arm64 tree runs no CLI test; scripts/arm64-chroot runs
them in an arm64 system)."""
import platform
import sysconfig

ARCH = platform.machine()
LIBDIR = "/usr/lib/" + sysconfig.get_config_var("MULTIARCH")  # Debian's multiarch folder
with open("/proc/cpuinfo") as _cpuinfo:
    # An AArch64 build seeing an x86 host's /proc/cpuinfo runs under qemu-user (core/emulation.hpp).
    EMULATED = ARCH == "aarch64" and "vendor_id" in _cpuinfo.read()
if ARCH == "aarch64":
    VECTOR_ISA = "neon"  # the compute ceilings every CPU of the architecture has
    PACKED_BACKEND = "cpu.packed_neon"  # a packed rung every CPU of it runs
    MEMORY_ISAS = ("scalar", "neon", "sve")  # the widths a bandwidth ceiling may name
else:
    VECTOR_ISA = "avx2"
    PACKED_BACKEND = "cpu.packed_avx2"
    MEMORY_ISAS = ("scalar", "avx2", "avx512")
