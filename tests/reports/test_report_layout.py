"""The HTML report's layout as headless Chromium lays it out at 1400 px wide: seen, not assumed.

A measuring script is appended to a copy of each report; Chromium (--dump-dom) runs it after
the page's own script and it writes what getBoundingClientRect, getComputedStyle, getBBox and
getScreenCTM say into <pre id="layout-measure">. The checks, each on every fixture:

- the first screen: #overview exists, before the roofline SVG, and all of it within the first
  screen (FOLD px, or the layout viewport's height where less);
- tables that fit: every tbody row of the tables in #results-section (else table#results) is at
  most two lines of its cells' text tall (2 line-heights + vertical padding + borders), no table
  runs past the page's width or sits in a box that scrolls sideways, and the page itself does
  not scroll sideways;
- labels that never collide: in every inline SVG, no two texts of class roof-label, level-label
  or point-label overlap each other, nor an unclassed text of the same SVG (axis ticks and
  titles), by more than 0.5 px. Each text's getBBox() is mapped through its getScreenCTM() to
  a quad (a rotated label stays a rotated rectangle, not its axis-aligned hull), and quads are
  tested with the separating-axis theorem. Overlaps between unclassed texts (axis ticks, the
  memory sweep's hwloc names) are printed, not asserted.

Why: these are what a reader sees first (the verdict above the fold, rows readable at a
glance, labels legible), and estimates made in C++ can drift from what a browser draws.

RIDGELINE names the binary; RIDGELINE_FIXTURES the recorded fixtures. RIDGELINE_LAYOUT_RUNS
replaces the fixture pairs for a manual check: "RUN[,MACHINE];..." (absolute, or relative to
the fixtures).
Skips, saying why, when Debian's chromium is not installed (scripts/install-deps installs it).
"""
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

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
# A 1400x1000 headless window lays out 1400 px wide (innerWidth, checked); its innerHeight is
# 857 (the window's frame) while a --screenshot of it is 1000 px high: FOLD is that first screen.
WIDTH, FOLD = 1400, 1000
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--window-size={WIDTH},{FOLD}", "--virtual-time-budget=5000"]
LABELS = ("roof-label", "level-label", "point-label")  # the writer uses roof-label only, today
# (run, machine or None for the model embedded in the run): the most crowded recorded runs (smoke:
# 12 f64 cases on 1 and 2 threads; einsum; fusion), with a probed model of the same VM whose
# levels on 1 and 2 threads give the most roofs to label (10), and smoke with its own model.
PAIRS = [("run-profile-amx-vm.json", None),  # the crowded real run: 84 cases, 18 roofs
         ("run-smoke-f64-zen4-vm.json", "machine-zen4-vm-passes.json"),
         ("run-smoke-f64-zen4-vm.json", None),
         ("run-einsum-small-zen4-vm.json", "machine-zen4-vm-passes.json"),
         ("run-fusion-small-zen5-vm.json", "machine-zen5-vm-levels.json")]
if os.environ.get("RIDGELINE_LAYOUT_RUNS"):
    PAIRS = [tuple((p.split(",") + [None])[:2]) for p in os.environ["RIDGELINE_LAYOUT_RUNS"].split(";") if p]

