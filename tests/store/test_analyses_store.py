"""The analyses' queue on SQLite and on the real PostgreSQL: asked once, each job claimed
by exactly one worker however many claim at once, a silent worker's job taken over, the
result stored once and only by the worker holding the job."""

from __future__ import annotations

import threading

from tigris_euphrates.store import Store


def test_an_analysis_is_queued_once_and_claimed_oldest_first(db: tuple[str, str]) -> None:
    store = Store(*db)
    first = store.analyses.request("g1", now=10.0)
    again = store.analyses.request("g1", now=11.0)
    store.analyses.request("g2", now=12.0)
    assert first.state == again.state == "queued" and again.requested == 10.0
    assert first.attempts == 0
    assert store.analyses.claim("w1", now=20.0, stale=60.0) == "g1"
    assert store.analyses.claim("w2", now=20.0, stale=60.0) == "g2"
    assert store.analyses.claim("w3", now=20.0, stale=60.0) is None
    assert store.analyses.progress("g1", "w1", 5, 80, now=21.0)
    row = store.analyses.get("g1")
    assert row is not None and (row.state, row.done, row.total) == ("running", 5, 80)
    assert not store.analyses.finish("g1", "w2", {"format": "x"}, 1.0)  # not w2's job
    assert store.analyses.finish("g1", "w1", {"format": "tne-analysis/1"}, 2.5)
    done = store.analyses.get("g1")
    assert done is not None and done.public()["analysis"] == {"format": "tne-analysis/1"}
    assert store.analyses.request("g1", now=30.0).state == "done"  # stored once, kept
    assert store.analyses.get("nothing") is None
    store.close()


def test_a_silent_workers_job_is_taken_over_and_a_failed_one_asked_again(
    db: tuple[str, str],
) -> None:
    store = Store(*db)
    store.analyses.request("g", now=0.0)
    assert store.analyses.claim("dead", now=1.0, stale=60.0) == "g"
    assert store.analyses.claim("w", now=30.0, stale=60.0) is None
    assert store.analyses.claim("w", now=100.0, stale=60.0) == "g"
    taken = store.analyses.get("g")
    assert taken is not None and (taken.worker, taken.attempts) == ("w", 2)
    assert not store.analyses.progress("g", "dead", 1, 2, now=101.0)
    assert store.analyses.fail("g", "w", "over its budget")
    failed = store.analyses.get("g")
    assert failed is not None and failed.public()["error"] == "over its budget"
    assert store.analyses.request("g", now=200.0).state == "queued"
    store.close()


def test_concurrent_claims_take_each_job_exactly_once(db: tuple[str, str]) -> None:
    url, prefix = db
    stores = [Store(url, prefix) for _ in range(4)]
    for i in range(12):
        stores[0].analyses.request(f"g{i:02d}", now=float(i))
    taken: list[str] = []
    lock = threading.Lock()

    def work(k: int) -> None:
        while True:
            job = stores[k].analyses.claim(f"w{k}", now=50.0, stale=600.0)
            if job is None:
                return
            with lock:
                taken.append(job)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(taken) == [f"g{i:02d}" for i in range(12)]
    for s in stores:
        s.close()
