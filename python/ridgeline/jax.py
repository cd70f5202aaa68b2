"""JAX functions measured with their work from XLA's own cost analysis of the compiled
function (jax.jit(f).lower(...).compile().cost_analysis(): flops and bytes accessed), and
the same function op by op against jit: the compiler's fusion as a pair on the roofline."""
import jax

from . import _measure


def _first(cost):
    return cost[0] if isinstance(cost, (list, tuple)) else cost


def cost_analysis(f, *args):
    """(the compiled function, XLA's FLOPs, XLA's bytes accessed) for f(*args)."""
    compiled = jax.jit(f).lower(*args).compile()
    cost = _first(compiled.cost_analysis()) or {}
    return compiled, float(cost.get("flops", 0.0)), float(cost.get("bytes accessed", 0.0))


def eager_bytes(f, *args):
    """The bytes f moves op by op: every primitive of its jaxpr reads its operands and writes
    its results (what dispatching it unjitted does)."""
    total = 0
    closed = jax.make_jaxpr(f)(*args)

    def walk(jaxpr):
        nonlocal total
        for eqn in jaxpr.eqns:
            subs = [v for v in eqn.params.values() if hasattr(v, "jaxpr")]
            if subs:  # a call (pjit, custom_jvp): its body's primitives
                for s in subs:
                    walk(s.jaxpr if hasattr(s.jaxpr, "eqns") else s)
                continue
            for v in list(eqn.invars) + list(eqn.outvars):
                aval = getattr(v, "aval", None)
                if aval is not None and hasattr(aval, "size") and hasattr(aval, "dtype"):
                    total += aval.size * aval.dtype.itemsize
    walk(closed.jaxpr)
    return total


def _dtype(args):
    for a in jax.tree_util.tree_leaves(args):
        if hasattr(a, "dtype") and "float" in str(a.dtype):
            return str(a.dtype)
    return None


def measure(f, *args, name=None, flops=None, bytes=None, **kw):
    """f jitted, timed (each call blocks until its result is ready), with XLA's FLOPs and
    bytes accessed of the compiled function unless given."""
    if not callable(f):
        raise TypeError(f"fn={f!r}: not callable")
    compiled, xla_flops, xla_bytes = cost_analysis(f, *args)
    notes = dict(kw.pop("notes", None) or {})
    if flops is None:
        flops = xla_flops
        notes["flops"] = f"XLA's cost analysis of the compiled function (JAX {jax.__version__})"
    if bytes is None:
        bytes = xla_bytes
        notes["bytes"] = "XLA's cost analysis: bytes accessed by the compiled function"
    kw.setdefault("dtype", _dtype(args))
    kw.setdefault("_threads_why", "XLA's CPU thread pool runs on the CPUs this process may run on")
    name = name or "jax." + getattr(f, "__name__", "function")
    return _measure.measure(lambda: jax.block_until_ready(compiled(*args)), name=name,
                            flops=flops, bytes=bytes, notes=notes, **kw)


def compare(f, *args, name=None, **kw):
    """f op by op (jax.disable_jit: each primitive dispatched alone, unfused) against jax.jit(f)
    (fused): both measured with the compiled function's FLOPs, joined as a fusion pair
    (family = name); the eager side's bytes are every primitive's operands and results.
    Returns (eager, jitted)."""
    name = name or getattr(f, "__name__", "block")
    _, xla_flops, _ = cost_analysis(f, *args)

    def eager():
        with jax.disable_jit():
            return jax.block_until_ready(f(*args))

    moved = eager_bytes(f, *args)
    notes = {"flops": "XLA's cost analysis of the compiled function (the same arithmetic)",
             "bytes": "every primitive's operands and results, each dispatched alone"}
    kw.setdefault("_threads_why", "XLA's CPU thread pool runs on the CPUs this process may run on")
    e = _measure.measure(eager, name=name + ".eager", flops=xla_flops, bytes=moved,
                         dtype=kw.pop("dtype", _dtype(args)), role="unfused", family=name,
                         notes=notes, **kw)
    j = measure(f, *args, name=name + ".jit", role="fused", family=name,
                dtype=e.rows[0]["ridgeline"]["dtype"], **kw)
    return e, j
