"""simdex.dask refuses a batch in which two documents have one id, as `simdex dedup`
refuses it (the same message, naming the id and both places), on every path: SimHash,
MinHash-LSH, MinHash-LSH against an index, with confirm, and dedup_partitions of arrays;
allow_duplicate_ids=True keeps every document, as the command's --allow-duplicate-ids."""

import json
import os
import subprocess

import distributed  # noqa: F401 (scripts/deps.sh installs it: missing, these tests fail rather than skip)
import numpy as np
import pytest

import simdex
import simdex.dask
from conftest import BINARY_DIR, read_jsonl
from test_dask_minhash import check_equal, copies_corpus
from test_dask_minhash_against import build_lsh


def run_command(*args):
    done = subprocess.run([os.path.join(BINARY_DIR, "bin", "simdex"), *map(str, args)], capture_output=True,
                          text=True)
    return done.returncode, done.stderr


def command(tmp_path, paths, *flags):
    """`simdex dedup` with its outputs: (records, pairs, keep list)."""
    out, pairs, keep = tmp_path / "out.jsonl", tmp_path / "pairs.jsonl", tmp_path / "keep.txt"
    code, stderr = run_command("dedup", "--quiet", "--text-field", "text", "--pairs", pairs, "--keep-list", keep,
                               "-o", out, *flags, *paths)
    assert code == 0, stderr
    return read_jsonl(out), read_jsonl(pairs), keep.read_text().split()


def refusal(paths, *flags):
    """The command's message refusing the batch, as simdex.dask words it: without the
    command's name, and with allow_duplicate_ids=True for its flag."""
    code, stderr = run_command("dedup", "--quiet", "--text-field", "text", "-o", os.devnull, *flags, *paths)
    assert code != 0 and "duplicate id" in stderr, stderr
    line = stderr.strip()
    assert line.startswith("simdex dedup: ") and "\n" not in line
    return line[len("simdex dedup: "):].replace("--allow-duplicate-ids", "allow_duplicate_ids=True")


def duplicated_ids_corpus(directory):
    """Three JSONL files of near and exact copies (copies_corpus) whose ids repeat three
    times: 5000 + i twice in file 0 (its second copy after a blank line, which shifts the
    line numbers), a string id twice in file 1 (whose ids are strings), and a number of
    file 0 again in file 2. File 0's repeat is the one whose second document comes first."""
    paths = copies_corpus(directory, 3, 41)
    files = []
    for path in paths:
        with open(path) as f:
            files.append([json.loads(line) for line in f])
    for d in files[1]:
        d["id"] = f"doc-{d['id']}"
    files[0][5]["id"] = files[0][0]["id"]
    files[1][4]["id"] = files[1][1]["id"]
    files[2][3]["id"] = files[0][2]["id"]
    for path, docs in zip(paths, files):
        with open(path, "w") as out:
            for i, d in enumerate(docs):
                out.write(("\n" if path == paths[0] and i == 3 else "") + json.dumps(d) + "\n")
    return paths


@pytest.fixture(scope="module")
def duplicated(tmp_path_factory):
    return duplicated_ids_corpus(str(tmp_path_factory.mktemp("duplicated")))


@pytest.fixture(scope="module")
def lsh_index(tmp_path_factory, duplicated, simdex_cli):
    """A MinHash-LSH index of half of file 2's documents, under other ids."""
    with open(duplicated[2]) as f:
        docs = [(900000 + i, json.loads(line)["text"]) for i, line in enumerate(f)]
    return build_lsh(simdex_cli, tmp_path_factory.mktemp("lsh") / "stored.sdx", docs[::2])


PATHS = {  # simdex.dask.dedup's options and the command's flags for the same run
    "simhash": ({"method": "simhash"}, ["--method", "simhash"]),
    "minhash": ({"method": "minhash"}, ["--method", "minhash"]),
    "minhash+against": ({"method": "minhash", "against": "INDEX"}, ["--method", "minhash", "--against", "INDEX"]),
    "minhash+confirm": ({"method": "minhash", "confirm": "jaccard-shingles:0.9"},
                        ["--method", "minhash", "--confirm", "jaccard-shingles:0.9"]),
}


def options_of(path, index):
    options, flags = PATHS[path]
    options = {name: [index] if value == "INDEX" else value for name, value in options.items()}
    return options, [index if flag == "INDEX" else flag for flag in flags]


@pytest.mark.parametrize("path", sorted(PATHS))
def test_duplicate_ids_are_refused_naming_the_id_and_both_places_as_the_command(client, duplicated, lsh_index, path):
    options, flags = options_of(path, lsh_index)
    want = refusal(duplicated, *flags)
    assert want.startswith(f"{duplicated[0]}:7: duplicate id '5000' (first at {duplicated[0]}:1); 2 more ids are ")
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup(client, duplicated, ranges=2, pairs=True, **options)
    assert str(error.value) == want


