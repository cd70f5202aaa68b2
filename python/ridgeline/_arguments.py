"""Argument checks shared by measure() and the framework wrappers: each error names its
argument, as the command line's one clear line does (a ValueError or TypeError here)."""
import math
import numbers
import os

# NumPy's, PyTorch's and JAX's dtype names -> Ridgeline's.
_DTYPES = {
    "float64": "f64", "float32": "f32", "bfloat16": "bf16", "float16": "f16",
    "int8": "i8", "int32": "i32",
    "torch.float64": "f64", "torch.float32": "f32", "torch.bfloat16": "bf16",
    "torch.float16": "f16", "torch.int8": "i8", "torch.int32": "i32",
}
RIDGELINE_DTYPES = ("f64", "f32", "tf32", "bf16", "f16", "i8", "i32")
BYTE_LEVELS = ("L1", "L2", "L3", "dram", "network")


def count(value, argument):
    """A finite number of FLOPs or bytes, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argument}={value!r}: give a number")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{argument}={value!r}: give a finite number, 0 or more")
    return value


def byte_counts(value, argument="bytes"):
    """bytes= as a number (bytes at main memory) or {level: bytes}."""
    if value is None:
        return {}
    if isinstance(value, dict):
        out = {}
        for level, b in value.items():
            if level not in BYTE_LEVELS:
                raise ValueError(f"{argument}[{level!r}]: unknown level (one of {', '.join(BYTE_LEVELS)})")
            out[level] = count(b, f"{argument}[{level!r}]")
        return out
    return {"dram": count(value, argument)}


def dtype_name(value, argument="dtype"):
    """Ridgeline's name of a dtype given as a name or a framework's dtype."""
    text = str(value)
    if text in RIDGELINE_DTYPES:
        return text
    if text in _DTYPES:
        return _DTYPES[text]
    raise ValueError(f"{argument}={value!r}: not a dtype Ridgeline places (one of {', '.join(RIDGELINE_DTYPES)})")


def dtype_of_arrays(arrays):
    """The dtype of the first array among `arrays` with one Ridgeline knows, else None."""
    for a in arrays:
        d = getattr(a, "dtype", None)
        if d is not None and str(d) in _DTYPES:
            return _DTYPES[str(d)]
    return None


def thread_count(value, default_why):
    """threads= as given, else the CPUs this process may run on (the frameworks' default
    pools), with the note that says which."""
    if value is None:
        n = len(os.sched_getaffinity(0))
        return n, f"threads: not given; {default_why} ({n})"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"threads={value!r}: give a whole number, 1 or more")
    return int(value), "threads: as given"


def case_name(value, argument="name"):
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{argument}={value!r}: give a non-empty name")
    bad = [c for c in value if c == "/" or not c.isprintable() or c.isspace()]
    if bad:
        raise ValueError(f"{argument}={value!r}: a name has no '/', spaces or control characters")
    return value


def function_name(fn):
    """A callable's name as Python spells it: module.qualname where both are known."""
    qual = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    module = getattr(fn, "__module__", None) or ""
    if module in ("__main__", "builtins"):
        module = ""
    name = f"{module}.{qual}" if module else qual
    return name.replace("<", "").replace(">", "").replace("/", ".").replace(" ", "_")


def memory_ranges(arrays):
    """(address, bytes) of each array that exposes its memory: what cache="cold" flushes."""
    out = []
    for a in arrays:
        iface = getattr(a, "__array_interface__", None)
        if iface is not None:
            out.append((int(iface["data"][0]), int(a.nbytes)))
        elif hasattr(a, "data_ptr") and hasattr(a, "element_size"):  # a CPU tensor
            if getattr(a, "is_cuda", False):
                continue
            out.append((int(a.data_ptr()), int(a.numel() * a.element_size())))
    return [r for r in out if r[1] > 0]
