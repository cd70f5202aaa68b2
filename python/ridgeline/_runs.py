"""Runs both ways: ridgeline.Run records measurements into a Run document (journaled as each
finishes, written atomically at the end), load() reads any Run, journal or Google Benchmark
file, run() runs a suite as `ridgeline run` does."""
import json
import sys

from . import _measure
from . import _ridgeline


class Results:
    """A Run's rows and their places on the roofline (under the Run's own machine model,
    else this machine's cached one)."""

    def __init__(self, document, origin, machine_json=None):
        self._document = document  # the C++ side's Run
        self.origin = origin
        self.doc = json.loads(document.json())
        self.rows = self.doc.get("benchmarks", [])
        self._machine_json = machine_json  # used where the Run has no model of its own
        self.placements = json.loads(document.place(machine_json))

    @property
    def interrupted(self):
        return self._document.interrupted

    @property
    def cases(self):
        return [p["name"] for p in self.placements]

    def to_pandas(self):
        """One row per case: its place on the roofline (pandas, where it is installed)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (python3-pandas, or pip install pandas)") from e
        cols = ["name", "backend", "op", "dtype", "params", "threads", "seconds", "flops",
                "achieved", "level", "level_intensity", "attainable", "bound", "efficiency",
                "noisy", "disposition", "placeable", "reason", "guidance"]
        return pandas.DataFrame([{c: p.get(c) for c in cols} for p in self.placements], columns=cols)

    def _repr_html_(self):
        return self._document.fragment(self._machine_json, self.origin)

    def __repr__(self):
        placed = sum(1 for p in self.placements if p["placeable"])
        return f"<ridgeline.Results {self.origin}: {len(self.placements)} cases, {placed} placed>"


def load(path):
    """Any Run, journal or Google Benchmark JSON file (`ridgeline report` reads the same)."""
    return Results(_ridgeline.load(str(path)), str(path), _measure._machine_json(probe_if_missing=False))


class Run:
    """with ridgeline.Run("out.json") as run: every measure() inside (or run.measure(...))
    goes into out.json, a Run that `ridgeline report`, `compare`, `fleet` and the dashboard
    open. Rows are journaled to out.jsonl as each measurement finishes; the Run is written
    when the block ends, an exception or Ctrl-C included (what finished is kept)."""

    def __init__(self, path, collect=()):
        self.path = str(path)
        self._collect = [collect] if isinstance(collect, str) else list(collect)
        self._recording = None
        self._names = set()
        self.measurements = []
        self.results = None

    def __enter__(self):
        self._recording = _ridgeline.Recording(self.path, self._collect, ["python"] + sys.argv)
        _measure._active_runs.append(self)
        return self

    def measure(self, fn, *fn_args, **kw):
        return _measure.measure(fn, *fn_args, run=self, **kw)

    def _record(self, m):
        if self._recording is None:
            raise ValueError(f"Run({self.path!r}) is not open: use it in a with block")
        if m.name in self._names:
            raise ValueError(f"name: {m.name} is in this Run already; give each measurement its own name=")
        self._names.add(m.name)
        self._recording.record(json.dumps(m.rows))
        self.measurements.append(m)

    def __exit__(self, exc_type, exc, tb):
        _measure._active_runs.remove(self)
        document = self._recording.close(_measure._machine_json(probe_if_missing=False),
                                         exc_type is KeyboardInterrupt)
        self._recording = None
        self.results = Results(document, self.path)
        return False


def run(suite="default", filter=None, backends=(), dtypes=(), threads=(), params=(),
        repetitions=None, min_time=None, collect=(), isolate=True, output=None, probe=True):
    """The suite's cases as `ridgeline run` plans and runs them (make_plan, run_plan): the
    same names, checks and rows. output= also writes the Run (and its journal). Ctrl-C
    stops after the running case; the Results keep what finished (.interrupted)."""
    as_list = lambda v: [v] if isinstance(v, (str, int)) else list(v)  # noqa: E731
    call = f"ridgeline.run(suite={suite!r}, filter={filter!r})"
    document = _ridgeline.run(
        suite, filter, as_list(backends), as_list(dtypes), [int(t) for t in as_list(threads)],
        as_list(params), repetitions, None if min_time is None else str(min_time),
        as_list(collect), bool(isolate), None if output is None else str(output), bool(probe),
        ["python", call])
    return Results(document, output or "ridgeline.run")
