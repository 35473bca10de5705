#!/usr/bin/env python3
"""Search Trove and print each result's title and path (standard library only).

    python3 examples/python/search.py roof leak

TROVE_ADDR (default 127.0.0.1:8765) and TROVE_TOKEN are honoured. Exit
codes are those of `trove search`: 0 found, 1 no file matches (files found
by meaning alone are no match), 2 refused, 3 no Trove answers at the
address.
"""
import json
import os
import sys
import urllib.error
import urllib.request

TROVE = "http://" + os.environ.get("TROVE_ADDR", "127.0.0.1:8765")


class TroveError(Exception):
    """An answer that is not a success: its HTTP status, message and code.
    With no answer at all (nothing listens, a timeout) the status is None."""

    def __init__(self, status, message, code):
        super().__init__(f"{message} ({code})")
        self.status, self.code = status, code


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(TROVE + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if os.environ.get("TROVE_TOKEN"):
        req.add_header("Authorization", "Bearer " + os.environ["TROVE_TOKEN"])
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        err = json.load(e)  # every error has a message and a code
        detail = err.get("error")
        if isinstance(detail, dict):
            err = detail
        raise TroveError(e.code, err.get("message") or err.get("error"), err.get("code")) from None
    except (urllib.error.URLError, OSError) as e:  # HTTPError, a URLError, is handled above
        reason = getattr(e, "reason", e)
        reason = getattr(reason, "strerror", None) or str(reason)
        raise TroveError(None, f"no Trove answers at {TROVE}: {reason}", "UNREACHABLE") from None


def fail(e):
    """Reports a TroveError in one line; returns the exit code."""
    print(f"trove: {e}", file=sys.stderr)
    return 3 if e.status is None else 2


def main():
    try:
        answer = call("POST", "/api/search/", {"query": " ".join(sys.argv[1:]), "limit": 10})
    except TroveError as e:
        return fail(e)
    if not matched(answer):
        print(f'No files match "{" ".join(sys.argv[1:])}"', file=sys.stderr)
        return 1
    for hit in answer["results"]:
        print(f"{hit['file']['title']}\t{hit['file']['file_path']}")
    return 0


def matched(answer):
    """Whether any file holds a word of the query: keyword_matches 0 means
    the results, if any, were found by meaning alone. A Trove that does not
    say (null, or absent) matched when it found anything."""
    n = answer.get("keyword_matches")
    return n > 0 if n is not None else bool(answer["results"])


if __name__ == "__main__":
    sys.exit(main())