MEASURE = r"""<script>
window.addEventListener('load', function () {
  var de = document.documentElement;
  var all = function (q, r) { return [].slice.call((r || document).querySelectorAll(q)); };
  var name = function (e) { return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    ((e.getAttribute('class') || '').trim() ? '.' + e.getAttribute('class').trim().split(/\s+/).join('.') : ''); };
  var heading = function (e) { for (var n = e; n; n = n.previousElementSibling || n.parentElement)
    if (/^H[1-4]$/.test(n.tagName)) return n.textContent.trim(); return ''; };
  var px = function (v, fs) { return /px$/.test(v) ? parseFloat(v) : v === 'normal' ? 1.2 * fs : parseFloat(v) * fs; };
  var out = {viewport: {innerWidth: innerWidth, innerHeight: innerHeight,
                        clientWidth: de.clientWidth, scrollWidth: de.scrollWidth}};
  var ov = document.getElementById('overview'), roof = document.querySelector('svg[aria-label="Roofline plot"]');
  out.roofline_top = roof ? roof.getBoundingClientRect().top + scrollY : null;
  out.overview = ov && {top: ov.getBoundingClientRect().top + scrollY,
    bottom: ov.getBoundingClientRect().bottom + scrollY,
    before_roofline: !roof || !!(ov.compareDocumentPosition(roof) & Node.DOCUMENT_POSITION_FOLLOWING)};
  var sec = document.getElementById('results-section');
  out.tables_from = sec ? '#results-section' : 'table#results';
  out.tables = (sec ? all('table', sec) : all('table#results')).map(function (t) {
    var r = t.getBoundingClientRect(), scroller = null;
    for (var a = t.parentElement; a && a !== document.body && !scroller; a = a.parentElement)
      if (a.scrollWidth > a.clientWidth + 1 && getComputedStyle(a).overflowX !== 'visible')
        scroller = {name: name(a), scrollWidth: a.scrollWidth, clientWidth: a.clientWidth};
    return {name: name(t), heading: heading(t), right: r.right + scrollX, width: r.width, scroller: scroller,
      rows: all('tbody tr', t).map(function (tr) {
        var allowed = 0, lh = 0, tallest = null, head = t.tHead && t.tHead.rows[t.tHead.rows.length - 1];
        [].forEach.call(tr.cells, function (c) {
          var s = getComputedStyle(c), l = px(s.lineHeight, parseFloat(s.fontSize)), g = document.createRange();
          var a = 2 * l + parseFloat(s.paddingTop) + parseFloat(s.paddingBottom) +
                  parseFloat(s.borderTopWidth) + parseFloat(s.borderBottomWidth);
          if (a > allowed) { allowed = a; lh = l; }
          g.selectNodeContents(c);
          var h = g.getBoundingClientRect().height, w = c.getBoundingClientRect().width;
          if (!tallest || h > tallest.content_height) tallest = {content_height: h, width: w,
            column: head && head.cells[c.cellIndex] ? head.cells[c.cellIndex].textContent.trim() : '#' + c.cellIndex};
        });
        return {text: (tr.cells[0] ? tr.cells[0].textContent : '').trim().replace(/\s+/g, ' ').slice(0, 70),
                height: tr.getBoundingClientRect().height, allowed: allowed, line_height: lh, tallest: tallest};
      })};
  });
  out.svgs = all('svg').map(function (svg) {
    return {name: svg.getAttribute('aria-label') || name(svg), texts: all('text', svg).map(function (t) {
      var b = t.getBBox(), m = t.getScreenCTM();
      if (!m || !(b.width > 0 && b.height > 0)) return null;
      return {cls: t.getAttribute('class') || '', text: t.textContent,
        quad: [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(
          function (p) { return [m.a * p[0] + m.c * p[1] + m.e + scrollX, m.b * p[0] + m.d * p[1] + m.f + scrollY]; })};
    }).filter(Boolean)};
  });
  var pre = document.createElement('pre'); pre.id = 'layout-measure'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script></body>"""


def overlap(p, q):
    """How deep two convex quads overlap (px; <= 0: apart), by the separating-axis theorem:
    the smallest overlap of their projections on the normals of their edges."""
    depth = math.inf
    for quad in (p, q):
        for (x0, y0), (x1, y1) in zip(quad, quad[1:] + quad[:1]):
            n = math.hypot(x1 - x0, y1 - y0)
            if n == 0:
                continue
            ax, ay = (y0 - y1) / n, (x1 - x0) / n
            pp, qq = [x * ax + y * ay for x, y in p], [x * ax + y * ay for x, y in q]
            depth = min(depth, min(max(pp), max(qq)) - max(min(pp), min(qq)))
    return depth


def box(t):
    xs, ys = [x for x, _ in t["quad"]], [y for _, y in t["quad"]]
    return f"{t['text']!r} [{min(xs):.1f},{min(ys):.1f} .. {max(xs):.1f},{max(ys):.1f}]"


def collisions(svg):
    """Every overlapping pair of texts in one SVG, sorted into labels (both of a LABELS class),
    label-vs-axis (one a label, one unclassed) and other."""
    found = {"labels": [], "label-vs-axis": [], "other": []}
    texts = svg["texts"]
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            d = overlap(a["quad"], b["quad"])
            if d > 0.5:
                n = (a["cls"] in LABELS) + (b["cls"] in LABELS)
                kind = "labels" if n == 2 else "label-vs-axis" if n == 1 else "other"
                found[kind].append(f"{svg['name']}: {box(a)} x {box(b)} by {d:.1f} px")
    return found


def measure(run, machine, workdir):
    """The report of `run` (with `machine`), laid out by Chromium: the measuring script's JSON."""
    page = os.path.join(workdir, "report.html")
    args = [RIDGELINE, "report", os.path.join(FIXTURES, run), "-o", page]
    if machine:
        args += ["--machine", os.path.join(FIXTURES, machine)]
    subprocess.run(args, check=True, capture_output=True)
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with open(page, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", MEASURE))
    r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={os.path.join(workdir, 'profile')}", "--dump-dom",
                        "file://" + page], capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="layout-measure">(.*?)</pre>', r.stdout, re.S)
    if not m:
        raise AssertionError(f"no measurement from Chromium: {r.stderr[-2000:]}")
    return json.loads(html.unescape(m.group(1)))


