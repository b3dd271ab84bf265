"""What every worker does: the chunks it returns stamped with its versions and its address,
and the number of worker processes a run starts."""

from __future__ import annotations

import os

import pytest
from helpers import needs_dask

from cloversolve.runs.executors import map_chunks
from cloversolve.runs.workers import ExecutorError, InlinePool, cap_jobs, run_chunk, versions


class OtherVersionPool(InlinePool):
    def next_done(self):  # type: ignore[no-untyped-def]
        first, (_, spent, results) = super().next_done()
        return first, (("9.9.9", 1, "tcp://10.0.0.7:4242"), spent, results)


def test_a_chunk_stamped_with_another_version_is_refused_naming_its_worker() -> None:
    with pytest.raises(ExecutorError) as refused:
        list(map_chunks(OtherVersionPool(None), abs, range(1, 10), chunk_size=4))
    version, rules = versions()
    assert str(refused.value) == (
        "worker tcp://10.0.0.7:4242 deciding deals 1..4 runs cloversolve 9.9.9, rules version "
        f"1; this process runs cloversolve {version}, rules version {rules}: install the same "
        "cloversolve on every worker"
    )


def test_a_chunk_says_which_dask_worker_ran_it(cluster: str) -> None:
    distributed = needs_dask()
    with distributed.Client(cluster, timeout="30s") as client:
        workers = set(client.scheduler_info()["workers"])
        (version, rules, where), _, results = client.submit(run_chunk, abs, -2, 1, None).result()
    assert (version, rules) == versions() and results == [2, 1, 0]
    assert where in workers


def test_jobs_are_capped_by_the_deals_and_the_cores() -> None:
    assert cap_jobs(64, range(1, 3)) == 2
    assert cap_jobs(10**6, range(1, 10**20)) <= 4 * (os.cpu_count() or 1)
    assert cap_jobs(1, range(1, 10**20)) == 1
