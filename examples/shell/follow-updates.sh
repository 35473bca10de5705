#!/usr/bin/env bash
# Follow Trove's live updates (Server-Sent Events), one JSON line an event.
#   examples/shell/follow-updates.sh                 # every kind, until ^C
#   examples/shell/follow-updates.sh file.indexed 5  # five file.indexed events
set -euo pipefail
trove="http://${TROVE_ADDR:-127.0.0.1:8765}"
auth=()
[ -n "${TROVE_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $TROVE_TOKEN")
types=${1:-}
count=${2:-0}

# Each event's data line holds the whole event: {"id", "type", "time", "data"}.
curl -sSN "${auth[@]}" "$trove/api/updates?types=$types" |
  sed -un 's/^data: //p' |
  jq -c --unbuffered '{type, data}' |
  if [ "$count" -gt 0 ]; then head -n "$count"; else cat; fi
