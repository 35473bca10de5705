#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a short time (FUZZTIME, default
# 3s each). Seeds live in each package's testdata/fuzz; new crashers land there.
# Targets are found in the test files themselves: asking `go test -list` of
# every package would build each package's tests only to list nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-3s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for dir in $(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | xargs -n1 dirname | sort -u); do
  pkg=./$dir
  for target in $(grep -h '^func Fuzz' "$dir"/*_test.go | sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' | sort); do
    echo "fuzz $pkg $target ($FUZZTIME)"
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 1s "$pkg" > "$log" 2>&1; then
      # The fuzz engine sometimes reports its own time limit as a failure
      # ("context deadline exceeded") with no failing input: not a finding.
      if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
        echo "  (time limit reached while an input was running; no failure found)"
        continue
      fi
      cat "$log"
      exit 1
    fi
  done
done
