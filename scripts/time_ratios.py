#!/usr/bin/env python3
"""Per-row time ratios NEW / BASE of two refract result documents (rows matched by id, both ok):
the time of one dispatch is work_per_dispatch / metric_value. Prints each row's ratio, then the
median, the quartiles and the range; rows in one document only are counted.
  scripts/time_ratios.py BASE.json NEW.json [--category CATEGORY]"""
import json
import statistics
import sys


def times(path, category):
    rows = {}
    for row in json.load(open(path))["results"]:
        if row["status"] != "ok" or row.get("metric_value", 0) <= 0:
            continue
        if category and row["category"] != category:
            continue
        rows[row["id"]] = row["work_per_dispatch"] / row["metric_value"]
    return rows


def main():
    args = sys.argv[1:]
    category = None
    if "--category" in args:
        at = args.index("--category")
        category = args[at + 1]
        del args[at:at + 2]
    base, new = times(args[0], category), times(args[1], category)
    shared = sorted(set(base) & set(new))
    ratios = []
    for row_id in shared:
        ratio = new[row_id] / base[row_id]
        ratios.append(ratio)
        print(f"{ratio:7.3f}  {row_id}")
    if not ratios:
        sys.exit("no row is ok in both documents")
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"{len(ratios)} rows: median {statistics.median(ratios):.3f}, quartiles "
          f"{q[0]:.3f}-{q[2]:.3f}, range {min(ratios):.3f}-{max(ratios):.3f}; "
          f"only in base {len(set(base) - set(new))}, only in new {len(set(new) - set(base))}")


if __name__ == "__main__":
    main()
