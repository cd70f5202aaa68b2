"""PyTorch functions and modules measured with their work from PyTorch itself: FLOPs from its
own counter (torch.utils.flop_counter.FlopCounterMode in 2.x; torch.profiler's with_flops in
1.13), the ops it could not count named in the notes; bytes from the inputs (parameters
included) and outputs. A CUDA tensor among the inputs: each call synchronises before the
clock stops, placed under the GPU's roofs."""
import torch

from . import _measure

# Ops that move or describe data without arithmetic: not "uncounted" when they count 0 FLOPs.
_NO_ARITHMETIC = {
    "aten::view", "aten::reshape", "aten::t", "aten::transpose", "aten::permute", "aten::expand",
    "aten::contiguous", "aten::clone", "aten::copy_", "aten::empty", "aten::empty_like",
    "aten::zeros", "aten::ones", "aten::detach", "aten::as_strided", "aten::select",
    "aten::slice", "aten::unsqueeze", "aten::squeeze", "aten::flatten", "aten::_unsafe_view",
    "aten::resolve_conj", "aten::resolve_neg", "aten::numpy_T", "aten::alias", "aten::to",
    "aten::_to_copy", "aten::lift_fresh", "aten::result_type", "aten::split", "aten::chunk",
    "aten::narrow", "aten::cat", "aten::stack", "aten::fill_", "aten::zero_", "aten::item",
    "aten::_local_scalar_dense", "aten::size", "aten::stride", "aten::dropout",
}


def _tensors(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _tensors(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _tensors(o)


def _nbytes(tensors):
    seen, total = set(), 0
    for t in tensors:
        key = (t.data_ptr(), t.numel(), t.element_size())
        if key not in seen:
            seen.add(key)
            total += t.numel() * t.element_size()
    return total


def _major_version():
    return int(torch.__version__.split(".")[0])


def counted_flops(fn, inputs):
    """(FLOPs of one call, how they were counted, the ops that ran without a FLOP count)."""
    if _major_version() >= 2:
        from torch.utils.flop_counter import FlopCounterMode
        from torch.utils._python_dispatch import TorchDispatchMode

        ran = set()

        class _Ops(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                ran.add(func._schema.name)  # "aten::addmm", in the op's own namespace
                return func(*args, **(kwargs or {}))

        # _Ops under the counter: it sees the ops the counter ran (a newer counter decomposes
        # an op it has no formula for and counts the pieces).
        with torch.no_grad(), _Ops(), FlopCounterMode(display=False) as counter:
            fn(*inputs)
        # The counter's keys are op packets, str() "aten.addmm".
        counted = {str(op).replace(".", "::", 1) for op in counter.get_flop_counts().get("Global", {})}
        missing = sorted(ran - counted - _NO_ARITHMETIC)
        return float(counter.get_total_flops()), f"PyTorch {torch.__version__}'s FlopCounterMode", missing
    with torch.no_grad(), torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU], with_flops=True) as prof:
        fn(*inputs)
    events = prof.events()
    total, missing = 0.0, set()

    def subtree_flops(e):
        return (e.flops or 0) + sum(subtree_flops(c) for c in e.cpu_children)

    for e in events:
        total += e.flops or 0
        if e.cpu_parent is None and e.name.startswith("aten::") and e.name not in _NO_ARITHMETIC:
            if subtree_flops(e) == 0:
                missing.add(e.name)
    return float(total), f"PyTorch {torch.__version__}'s profiler (with_flops)", sorted(missing)


def _dtype_of(tensors):
    for t in tensors:
        if t.is_floating_point():
            return str(t.dtype)
    return None


def measure(fn, inputs=(), name=None, flops=None, bytes=None, **kw):
    """Times fn(*inputs) (a function or an nn.Module) with FLOPs counted by PyTorch and bytes
    from the inputs, parameters and outputs; ridgeline.measure's keywords otherwise."""
    if not callable(fn):
        raise TypeError(f"fn={fn!r}: not callable")
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    tensors = list(_tensors(inputs))
    params = list(fn.parameters()) if isinstance(fn, torch.nn.Module) else []
    notes = dict(kw.pop("notes", None) or {})
    if flops is None:
        flops, how, missing = counted_flops(fn, inputs)
        notes["flops"] = how + (f"; not counted: {', '.join(missing)}" if missing else "; every op counted")
    if bytes is None:
        with torch.no_grad():
            out = fn(*inputs)
        bytes = _nbytes(tensors + params + list(_tensors(out)))
        notes["bytes"] = "the inputs, parameters and outputs, each once"
    gpu = any(t.is_cuda for t in tensors + params)
    if gpu:
        kw.setdefault("device", "gpu")
        kw.setdefault("synchronize", torch.cuda.synchronize)
    kw.setdefault("dtype", _dtype_of(tensors + params))
    kw.setdefault("threads", None if gpu else torch.get_num_threads())
    if name is None:
        name = "torch." + (type(fn).__name__ if isinstance(fn, torch.nn.Module) else
                           getattr(fn, "__qualname__", getattr(fn, "__name__", "function")))
    with torch.no_grad():  # every call of the harness is made inside
        return _measure.measure(fn, *inputs, name=name, flops=flops, bytes=bytes, notes=notes,
                                **kw)


def compare(block, inputs=(), name=None, **kw):
    """The block eager and compiled by torch.compile (PyTorch 2.x), both measured and joined
    as a fusion pair (family = name): eager as unfused, moving every op's inputs and outputs,
    compiled as fused, moving the block's. Returns (eager, compiled)."""
    if _major_version() < 2 or not hasattr(torch, "compile"):
        raise RuntimeError(f"compare() needs torch.compile (PyTorch 2.x); this is PyTorch "
                           f"{torch.__version__}: install PyTorch 2.x into the project's virtual "
                           f"environment, or use ridgeline.jax.compare with jax.jit")
    from torch.utils._python_dispatch import TorchDispatchMode
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    name = name or type(block).__name__
    moved = [0]

    class _Bytes(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if func._schema.name not in _NO_ARITHMETIC:
                moved[0] += _nbytes(list(_tensors(args)) + list(_tensors(out)))
            return out

    with torch.no_grad(), _Bytes():
        block(*inputs)
    compiled = torch.compile(block)
    eager = measure(block, inputs, name=name + ".eager", bytes=moved[0], role="unfused",
                    family=name, notes={"bytes": "every op's inputs and outputs, op by op"}, **kw)
    fused = measure(compiled, inputs, name=name + ".compiled", flops=eager.flops, role="fused",
                    family=name, notes={"flops": "the eager block's, as PyTorch counted them"}, **kw)
    return eager, fused
