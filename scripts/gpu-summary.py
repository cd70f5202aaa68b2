#!/usr/bin/env python3
"""Summary of a scripts/gpu-check directory: test counts, the GPU ceilings the probe
measured, each GPU case's median rate, the issue's ratios (best SIMT f32 vs cuBLAS SGEMM at
4096^3, tensor-core bf16 vs cuBLAS bf16 at 8192^3) and the data-pattern table."""
import json
import statistics
import sys
from pathlib import Path


def load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        print(f"  {path.name}: not readable ({e})")
        return None


def metric(bench, name, source=None):
    """The metric's value; with source, only when it has that source (an analytic FLOP count
    must never pass for a counted one)."""
    for m in bench.get("ridgeline", {}).get("metrics", []):
        if m["name"] == name and source in (None, m.get("source")):
            return m["value"]
    return None


def cases(run):
    """run_name -> dict(backend, dtype, n, rates, metrics lists, disposition)."""
    out = {}
    for b in run.get("benchmarks", []):
        r = b.get("ridgeline")
        if not r or b.get("run_type") != "iteration":
            continue
        c = out.setdefault(b["run_name"], {"backend": r["backend"], "dtype": r["dtype"],
                                           "shape": r["params"]["dims"] if "params" in r else r["shape"],
                                           "pattern": r["pattern"],
                                           "disposition": r["validation"]["disposition"],
                                           "message": r["validation"].get("message", ""),
                                           "rate": [], "power": [], "clock": [], "throttled": [],
                                           "per_joule": [], "instant": [], "changes": [],
                                           "samples": [], "flops": [], "dram": []})
        for key, name in (("rate", "flop_rate"), ("power", "power.gpu.avg"),
                          ("clock", "clock.sm.avg"), ("throttled", "gpu.throttled"),
                          ("per_joule", "flop_per_joule.gpu"), ("instant", "nvml.power_instant"),
                          ("changes", "nvml.power_changes"), ("samples", "nvml.samples"),
                          ("flops", "flops"), ("dram", "bytes.dram")):
            v = metric(b, name, "counted" if key in ("flops", "dram") else None)
            if v is not None:
                c[key].append(v)
    return out


def med(values):
    return statistics.median(values) if values else None


