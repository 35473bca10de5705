#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a short time (FUZZTIME, default
# 3s each). Seeds live in each package's testdata/fuzz; new crashers land there.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-3s}
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "fuzz $pkg $target ($FUZZTIME)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg" > /tmp/fuzz-$$.log 2>&1 \
      || { cat /tmp/fuzz-$$.log; rm -f /tmp/fuzz-$$.log; exit 1; }
  done
done
rm -f /tmp/fuzz-$$.log
