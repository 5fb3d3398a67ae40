#!/usr/bin/python3
"""Benchmark driver: runs a baseline and one or more candidates in the same
run, interleaved, and prints medians, ratios, throughput and peak RSS.

    driver.py --name NAME [--repeat 5] [--bytes-from FILE | --bytes N]
              [--records N] --baseline CMD --candidate CMD
    driver.py --name NAME --run LABEL CMD --run LABEL CMD ...   (first = baseline)
              [--threads LABEL N ...]

--threads gives a run's thread count and adds a column "MB/s per thread"
(MB/s divided by the count; runs not named count one thread).

Commands run under `bash -o pipefail -c`, started by bench_runrss (built in
bench/), with stdout discarded. Peak RSS is the largest resident set of the
command's processes (wait4 rusage, free of the driver's own memory). Runs are interleaved
(baseline, candidate, baseline, ...) so machine noise hits both alike; ratios
are candidate median / baseline median. A failing command stops the bench.
--json FILE appends one JSON object per bench for later tables.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


RUNNER = None  # bench_runrss, set in main()


def run_once(cmd):
    """Runs cmd through bench_runrss; returns (wall s, peak RSS bytes, CPU s)."""
    report = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"pc-bench-rss.{os.getpid()}")
    t0 = time.perf_counter()
    rc = subprocess.call([RUNNER, cmd], stdout=subprocess.DEVNULL, env={**os.environ, "BENCH_RUNRSS_OUT": report})
    wall = time.perf_counter() - t0
    if rc != 0:
        sys.exit(f"bench: command failed with exit {rc}: {cmd}")
    with open(report) as f:
        kb, user, system = f.read().split()
    os.unlink(report)
    return wall, int(kb) * 1024, float(user) + float(system)


def human(n):
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000:
            return f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs of each command first")
    ap.add_argument("--bytes", type=int, help="input size for MB/s")
    ap.add_argument("--bytes-from", help="file whose size is the input size")
    ap.add_argument("--records", type=int, help="record count for records/s")
    ap.add_argument("--baseline")
    ap.add_argument("--candidate", action="append", default=[])
    ap.add_argument("--run", nargs=2, action="append", default=[], metavar=("LABEL", "CMD"))
    ap.add_argument("--threads", nargs=2, action="append", default=[], metavar=("LABEL", "N"),
                    help="the thread count of a run, for a MB/s-per-thread column")
    ap.add_argument("--json", help="append results as JSON lines to this file")
    ap.add_argument("--runner", help="path of bench_runrss [$PC_BENCH_RUNNER or build/release/bench/bench_runrss]")
    a = ap.parse_args()
    global RUNNER
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    RUNNER = a.runner or os.environ.get("PC_BENCH_RUNNER") or os.path.join(root, "build/release/bench/bench_runrss")
    if not os.access(RUNNER, os.X_OK):
        ap.error(f"no bench_runrss at {RUNNER}: build the release preset first, or pass --runner")

    runs = list(a.run)
    if a.baseline:
        runs.insert(0, ("baseline", a.baseline))
    for i, c in enumerate(a.candidate):
        runs.append((f"candidate{i + 1 if len(a.candidate) > 1 else ''}", c))
    if len(runs) < 2:
        ap.error("need a baseline and at least one candidate")
    size = a.bytes or (os.path.getsize(a.bytes_from) if a.bytes_from else None)
    threads = {label: int(n) for label, n in a.threads}
    unknown = set(threads) - {label for label, _ in runs}
    if unknown:
        ap.error(f"--threads names no run: {', '.join(sorted(unknown))}")
    per_thread = bool(threads) and size is not None

    for _ in range(a.warmup):
        for _, cmd in runs:
            run_once(cmd)
    walls = {label: [] for label, _ in runs}
    rss = {label: 0 for label, _ in runs}
    cpu = {label: [] for label, _ in runs}
    for _ in range(a.repeat):
        for label, cmd in runs:
            w, r, c = run_once(cmd)
            walls[label].append(w)
            cpu[label].append(c)
            rss[label] = max(rss[label], r)

    base_label = runs[0][0]
    base = statistics.median(walls[base_label])
    print(f"bench {a.name}: {a.repeat} interleaved runs each" + (f", input {human(size)}" if size else ""))
    print(f"  {'command':<28} {'median s':>9} {'min s':>8} {'CPU s':>7} {'MB/s':>8}"
          + (f" {'MB/s/thread':>12}" if per_thread else "") + f" {'rec/s':>10} {'peak RSS':>10} {'ratio':>7}")
    results = []
    for label, cmd in runs:
        med = statistics.median(walls[label])
        mbs = f"{size / med / 1e6:8.1f}" if size else f"{'-':>8}"
        rps = f"{a.records / med:10.0f}" if a.records else f"{'-':>10}"
        ratio = med / base
        pt = f" {size / med / 1e6 / threads.get(label, 1):12.1f}" if per_thread else ""
        print(f"  {label:<28} {med:9.3f} {min(walls[label]):8.3f} {statistics.median(cpu[label]):7.2f} {mbs}{pt} {rps} "
              f"{human(rss[label]):>10} {ratio:6.2f}x")
        results.append({"label": label, "cmd": cmd, "median_s": med, "min_s": min(walls[label]),
                        "cpu_s": statistics.median(cpu[label]), "peak_rss_bytes": rss[label],
                        "mb_per_s": size / med / 1e6 if size else None, "threads": threads.get(label, 1),
                        "records_per_s": a.records / med if a.records else None, "ratio_vs_baseline": ratio})
    for label, cmd in runs:
        print(f"  {label}: {cmd}")
    if a.json:
        with open(a.json, "a") as f:
            f.write(json.dumps({"bench": a.name, "repeat": a.repeat, "bytes": size, "records": a.records,
                                "results": results}) + "\n")


if __name__ == "__main__":
    main()
