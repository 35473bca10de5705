#!/usr/bin/env python3
"""Export every indexed file's card (title, summary, keywords) to CSV.

    python3 examples/python/export_cards.py > cards.csv

It walks each watched folder and looks every file up; files Trove did not
index (filtered out, not yet processed) are left out.
"""
import csv
import os
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from search import TroveError, call, fail  # noqa: E402  the same small HTTP helper


def lookup(path):
    try:
        return call("GET", "/api/files/lookup?path=" + urllib.parse.quote(path))
    except TroveError as e:
        if e.status == 404:
            return None  # not indexed
        raise


def main():
    try:
        folders = call("GET", "/api/watched-directories")["data"]["directories"]
        export(folders)
    except TroveError as e:
        return fail(e)
    return 0


def export(folders):
    out = csv.writer(sys.stdout)
    out.writerow(["path", "title", "summary", "keywords", "size", "modified"])
    for folder in folders:
        for root, _, names in os.walk(folder["path"]):
            for name in sorted(names):
                card = lookup(os.path.join(root, name))
                if card and card["status"] == "indexed":
                    out.writerow([card["path"], card["title"], card["summary"],
                                  "; ".join(card["keywords"] or []), card["size"], card["modified"]])


if __name__ == "__main__":
    sys.exit(main())