def main(out):
    out = Path(out)
    print("== gpu-check summary ==")
    steps = out / "steps.txt"
    if steps.exists():
        print(steps.read_text().rstrip())
    tests = out / "gpu-tests.json"
    if tests.exists() and (t := load(tests)):
        skipped = sum(1 for s in t.get("testsuites", []) for c in s.get("testsuite", [])
                      if c.get("result") == "SKIPPED")
        print(f"gpu tests: {t['tests']} run, {t['failures']} failed, {skipped} skipped")
        for s in t.get("testsuites", []):
            for c in s.get("testsuite", []):
                for key, value in c.items():
                    if key.startswith("nvml."):
                        print(f"  NVML {key}: {value}")
                    if key.endswith("counted_over_analytic"):
                        print(f"  CUPTI {key}: {value} (target within 1% of 1)")
                for f in c.get("failures", []):
                    print(f"  FAILED {s['name']}.{c['name']}: {f['failure'].splitlines()[0]}")
    machine = out / "machine.json"
    m = load(machine) if machine.exists() else None
    if m:
        for g in m.get("gpus", []):
            print(f"GPU {g.get('name')}")
        if m.get("gpu_reason"):
            print(f"  {m['gpu_reason']}")
        for c in m.get("compute", []):
            if c.get("device") == "gpu":
                theo = c.get("theoretical_per_second", 0)
                of = f" ({100 * c['per_second'] / theo:.0f}% of {theo / 1e12:.1f})" if theo else ""
                print(f"  ceiling {c['name']:<24} {c['per_second'] / 1e12:9.2f} T{c.get('unit', 'FLOP/s')}{of}")
        for c in m.get("memory", []):
            if c.get("device") == "gpu":
                print(f"  ceiling {c['level'] + '.' + c.get('kernel', ''):<24} {c['bytes_per_s'] / 1e9:9.1f} GB/s"
                      f"  {c.get('method', '')}")
        for o in m.get("overhead", []):
            if o.get("device") == "gpu":
                print(f"  overhead {o['name']:<23} {o['seconds'] * 1e6:9.2f} us")
        copies = {c.get("method", ""): c["bytes_per_s"] for c in m.get("memory", [])
                  if c.get("device") == "gpu" and c["level"] == "HBM" and c["kernel"] == "copy"}
        memcpy = [v for k, v in copies.items() if k.startswith("cudaMemcpy")]
        kernel = [v for k, v in copies.items() if not k.startswith("cudaMemcpy")]
        if memcpy and kernel:
            print(f"probe HBM copy kernel (best) / cudaMemcpy d2d: {max(kernel) / 1e9:.0f} / {memcpy[0] / 1e9:.0f} GB/s"
                  f" = {max(kernel) / memcpy[0]:.3f} (target within 5%)")
    network = out / "network.json"  # step nccl: probe --network under mpirun
    if network.exists() and (n := load(network)):
        largest = {}  # each scope and pattern's largest message
        for p in n.get("network", []):
            if p.get("device") == "gpu":
                key = (p["scope"], p["pattern"])
                if key not in largest or p["bytes"] > largest[key]["bytes"]:
                    largest[key] = p
        for p in largest.values():
            print(f"  NCCL {p['scope']} {p['pattern']:<14} {p['ranks']} ranks {p['bytes']:>10} B:"
                  f" {p['seconds'] * 1e6:9.2f} us {p['bytes_per_s'] / 1e9:8.2f} GB/s"
                  f" (bus {p['bus_bytes_per_s'] / 1e9:.2f})")
        if n.get("network_reason"):
            print(f"  network: {n['network_reason']}")
    run = out / "gpu-run.json"
    if run.exists() and (r := load(run)):
        cs = cases(r)
        print(f"{'case':<70} {'TFLOP/s':>9} {'W':>6} {'MHz':>6}")
        for name, c in cs.items():
            rate = med(c["rate"])
            if rate is None:
                print(f"{name:<70} {c['disposition']}: {c['message'][:60]}")
                continue
            power, clock = med(c["power"]), med(c["clock"])
            print(f"{name:<70} {rate / 1e12:9.2f} {power or 0:6.0f} {(clock or 0) / 1e6:6.0f}")

        def best(pred):
            rates = [med(c["rate"]) for c in cs.values() if pred(c) and c["rate"]]
            return max(rates) if rates else None

        def ratio(label, ours, ref):
            if ours and ref:
                print(f"{label}: {ours / 1e12:.2f} / {ref / 1e12:.2f} TFLOP/s = {ours / ref:.3f}")
            else:
                print(f"{label}: not measured")
        n4096 = lambda c: c["shape"]["m"] == c["shape"]["n"] == c["shape"]["k"] == 4096
        n8192 = lambda c: c["shape"]["m"] == c["shape"]["n"] == c["shape"]["k"] == 8192
        ratio("best SIMT f32 / cuBLAS SGEMM at 4096^3 (target >= 0.8)",
              best(lambda c: n4096(c) and c["backend"].startswith("cuda.simt") and c["dtype"] == "f32"),
              best(lambda c: n4096(c) and c["backend"] == "cuda.cublas" and c["dtype"] == "f32"))
        cublas_bf16 = best(lambda c: n8192(c) and c["backend"] == "cuda.cublas" and c["dtype"] == "bf16")
        for prefix, label, target in (("cuda.wmma", "WMMA", 0.6), ("cuda.mma_", "mma.sync", 0.6),
                                      ("cuda.wgmma", "wgmma", 0.8)):
            for dt in ("bf16", "f16"):
                lib = best(lambda c: n8192(c) and c["backend"] == "cuda.cublas" and c["dtype"] == dt)
                ratio(f"{label} {dt} / cuBLAS {dt} at 8192^3 (target >= {target})",
                      best(lambda c: n8192(c) and c["backend"].startswith(prefix) and c["dtype"] == dt),
                      lib)
        if m:
            peaks = [c["per_second"] for c in m.get("compute", [])
                     if c.get("device") == "gpu" and c["dtype"] == "bf16"]
            ratio("probe bf16 tensor ceiling / cuBLAS bf16 at 8192^3 (target within 5%)",
                  max(peaks) if peaks else None, cublas_bf16)
    patterns = out / "gpu-patterns.json"
    if patterns.exists() and (p := load(patterns)):
        print(f"{'pattern':<10} {'TFLOP/s':>9} {'avg W':>7} {'SM MHz':>7} {'TFLOP/J':>8} throttled"
              f"  power source (changed/samples)")
        for c in cases(p).values():
            rate, power, clock = med(c["rate"]), med(c["power"]), med(c["clock"])
            per_joule = med(c["per_joule"])
            source = ("instant" if all(c["instant"]) else "1 s average") if c["instant"] else "?"
            print(f"{c['pattern']:<10} {(rate or 0) / 1e12:9.2f} {power or 0:7.0f} {(clock or 0) / 1e6:7.0f}"
                  f" {(per_joule or 0) / 1e12:8.3f} {'yes' if any(c['throttled']) else 'no':<9}"
                  f"  {source} ({sum(c['changes']):.0f}/{sum(c['samples']):.0f})")
    fusion = out / "gpu-fusion.json"
    if fusion.exists() and (f := load(fusion)):
        fusion_table(f, m)
    counted = out / "gpu-counted.json"
    if counted.exists() and (k := load(counted)):
        print(f"{'CUPTI-counted case':<70} {'FLOPs/2mnk':>10} {'HBM GB':>8}")
        for name, c in cases(k).items():
            s = c["shape"]
            analytic = 2.0 * s["m"] * s["n"] * s["k"] * s.get("batch", 1)
            flops, dram = med(c["flops"]), med(c["dram"])
            print(f"{name:<70} {flops / analytic if flops else float('nan'):10.4f}"
                  f" {(dram or 0) / 1e9:8.2f}" + ("" if flops else f"  {c['disposition']} {c['message'][:40]}"))


