#!/usr/bin/env bash
# Installs the build into a fresh prefix, builds a consumer project against the installed
# CMake package, reads a Run with it, and checks that the installed command finds its
# counter groups beside itself. Writes only under the build tree.
# With PYTHON (the module's interpreter), the installed Python package imports from the prefix.
#   test_install.sh BUILD_DIR SOURCE_DIR WORK_DIR [PYTHON]
set -euo pipefail
build="$1" source="$2" work="$3" python="${4:-}"
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
module=""
if [ -n "$python" ]; then
  module=$(find "$work/prefix" -name '_ridgeline*.so' | head -1)
  test -n "$module" || { echo "no Python module under $work/prefix" >&2; exit 1; }
fi
for bin in "$work/prefix/bin/"* $module; do
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
if [ -n "$python" ]; then
  site=$(dirname "$(dirname "$work/moved/${module#"$work/prefix/"}")")
  PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python" -c \
    "import ridgeline; w = ridgeline.work('gemm', m=2, n=3, k=4); assert w.flops == 48, w; print('python:', ridgeline.__file__)" |
    tee "$work/python.log"
  grep -q "$work/moved" "$work/python.log"
fi
echo "install: ok"
