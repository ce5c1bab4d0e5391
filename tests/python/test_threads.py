"""Options.threads from Python gives the same bytes as one thread; the GIL is released."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import dmlref
from conftest import assert_same_bits, random_values


def test_threads_give_the_same_bytes(rng):
    # Large enough to be split (every thread gets at least 256 KiB).
    x = random_values(rng, (2048, 512), np.float32)
    rows = rng.integers(-2048, 2048, size=(1, 2048)).astype(np.int64)
    elements = rng.integers(0, 512, size=(2048, 512)).astype(np.int32)
    updates = random_values(rng, (2048, 512), np.float32)
    tuples = rng.integers(0, 2048, size=(3000, 1)).astype(np.uint64)  # duplicates: the last one wins
    upd_rows = random_values(rng, (3000, 512), np.float32)
    calls = [
        lambda t: dmlref.gather(x, rows, 0, threads=t),
        lambda t: dmlref.gather(x.T, rows % 512, 0, threads=t),
        lambda t: dmlref.gather_elements(x, elements, 1, threads=t),
        lambda t: dmlref.scatter(x, elements, updates, 1, threads=t),
        lambda t: dmlref.scatter_nd(x, tuples, upd_rows[None], threads=t),
        lambda t: dmlref.onnx.scatter_nd(x, tuples, upd_rows, threads=t),
    ]
    for call in calls:
        one = call(1)
        for threads in (2, 4):
            assert_same_bits(call(threads), one)


def test_concurrent_calls_from_python_threads(rng):
    x = random_values(rng, (256, 64), np.float64)
    cases = [rng.integers(0, 256, size=(1, 300)).astype(np.int64) for _ in range(16)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda idx: dmlref.gather(x, idx, 0, threads=2), cases))
    for idx, result in zip(cases, results):
        assert_same_bits(result, x[idx[0]])


def test_the_gil_is_released():
    """While one thread is inside a long call, another keeps running Python code: its 1 ms sleeps
    wake up on time. With the GIL held, each would wait for the whole call."""
    rows, cols = 4096, 4096  # a 64 MiB result from broadcast inputs (nothing else to allocate)
    x = np.broadcast_to(np.float32(1.5), (rows, cols))
    idx = np.broadcast_to(np.int64(cols - 1), (rows, cols))
    out = np.empty((rows, cols), np.float32)
    start = time.perf_counter()
    dmlref.gather_elements(x, idx, 1, out=out)
    duration = time.perf_counter() - start
    if duration < 0.02:
        return  # too fast to tell on this machine; the call itself still had to succeed
    done = threading.Event()
    entered = threading.Event()

    def worker():
        entered.set()
        for _ in range(3):
            dmlref.gather_elements(x, idx, 1, out=out)
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    entered.wait()
    gaps = []
    last = time.perf_counter()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    thread.join()
    assert out[0, 0] == 1.5
    assert len(gaps) > 3 and sorted(gaps)[len(gaps) // 2] < duration / 2, (duration, max(gaps))
