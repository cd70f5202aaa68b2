"""measure(), work() and this machine's model: the Python face of the runner's harness
(runner/measure.hpp) and the analysis's placement. The C++ side measures and places; this
file checks arguments and carries the results."""
import json
import warnings

from . import _arguments as args
from . import _ridgeline

_machine = {"json": None, "origin": None, "asked": False}
_active_runs = []  # the `with ridgeline.Run(...)` blocks open, innermost last


def machine(probe=True, force=False):
    """This machine's model as a dict: the cached probe, else a probe made now (about 15 s,
    cached afterwards) unless probe=False; None with probe=False and none cached.
    ridgeline.machine_origin() says where it came from."""
    text = _machine_json(probe, force)
    return None if text is None else json.loads(text)


def probe(force=False):
    """The probe's model of this machine (cached; force=True measures it again)."""
    return machine(probe=True, force=force)


def use_machine(path):
    """Place measurements under the model in `path` (a `ridgeline probe -o` file) instead
    of this machine's cached probe."""
    _machine.update(json=_ridgeline.machine_file(str(path)), origin=str(path), asked=True)


def machine_origin():
    return _machine["origin"]


def _machine_json(probe_if_missing=True, force=False):
    """The model's JSON as the C++ side takes it, asked for once per process."""
    if force or not _machine["asked"] or (_machine["json"] is None and probe_if_missing):
        text, origin = _ridgeline.machine(bool(probe_if_missing), bool(force))
        _machine.update(json=text, origin=origin, asked=True)
    return _machine["json"]


class Work:
    """An op's work model as the native suite records it: FLOPs and compulsory bytes per
    call (fused), the same op as an eager chain of passes (unfused), and its operands."""

    def __init__(self, doc):
        self.op = doc["op"]
        self.params = doc["params"]
        self.dtype = doc["dtype"]
        self.flops = doc["fused"]["flops"]
        self.bytes = doc["fused"]["bytes"]
        self.unfused_flops = doc["unfused"]["flops"]
        self.unfused_bytes = doc["unfused"]["bytes"]
        self.passes = [(p["name"], p["work"]["flops"], p["work"]["bytes"]) for p in doc["passes"]]
        self.operands = doc["operands"]

    def __repr__(self):
        b = ", ".join(f"{k} {v:.4g} B" for k, v in self.bytes.items())
        return f"<ridgeline.Work {self.op} {self.dtype} {self.params}: {self.flops:.4g} FLOP, {b}>"


def work(op, dtype="f32", **params):
    """work("gemm", m=512, n=512, k=512, dtype="f32"): the op's work model (ridgeline.ops()
    lists every op and its params). einsum takes equation= and extents= ({"i": 64, ...} or
    "i=64,j=64")."""
    text = {}
    for k, v in params.items():
        if isinstance(v, dict):
            v = ",".join(f"{i}={n}" for i, n in v.items())
        text[k] = str(v)
    return Work(json.loads(_ridgeline.work(str(op), text, args.dtype_name(dtype))))


def ops():
    """Every registered op: name, description, dims, attrs and dtypes."""
    return json.loads(_ridgeline.ops())


def kernel(backend, op="gemm", dtype="f32", threads=1, **params):
    """A native CPU kernel of the suite prepared on its op's inputs as a callable (each call
    one run): measure(k, work=k.work, threads=...) times it through Python's path."""
    label = ",".join(f"{k}={v}" for k, v in params.items())
    k = _ridgeline.NativeKernel(str(backend), str(op), label, args.dtype_name(dtype), int(threads))
    w = json.loads(k.work)
    return _NativeCallable(k, backend, op, dtype, threads, params, w)


class _NativeCallable:
    def __init__(self, k, backend, op, dtype, threads, params, w):
        self._k, self.backend, self.op, self.dtype, self.threads = k, backend, op, dtype, threads
        self.work = work(op, dtype, **params)
        self.work.flops, self.work.bytes = w["flops"], w["bytes"]  # the kernel's own model
        self.__qualname__ = f"native.{backend}"
        self.__module__ = "ridgeline"

    def __call__(self):
        self._k()


class Measurement:
    """One measured function: its rows (the Run's, Google Benchmark's shape), and its place
    on this machine's roofline (the same analysis the reports use)."""

    def __init__(self, rows, machine_json):
        self.rows = rows
        self.name = rows[0]["run_name"]
        self.backend = rows[0]["ridgeline"]["backend"]
        self._machine_json = machine_json
        self._doc = _ridgeline.RunDocument.from_rows(json.dumps(rows))
        placed = json.loads(self._doc.place(machine_json))
        self.placement = placed[0] if placed else {}

    disposition = property(lambda s: s.rows[0]["ridgeline"]["validation"]["disposition"])
    error = property(lambda s: s.rows[0].get("error_message", "") if s.rows[0].get("error_occurred") else "")
    seconds = property(lambda s: s.placement.get("seconds", 0.0))
    flops = property(lambda s: s.placement.get("flops", 0.0))
    gflops = property(lambda s: s.placement.get("achieved", 0.0) / 1e9)
    level = property(lambda s: s.placement.get("level", ""))
    bound = property(lambda s: s.placement.get("bound", ""))
    efficiency = property(lambda s: s.placement.get("efficiency", 0.0))
    guidance = property(lambda s: s.placement.get("guidance", ""))
    notes = property(lambda s: s.rows[0]["ridgeline"].get("kernel", {}))

    @property
    def gbytes_per_s(self):
        """Bytes per second at the level the point is placed at (GB/s)."""
        b = self.placement.get("bytes", {}).get(self.level, 0.0)
        return b / self.seconds / 1e9 if self.seconds > 0 else 0.0

    def __repr__(self):
        if self.error:
            return f"<ridgeline.Measurement {self.backend}: {self.error}>"
        p = self.placement
        return (f"<ridgeline.Measurement {self.backend}: {self.seconds * 1e3:.4g} ms, "
                f"{self.gflops:.4g} GFLOP/s, {self.gbytes_per_s:.4g} GB/s at {self.level or '?'}; "
                f"{p.get('guidance', '')}>")

    def _repr_html_(self):
        return self._doc.fragment(self._machine_json, self.name)


