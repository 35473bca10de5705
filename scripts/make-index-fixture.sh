#!/usr/bin/env bash
# Makes backend/store/testdata/index-<commit>.db: an index written by an
# earlier Trove, which TestIndexFromThePreviousRelease opens with this one.
#   scripts/make-index-fixture.sh [COMMIT]   (default f229f0b)
# It builds that commit's trove in a temporary worktree, indexes three small
# files from a fixed folder through its API, and stops it cleanly.
set -euo pipefail
commit=${1:-f229f0b}
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
docs=/tmp/trove-fixture-docs   # a fixed path: the test looks files up by it
trap 'kill "$pid" 2>/dev/null || true; git -C "$repo" worktree remove --force "$work/src" 2>/dev/null || true; rm -rf "$work" "$docs"' EXIT
pid=

git -C "$repo" worktree add --detach "$work/src" "$commit" >/dev/null
(cd "$work/src" && CGO_ENABLED=0 go build -o "$work/trove" .)

rm -rf "$docs" && mkdir -p "$docs"
printf '# Roof\nThe roof leak over the attic was patched in March.\n' > "$docs/roof.md"
printf 'Budget for 2024: groceries, rent and the roof repair.\n' > "$docs/budget.txt"
printf 'Notes from the garden: tomatoes, beans and a fig tree.\n' > "$docs/garden.txt"

port=$((20000 + RANDOM % 20000))
api=http://127.0.0.1:$port
"$work/trove" serve --addr "127.0.0.1:$port" --data-dir "$work/data" --config-dir "$work/conf" 2>"$work/log" &
pid=$!
for _ in $(seq 100); do curl -fs "$api/api/status/" >/dev/null && break; sleep 0.2; done
curl -fs -X POST "$api/api/watch/directory" -H 'Content-Type: application/json' -d "{\"path\": \"$docs\"}" >/dev/null
for _ in $(seq 300); do
  n=$(curl -fs "$api/api/files/stats" | sed -n 's/.*"total_files": *\([0-9]*\).*/\1/p')
  q=$(curl -fs "$api/api/queue/status" | sed -n 's/.*"total": *\([0-9]*\).*/\1/p')
  [ "$n" = 3 ] && [ "$q" = 0 ] && break
  sleep 0.2
done
[ "$n" = 3 ] || { echo "the old Trove indexed $n files, not 3" >&2; cat "$work/log" >&2; exit 1; }
kill -TERM "$pid"; wait "$pid"; pid=
out="$repo/backend/store/testdata/index-$commit.db"
cp "$work/data/index.db" "$out"
echo "wrote $out ($(stat -c %s "$out") bytes, schema $(printf 'PRAGMA user_version;' | sqlite3 "$out" 2>/dev/null || echo '?'))"
