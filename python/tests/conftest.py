"""Shared fixtures: the `simdex` command of the same build (to compare with), the
bundled sample, and a generated corpus with planted clusters of near-duplicate texts."""

import gzip
import json
import os
import random
import subprocess

import numpy as np
import pytest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY_DIR = os.environ.get("SIMDEX_BINARY_DIR", os.path.join(SOURCE_DIR, "build"))
SAMPLE = os.path.join(SOURCE_DIR, "tests", "data", "sample", "docs.jsonl")


@pytest.fixture(scope="session")
def simdex_cli():
    """Runs build/bin/simdex with arguments; returns its stdout (fails the test on error)."""
    binary = os.path.join(BINARY_DIR, "bin", "simdex")
    if not os.path.exists(binary):
        pytest.fail(f"{binary} is missing: build the simdex_cli target")

    def run(*args):
        done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        assert done.returncode == 0, f"simdex {' '.join(map(str, args))}: {done.stderr}"
        return done.stdout

    return run


@pytest.fixture(scope="session")
def client():
    """A Dask client of a LocalCluster of two worker processes, one thread each (test_dask*.py)."""
    import distributed  # scripts/deps.sh installs it: missing, these tests fail rather than skip

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="session")
def sample():
    return SAMPLE


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_fp_file(text):
    """`simdex fingerprint` output: the profile line, then id<TAB>hex per line (empty documents,
    "id<TAB>-<TAB>reason", are left out)."""
    ids, fps = [], []
    for number, line in enumerate(text.splitlines()):
        if number == 0 and line.startswith("#simdex-profile\t"):
            continue
        i, h = line.split("\t")[:2]
        if h == "-":
            continue
        ids.append(int(i))
        fps.append(int(h, 16))
    return ids, np.array(fps, dtype=np.uint64)


def planted_entries(n, seed):
    """About n index entries: fingerprints with near (one bit) and exact repeats and the two
    extreme values, under ids drawn with repeats."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2**64 - 1, n // 3, dtype=np.uint64, endpoint=True)
    near = base ^ (np.uint64(1) << rng.integers(0, 64, len(base)).astype(np.uint64))
    fps = np.concatenate([base, near, base[: n // 6], np.array([0, 2**64 - 1], np.uint64)])
    ids = rng.integers(10**6, 10**6 + n, len(fps)).astype(np.uint64)
    return ids, fps


WORDS = [f"w{i}" for i in range(5000)]


def planted_corpus(directory, files=4, clusters=60, members=4, singles=150, empties=6, seed=7, gz_every=2):
    """Writes `files` JSONL files (every gz_every-th gzipped) of documents: `clusters` base
    texts each with `members` near-copies (one to three words changed in 150), unrelated
    singles, and empty texts; shuffled over the files. Returns the file paths in order."""
    rng = random.Random(seed)
    docs = []
    for c in range(clusters):
        base = [rng.choice(WORDS) for _ in range(150)]
        docs.append(" ".join(base))
        for m in range(members):
            copy = list(base)
            for _ in range(1 + m % 3):
                copy[rng.randrange(len(copy))] = rng.choice(WORDS)
            docs.append(" ".join(copy))
    docs += [" ".join(rng.choice(WORDS) for _ in range(150)) for _ in range(singles)]
    docs += ["" for _ in range(empties)]
    rng.shuffle(docs)
    paths = []
    for f in range(files):
        name = os.path.join(directory, f"part-{f}.jsonl" + (".gz" if f % gz_every == 1 else ""))
        opener = gzip.open if name.endswith(".gz") else open
        with opener(name, "wt") as out:
            for i in range(f, len(docs), files):
                out.write(json.dumps({"id": 1000 + i, "text": docs[i]}) + "\n")
        paths.append(name)
    return paths
