"""measure(): NumPy functions timed by the harness and placed on this machine's roofline;
the work from the op registry; every bad argument one clear exception naming it."""
import math

import numpy as np
import pytest

import ridgeline
import ridgeline.numpy as rnp
from conftest import QUICK


def test_numpy_matmul_is_recognised_as_gemm_and_placed():
    a = np.random.default_rng(1).standard_normal((256, 192), dtype=np.float32)
    b = np.random.default_rng(2).standard_normal((192, 128), dtype=np.float32)
    m = rnp.measure(np.matmul, a, b, threads=1, **QUICK)
    d = m.rows[0]["ridgeline"]
    assert d["op"] == "gemm" and d["dtype"] == "f32" and d["backend"] == "python.numpy.matmul"
    assert d["params"] == {"m": 256, "n": 128, "k": 192, "layout": "NN"} or "m" in str(d["params"])
    assert m.flops == pytest.approx(2 * 256 * 128 * 192)
    assert m.placement["placeable"], m.placement["reason"]
    assert m.gflops > 0 and m.seconds > 0 and m.efficiency > 0
    assert m.bound in ("compute", "L1", "L2", "L3", "DRAM")
    assert m.guidance and m.level
    # The harness's rows: one per repetition and Google Benchmark's aggregates.
    iterations = [r for r in m.rows if r["run_type"] == "iteration"]
    assert len(iterations) == 3
    assert {r["aggregate_name"] for r in m.rows if r["run_type"] == "aggregate"} >= {"median", "cv"}
    assert d["validation"]["disposition"] == "not_verified"
    assert "threads" in m.notes and "work" in m.notes


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_a_numpy_softmax_with_the_ops_work_model():
    x = np.random.default_rng(3).standard_normal((512, 1024), dtype=np.float32)
    w = ridgeline.work("softmax", rows=512, cols=1024, dtype="f32")
    assert w.flops == 5 * 512 * 1024 and w.bytes["dram"] == 2 * 512 * 1024 * 4
    assert sum(p[2]["dram"] for p in w.passes) == w.unfused_bytes["dram"]
    m = ridgeline.measure(softmax, x, work=w, threads=1, **QUICK)
    assert m.rows[0]["ridgeline"]["op"] == "softmax"
    assert m.placement["placeable"], m.placement["reason"]
    assert m.bound and m.gbytes_per_s > 0


def test_einsum_is_recognised_with_its_extents():
    a = np.ones((32, 48), dtype=np.float64)
    b = np.ones((48, 16), dtype=np.float64)
    m = rnp.measure(np.einsum, "ij,jk->ik", a, b, threads=1, **QUICK)
    assert m.rows[0]["ridgeline"]["op"] == "einsum"
    assert m.flops == pytest.approx(2 * 32 * 48 * 16)


def test_a_plain_callable_with_flops_and_bytes():
    x = np.ones(1 << 16, dtype=np.float32)
    m = ridgeline.measure(np.add, x, x, flops=x.size, bytes=3 * x.nbytes, name="add", **QUICK)
    d = m.rows[0]["ridgeline"]
    assert d["op"] == "callable" and d["backend"] == "python.add"
    assert d["work"]["flops"] == x.size
    assert m.placement["placeable"], m.placement["reason"]


def test_cold_caches_flush_the_arrays_between_calls():
    x = np.ones((256, 256), dtype=np.float32)
    m = ridgeline.measure(np.sum, x, flops=x.size, bytes=x.nbytes, cache="cold", **QUICK)
    assert m.rows[0]["ridgeline"].get("cache") == "cold"
    assert "cache" in m.notes


def test_a_collector_is_read_at_the_timers_boundaries():
    x = np.ones(1 << 12, dtype=np.float32)
    m = ridgeline.measure(np.sum, x, flops=x.size, bytes=x.nbytes, collect=["perf:task-clock"], **QUICK)
    names = {mm["name"] for mm in m.rows[0]["ridgeline"]["metrics"]}
    readable = any("task-clock" in n for n in names)
    if not readable:
        pytest.skip("perf:task-clock not readable here: " + str(names))
    assert readable


