#!/usr/bin/env bash
# Search Trove and print score, title and path, one result a line.
#   examples/shell/search.sh roof leak
# TROVE_ADDR (default 127.0.0.1:8765) and TROVE_TOKEN are honoured. Exit
# codes are those of `trove search`: 0 found, 1 no file matches (files
# found by meaning alone are no match), 2 refused.
set -euo pipefail
trove="http://${TROVE_ADDR:-127.0.0.1:8765}"
auth=()
[ -n "${TROVE_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $TROVE_TOKEN")

body=$(jq -n --arg q "$*" '{query: $q, limit: 10}')
answer=$(curl -sS "${auth[@]}" -H 'Content-Type: application/json' -d "$body" "$trove/api/search/")
# Errors come with a code: {"status": "error", "error": {"code", "message"}}.
if [ "$(jq -r '.status // empty' <<<"$answer")" = error ]; then
  jq -r '"trove: \(.error.message) (\(.error.code))"' <<<"$answer" >&2
  exit 2
fi
# keyword_matches counts the files that hold a word of the query: 0 means
# none does, and any results were found by meaning alone (null: a Trove
# that does not say, where any result counts).
if [ "$(jq '.keyword_matches // (.results | length)' <<<"$answer")" = 0 ]; then
  echo "No files match \"$*\"" >&2
  exit 1
fi
jq -r '.results[] | "\(.relevance_score)\t\(.file.title)\t\(.file.file_path)"' <<<"$answer"