def measure(fn, *fn_args, flops=None, bytes=None, work=None, name=None, dtype=None,
            threads=None, cache="warm", device=None, collect=(), repetitions=None,
            min_time=None, warmup=None, role="vendor", family="", notes=None, kwargs=None,
            synchronize=None, run=None, _threads_why="the CPUs this process may run on"):
    """Times fn(*fn_args, **kwargs) with the native kernels' harness and places it on this
    machine's roofline. Give its work as flops= and bytes= (a number: bytes at main memory;
    or {"L1": ..., "dram": ...}), or as work=ridgeline.work(op, ...). A call that raises is
    recorded crashed, with its error; Ctrl-C stops the measurement. A CUDA tensor among the
    arguments makes it GPU work: each call synchronises before the clock stops."""
    if not callable(fn):
        raise TypeError(f"fn={fn!r}: not callable")
    if work is not None and not isinstance(work, Work):
        raise TypeError(f"work={work!r}: give ridgeline.work(op, ...)")
    if work is None and flops is None and bytes is None:
        raise ValueError("flops= and bytes= (or work=ridgeline.work(op, ...)): give the function's work")
    flop_count = args.count(flops, "flops") if flops is not None else (work.flops if work else 0.0)
    byte_count = args.byte_counts(bytes) if bytes is not None else (dict(work.bytes) if work else {})
    arrays = list(fn_args) + list((kwargs or {}).values())
    if dtype is None:
        dtype = work.dtype if work else args.dtype_of_arrays(arrays)
        if dtype is None:
            raise ValueError("dtype: give the dtype the function computes in (no array argument to read it from)")
    dtype = args.dtype_name(dtype)
    name = args.case_name(name if name is not None else args.function_name(fn))
    thread_n, thread_note = args.thread_count(threads, _threads_why)
    if cache not in ("warm", "cold"):
        raise ValueError(f"cache={cache!r}: one of warm, cold")
    cold = args.memory_ranges(arrays) if cache == "cold" else []
    if cache == "cold" and not cold:
        raise ValueError("cache='cold': no array argument whose memory could be flushed")
    if device is None:  # a CUDA tensor among the arguments: the GPU's work, synchronised
        device = "gpu" if any(getattr(a, "is_cuda", False) is True for a in arrays) else "cpu"
        if device == "gpu" and synchronize is None:
            import torch
            synchronize = torch.cuda.synchronize
    if device not in ("cpu", "gpu"):
        raise ValueError(f"device={device!r}: one of cpu, gpu")
    collect = [collect] if isinstance(collect, str) else list(collect)
    machine_json = _machine_json()
    if machine_json is not None:
        have = _ridgeline.roof_dtypes(machine_json, device)
        if dtype not in have and not (dtype in ("bf16", "f16") and "f32" in have):
            raise ValueError(f"dtype={dtype!r}: this machine has no {dtype} roof on the {device} "
                             f"(its probe measured {', '.join(have) or 'none'})")
    all_notes = {"threads": thread_note, "work": _work_note(flops, bytes, work)}
    all_notes.update(notes or {})
    kw = kwargs or {}
    if synchronize is None:
        call = lambda: fn(*fn_args, **kw)  # noqa: E731
    else:
        def call():
            fn(*fn_args, **kw)
            synchronize()
    rows = json.loads(_ridgeline.measure(
        call, "python." + name, work.op if work else "callable", work.params if work else "",
        dtype, thread_n, cache, device, role, family, flop_count, byte_count,
        {k: str(v) for k, v in all_notes.items()}, repetitions,
        None if min_time is None else str(min_time), warmup, collect, cold))
    m = Measurement(rows, machine_json)
    for key, why in m.notes.items():  # what was asked and cannot be counted here, once each
        if key.startswith("not counted "):
            warnings.warn(f"collect: {key[len('not counted '):]} will not be counted: {why}", stacklevel=2)
    target = run if run is not None else (_active_runs[-1] if _active_runs else None)
    if target is not None:
        target._record(m)
    return m


def _work_note(flops, bytes, work):
    if work is not None and flops is None and bytes is None:
        return f"Ridgeline's model of {work.op} {work.params} (ridgeline.work)"
    return "as the caller gave it (flops=, bytes=)"
