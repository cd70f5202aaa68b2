#!/usr/bin/env python3
"""A simulated fleet made from one real run, for `ridgeline fleet` at scale (issue #41).

Each case of the real run keeps its rows and its median time; each simulated node gets
`--repetitions` rows of every case, their times drawn around that median with the noise the
real run measured (the log-standard deviation of its repetitions; `--noise` sets one for all
instead). `--slow NODE:CASE:FACTOR` makes node NODE slower by FACTOR in the CASE-th case
(counted from 0 in the run's order), with `--slow-noise` as that case's noise (the issue's
target: a node 5% slower in one memory-bound case at 1% noise). One Run per node is written
to OUT/node-NNNN.json, as separate nodes' runs are given to `ridgeline fleet`.

    bench/fleet_simulation.py real.json OUT --nodes 1000 --slow 17:3:1.05 --slow-noise 0.01
    ridgeline fleet OUT/*.json --junit fleet.xml     # exit 1: node-0017 out of family
"""
import argparse
import copy
import json
import math
import os
import random
import statistics


def case_rows(run):
    """Each case's iteration rows (ours and timed), in the run's order."""
    cases = {}
    for row in run["benchmarks"]:
        if row.get("run_type") == "aggregate" or row.get("error_occurred"):
            continue
        cases.setdefault(row["run_name"], []).append(row)
    return list(cases.values())


def log_sd(rows):
    logs = [math.log(r["real_time"]) for r in rows if r["real_time"] > 0]
    return statistics.stdev(logs) if len(logs) > 1 else 0.0


def write_fleet(run, out, nodes, repetitions=5, noise=None, slow=(), slow_noise=None, seed=1,
                first_cases=0):
    """The nodes' runs in `out`; `slow` holds (node, case, factor). Returns the noise used."""
    cases = case_rows(run)
    if first_cases:
        cases = cases[:first_cases]
    factors = {(n, c): f for n, c, f in slow}
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    medians = [statistics.median(r["real_time"] for r in rows) for rows in cases]
    sd = [noise if noise is not None else log_sd(rows) for rows in cases]
    for _, c, _ in slow:
        if slow_noise is not None:
            sd[c] = slow_noise
    for n in range(nodes):
        name = f"node-{n:04d}"
        doc = {"context": copy.deepcopy(run["context"]), "benchmarks": []}
        doc["context"]["host_name"] = name
        for c, rows in enumerate(cases):
            factor = factors.get((n, c), 1.0)
            for i in range(repetitions):
                row = dict(rows[i % len(rows)])
                t = medians[c] * factor * math.exp(rng.gauss(0, sd[c]))
                scale = t / row["real_time"]
                row["real_time"] = t
                row["cpu_time"] = row["cpu_time"] * scale
                row["repetition_index"] = i
                row["repetitions"] = repetitions
                doc["benchmarks"].append(row)
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f)
    return len(cases), sd


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", help="a real Run with repetitions (ridgeline run --repetitions 5)")
    p.add_argument("out", help="the folder the nodes' runs are written to")
    p.add_argument("--nodes", type=int, default=1000)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--cases", type=int, default=0, help="the run's first N cases (0: all)")
    p.add_argument("--noise", type=float, default=None,
                   help="log-sd of every case (default: each case's measured one)")
    p.add_argument("--slow", action="append", default=[], help="NODE:CASE:FACTOR")
    p.add_argument("--slow-noise", type=float, default=None,
                   help="log-sd of a slowed case on every node (default: as the others)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    with open(a.run) as f:
        run = json.load(f)
    slow = [(int(n), int(c), float(x)) for n, c, x in (s.split(":") for s in a.slow)]
    cases, sd = write_fleet(run, a.out, a.nodes, a.repetitions, a.noise, slow, a.slow_noise,
                            a.seed, a.cases)
    print(f"{a.nodes} nodes x {cases} cases x {a.repetitions} repetitions in {a.out}; "
          f"noise (log-sd) {min(sd):.4f} … {max(sd):.4f}")


if __name__ == "__main__":
    main()
