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
# either indexed or failed; a folder in error (gone, unreadable) never will be.
while :; do
  folder=$(curl -sS "${auth[@]}" "$trove/api/watched-directories?limit=10000" |
    jq -c --arg p "$dir" '.data.directories[] | select(.path == $p)')
  if [ -z "$folder" ]; then
    echo "trove: $dir is not among the watched folders" >&2
    exit 1
  fi
  jq -r '"\(.status) \(.path): \(.indexed_count + .failed_count)/\(.file_count)"' <<<"$folder" >&2
  case $(jq -r .status <<<"$folder") in
  error)
    jq -r '"trove: \(.path): \(.status_message)"' <<<"$folder" >&2
    exit 1
    ;;
  indexing) ;;
  *) jq -e '.indexed_count + .failed_count >= .file_count' <<<"$folder" >/dev/null && break ;;
  esac
  sleep 0.5
done
echo "$dir is indexed"
