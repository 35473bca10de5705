#!/usr/bin/env bash
# Follow Trove's live updates (Server-Sent Events), one JSON line an event.
#   examples/shell/follow-updates.sh                 # every kind, until ^C
#   examples/shell/follow-updates.sh file.indexed 5  # five file.indexed events, then exit
set -euo pipefail
trove="http://${TROVE_ADDR:-127.0.0.1:8765}"
auth=()
[ -n "${TROVE_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $TROVE_TOKEN")
types=${1:-}
count=${2:-0}

# Each event is an "event:" line (its kind) and a "data:" line holding the
# whole event as JSON: {"id", "type", "time", "data"}. Lines starting with
# ":" are heartbeats (every second here, so curl notices soon when we stop
# reading and ends too).
seen=0
# The loop's status is the script's: 0 once it has printed COUNT events, 1
# when the stream ends first (Trove stopped, or curl failed and said why).
# curl ends with a broken pipe once the loop stops reading, so its own
# status is not the pipeline's.
set +o pipefail
curl -sSfN "${auth[@]}" "$trove/api/updates?types=$types&heartbeat=1" | {
  while IFS= read -r line; do
    case $line in
    data:*)
      jq -c '{type, data}' <<<"${line#data: }"
      seen=$((seen + 1))
      if [ "$count" -gt 0 ] && [ "$seen" -ge "$count" ]; then exit 0; fi
      ;;
    esac
  done
  echo "trove: the update stream ended after $seen events" >&2
  exit 1
}