@pytest.mark.parametrize("path", sorted(PATHS))
def test_allow_duplicate_ids_keeps_every_document_as_the_command(client, duplicated, lsh_index, tmp_path, path):
    options, flags = options_of(path, lsh_index)
    want, want_pairs, want_keep = command(tmp_path, duplicated, "--allow-duplicate-ids", *flags)
    run = simdex.dask.dedup(client, duplicated, ranges=2, pairs=True, allow_duplicate_ids=True, **options)
    assert len(want) == len(run.ids) and any(r["duplicate"] for r in want)
    check_equal(run, want, want_pairs, want_keep)
    assert [str(i) for i in run.keep_ids()].count("5000") == want_keep.count("5000")


def test_a_string_id_repeated_alone_is_refused_naming_its_places(client, duplicated, tmp_path):
    # Only file 1's repeat (a string id): the object-array check of the ids.
    paths = duplicated[1:2]
    want = refusal(paths, "--method", "minhash")
    assert want.startswith(f"{paths[0]}:5: duplicate id 'doc-") and "more id" not in want
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup(client, paths, method="minhash")
    assert str(error.value) == want


def array_partitions(client):
    """Two partitions of arrays, ids 7 and 9 given twice each: 7 at partition 0 position 2
    and partition 1 position 0; 9 within partition 1 (positions 1 and 3). A near and an
    exact copy among the random fingerprints."""
    a, b, c, d, e, f = np.random.default_rng(5).integers(0, 2**64 - 1, 6, dtype=np.uint64, endpoint=True)
    fps = [np.array([a, b, c, d], np.uint64), np.array([c ^ np.uint64(1), e, f, f], np.uint64)]  # 2 duplicates
    ids = [np.array([5, 6, 7, 8], np.uint64), np.array([7, 9, 10, 9], np.uint64)]
    return [client.submit(simdex.dask._partition_from_arrays, f, ids=i) for f, i in zip(fps, ids)], fps, ids


def test_dedup_partitions_of_arrays_refuses_duplicate_ids_naming_partition_and_position(client):
    parts, _, _ = array_partitions(client)
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup_partitions(client, parts, method="simhash", ranges=2)
    assert str(error.value) == ("partition 1, position 0: duplicate id '7' (first at partition 0, position 2); "
                                "1 more id is given to several documents; ids must be unique "
                                "(allow_duplicate_ids=True keeps every document)")


def test_dedup_partitions_of_arrays_with_allow_duplicate_ids_equals_the_command_on_their_files(client, tmp_path):
    parts, fps, ids = array_partitions(client)
    files = []
    for p, (f, i) in enumerate(zip(fps, ids)):
        files.append(tmp_path / f"part-{p}.fp")
        files[-1].write_text("".join(f"{a}\t{b:016x}\n" for a, b in zip(i.tolist(), f.tolist())))
    assert "part-1.fp:1: duplicate id '7' (first at" in refusal(files, "--method", "simhash")
    want, want_pairs, want_keep = command(tmp_path, files, "--method", "simhash", "--allow-duplicate-ids")
    run = simdex.dask.dedup_partitions(client, parts, method="simhash", ranges=2, pairs=True,
                                       allow_duplicate_ids=True)
    assert sum(r["duplicate"] for r in want) == 2
    check_equal(run, want, want_pairs, want_keep)


def test_record_numbers_as_ids_are_not_checked(client, duplicated, tmp_path, monkeypatch):
    # One document per line: the ids are line numbers counted on across files, unique by
    # construction; the check is not run (it would fail here).
    def fail(ids):
        raise AssertionError("the ids of record numbers were checked")
    monkeypatch.setattr(simdex.dask._dask_ids, "find_duplicates", fail)
    files = []
    for i, path in enumerate(duplicated):
        files.append(tmp_path / f"lines-{i}.txt")
        with open(path) as f:
            files[-1].write_text("".join(json.loads(line)["text"].replace("\n", " ") + "\n" for line in f
                                         if line.strip()))
    run = simdex.dask.dedup(client, files, method="minhash", ranges=2)
    out = tmp_path / "lines.jsonl"
    code, stderr = run_command("dedup", "--quiet", "--method", "minhash", "-o", out, *files)
    assert code == 0, stderr
    assert list(run.records()) == read_jsonl(out)
    with pytest.raises(AssertionError, match="were checked"):  # ids from a field are checked
        simdex.dask.dedup(client, duplicated[:1], method="minhash", ranges=2)


