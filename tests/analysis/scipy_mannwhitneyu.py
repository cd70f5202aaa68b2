"""SciPy's mannwhitneyu as the oracle of tests/analysis/rank_tests_test.cpp.

    python3 scipy_mannwhitneyu.py IN.json OUT.json

IN is a list of {"x": [...], "y": [...], "method": "auto" | "exact" | "asymptotic"}; OUT gets,
in the same order, {"u": U of x, "p": the two-sided p-value, continuity-corrected}.
"""
import json
import sys

from scipy.stats import mannwhitneyu

with open(sys.argv[1]) as f:
    cases = json.load(f)
out = []
for c in cases:
    r = mannwhitneyu(c["x"], c["y"], use_continuity=True, alternative="two-sided", method=c["method"])
    out.append({"u": float(r.statistic), "p": float(r.pvalue)})
with open(sys.argv[2], "w") as f:
    json.dump(out, f)
