"""Measure the executor: scaling with workers, Dask's overhead, the client's memory.

    python benchmarks/executor.py [--parts scaling,overhead,memory] [--repeats 3]
        [--preset thirteen] [--deals 1..10000] [--memory-preset fifteen]
        [--memory-counts 10000,1000000]

* ``scaling``: the same study with ``--jobs 1`` and ``--jobs 2`` (wall seconds after the
  workers are warm; median of ``--repeats`` runs, alternated), and how many cores the workers
  really had (their CPU seconds over the wall seconds: on a shared machine, fewer than asked);
* ``overhead``: the same study on the local pool (``--jobs 2``) and on a Dask
  ``LocalCluster`` (``--scheduler local:2``), alternated; the ratio of the medians, and the
  CPU seconds the client process spent meanwhile (with ``local:2`` the Dask scheduler runs
  in it), which a busy machine does not inflate the way it inflates wall time;
* ``memory``: the client's peak resident memory (``getrusage`` of the process that runs the
  study, its workers not counted) for studies of each count of ``--memory-counts`` deals,
  with ``--jobs 2``, a verdict file and a checkpoint.

Each run is a fresh process. Results go to ``benchmarks/results/executor.json`` and
``executor.md``. Timings are measurements on whatever machine runs this, not contracts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

RUN = """
import json, resource, sys, tempfile, os
from cloversolve.games.dealing import parse_deal_range
from cloversolve.runs.study import study
options = json.loads(sys.argv[1])
with tempfile.TemporaryDirectory() as folder:
    if options.pop("files", False):
        options["verdicts"] = os.path.join(folder, "v")
        options["checkpoint"] = os.path.join(folder, "c")
    report = study(options.pop("preset"), parse_deal_range(options.pop("deals")), **options)
tree = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print(json.dumps({
    "tree_cpu_seconds": sum(usage.ru_utime + usage.ru_stime for usage in tree),
    "seconds": report.seconds,
    "client_cpu_seconds": report.client_cpu_seconds,
    "search_seconds": report.search_seconds,
    "worker_cpu_seconds": report.work.cpu_seconds,
    "count": report.count,
    "counts": report.counts,
    "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def run(**options: object) -> dict:
    """One study in a fresh process: its seconds, counts and the client's peak RSS."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(options)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"study failed: {done.stderr.strip().splitlines()[-1:]}")
    result = json.loads(done.stdout)
    result["process_seconds"] = time.perf_counter() - started
    print(f"  {options} -> {result}", flush=True)
    return result


def alternate(repeats: int, **variants: dict) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, options in variants.items():
            runs[name].append(run(**options))
    return runs


def median_seconds(runs: list[dict]) -> float:
    return statistics.median(r["seconds"] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="scaling,overhead,memory")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--preset", default="thirteen")
    parser.add_argument("--deals", default="1..10000")
    parser.add_argument("--memory-preset", default="fifteen")
    parser.add_argument("--memory-counts", default="10000,1000000")
    args = parser.parse_args()
    parts = args.parts.split(",")
    saved = RESULTS / "executor.json"
    results = json.loads(saved.read_text()) if saved.exists() else {}
    base = {"preset": args.preset, "deals": args.deals}
    when = time.strftime("%Y-%m-%d %H:%M")
    if "scaling" in parts:
        runs = alternate(args.repeats, one={**base, "jobs": 1}, two={**base, "jobs": 2})
        one, two = median_seconds(runs["one"]), median_seconds(runs["two"])
        results["scaling"] = {**base, "measured": when, "jobs1_s": one, "jobs2_s": two}
        results["scaling"]["speedup"] = round(one / two, 3)
        for name in ("one", "two"):
            results["scaling"][f"{name}_cores_had"] = round(
                statistics.median(r["worker_cpu_seconds"] / r["seconds"] for r in runs[name]), 2
            )
    if "overhead" in parts:
        runs = alternate(
            args.repeats, local={**base, "jobs": 2}, dask={**base, "scheduler": "local:2"}
        )
        local, dask = median_seconds(runs["local"]), median_seconds(runs["dask"])
        results["overhead"] = {**base, "measured": when, "local2_s": local, "dask_local2_s": dask}
        results["overhead"]["dask_over_local"] = round(dask / local, 3)
        for name in ("local", "dask"):
            results["overhead"][f"{name}_client_cpu_s"] = statistics.median(
                r["client_cpu_seconds"] for r in runs[name]
            )
            results["overhead"][f"{name}_total_cpu_s"] = statistics.median(
                r["client_cpu_seconds"] + r["worker_cpu_seconds"] for r in runs[name]
            )
            results["overhead"][f"{name}_search_s"] = statistics.median(
                r["search_seconds"] for r in runs[name]
            )
            results["overhead"][f"{name}_tree_cpu_s"] = statistics.median(
                r["tree_cpu_seconds"] for r in runs[name]
            )
    if "memory" in parts:
        rows = []
        for count in (int(c) for c in args.memory_counts.split(",")):
            result = run(preset=args.memory_preset, deals=f"1..{count}", jobs=2, files=True)
            rows.append({"deals": count, **result})
        results["memory"] = {"preset": args.memory_preset, "measured": when, "runs": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(results, indent=2) + "\n")
    (RESULTS / "executor.md").write_text(table(results), encoding="utf-8")
    print(table(results))


def table(results: dict) -> str:
    lines = ["# Executor measurements", ""]
    if "scaling" in results:
        s = results["scaling"]
        lines += [
            f"Scaling ({s['measured']}): `study {s['preset']} --deals {s['deals']}`, wall seconds "
            f"after warm-up, median: --jobs 1 {s['jobs1_s']:.2f} s, --jobs 2 {s['jobs2_s']:.2f} s, "
            f"speed-up {s['speedup']:.2f}x on 2 cores. Cores the workers really had (their CPU "
            f"seconds over the wall seconds, median): {s.get('one_cores_had')} with one, "
            f"{s.get('two_cores_had')} with two.",
            "",
        ]
    if "overhead" in results:
        o = results["overhead"]
        lines += [
            f"Dask overhead ({o['measured']}): `study {o['preset']} --deals {o['deals']}`, median: "
            f"--jobs 2 {o['local2_s']:.2f} s, --scheduler local:2 {o['dask_local2_s']:.2f} s, "
            f"ratio {o['dask_over_local']:.3f}. CPU of the client process while deciding "
            f"(with local:2 it hosts the Dask scheduler too): {o['local_client_cpu_s']:.2f} s "
            f"with the local pool, {o['dask_client_cpu_s']:.2f} s with Dask, against "
            f"{o['dask_search_s']:.1f} s of search in the workers. CPU of client and workers' "
            f"tasks together: {o.get('local_total_cpu_s', 0):.2f} s local, "
            f"{o.get('dask_total_cpu_s', 0):.2f} s Dask. CPU of every process of the run "
            "(client, scheduler, workers, from their start to their end, their start-up "
            f"included): {o.get('local_tree_cpu_s', 0):.2f} s local, "
            f"{o.get('dask_tree_cpu_s', 0):.2f} s Dask.",
            "",
        ]
    if "memory" in results:
        m = results["memory"]
        lines += [
            f"Client peak memory ({m['measured']}), `study {m['preset']}` with --jobs 2, "
            "--verdicts and --checkpoint:",
            "",
            "| deals | client peak RSS MiB | seconds |",
            "| ---: | ---: | ---: |",
        ]
        lines += [
            f"| {r['deals']:,} | {r['peak_rss_mib']:.1f} | {r['seconds']:.1f} |" for r in m["runs"]
        ]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
