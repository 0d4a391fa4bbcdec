"""Sharded indexes: one index file per key range of table 0 (a range of fingerprint
values), in one directory with a manifest, searched together with exactly the results
of one index over all their entries (docs/distributed.md, "Sharded indexes").

Layout of a shard directory:
    shards.json          {"format": "simdex-shards", "version": 1, "scheme": ...,
                          "shards": [{"file": "shard-0000.sdx", "lo": L, "hi": H}, ...]}
    shard-0000.sdx ...   shard r holds the entries whose fingerprint f has lo <= f < hi
                         (hi = 2**64 for the last); the ranges cut 0..2**64 evenly.
"""

from __future__ import annotations

import json
import os
from typing import List, Optional, Sequence, Tuple

import numpy as np

from . import _simdex

MANIFEST = "shards.json"


def shard_bounds(shards: int) -> List[int]:
    """The shards + 1 bounds cutting 0..2**64 evenly: shard r holds bounds[r] <= f < bounds[r+1]."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    return [(r << 64) // shards for r in range(shards)] + [1 << 64]


def shard_of(fingerprints: np.ndarray, shards: int) -> np.ndarray:
    """The shard number of each fingerprint (its range among ``shards`` even ranges)."""
    bounds = np.array(shard_bounds(shards)[1:-1], dtype=np.uint64)
    return np.searchsorted(bounds, fingerprints, side="right").astype(np.int64)


def shard_file(r: int) -> str:
    return f"shard-{r:04d}.sdx"


def write_manifest(directory: str, scheme: str, shards: int) -> None:
    bounds = shard_bounds(shards)
    manifest = {"format": "simdex-shards", "version": 1, "scheme": scheme,
                "shards": [{"file": shard_file(r), "lo": bounds[r], "hi": bounds[r + 1]} for r in range(shards)]}
    tmp = os.path.join(directory, MANIFEST + ".tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    os.replace(tmp, os.path.join(directory, MANIFEST))


def build_shards(directory, ids, fingerprints, *, shards: int, scheme: str = "t10", string_ids: Optional[bool] = None,
                 **build_options) -> None:
    """Builds ``shards`` index files of (ids, fingerprints), one per key range, and the
    manifest, on this machine (simdex.dask.build_sharded_index does it on a cluster).
    build_options go to IndexBuilder (block_size, restarts, memory, threads, ...)."""
    directory = os.fspath(directory)
    os.makedirs(directory, exist_ok=True)
    fingerprints = np.ascontiguousarray(fingerprints, dtype=np.uint64)
    ids = np.asarray(ids)
    if string_ids is None:
        string_ids = ids.dtype == object
    if ids.dtype != object:
        ids = ids.astype(np.uint64)
    which = shard_of(fingerprints, shards)
    for r in range(shards):
        mask = which == r
        build_shard(os.path.join(directory, shard_file(r)), ids[mask], fingerprints[mask], scheme=scheme,
                    string_ids=string_ids, **build_options)
    write_manifest(directory, scheme, shards)


def build_shard(path: str, ids, fingerprints, *, scheme: str, string_ids: bool, **build_options) -> dict:
    builder = _simdex.IndexBuilder(path, scheme=scheme, string_ids=string_ids, **build_options)
    with builder:
        builder.add(ids if ids.dtype != object else list(ids), np.ascontiguousarray(fingerprints))
        return builder.finish()


def read_manifest(directory: str) -> dict:
    manifest_path = os.path.join(directory, MANIFEST)
    try:
        with open(manifest_path) as f:
            manifest = json.load(f)
    except json.JSONDecodeError as e:
        raise _simdex.CorruptionError(f"{manifest_path}: not a shard manifest ({e})") from None
    if manifest.get("format") != "simdex-shards" or manifest.get("version") != 1 or not manifest.get("shards"):
        raise _simdex.CorruptionError(f"{manifest_path}: not a version 1 simdex shard manifest")
    return manifest


def shard_paths(directory: str, manifest: Optional[dict] = None) -> List[str]:
    """The shard files of a shard directory, in order."""
    manifest = manifest or read_manifest(directory)
    return [os.path.join(directory, s["file"]) for s in manifest["shards"]]


class ShardedIndex:
    """The shards of a directory (see the module's docstring) searched together: every
    search gives the matches one index over all their entries would give, in the same
    order (distance, then id, then fingerprint; string ids compare as UTF-8 bytes)."""

    def __init__(self, directory: str, shards: Sequence[_simdex.Index], scheme: str):
        self.path = directory
        self.shards = list(shards)
        self.scheme_name = scheme

    @classmethod
    def open(cls, directory, **options) -> "ShardedIndex":
        directory = os.fspath(directory)
        manifest = read_manifest(directory)
        shards = [_simdex.Index.open(path, **options) for path in shard_paths(directory, manifest)]
        schemes = {s.scheme for s in shards}
        if len(schemes) != 1:
            raise _simdex.CorruptionError(f"{directory}: shards of different schemes {sorted(schemes)}")
        return cls(directory, shards, schemes.pop())

    @property
    def entries(self) -> int:
        return sum(s.entries for s in self.shards)

    def __len__(self) -> int:
        return self.entries

    @property
    def scheme(self) -> str:
        return self.scheme_name

    @property
    def k(self) -> int:
        return self.shards[0].k

    @property
    def has_string_ids(self) -> bool:
        return any(s.has_string_ids for s in self.shards)

    def search(self, queries, k: Optional[int] = None, *, threads: int = 1
               ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """As Index.search, over every shard; the same (lims, ids, fingerprints, distances)
        as one index of all the shards' entries."""
        parts = [s.search(queries, k, threads=threads) for s in self.shards]
        nq = len(parts[0][0]) - 1
        query = np.concatenate([np.repeat(np.arange(nq), np.diff(p[0].astype(np.int64))) for p in parts])
        ids = np.concatenate([p[1] for p in parts]) if not self.has_string_ids else \
            np.concatenate([p[1].astype(object) for p in parts])
        fps = np.concatenate([p[2] for p in parts])
        dists = np.concatenate([p[3] for p in parts])
        id_order = ids if ids.dtype != object else np.unique(ids, return_inverse=True)[1]
        order = np.lexsort((fps, id_order, dists, query))
        lims = np.zeros(nq + 1, dtype=np.uint64)
        lims[1:] = np.cumsum(np.bincount(query, minlength=nq))
        return lims, ids[order], fps[order], dists[order]

    def search_one(self, query: int, k: Optional[int] = None) -> list:
        """The matches of one query as a list of (id, fingerprint, distance)."""
        lims, ids, fps, dists = self.search(np.array([query], dtype=np.uint64), k)
        return [(i.item() if isinstance(i, np.generic) else i, int(f), int(d)) for i, f, d in zip(ids, fps, dists)]

    def verify(self) -> None:
        for s in self.shards:
            s.verify()

    def info(self) -> dict:
        infos = [s.info() for s in self.shards]
        return {"shards": len(infos), "entries": sum(i["entries"] for i in infos), "scheme": self.scheme,
                "total_bytes": sum(i["total_bytes"] for i in infos), "per_shard": infos}

    def close(self) -> None:
        for s in self.shards:
            s.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<simdex.ShardedIndex {self.path}: {len(self.shards)} shards, {self.entries} entries, {self.scheme}>"
