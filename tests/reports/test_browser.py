"""The HTML report in headless Chromium: it renders (the screenshot is not blank), its
script runs to the end, and the console shows no error.

RIDGELINE names the binary; RIDGELINE_FIXTURES the recorded fixtures. Skips, saying why,
when Debian's chromium is not installed (scripts/install-deps installs it).
"""
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib

from arch_facts import EMULATED

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.environ.get("RIDGELINE_FIXTURES", os.path.join(os.path.dirname(__file__), "..", "fixtures"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Under qemu-user (an arm64 build on an x86 host: scripts/arm64-chroot) Chromium's child
# processes do not start ("GPU process launch failed: error_code=1002") and no page is drawn;
# the page is the same on every architecture, and is checked in Chromium on x86-64.
NO_CHROMIUM = ("Debian's chromium is not installed (scripts/install-deps installs it)" if not CHROMIUM
               else "Chromium draws no page under qemu-user (its child processes do not start)" if EMULATED
               else "")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]


def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA PNG (what Chromium writes) into rows of bytes."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if filt == 1:
                line[x] = (line[x] + a) & 255
            elif filt == 2:
                line[x] = (line[x] + b) & 255
            elif filt == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def colours_and_dark(rows, channels, step):
    """Over every `step`-th pixel of each row: how many distinct colours, how many dark pixels
    (what tells a drawn picture from a blank one)."""
    pixels, dark = set(), 0
    for row in rows:
        for x in range(0, len(row), channels * step):
            px = row[x:x + 3]
            pixels.add(px)
            dark += sum(px) < 384
    return len(pixels), dark


@unittest.skipIf(NO_CHROMIUM, NO_CHROMIUM)
class ReportInChromium(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.html = os.path.join(self.dir.name, "report.html")
        subprocess.run([RIDGELINE, "report", os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json"), "-o", self.html],
                       check=True, capture_output=True)
        self.profile = os.path.join(self.dir.name, "chromium-profile")

    def tearDown(self):
        self.dir.cleanup()

    def chromium(self, *args):
        return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", *args,
                               "file://" + self.html], capture_output=True, text=True, timeout=120)

    def test_renders_a_roofline_that_is_not_blank(self):
        shot = os.path.join(self.dir.name, "shot.png")
        r = self.chromium("--window-size=1100,900", f"--screenshot={shot}")
        self.assertTrue(os.path.exists(shot), r.stderr[-2000:])
        width, height, channels, rows = png_pixels(shot)
        self.assertEqual((width, height), (1100, 900))
        pixels, dark = colours_and_dark(rows, channels, 7)
        self.assertGreater(pixels, 20, "a handful of colours: blank page?")
        self.assertGreater(dark, 500, "almost no dark pixels: nothing drawn?")

    def test_roof_labels_fit_the_boxes_the_scene_reserved(self):
        """The scene places labels by estimated text extents (data-w); the browser's own
        measure of each label must fit inside, or two labels could still touch."""
        with open(self.html, encoding="utf-8") as f:
            page = f.read()
        probe = """<script>
var out = [];
document.querySelectorAll('text.roof-label').forEach(function (t) {
  var box = t.getBBox();
  out.push({text: t.textContent, width: t.getComputedTextLength(), reserved: parseFloat(t.getAttribute('data-w')),
            top: box.y - parseFloat(t.getAttribute('y')), bottom: box.y + box.height - parseFloat(t.getAttribute('y')),
            size: parseFloat(t.getAttribute('font-size'))});
});
var pre = document.createElement('pre'); pre.id = 'label-check'; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script></body>"""
        with open(self.html, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", probe))
        r = self.chromium("--dump-dom")
        m = re.search(r'<pre id="label-check">(.*?)</pre>', r.stdout, re.S)
        self.assertIsNotNone(m, r.stderr[-2000:])
        import html as html_lib
        import json
        labels = json.loads(html_lib.unescape(m.group(1)))
        self.assertGreater(len(labels), 4, "the recorded run's roofs are labelled")
        for label in labels:
            self.assertLessEqual(label["width"], label["reserved"], label)
            # The box reserved above and below the baseline: 0.95 and 0.3 font sizes.
            self.assertGreaterEqual(label["top"], -0.95 * label["size"] - 0.5, label)
            self.assertLessEqual(label["bottom"], 0.3 * label["size"] + 0.5, label)

    def test_script_runs_to_the_end_without_console_errors(self):
        r = self.chromium("--dump-dom")
        self.assertIn('data-report-ready="1"', r.stdout, r.stderr[-2000:])
        console = [line for line in r.stderr.splitlines() if "CONSOLE" in line]
        errors = [line for line in console if re.search(r"Uncaught|Error|error", line)]
        self.assertEqual(errors, [], "\n".join(console))


@unittest.skipIf(NO_CHROMIUM, NO_CHROMIUM)
class ComparisonInChromium(unittest.TestCase):
    """`report BASE NEW`: the recorded run against a copy with cpu.naive three times slower."""

    def setUp(self):
        import json
        self.dir = tempfile.TemporaryDirectory()
        base = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")
        with open(base) as f:
            run = json.load(f)
        for b in run["benchmarks"]:
            if b.get("ridgeline", {}).get("backend") == "cpu.naive":
                b["real_time"] *= 3
                b["cpu_time"] *= 3
        slow = os.path.join(self.dir.name, "slow.json")
        with open(slow, "w") as f:
            json.dump(run, f)
        self.html = os.path.join(self.dir.name, "cmp.html")
        subprocess.run([RIDGELINE, "report", base, slow, "-o", self.html], check=True, capture_output=True)
        self.profile = os.path.join(self.dir.name, "chromium-profile")

    def tearDown(self):
        self.dir.cleanup()

    def test_the_page_draws_its_arrow_and_sorts_the_verdicts_without_errors(self):
        with open(self.html, encoding="utf-8") as f:
            page = f.read()
        # Sort by the ratio column (the second), largest first (two clicks), and report the first
        # row's case (the sixth column).
        probe = """<script>
var th = document.querySelectorAll('#verdicts th')[1];
th.click(); th.click();
var first = document.querySelector('#verdicts tbody tr');
var pre = document.createElement('pre'); pre.id = 'check';
pre.textContent = JSON.stringify({first: first.cells[5].textContent, ratio: first.cells[1].textContent,
  arrows: document.querySelectorAll('path.comparison-arrow').length,
  base: document.querySelectorAll('g.point.base').length, head: document.querySelectorAll('g.point.new').length});
document.body.appendChild(pre);
</script></body>"""
        with open(self.html, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", probe))
        r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "--dump-dom",
                            "file://" + self.html], capture_output=True, text=True, timeout=120)
        self.assertIn('data-report-ready="1"', r.stdout, r.stderr[-2000:])
        m = re.search(r'<pre id="check">(.*?)</pre>', r.stdout, re.S)
        self.assertIsNotNone(m, r.stderr[-2000:])
        import html as html_lib
        import json
        check = json.loads(html_lib.unescape(m.group(1)))
        self.assertIn("/cpu.naive/", check["first"])
        self.assertEqual(check["ratio"], "3.000")
        self.assertEqual(check["arrows"], 1)
        self.assertEqual(check["base"], check["head"])
        self.assertGreater(check["base"], 5)
        console = [line for line in r.stderr.splitlines() if "CONSOLE" in line]
        self.assertEqual([line for line in console if re.search(r"Uncaught|Error|error", line)], [],
                         "\n".join(console))


if __name__ == "__main__":
    unittest.main()
