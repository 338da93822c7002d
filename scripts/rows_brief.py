#!/usr/bin/env python3
"""One line a result row of refract JSON files: id, status, median and min [µs], the named
params. Usage: rows_brief.py FILE... [--params a,b,c]"""
import json
import sys

def main(argv):
    names = []
    files = []
    it = iter(argv)
    for arg in it:
        if arg == "--params":
            names = next(it).split(",")
        else:
            files.append(arg)
    for path in files:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as error:
            print(f"{path}: unreadable ({error})")
            continue
        for row in doc.get("results", []):
            stats = row.get("stats") or {}
            median = stats.get("median")
            low = stats.get("min")
            shown = " ".join(f"{n}={row.get('params', {}).get(n)}" for n in names
                             if n in row.get("params", {}))
            text = (f"{median * 1000:9.2f} {low * 1000:9.2f}" if median is not None and low is not None
                    else f"{'-':>9} {'-':>9}")
            print(f"{path.split('/')[-1]:28} {row['id']:55} {row.get('status'):7} {text}  {shown}")

if __name__ == "__main__":
    main(sys.argv[1:])
