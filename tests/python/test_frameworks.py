"""JAX and PyTorch: their own counts of the work, and their fusion on the roofline."""
import json

import pytest

import ridgeline
from conftest import QUICK, cli

jax = pytest.importorskip("jax", reason="JAX is not installed (scripts/install-deps puts it in the venv)")
import jax.numpy as jnp  # noqa: E402

import ridgeline.jax as rjax  # noqa: E402


def mlp(x, w1, w2):
    return jnp.tanh(x @ w1) @ w2


def block(x):
    return jnp.tanh(x) * 2.0 + jnp.exp(-x)


def test_jax_flops_come_from_the_cost_analysis():
    x = jnp.ones((128, 256), jnp.float32)
    w1 = jnp.ones((256, 512), jnp.float32)
    w2 = jnp.ones((512, 64), jnp.float32)
    _, flops, bytes_accessed = rjax.cost_analysis(mlp, x, w1, w2)
    assert flops >= 2 * 128 * 256 * 512 + 2 * 128 * 512 * 64
    m = rjax.measure(mlp, x, w1, w2, **QUICK)
    assert m.flops == pytest.approx(flops)
    assert m.rows[0]["ridgeline"]["work"]["bytes"]["dram"] == pytest.approx(bytes_accessed)
    assert m.placement["placeable"], m.placement["reason"]
    assert "cost analysis" in m.notes["flops"]


def test_jax_eager_against_jit_is_a_fusion_pair_in_the_report(tmp_path):
    x = jnp.ones((1024, 1024), jnp.float32)
    path = tmp_path / "jax.json"
    with ridgeline.Run(path):
        eager, jitted = rjax.compare(block, x, **QUICK)
    assert eager.rows[0]["ridgeline"]["role"] == "unfused"
    assert jitted.rows[0]["ridgeline"]["role"] == "fused"
    assert eager.flops == pytest.approx(jitted.flops)
    # Op by op, every primitive reads its operands and writes its result: more bytes.
    assert eager.rows[0]["ridgeline"]["work"]["bytes"]["dram"] > \
        jitted.rows[0]["ridgeline"]["work"]["bytes"]["dram"]
    cli("report", path, "-o", tmp_path / "r.html", "--csv-fusion", tmp_path / "fusion.csv")
    import csv
    with open(tmp_path / "fusion.csv") as f:
        rows = list(csv.DictReader(f))
    pair = [r for r in rows if r["paired"] == "yes" and "python.block.jit" in r["fused_case"]]
    assert len(pair) == 1, rows
    # The bytes the compiler saved: the caller's models of each side, as recorded.
    assert float(pair[0]["byte_ratio"]) == pytest.approx(
        eager.rows[0]["ridgeline"]["work"]["bytes"]["dram"] /
        jitted.rows[0]["ridgeline"]["work"]["bytes"]["dram"], rel=1e-3)
    assert float(pair[0]["speedup"]) > 0


torch = pytest.importorskip("torch", reason="PyTorch is not installed (python3-torch)")
import ridgeline.torch as rtorch  # noqa: E402


class Linear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(256, 512)

    def forward(self, x):
        return torch.nn.functional.gelu(self.fc(x))


def test_torch_flops_from_its_counter_and_what_it_could_not_count():
    torch.manual_seed(0)
    block = Linear()
    x = torch.randn(64, 256)
    flops, how, missing = rtorch.counted_flops(block, (x,))
    assert flops == pytest.approx(2 * 64 * 256 * 512, rel=0.01)
    assert "gelu" in " ".join(missing)
    m = rtorch.measure(block, (x,), **QUICK)
    assert m.flops == pytest.approx(flops)
    assert "not counted" in m.notes["flops"] and "aten::gelu" in m.notes["flops"]
    params = sum(p.numel() * 4 for p in block.parameters())
    assert m.rows[0]["ridgeline"]["work"]["bytes"]["dram"] == x.numel() * 4 + params + 64 * 512 * 4
    assert m.rows[0]["ridgeline"]["threads"] == torch.get_num_threads()
    assert m.placement["placeable"], m.placement["reason"]


def test_a_torch_function_it_cannot_count_says_so():
    x = torch.randn(256, 256)
    m = rtorch.measure(torch.softmax, (x, 1), name="torch.softmax", **QUICK)
    assert "aten::softmax" in m.notes["flops"] or "aten::_softmax" in m.notes["flops"]
    assert not m.placement["placeable"]  # no FLOPs: not on the roofline, saying why
    assert m.placement["reason"]


def test_torch_compare_needs_torch_compile():
    if hasattr(torch, "compile"):
        pytest.skip(f"PyTorch {torch.__version__} has torch.compile: compare() runs (not tested here)")
    with pytest.raises(RuntimeError, match="torch.compile"):
        rtorch.compare(Linear(), (torch.randn(4, 256),))
