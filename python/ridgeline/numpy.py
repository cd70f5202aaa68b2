"""NumPy's matrix products with their work recognised: numpy.matmul, numpy.dot and the @
operator on 2-D arrays are gemm; numpy.einsum with an explicit output is einsum (its
extents read off the operands). Anything else: give flops= and bytes=."""
import operator

import numpy as np

from . import _measure


def _gemm_work(a, b):
    if a.ndim != 2 or b.ndim != 2:
        return None
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        return None
    return _measure.work("gemm", dtype=str(a.dtype), m=m, n=n, k=k)


def _einsum_work(equation, operands):
    if not isinstance(equation, str) or "->" not in equation or len(operands) != 2:
        return None
    inputs = equation.replace(" ", "").split("->")[0].split(",")
    extents = {}
    for term, a in zip(inputs, operands):
        if len(term) != a.ndim:
            return None
        extents.update(dict(zip(term, a.shape)))
    return _measure.work("einsum", dtype=str(operands[0].dtype), equation=equation.replace(" ", ""),
                         extents=extents)


def recognised_work(fn, *args):
    """The work model of fn(*args) where Ridgeline knows it, else None."""
    if fn in (np.matmul, np.dot, operator.matmul) and len(args) == 2:
        return _gemm_work(*(np.asarray(a) for a in args))
    if fn is np.einsum and args:
        return _einsum_work(args[0], [np.asarray(a) for a in args[1:]])
    return None


def measure(fn, *args, **kw):
    """ridgeline.measure() with the work of NumPy's matmul, dot, @ and einsum recognised."""
    if "work" not in kw and "flops" not in kw and "bytes" not in kw:
        w = recognised_work(fn, *args)
        if w is not None:
            kw["work"] = w
    if "name" not in kw:
        names = {np.matmul: "numpy.matmul", np.dot: "numpy.dot", operator.matmul: "numpy.matmul",
                 np.einsum: "numpy.einsum"}
        if fn in names:
            kw["name"] = names[fn]
    kw.setdefault("_threads_why", "NumPy's BLAS runs on the CPUs this process may run on")
    return _measure.measure(fn, *args, **kw)