def test_a_counter_this_machine_cannot_count_says_why_and_the_measurement_goes_on():
    x = np.ones(1 << 12, dtype=np.float32)
    with pytest.warns(UserWarning, match="papi:PAPI_SP_OPS") as warned:
        m = ridgeline.measure(np.sum, x, flops=x.size, bytes=x.nbytes,
                              collect=["papi:PAPI_SP_OPS"], **QUICK)
    if not any("will not be counted" in str(w.message) for w in warned):
        pytest.skip("PAPI_SP_OPS is countable here")
    assert m.notes["not counted papi:PAPI_SP_OPS"]
    assert m.placement["placeable"]


def test_an_unknown_collector_is_refused():
    with pytest.raises(ValueError, match="nosuch"):
        ridgeline.measure(np.sum, np.ones(4, np.float32), flops=4, bytes=16, collect=["nosuch:x"])


def test_a_function_that_raises_is_recorded_with_its_error():
    def broken():
        raise RuntimeError("no such tensor")
    m = ridgeline.measure(broken, flops=1, bytes=1, dtype="f32", **QUICK)
    assert m.disposition == "crashed"
    assert "no such tensor" in m.error
    assert not m.placement["placeable"]


def test_a_function_that_raises_on_a_later_call_is_crashed():
    calls = [0]

    def later():
        calls[0] += 1
        if calls[0] > 1:  # the untimed call passes, the first timed one raises
            raise ValueError("ran dry")
    m = ridgeline.measure(later, flops=1, bytes=1, dtype="f32", **QUICK)
    assert m.disposition == "crashed" and "ran dry" in m.error


@pytest.mark.parametrize("kw, argument", [
    (dict(flops=-1, bytes=1), "flops"),
    (dict(flops=math.nan, bytes=1), "flops"),
    (dict(flops=1, bytes=math.inf), "bytes"),
    (dict(flops=1, bytes={"L9": 1}), "bytes"),
    (dict(flops=1, bytes=1, threads=0), "threads"),
    (dict(flops=1, bytes=1, cache="tepid"), "cache"),
    (dict(flops=1, bytes=1, name="a/b"), "name"),
    (dict(flops=1, bytes=1, dtype="f128"), "dtype"),
    (dict(flops=1, bytes=1, dtype="i8"), "dtype"),  # the partial probe measured no i8 roof
    (dict(flops=1, bytes=1, min_time="soon"), "min_time"),
    (dict(flops=1, bytes=1, repetitions=0), "repetitions"),
    (dict(), "flops"),
])
def test_bad_arguments_name_themselves(kw, argument):
    kw.setdefault("dtype", "f32")
    with pytest.raises(ValueError, match=argument):
        ridgeline.measure(lambda: None, **kw)


def test_a_non_callable_is_a_type_error():
    with pytest.raises(TypeError, match="fn"):
        ridgeline.measure(42, flops=1, bytes=1, dtype="f32")


def test_work_refuses_an_unknown_op_and_parameter():
    with pytest.raises(ValueError, match="unknown op 'gemv'"):
        ridgeline.work("gemv", m=1)
    with pytest.raises(ValueError, match="q"):
        ridgeline.work("gemm", m=1, n=1, k=1, q=2)
    assert {o["name"] for o in ridgeline.ops()} >= {"gemm", "softmax", "layernorm", "attention", "einsum"}


def test_the_attention_and_einsum_work_models():
    a = ridgeline.work("attention", heads=2, seq=128, head_dim=64, causal=1, dtype="bf16")
    assert a.op == "attention" and a.flops > 0 and "causal=1" in a.params
    e = ridgeline.work("einsum", equation="bij,bjk->bik", extents={"b": 4, "i": 8, "j": 16, "k": 32})
    assert e.flops == 2 * 4 * 8 * 16 * 32
