"""The Python module's tests (pytest; CTest runs them as python.*). Every test places its
measurements under a model of this machine measured once per session by the command itself
(`ridgeline probe --only`: the f32 and f64 FMA peaks and the read bandwidth of each level, about
15 s), never a user's cache: XDG_CACHE_HOME is a fresh directory."""
import os
import subprocess
import sys

import pytest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.environ.get("RIDGELINE_FIXTURES", "")


@pytest.fixture(scope="session", autouse=True)
def machine_model(tmp_path_factory):
    home = tmp_path_factory.mktemp("cache")
    os.environ["XDG_CACHE_HOME"] = str(home)
    path = home / "machine.json"
    subprocess.run([RIDGELINE, "probe", "--only", r"^(f32|f64)\.|read", "--no-check", "-o", str(path)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import ridgeline
    ridgeline.use_machine(path)
    return path


def cli(*args, check=True):
    """`ridgeline ARGS...`: the completed process (text)."""
    p = subprocess.run([RIDGELINE, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ridgeline {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p


QUICK = dict(repetitions=3, min_time="0.02", warmup=0.0)
sys.path.insert(0, os.path.dirname(__file__))
