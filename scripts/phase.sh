# shellcheck shell=bash
# phase NAME COMMAND...: runs the command, then one line on stderr with its wall time, so that
# CI's log says where its minutes went. Sourced by build, run-tests and run-tests-arm64.
phase() {
  local name=$1 start=$SECONDS
  shift
  echo "[$name] ..." >&2
  "$@"
  echo "[$name] done in $((SECONDS - start)) s" >&2
}
