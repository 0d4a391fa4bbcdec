#!/usr/bin/env python3
"""Benchmarks of the Python package (docs/benchmarks.md, "Python and Dask").

Scenarios (each prints one JSON line; figures are medians of --repeat runs):
  search       Index.search from Python against the same C++ IndexReader::Search batch
               timed in C++ in the same process: the per-query overhead of the binding.
  fingerprint  Fingerprinter.fingerprint_batch on the bundled sample's texts (--copies times): simdex's
               default options and compat="python-simhash", on 1 and 2 threads, against
               tests/compat/python_simhash_reference.py, a pure-Python re-implementation of
               the `simhash` package's Simhash(text).value (the package itself is on PyPI,
               which this machine cannot reach; the re-implementation is labelled as such).
  dask         simdex.dask.dedup_partitions of N planted-cluster fingerprints (8 partitions made on
               the workers) on a LocalCluster of 1 and of 2 single-threaded worker processes
               (--dask-workers), beside simdex.dedup on one thread in a child process started with
               the workers' environment; every run's results checked equal to it; the first run on
               each cluster is a warm-up, checked and not timed. --worker-env dask (the default)
               starts the workers with Dask's own environment (MALLOC_TRIM_THRESHOLD_=65536), hugetlb
               adds GLIBC_TUNABLES=glibc.malloc.hugetlb=1 to it (malloc's large blocks on transparent
               huge pages; docs/distributed.md, "Worker memory"). CPU seconds (the workers', and
               this process's, where the scheduler runs) over wall seconds say how many cores the run
               had; the load average before each run (the warm-up's first) says how busy the machine
               was.

  dask-minhash simdex.dask.dedup(method="minhash") of N generated documents in 8 JSONL files
               (--dask-n; bases of 50-150 words of 5,000, a fifth followed by an exact copy and
               three tenths by a copy with 1-15 words changed, shuffled) on a LocalCluster of
               --dask-workers single-threaded worker processes (4 ranges per worker), against
               `simdex dedup --method minhash` on the same files with --threads 1 and 2 (writing
               its records, pairs and keep list); the cluster's records, pairs and keep list
               checked equal to the command's; the first run of each is a warm-up.

Usage: PYTHONPATH=build/python python3 bench/python/python_bench.py [--scenarios search,fingerprint,dask]
           [--index-n 1e6] [--queries 1e5] [--copies 10] [--dask-n 1e7] [--repeat 5] [--dask-repeat 3]
           [--dask-workers 1,2] [--dask-warmup 1] [--worker-env dask|hugetlb] [--label TEXT]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

import simdex

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def median_seconds(fn, repeat):
    return statistics.median(timed(fn)[0] for _ in range(repeat))


def timed(fn):
    """(wall seconds, CPU seconds of the whole process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def planted(n, seed):
    """n fingerprints: a tenth are centres, each followed by members 1-3 bits away; the rest uniform."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    centres = n // 10
    members = rng.integers(0, centres, n // 10)
    flips = np.zeros(len(members), dtype=np.uint64)
    for _ in range(2):
        flips |= np.uint64(1) << rng.integers(0, 64, len(members)).astype(np.uint64)
    fps[centres:centres + len(members)] = fps[members] ^ flips
    return fps


def bench_search(args):
    n, nq = int(float(args.index_n)), int(float(args.queries))
    fps = planted(n, 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.sdx")
        with simdex.IndexBuilder(path, threads=2) as b:
            b.add(np.arange(n, dtype=np.uint64), fps)
        index = simdex.Index.open(path)
        rng = np.random.default_rng(2)
        queries = fps[rng.integers(0, n, nq)] ^ (np.uint64(1) << rng.integers(0, 64, nq).astype(np.uint64))
        for threads in (1, 2):
            index.search(queries, 3, threads=threads)  # warm the page cache
            # Alternated, so that both see the same load from the rest of the machine.
            py, cpp = [], []
            for _ in range(args.repeat):
                py.append(timed(lambda: index.search(queries, 3, threads=threads))[0])
                cpp.append(index._search_seconds(queries, 3, threads))
            py_s, cpp_s = statistics.median(py), statistics.median(cpp)
            lims = index.search(queries, 3, threads=threads)[0]
            emit({"scenario": "search", "index_n": n, "queries": nq, "k": 3, "scheme": index.scheme,
                  "block_size": index.info()["block_size"], "threads": threads, "matches": int(lims[-1]),
                  "python_s": py_s, "cpp_s": cpp_s, "python_qps": nq / py_s, "cpp_qps": nq / cpp_s,
                  "overhead_us_per_query": (py_s - cpp_s) / nq * 1e6, "repeat": args.repeat})


def bench_fingerprint(args):
    sys.path.insert(0, os.path.join(ROOT, "tests", "compat"))
    import python_simhash_reference as ref
    with open(os.path.join(ROOT, "tests", "data", "sample", "docs.jsonl")) as f:
        texts = [json.loads(line)["text"] for line in f] * args.copies
    mb = sum(len(t.encode()) for t in texts) / 1e6
    runs = [("simdex default", simdex.Fingerprinter(), (1, 2)),
            ("simdex compat=python-simhash", simdex.Fingerprinter(compat="python-simhash"), (1, 2))]
    compat = simdex.Fingerprinter(compat="python-simhash")
    same = sum(compat.fingerprint(t) == (ref.value_of_text(t) if t.strip() else None) for t in texts[:300])
    for name, fp, thread_counts in runs:
        for threads in thread_counts:
            runs = [timed(lambda: fp.fingerprint_batch(texts, threads=threads)) for _ in range(args.repeat)]
            s = statistics.median(r[0] for r in runs)
            emit({"scenario": "fingerprint", "what": name, "documents": len(texts), "mb": mb, "threads": threads,
                  "seconds": s, "cpu_seconds": statistics.median(r[1] for r in runs), "docs_per_s": len(texts) / s, "mb_per_s": mb / s, "repeat": args.repeat})
    s = median_seconds(lambda: [ref.value_of_text(t) for t in texts], max(1, args.repeat // 2))
    emit({"scenario": "fingerprint", "what": "pure-Python re-implementation of simhash.Simhash(text).value",
          "documents": len(texts), "mb": mb, "threads": 1, "seconds": s, "docs_per_s": len(texts) / s,
          "mb_per_s": mb / s, "compat_equal_of_first_300": same, "repeat": max(1, args.repeat // 2)})


def _make_part(n, seed, first_id):
    """A partition of n planted fingerprints numbered first_id.. (ids run on across partitions,
    as record numbers do across files)."""
    return simdex.dask._partition_from_arrays(planted(n, seed), ids=np.arange(first_id, first_id + n, dtype=np.uint64))


PARTS = 8
HUGETLB = {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}


def dask_fingerprints(n):
    return np.concatenate([planted(n // PARTS, 100 + p) for p in range(PARTS)])


def bench_dask_single(args):
    """simdex.dedup in this process (a child of bench_dask, started with the workers' environment)."""
    local = dask_fingerprints(int(float(args.dask_n)))
    for _ in range(args.dask_warmup):  # as the cluster's first run, left out
        simdex.dedup(local, threads=1)
    wall, cpu = time.perf_counter(), time.process_time()
    want = simdex.dedup(local, threads=1)
    seconds, cpu = time.perf_counter() - wall, time.process_time() - cpu
    np.savez(args.single_out, representative=want.representative, distance=want.distance, duplicate=want.duplicate)
    emit({"scenario": "dask", "what": "simdex.dedup in-process", "label": args.label, "n": len(local), "threads": 1,
          "environ": os.environ.get("GLIBC_TUNABLES", ""), "warmup_runs": args.dask_warmup, "seconds": seconds,
          "cpu_seconds": cpu,
          "load_before": os.getloadavg()[0], "pairs": want.stats["pairs"], "clusters": want.stats["clusters"],
          "stats_seconds": {k: round(v, 3) for k, v in want.stats.items() if k.startswith("seconds")}})


def make_cluster(workers, worker_env):
    import dask.config
    import distributed
    options = dict(threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40, memory_limit=0)
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
    if worker_env == "hugetlb":
        environ.update(HUGETLB)
    # The nanny reads its pre-spawn environment when the cluster makes it, and puts it into
    # this process's environment (where a later cluster would find it): set both every time.
    os.environ.pop("GLIBC_TUNABLES", None)
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
        return distributed.LocalCluster(n_workers=workers, **options)


def bench_dask(args):
    import subprocess
    import distributed
    import simdex.dask
    n = int(float(args.dask_n))
    # The single-machine run in a child process: the tunable must be in place when a process starts.
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    if args.worker_env == "hugetlb":
        env.update(HUGETLB)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "want.npz")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--scenarios", "dask-single", "--dask-n",
                        args.dask_n, "--dask-warmup", str(args.dask_warmup), "--single-out", out, "--label", args.label],
                       env=env, check=True)
        want = dict(np.load(out))
    for workers in [int(w) for w in args.dask_workers.split(",")]:
        with make_cluster(workers, args.worker_env) as cluster, distributed.Client(cluster) as client:
            environ = client.run(lambda: os.environ.get("GLIBC_TUNABLES", ""))
            times, cpus, loads, phases, equal = [], [], [], [], True
            # The first run on fresh workers also pays for memory the processes never had:
            # it is run, checked and left out.
            for attempt in range(args.dask_warmup + args.dask_repeat):
                parts = [client.submit(_make_part, n // PARTS, 100 + p, p * (n // PARTS), pure=False)
                         for p in range(PARTS)]
                distributed.wait(parts)
                loads.append(os.getloadavg()[0])
                before = client.run(time.process_time)
                cpu, start = time.process_time(), time.perf_counter()
                with distributed.get_task_stream(client) as stream:
                    run = simdex.dask.dedup_partitions(client, parts, method="simhash", ranges=2 * workers)
                seconds = time.perf_counter() - start
                cpu = time.process_time() - cpu
                after = client.run(time.process_time)
                equal = equal and all(np.array_equal(getattr(run.result, f), want[f])
                                      for f in ("representative", "distance", "duplicate"))
                equal = equal and np.array_equal(run.ids, np.arange(n, dtype=np.uint64))
                tasks = run.tasks
                del parts, run
                if attempt < args.dask_warmup:
                    continue
                times.append(seconds)
                cpus.append(cpu + sum(after[w] - before[w] for w in after))
                phases.append(task_seconds(stream.data))
            median = statistics.median(times)
            emit({"scenario": "dask", "what": "simdex.dask.dedup_partitions", "label": args.label, "n": n,
                  "workers": workers, "threads_per_worker": 1, "partitions": PARTS, "ranges": 2 * workers,
                  "warmup_runs": args.dask_warmup,
                  "worker_env": args.worker_env, "worker_glibc_tunables": sorted(set(environ.values())),
                  "seconds_median": median, "seconds_all": [round(t, 3) for t in times],
                  "cpu_seconds_all": [round(c, 3) for c in cpus],
                  "cpu_per_wall": round(statistics.median(c / t for c, t in zip(cpus, times)), 2),
                  "load_before_all": [round(x, 2) for x in loads], "equal_to_in_process": equal,
                  "tasks": tasks, "task_seconds_last_run": phases[-1]})


def minhash_corpus(directory, n, parts, seed=21):
    """The dask-minhash scenario's documents (see the docstring), in `parts` files."""
    import random
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    docs = []
    while len(docs) < n:
        base = rng.choices(words, k=rng.randint(50, 150))
        docs.append(" ".join(base))
        r = rng.random()
        if r < 0.2:
            docs.append(docs[-1])
        elif r < 0.5:
            for _ in range(rng.randint(1, 15)):
                base[rng.randrange(len(base))] = rng.choice(words)
            docs.append(" ".join(base))
    docs = docs[:n]
    rng.shuffle(docs)
    paths = []
    for p in range(parts):
        paths.append(os.path.join(directory, f"minhash-{p}.jsonl"))
        with open(paths[-1], "w") as out:
            for i in range(p, n, parts):
                out.write(json.dumps({"id": i, "text": docs[i]}) + "\n")
    return paths


def bench_dask_minhash(args):
    import subprocess
    import distributed
    import simdex.dask
    n = int(float(args.dask_n))
    binary = os.path.join(os.environ.get("SIMDEX_BINARY_DIR", os.path.join(ROOT, "build")), "bin", "simdex")
    with tempfile.TemporaryDirectory() as tmp:
        paths = minhash_corpus(tmp, n, PARTS)
        mb = sum(os.path.getsize(p) for p in paths) / 1e6
        outputs = [os.path.join(tmp, f) for f in ("out.jsonl", "pairs.jsonl", "keep.txt")]
        for threads in (1, 2):
            command = [binary, "dedup", "--quiet", "--method", "minhash", "--text-field", "text", "--threads",
                       str(threads), "-o", outputs[0], "--pairs", outputs[1], "--keep-list", outputs[2], *paths]
            times = []
            for attempt in range(args.dask_warmup + args.dask_repeat):
                start = time.perf_counter()
                subprocess.run(command, check=True)
                if attempt >= args.dask_warmup:
                    times.append(time.perf_counter() - start)
            emit({"scenario": "dask-minhash", "what": "simdex dedup --method minhash", "label": args.label, "n": n,
                  "mb": round(mb, 1), "files": PARTS, "threads": threads, "seconds_median": statistics.median(times),
                  "seconds_all": [round(t, 3) for t in times], "load_before": os.getloadavg()[0]})
        with open(outputs[0]) as f:
            want = [json.loads(line) for line in f]
        with open(outputs[1]) as f:
            want_pairs = [json.loads(line) for line in f]
        with open(outputs[2]) as f:
            want_keep = f.read().split()
        for workers in [int(w) for w in args.dask_workers.split(",")]:
            with make_cluster(workers, args.worker_env) as cluster, distributed.Client(cluster) as client:
                times, equal = [], True
                for attempt in range(args.dask_warmup + args.dask_repeat):
                    load = os.getloadavg()[0]
                    start = time.perf_counter()
                    with distributed.get_task_stream(client) as stream:
                        run = simdex.dask.dedup(client, paths, method="minhash", ranges=4 * workers, pairs=True)
                    seconds = time.perf_counter() - start
                    equal = equal and list(run.records()) == want and list(run.pair_records()) == want_pairs and \
                        [str(i) for i in run.keep_ids()] == want_keep
                    stats = run.result.stats
                    del run
                    if attempt >= args.dask_warmup:
                        times.append(seconds)
                emit({"scenario": "dask-minhash", "what": "simdex.dask.dedup(method='minhash')", "label": args.label,
                      "n": n, "mb": round(mb, 1), "workers": workers, "threads_per_worker": 1, "partitions": PARTS,
                      "ranges": 4 * workers, "seconds_median": statistics.median(times),
                      "seconds_all": [round(t, 3) for t in times], "load_before_last": load,
                      "equal_to_command": equal, "stats": stats, "task_seconds_last_run": task_seconds(stream.data)})


def task_seconds(stream):
    """Seconds of compute and of transfer summed by task kind (the function's name)."""
    from dask.utils import key_split
    out = {}
    for task in stream:
        name = key_split(task["key"])
        for ss in task["startstops"]:
            kind = f"{name}:{ss['action']}"
            out[kind] = round(out.get(kind, 0.0) + ss["stop"] - ss["start"], 3)
    return out


def emit(record):
    print(json.dumps(record), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenarios", default="search,fingerprint,dask")
    p.add_argument("--index-n", default="1e6")
    p.add_argument("--queries", default="1e5")
    p.add_argument("--dask-n", default="1e7")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--copies", type=int, default=10, help="fingerprint: the sample's texts this many times")
    p.add_argument("--dask-repeat", type=int, default=3)
    p.add_argument("--dask-workers", default="1,2")
    p.add_argument("--dask-warmup", type=int, default=1, help="dask: runs per cluster left out before the timed ones")
    p.add_argument("--worker-env", choices=("dask", "hugetlb"), default="dask")
    p.add_argument("--label", default="", help="recorded in the dask records (e.g. the commit)")
    p.add_argument("--single-out", help=argparse.SUPPRESS)
    args = p.parse_args()
    for s in args.scenarios.split(","):
        {"search": bench_search, "fingerprint": bench_fingerprint, "dask": bench_dask,
         "dask-single": bench_dask_single, "dask-minhash": bench_dask_minhash}[s](args)


if __name__ == "__main__":
    main()
