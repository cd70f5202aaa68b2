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
        if calls[0] > 1:  # the untimed call passes, the first timed one is interrupted
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


def test_a_real_ctrl_c_while_a_c_function_is_timed_keeps_what_finished(tmp_path, machine_model):
    """SIGINT as a terminal sends it, while the harness times NumPy's C code: the measurement
    stops at its next call, the Run is written marked interrupted, the process exits 130."""
    import os
    import signal
    import subprocess
    import sys
    import time
    script = tmp_path / "cut.py"
    script.write_text(f"""
import signal, sys, numpy as np, ridgeline
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, not ignored
ridgeline.use_machine({str(machine_model)!r})
x = np.ones(1 << 16, np.float32)
with ridgeline.Run({str(tmp_path / 'cut.json')!r}):
    ridgeline.measure(np.sum, x, flops=x.size, bytes=x.nbytes, name="first", repetitions=1,
                      min_time="0.01")
    print("first done", flush=True)
    ridgeline.measure(np.sum, x, flops=x.size, bytes=x.nbytes, name="long", repetitions=100,
                      min_time="1")
""")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                         stderr=subprocess.PIPE, env=os.environ)
    assert p.stdout.readline().strip() == "first done"
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)  # 100 repetitions of a second each, were it not stopped
    assert p.returncode != 0 and "KeyboardInterrupt" in err, err
    doc = json.loads((tmp_path / "cut.json").read_text())
    assert doc["context"]["ridgeline"]["interrupted"] is True
    assert {r["run_name"].split("/")[1] for r in doc["benchmarks"]} == {"python.first"}

