"""What every CLI test module shares: the binary, the fixtures and a test cache.

RIDGELINE names the binary (CTest sets it). The machine-model cache is each module's own,
apart from the user's, and removed when the module ends (call remove_cache from
tearDownModule).
"""
import os
import shutil
import subprocess
import tempfile

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}


def remove_cache():
    shutil.rmtree(CACHE, ignore_errors=True)


def ridgeline(*args, timeout=300):
    return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout, env=ENV)
