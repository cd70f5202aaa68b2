"""Runs written from Python open like any other: `ridgeline report`, `compare`, load(); a
Python measurement beside a native kernel's in one Run; Ctrl-C keeps what finished."""
import json

import numpy as np
import pytest

import ridgeline
import ridgeline.numpy as rnp
from conftest import QUICK, cli


def gemm_run(path):
    a = np.random.default_rng(1).standard_normal((256, 256), dtype=np.float32)
    with ridgeline.Run(path) as run:
        rnp.measure(np.matmul, a, a, threads=1, **QUICK)
        native = ridgeline.kernel("cpu.naive", "gemm", dtype="f32", threads=1, m=256, n=256, k=256)
        run.measure(native, work=native.work, threads=1, name="native.cpu.naive", **QUICK)
    return run


def test_a_run_from_python_passes_report_and_compare(tmp_path):
    path = tmp_path / "py.json"
    run = gemm_run(path)
    doc = json.loads(path.read_text())
    assert doc["context"]["ridgeline"]["provenance"]["suite"] == "python"
    names = [r["run_name"] for r in doc["benchmarks"] if r["run_type"] == "iteration"]
    assert any("python.numpy.matmul" in n for n in names)
    assert any("python.native.cpu.naive" in n for n in names)
    assert (tmp_path / "py.jsonl").exists()  # the journal, a line per row
    assert len((tmp_path / "py.jsonl").read_text().splitlines()) == len(doc["benchmarks"])
    cli("report", path, "-o", tmp_path / "r.html", "-o", tmp_path / "r.md")
    html = (tmp_path / "r.html").read_text()
    assert "python.numpy.matmul" in html and "<svg" in html
    # Both gemm cases in the one gemm table of the Markdown report.
    md = (tmp_path / "r.md").read_text()
    assert "python.numpy.matmul" in md and "python.native.cpu.naive" in md
    p = cli("compare", path, path, check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    assert run.results.cases and len(run.measurements) == 2


def test_load_to_pandas_and_the_notebook_view(tmp_path):
    path = tmp_path / "py.json"
    gemm_run(path)
    res = ridgeline.load(path)
    assert len(res.placements) == 2 and not res.interrupted
    df = res.to_pandas()
    assert list(df["op"]) == ["gemm", "gemm"] and (df["achieved"] > 0).all()
    html = res._repr_html_()
    assert "<svg" in html and 'id="overview"' in html


def test_load_reads_a_google_benchmark_file(tmp_path):
    import os
    fixtures = os.environ["RIDGELINE_FIXTURES"]
    res = ridgeline.load(os.path.join(fixtures, "gbench-1.9.5-rates.json"))
    assert res.placements


def test_two_measurements_of_one_name_are_refused(tmp_path):
    x = np.ones(64, dtype=np.float32)
    with ridgeline.Run(tmp_path / "twice.json"):
        ridgeline.measure(np.sum, x, flops=64, bytes=256, name="s", **QUICK)
        with pytest.raises(ValueError, match="name"):
            ridgeline.measure(np.sum, x, flops=64, bytes=256, name="s", **QUICK)


def test_a_run_names_a_json_file(tmp_path):
    with pytest.raises(ValueError, match="path"):
        with ridgeline.Run(tmp_path / "out.html"):
            pass


def test_ctrl_c_keeps_what_finished(tmp_path):
    x = np.ones(64, dtype=np.float32)
    calls = [0]

    def interrupted():
        calls[0] += 1
        if calls[0] > 3:
            raise KeyboardInterrupt
    path = tmp_path / "cut.json"
    with pytest.raises(KeyboardInterrupt):
        with ridgeline.Run(path):
            ridgeline.measure(np.sum, x, flops=64, bytes=256, name="first", **QUICK)
            ridgeline.measure(interrupted, flops=64, bytes=256, dtype="f32", name="second", **QUICK)
    doc = json.loads(path.read_text())
    assert doc["context"]["ridgeline"]["interrupted"] is True
    names = {r["run_name"] for r in doc["benchmarks"]}
    assert any("python.first" in n for n in names) and not any("python.second" in n for n in names)
    cli("report", path, "-o", tmp_path / "cut.md")


def test_a_failed_measurement_is_recorded_and_the_run_goes_on(tmp_path):
    path = tmp_path / "failed.json"
    x = np.ones(64, dtype=np.float32)
    with ridgeline.Run(path):
        ridgeline.measure(lambda: 1 / 0, flops=1, bytes=1, dtype="f32", name="zero", **QUICK)
        ridgeline.measure(np.sum, x, flops=64, bytes=256, name="after", **QUICK)
    doc = json.loads(path.read_text())
    dispositions = {r["run_name"].split("/")[1]: r["ridgeline"]["validation"]["disposition"]
                    for r in doc["benchmarks"]}
    assert dispositions["python.zero"] == "crashed" and dispositions["python.after"] == "not_verified"
    assert "ZeroDivisionError" in next(r["error_message"] for r in doc["benchmarks"]
                                       if "python.zero" in r["run_name"])
