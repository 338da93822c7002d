#!/usr/bin/env python3
"""Per-row speed-ups of a kernels run with a profile over the same run without it.

    scripts/profile_speedups.py WITHOUT.json WITH.json

For every tuned row of WITH.json: where its configuration came from (params config_source),
its axes with and without the profile, and time(without) / time(with) of the rows' headline
statistic. Then the median speed-up over the rows the profile changed, and the rows whose
profile winner is the built-in default's configuration."""
import json
import statistics
import sys

AXIS_SKIP = {"cold", "copies", "config_source", "kernel", "model", "phase", "t", "variant"}


def rows(path):
    with open(path) as f:
        return {r["id"]: r for r in json.load(f)["results"]}


def seconds(row):
    stats = row["stats"]
    return stats[row.get("statistic", "min")]


def main(without_path, with_path):
    without, with_ = rows(without_path), rows(with_path)
    changed, same_config = [], []
    for rid, row in with_.items():
        source = row["params"].get("config_source")
        if source is None or rid not in without:
            continue
        base = without[rid]
        if row["status"] != "ok" or base["status"] != "ok":
            print(f"{rid}: not ok ({row['status']} / {base['status']})")
            continue
        axes = {k: v for k, v in row["params"].items() if k not in AXIS_SKIP and k in base["params"]}
        differ = {k: (base["params"][k], v) for k, v in axes.items() if base["params"][k] != v}
        ratio = seconds(base) / seconds(row)
        kind = "profile" if source.startswith("profile") else "default"
        print(f"{rid}: {kind}; {seconds(base) * 1e3:.2f} -> {seconds(row) * 1e3:.2f} us, "
              f"{ratio:.3f}x; changed {differ if differ else 'nothing'}")
        if kind == "profile":
            (changed if differ else same_config).append(ratio)
    if changed:
        print(f"rows the profile changed: {len(changed)}, median speed-up "
              f"{statistics.median(changed):.3f}x (range {min(changed):.3f}-{max(changed):.3f})")
    print(f"rows whose profile winner is the built-in default's configuration: {len(same_config)}"
          + (f" (their ratio, the run-to-run noise: {min(same_config):.3f}-{max(same_config):.3f})"
             if same_config else ""))


if __name__ == "__main__":
    main(*sys.argv[1:3])