def fusion_table(run, machine):
    """Each op, problem and dtype of the gpu-fusion run: the median time per call of the
    unfused chain, the fused kernel and the vendor, the fused kernel's rate of the op's
    compulsory bytes against the probe's best HBM copy, and energy per call (NVML's joules
    summed over the repetitions over their calls, as the fusion analysis computes it)."""
    copy = max((c["bytes_per_s"] for c in (machine or {}).get("memory", [])
                if c.get("device") == "gpu" and c["level"] == "HBM" and c["kernel"] == "copy"),
               default=None)
    rows = {}
    for b in run.get("benchmarks", []):
        r = b.get("ridgeline")
        if not r or b.get("run_type") != "iteration":
            continue
        key = (r["op"], "/".join(f"{k}={v}" for k, v in r["params"]["dims"].items())
               + "".join(f"/{k}={v}" for k, v in r["params"].get("attrs", {}).items()), r["dtype"])
        side = {"fused": "fused", "unfused": "unfused"}.get(r.get("role"), "vendor")
        entry = rows.setdefault(key, {}).setdefault(side, {"t": [], "bps": [], "j": [], "why": ""})
        if b.get("error_occurred"):
            entry["why"] = b.get("error_message", "")[:60]
            continue
        t = metric(b, "time_per_iteration")
        if t:
            entry["t"].append(t)
        if b.get("bytes_per_second"):
            entry["bps"].append(b["bytes_per_second"])
        e = metric(b, "energy.gpu")
        if e and b.get("iterations"):  # joules and calls summed over the repetitions
            entry["j"].append((e, b["iterations"]))
    print(f"{'fusion case':<52} {'unfused us':>10} {'fused us':>9} {'speedup':>7} {'vendor us':>9}"
          f" {'fused GB/s':>10} {'of copy':>7} {'J unf/fus':>9}")
    for (op, params, dtype), sides in rows.items():
        t = {k: med(v["t"]) for k, v in sides.items()}
        u, fu, ve = t.get("unfused"), t.get("fused"), t.get("vendor")
        bps = med(sides.get("fused", {}).get("bps", []))
        per_call = lambda js: sum(j for j, _ in js) / sum(n for _, n in js) if js else None
        j_u = per_call(sides.get("unfused", {}).get("j", []))
        j_f = per_call(sides.get("fused", {}).get("j", []))
        cell = lambda x, scale=1e6, w=9: f"{x * scale:{w}.1f}" if x else f"{'-':>{w}}"
        print(f"{op + ' ' + params + ' ' + dtype:<52} {cell(u, w=10)} {cell(fu)}"
              f" {(u / fu if u and fu else 0):7.2f} {cell(ve)} {cell(bps, 1e-9, 10)}"
              f" {(bps / copy if bps and copy else 0):7.2f} {(j_u / j_f if j_u and j_f else 0):9.2f}")
        for side, v in sides.items():
            if v["why"]:
                print(f"  {side}: {v['why']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/gpu-check")
