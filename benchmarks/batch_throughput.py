"""Requests per second: one warm ``--batch`` process against one process per request.

    python benchmarks/batch_throughput.py [--requests 300] [--processes 20] [--out DIR]

For each case (``solve`` on thirteen and fifteen deals, ``hint`` on thirteen deals) it sends
``--requests`` JSON lines (deals 1, 2, ...) to one ``cloversolve solve|hint --batch`` process
and, for the first ``--processes`` of them, runs one ``cloversolve solve|hint PRESET N --json``
process per request. Wall-clock times: the batch total includes the process start and the
kernels' warm start; "steady" counts from the first answer to the last. Writes ``batch.json``
and ``batch.md``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

CASES = (("solve", "thirteen"), ("solve", "fifteen"), ("hint", "thirteen"))
MAX_NODES = "200000"


def cloversolve() -> list[str]:
    found = shutil.which("cloversolve")
    return [found] if found else [sys.executable, "-m", "cloversolve.cli.main"]


def run_batch(kind: str, preset: str, count: int) -> dict:
    lines = [json.dumps({"preset": preset, "number": n}) + "\n" for n in range(1, count + 1)]
    started = time.perf_counter()
    process = subprocess.Popen(
        [*cloversolve(), kind, "--batch", "--max-nodes", MAX_NODES],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin

    def feed() -> None:
        stdin.writelines(lines)
        stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    stamps, errors = [], 0
    for line in process.stdout:
        stamps.append(time.perf_counter())
        errors += "error" in json.loads(line)
    process.wait()
    total = stamps[-1] - started
    steady = stamps[-1] - stamps[0]
    return {
        "requests": len(stamps),
        "errors": errors,
        "seconds": round(total, 3),
        "first_answer_seconds": round(stamps[0] - started, 3),
        "requests_per_second": round(len(stamps) / total, 1),
        "steady_requests_per_second": round((len(stamps) - 1) / steady, 1) if steady else None,
    }


def run_processes(kind: str, preset: str, count: int) -> dict:
    started = time.perf_counter()
    for number in range(1, count + 1):
        subprocess.run(
            [*cloversolve(), kind, preset, str(number), "--json", "--max-nodes", MAX_NODES],
            check=False,
            capture_output=True,
        )
    total = time.perf_counter() - started
    return {
        "requests": count,
        "seconds": round(total, 3),
        "requests_per_second": round(count / total, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--processes", type=int, default=20)
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args()
    rows = []
    for kind, preset in CASES:
        batch = run_batch(kind, preset, args.requests)
        single = run_processes(kind, preset, args.processes)
        ratio = batch["requests_per_second"] / single["requests_per_second"]
        rows.append(
            {
                "kind": kind,
                "preset": preset,
                "batch": batch,
                "per_process": single,
                "ratio": round(ratio, 1),
            }
        )
        print(kind, preset, batch, single, f"{ratio:.1f}x", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/batch_throughput.py " + " ".join(sys.argv[1:])
    (out / "batch.json").write_text(
        json.dumps(
            {"command": command.strip(), "max_nodes": int(MAX_NODES), "cases": rows}, indent=2
        )
        + "\n",
        encoding="utf-8",
    )
    table = [
        "| request | batch: requests | batch req/s (with start) | batch req/s (steady) "
        "| one process per request: req/s | ratio |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        b, s = row["batch"], row["per_process"]
        table.append(
            f"| `{row['kind']} {row['preset']}` | {b['requests']} | {b['requests_per_second']:,} "
            f"| {b['steady_requests_per_second']:,} | {s['requests_per_second']} "
            f"| {row['ratio']}x |"
        )
    (out / "batch.md").write_text(
        f"# Batch mode throughput\n\n`{command.strip()}` ({time.strftime('%Y-%m-%d %H:%M')})\n\n"
        + "\n".join(table)
        + "\n",
        encoding="utf-8",
    )
    print("\n".join(table))


if __name__ == "__main__":
    main()
