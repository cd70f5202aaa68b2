#!/usr/bin/env python3
"""`ridgeline fleet` at scale (issue #41's targets): fleets made from one real run by
fleet_simulation.py, each judged by the real command. Half the trials slow one node by
`--factor` in one memory-bound case at `--slow-noise`; the other half slow none. Prints each
trial's time and the command's peak memory, then how often the slow node was found (alone)
and how often a fleet with none flagged one.

    ridgeline run --suite default --repetitions 5 -o real.json     # the real run
    bench/fleet_trials.py real.json --nodes 1000 --trials 10 --ridgeline build/release/cli/ridgeline
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import tempfile
import time

from fleet_simulation import write_fleet


def judge(ridgeline, folder, report):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    r = subprocess.run([ridgeline, "fleet", *files, "--json", report, "--html", report + ".html"],
                       capture_output=True, text=True)
    seconds = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child's
    if r.returncode not in (0, 1):
        raise RuntimeError(r.stderr)
    with open(report) as f:
        return json.load(f), seconds, peak if peak > before else None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run")
    p.add_argument("--ridgeline", default="ridgeline")
    p.add_argument("--nodes", type=int, default=1000)
    p.add_argument("--cases", type=int, default=60)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--trials", type=int, default=10, help="of each kind")
    p.add_argument("--factor", type=float, default=1.05)
    p.add_argument("--slow-noise", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=1000, help="the first fleet's; each next one's +1")
    a = p.parse_args()
    with open(a.run) as f:
        run = json.load(f)
    work = tempfile.mkdtemp(prefix="fleet-trials-")
    try:
        # The memory-bound case: from a first fleet's placements (the run's machine model).
        folder = os.path.join(work, "nodes")
        write_fleet(run, folder, 2, a.repetitions, first_cases=a.cases)
        doc, _, _ = judge(a.ridgeline, folder, os.path.join(work, "bounds.json"))
        memory = [i for i, c in enumerate(doc["cases"]) if c["bound"] not in ("", "compute")]
        if not memory:
            raise SystemExit("no memory-bound case in the run (it needs a machine model)")
        case = memory[0]
        print(f"slowed case {case}: {doc['cases'][case]['name']} ({doc['cases'][case]['bound']})")
        found = alarms = 0
        for t in range(a.trials):
            for slow in (True, False):
                shutil.rmtree(folder)
                node = (a.seed + t * 37) % a.nodes  # the case's noise is --slow-noise either way
                write_fleet(run, folder, a.nodes, a.repetitions,
                            slow=[(node, case, a.factor if slow else 1.0)],
                            slow_noise=a.slow_noise, seed=a.seed + 2 * t + slow,
                            first_cases=a.cases)
                doc, seconds, peak = judge(a.ridgeline, folder, os.path.join(work, "fleet.json"))
                out = [m["name"] for m in doc["members"] if m["out_of_family"]]
                if slow:
                    found += out == [f"node-{node:04d}"]
                else:
                    alarms += bool(out)
                print(f"trial {t} {'slow' if slow else 'even'}: {seconds:.2f} s, "
                      f"peak {peak / 1024 if peak else float('nan'):.0f} MiB, "
                      f"{doc['tested']} tests, out of family: {out[:5]}", flush=True)
        print(f"found {found} of {a.trials}; a fleet with no slow node flagged one in {alarms} of "
              f"{a.trials}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
