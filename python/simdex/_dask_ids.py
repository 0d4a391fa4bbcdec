"""simdex.dask's check that a batch's ids are unique, as ``simdex dedup`` checks them
(engine/pipeline/duplicate_ids.h; docs/dedup.md, "Ids are unique"): a batch in which two documents
have one id is refused, naming the id and where both documents were read, unless
``allow_duplicate_ids=True``, which keeps every document as its own (the command's
``--allow-duplicate-ids``).

Where: on the client, over the ids it gathers anyway for the records (``_combine_ids``),
before the de-duplication's plan is submitted, so that a refused batch costs no shuffle.
One sort of the ids (of the strings' hashes), 8 bytes per document beside the ids, tells
that none repeats; only a batch with a repeat (or two strings of one hash) is sorted
again, stably, to find the first repeat as the command names it. Numbers compare as
numbers, strings as strings (each kind apart). A batch whose every partition numbers
its records as ids (lines, id_mode="ordinal"), or whose ids run on by one over its
partitions (the command checks nothing while they are consecutive numbers), cannot
repeat one and is not checked. The places are asked of the two partitions concerned
only: "<file>:<line>" for a partition read from a file, "partition P, position I" (both
from 0) for one made of arrays.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

import numpy as np


def _first_repeat(values: np.ndarray, keys: Optional[np.ndarray] = None) -> Tuple[int, int, int]:
    """(distinct values given to two or more entries; of those, the value whose second
    entry comes first: its first and second entries' positions). keys: integers equal
    wherever the values are (the values themselves by default): one sort of them tells
    that no value repeats; only then are the values sorted, stably, to find the repeats."""
    if len(values) < 2:
        return 0, 0, 0
    ordered = np.sort(values if keys is None else keys)
    if not np.any(ordered[1:] == ordered[:-1]):
        return 0, 0, 0
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    same = np.asarray(ordered[1:] == ordered[:-1], dtype=bool)
    starts = np.flatnonzero(same & np.r_[True, ~same[:-1]])  # the first two of each repeated value
    if not len(starts):
        return 0, 0, 0
    i = starts[np.argmin(order[starts + 1])]
    return len(starts), int(order[i]), int(order[i + 1])


def find_duplicates(ids: np.ndarray) -> Tuple[int, int, int]:
    """The command's DuplicateIds of ids by ordinal (np.uint64, or objects: ints and
    strings, a number never equal to a string): (how many distinct ids are given to
    several documents, 0 when none; the first and second ordinals of the id whose second
    document comes first)."""
    if ids.dtype != object:
        return _first_repeat(ids)
    strings = np.fromiter((isinstance(i, str) for i in ids), bool, len(ids))
    total, best = 0, None
    for kind in (~strings, strings):
        where = np.flatnonzero(kind)
        if kind is strings:  # their hashes first: a sort of objects is ~30x slower
            values = ids[where]
            count, first, second = _first_repeat(values, np.fromiter(map(hash, values), np.int64, len(values)))
        else:
            count, first, second = _first_repeat(ids[where].astype(np.uint64))
        total += count
        if count and (best is None or where[second] < best[1]):
            best = (int(where[first]), int(where[second]))
    return (total, *best) if best else (0, 0, 0)


def place(part: dict, p: int, position: int) -> str:
    """Where document `position` of partition p was read (a task, on the partition's
    worker): "<file>:<line>", or "partition p, position i" for a partition of arrays."""
    runs, source = part.get("line_runs"), part.get("source")
    if runs is None or source is None:
        return f"partition {p}, position {position}"
    starts, lines = runs
    run = int(np.searchsorted(starts, position, side="right")) - 1
    return f"{source[0]}:{int(lines[run]) + position - int(starts[run])}"


def quoted(id_value) -> str:
    """The id as the command quotes it (io::Quoted): its first 40 bytes (to a UTF-8
    character boundary, then "...") in single quotes, control bytes escaped."""
    text = str(id_value)
    raw = text.encode()
    if len(raw) > 40:
        text = raw[:40].decode(errors="ignore") + "..."
    escapes = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
    return "'" + "".join(escapes.get(c, f"\\x{ord(c):02x}") if ord(c) < 0x20 or ord(c) == 0x7F else c
                         for c in text) + "'"


def check_unique(client, partitions: Sequence, summaries: Sequence[dict], ids: np.ndarray) -> None:
    """ValueError naming the first repeated id (the one whose second document comes first)
    and both places, and counting the others, as ``simdex dedup`` words it; nothing when
    the ids are unique or every partition numbers its records."""
    if all(s["ordinal"] for s in summaries):
        return
    count, first, second = find_duplicates(ids)
    if not count:
        return
    offsets = np.cumsum([0] + [s["records"] for s in summaries])
    where = []
    for ordinal in (first, second):
        p = int(np.searchsorted(offsets, ordinal, side="right")) - 1
        where.append(client.submit(place, partitions[p], p, ordinal - int(offsets[p]), pure=False))
    first_at, second_at = client.gather(where)
    message = f"{second_at}: duplicate id {quoted(ids[first])} (first at {first_at})"
    if count > 1:
        message += f"; {count - 1} more {'id is' if count == 2 else 'ids are'} given to several documents"
    raise ValueError(message + "; ids must be unique (allow_duplicate_ids=True keeps every document)")

