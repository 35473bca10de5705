#!/usr/bin/env bash
# Watch a folder and wait until every file in it is indexed.
#   examples/shell/watch-and-wait.sh ~/Documents
set -euo pipefail
trove="http://${TROVE_ADDR:-127.0.0.1:8765}"
auth=()
[ -n "${TROVE_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $TROVE_TOKEN")
dir=$(realpath "$1")

answer=$(curl -sS "${auth[@]}" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg p "$dir" '{path: $p}')" "$trove/api/watch/directory")
code=$(jq -r '.error.code // empty' <<<"$answer")
if [ -n "$code" ] && [ "$code" != ALREADY_WATCHING ]; then
  jq -r '"trove: \(.error.message) (\(.error.code))"' <<<"$answer" >&2
  exit 2
fi

# A folder is indexed when its scan is done and every file it found is
# either indexed or failed.
while :; do
  folder=$(curl -sS "${auth[@]}" "$trove/api/watched-directories" |
    jq -c --arg p "$dir" '.data.directories[] | select(.path == $p)')
  echo "$folder" | jq -r '"\(.status) \(.path): \(.indexed_count + .failed_count)/\(.file_count)"' >&2
  if jq -e '.status != "indexing" and .status != "error" and .indexed_count + .failed_count >= .file_count' <<<"$folder" >/dev/null; then
    break
  fi
  sleep 0.5
done
echo "$dir is indexed"