@unittest.skipIf(NO_CHROMIUM, NO_CHROMIUM)
class ReportLayoutAt1400(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pages = {}
        for run, machine in PAIRS:
            key = f"{os.path.basename(run)} + {os.path.basename(machine) if machine else 'its own machine'}"
            with tempfile.TemporaryDirectory() as d:
                cls.pages[key] = m = measure(run, machine, d)
            labels = sum(t["cls"] in LABELS for s in m["svgs"] for t in s["texts"])
            found = [c for s in m["svgs"] for c in collisions(s)["labels"]]
            print(f"\n[layout] {key}: viewport {m['viewport']}, overview {m['overview']}, roofline top "
                  f"{m['roofline_top']}; {labels} labels, {len(found)} label collision(s)", file=sys.stderr)
            for svg in m["svgs"]:
                for kind, pairs in collisions(svg).items():
                    for p in pairs:
                        print(f"[layout]   {kind}: {p}", file=sys.stderr)

    def each(self, check):
        """check(key, measurement) on every fixture, each a subtest of its own."""
        for key, m in self.pages.items():
            with self.subTest(fixture=key):
                self.assertEqual(m["viewport"]["innerWidth"], WIDTH, "Chromium did not lay out at the width asked")
                check(key, m)

    def test_overview_is_on_the_first_screen_before_the_roofline(self):
        def check(key, m):
            ov = m["overview"]
            self.assertIsNotNone(ov, f"{key}: no element #overview (the roofline SVG starts at "
                                     f"{m['roofline_top']} px)")
            self.assertLess(ov["top"], FOLD, f"{key}: #overview starts at {ov['top']:.0f} px, below the "
                                             f"first {FOLD} px (innerHeight {m['viewport']['innerHeight']})")
            self.assertTrue(ov["before_roofline"], f"{key}: #overview comes after the roofline SVG")
            # The whole of it on the first screen: Chromium's headless layout viewport is
            # innerHeight tall (857 px in a 1000 px window), less than FOLD.
            fold = min(FOLD, m["viewport"]["innerHeight"])
            self.assertLessEqual(ov["bottom"], fold, f"{key}: #overview ends at {ov['bottom']:.0f} px, "
                                                     f"below the first screen ({fold} px)")
        self.each(check)

    def test_result_rows_are_at_most_two_lines_tall(self):
        def check(key, m):
            self.assertTrue(m["tables"], f"{key}: no table in {m['tables_from']}")
            bad = []
            for t in m["tables"]:
                tall = sorted((r for r in t["rows"] if r["height"] > r["allowed"] + 0.5), key=lambda r: -r["height"])
                if tall:
                    bad.append(f"{t['name']} ({t['heading']!r}): {len(tall)} of {len(t['rows'])} rows taller than "
                               "two lines; the tallest:")
                    bad += [f"  {r['height']:.1f} px > {r['allowed']:.1f} (line-height {r['line_height']:.1f}); "
                            f"tallest cell {r['tallest']['column']!r} {r['tallest']['width']:.0f} px wide, "
                            f"{r['tallest']['content_height']:.0f} px of text: {r['text']}" for r in tall[:5]]
            if bad:
                self.fail(f"{key}:\n" + "\n".join(bad))
        self.each(check)

    def test_result_tables_fit_the_width(self):
        def check(key, m):
            cw, bad = m["viewport"]["clientWidth"], []
            for t in m["tables"]:
                if t["right"] > cw + 0.5:
                    bad.append(f"{t['name']} ({t['heading']!r}) is {t['width']:.0f} px wide and ends at "
                               f"{t['right']:.0f} px, past the page's {cw} px")
                if t["scroller"]:
                    bad.append(f"{t['name']} ({t['heading']!r}) scrolls sideways in {t['scroller']}")
            if bad:
                self.fail(f"{key}:\n" + "\n".join(bad))
        self.each(check)

    def test_page_does_not_scroll_sideways(self):
        def check(key, m):
            v = m["viewport"]
            self.assertLessEqual(v["scrollWidth"], v["clientWidth"], f"{key}: the page is {v['scrollWidth']} px "
                                 f"wide in a {v['clientWidth']} px window")
        self.each(check)

    def test_labels_never_collide(self):
        def check(key, m):
            self.assertTrue(any(t["cls"] == "roof-label" for s in m["svgs"] for t in s["texts"]),
                            f"{key}: no roof-label drawn")
            found = [c for s in m["svgs"] for k, cs in collisions(s).items() if k != "other" for c in cs]
            if found:
                self.fail(f"{key}: {len(found)} pairs of texts overlap:\n" + "\n".join(found))
        self.each(check)


if __name__ == "__main__":
    unittest.main()
