"""Ridgeline from Python: time any function with the native kernels' harness and place it on
this machine's measured roofline (docs/python.md).

    import ridgeline, numpy as np
    a = np.random.rand(1024, 1024).astype(np.float32)
    m = ridgeline.measure(np.matmul, a, a, work=ridgeline.work("gemm", m=1024, n=1024, k=1024))
    print(m)   # time, GFLOP/s, GB/s, the level, the bound, % of the roof, what to do

ridgeline.numpy, ridgeline.torch and ridgeline.jax take the work from the framework.
"""
from ._measure import (Measurement, Work, kernel, machine, machine_origin, measure, ops, probe,
                       use_machine, work)
from ._runs import Results, Run, load, run

__all__ = ["Measurement", "Results", "Run", "Work", "kernel", "load", "machine",
           "machine_origin", "measure", "ops", "probe", "run", "use_machine", "work"]