def test_fingerprint_file_keeps_where_each_document_was_read(tmp_path):
    # Blank lines are not records and a skipped bad record is no document: both break
    # the run of lines, as the command's DocumentPlaces records them.
    path = tmp_path / "docs.jsonl"
    lines = ['{"id": 1, "text": "a"}', "", '{"id": 2, "text": "b"}', '{"id": 3, "text": "c"}', "{bad",
             '{"id": 4, "text": "d"}', "   ", "", '{"id": 5, "text": "e"}']
    path.write_text("\n".join(lines) + "\n")
    part = simdex.fingerprint_file(path, skip_bad=True)
    starts, where = part["line_runs"]
    assert starts.dtype == where.dtype == np.uint64
    assert (starts.tolist(), where.tolist()) == ([0, 1, 3, 4], [1, 3, 6, 9])
    assert part["skipped"] == 1
    assert [simdex.dask._dask_ids.place(dict(part, source=(str(path), {})), 0, i) for i in range(5)] == \
        [f"{path}:{line}" for line in (1, 3, 4, 6, 9)]


def test_ids_running_on_by_one_over_the_partitions_are_not_checked_and_overlapping_runs_are(client, monkeypatch):
    # As the command, which checks nothing while the ids are consecutive numbers: the
    # partitions' ranges tell it without a sort.
    fps = np.random.default_rng(6).integers(0, 2**64 - 1, 8, dtype=np.uint64, endpoint=True)

    def parts(firsts):
        return [client.submit(simdex.dask._partition_from_arrays, fps[4 * p:4 * p + 4],
                              ids=np.arange(first, first + 4, dtype=np.uint64)) for p, first in enumerate(firsts)]
    checked = []
    monkeypatch.setattr(simdex.dask._dask_ids, "find_duplicates",
                        lambda ids, real=simdex.dask._dask_ids.find_duplicates: checked.append(1) or real(ids))
    run = simdex.dask.dedup_partitions(client, parts([10, 14]), method="simhash", ranges=1)
    assert run.ids.tolist() == list(range(10, 18)) and not checked
    with pytest.raises(ValueError, match=r"^partition 1, position 0: duplicate id '12' \(first at partition 0, "
                                         r"position 2\); 1 more id is given"):
        simdex.dask.dedup_partitions(client, parts([10, 12]), method="simhash", ranges=1)
    assert checked


def brute_force_duplicates(ids):
    """(distinct ids given twice or more; the first and second ordinals of the id whose
    second document comes first), by a scan; a number never equals a string."""
    seen, second_of, found = {}, {}, None
    for o, i in enumerate(ids.tolist()):
        key = (isinstance(i, str), i)
        if key in seen and key not in second_of:
            second_of[key] = o
            if found is None:
                found = (seen[key], o)
        seen.setdefault(key, o)
    return (len(second_of), *found) if found else (0, 0, 0)


@pytest.mark.parametrize("seed", range(6))
def test_duplicate_ids_found_equal_a_brute_force_scan(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    numbers = rng.integers(0, 2 * n + 2, n, dtype=np.uint64)
    if seed % 2:
        assert simdex.dask._dask_ids.find_duplicates(numbers) == brute_force_duplicates(numbers)
    mixed = np.array([str(v) if rng.random() < 0.5 else int(v) for v in numbers] + [2**64 - 1, "x"], dtype=object)
    assert simdex.dask._dask_ids.find_duplicates(mixed) == brute_force_duplicates(mixed)
    unique = np.array([f"u{i}" for i in range(n)] + list(range(n)), dtype=object)
    assert simdex.dask._dask_ids.find_duplicates(unique) == (0, 0, 0)


def test_strings_of_one_hash_are_told_apart_by_their_text():
    # The hashes only tell that nothing repeats; equal keys are compared as strings.
    values = np.array(["a", "b", "c", "b"], dtype=object)
    assert simdex.dask._dask_ids._first_repeat(values, np.zeros(4, np.int64)) == (1, 1, 3)
    assert simdex.dask._dask_ids._first_repeat(values[:3], np.zeros(3, np.int64)) == (0, 0, 0)


def test_a_long_string_id_is_quoted_as_the_command_quotes_it(client, tmp_path):
    # Its first 40 bytes, cut before a character they would split, then "...".
    long_id = "x" * 39 + "\u00e9" + "-tail-of-a-long-id"
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps({"id": i, "text": f"text {n}"}) + "\n"
                            for n, i in enumerate([long_id, "other", long_id])))
    want = refusal([path], "--method", "minhash")
    assert f"'{'x' * 39}...'" in want
    with pytest.raises(ValueError) as error:
        simdex.dask.dedup(client, [str(path)], method="minhash")
    assert str(error.value) == want
    assert simdex.dask._dask_ids.quoted("a\tb\x01\x7f") == "'a\\tb\\x01\\x7f'"
