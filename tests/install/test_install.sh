#!/usr/bin/env bash
# Installs the build into a fresh prefix, builds a consumer project against the installed
# CMake package, reads a Run with it, and checks that the installed command finds its
# counter groups beside itself. Writes only under the build tree.
#   test_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build="$1" source="$2" work="$3"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$source/tests/install" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/consumer" > "$work/build.log"
"$work/consumer/read_run" "$source/tests/fixtures/run-smoke-f64-zen4-vm.json" | tee "$work/read.log"
grep -q "results from" "$work/read.log"
# Every installed binary's RUNPATH: absolute, outside the build and source trees (#62: an
# empty entry is the working directory to the loader).
for bin in "$work/prefix/bin/"*; do
  runpath=$(readelf -d "$bin" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p')
  IFS=: read -r -a entries <<<"$runpath:"
  for entry in "${entries[@]}"; do
    case "$entry" in
      /*) case "$entry/" in "$source"/* | "$build"/*) echo "$bin: RUNPATH '$runpath'" >&2; exit 1 ;; esac ;;
      *) echo "$bin: RUNPATH '$runpath' has '$entry'" >&2; exit 1 ;;
    esac
  done
done
# The installed binary, moved away from the build, lists groups from PREFIX/share.
mv "$work/prefix" "$work/moved"
unset RIDGELINE_GROUPS_DIR
"$work/moved/bin/ridgeline" collectors 2>/dev/null | tee "$work/collectors.log" | tail -1
grep -q "$work/moved/share/ridgeline/groups" "$work/collectors.log"
test -f "$work/moved/share/doc/ridgeline/LICENSE"
echo "install: ok"
