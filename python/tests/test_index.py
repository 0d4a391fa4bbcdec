"""Index and IndexBuilder against the command line and brute force; numpy inputs in place;
dtype and shape errors; the library's errors as exceptions."""

import os

import numpy as np
import pytest

import simdex
from conftest import parse_fp_file, planted_entries
from format_reader import FormatError, read_index


def brute_force(entries_ids, entries_fps, query, k):
    d = np.array([bin(int(x) ^ int(query)).count("1") for x in entries_fps])
    hits = [(int(dd), int(i), int(f)) for dd, i, f in zip(d, entries_ids, entries_fps) if dd <= k]
    return [(i, f, dd) for dd, i, f in sorted(hits)]


@pytest.fixture(scope="module")
def sample_index(simdex_cli, sample, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("index")
    fp_file = tmp / "sample.fp"
    simdex_cli("fingerprint", "--quiet", "--text-field", "text", "-o", fp_file, sample)
    simdex_cli("build", "--quiet", "--out", tmp / "cli.sdx", fp_file)
    ids, fps = parse_fp_file(fp_file.read_text())
    return tmp, np.array(ids, dtype=np.uint64), fps


def by_fingerprint_then_id(ids, fps):
    return sorted(zip([i if isinstance(i, str) else int(i) for i in ids], map(int, fps)),
                  key=lambda e: (e[1], e[0]))


def test_builder_and_simdex_build_write_the_file_the_format_spec_describes(sample_index):
    # The bytes are read back by tests/format_reader.py, written from docs/format.md alone.
    # `simdex fingerprint` records the profile and `simdex build` carries it into the index.
    tmp, ids, fps = sample_index
    profile = simdex.Fingerprinter().profile
    with simdex.IndexBuilder(str(tmp / "py.sdx"), profile=profile) as b:
        b.add(ids, fps)
    cli_bytes = (tmp / "cli.sdx").read_bytes()
    assert (tmp / "py.sdx").read_bytes() == cli_bytes
    decoded = read_index(cli_bytes)
    assert decoded["entries"] == by_fingerprint_then_id(ids, fps)
    assert (decoded["version"], decoded["widths"], decoded["k"], decoded["tables"]) == (5, [16, 12, 12, 12, 12], 3, 10)
    assert decoded["profile"] == profile
    assert simdex.Index.open(str(tmp / "cli.sdx")).profile == profile
    assert (decoded["block_size"], decoded["restarts"]) == (4096, 6)


@pytest.mark.parametrize("scheme,block_size,restarts", [("t4", 64, 0), ("t10", 64, 3), ("t20", 128, 15),
                                                        ("8,8,8,8,8,8,8,8:2", 256, 6)])
def test_small_blocks_and_every_restart_setting_decode_by_the_spec(tmp_path, scheme, block_size, restarts):
    ids, fps = planted_entries(600, 5)
    path = tmp_path / "s.sdx"
    with simdex.IndexBuilder(str(path), scheme=scheme, block_size=block_size, restarts=restarts) as b:
        b.add(ids, fps)
    decoded = read_index(path.read_bytes())
    assert decoded["entries"] == by_fingerprint_then_id(ids, fps)
    assert (decoded["block_size"], decoded["restarts"]) == (block_size, restarts)
    assert min(decoded["blocks"]) > 10  # many blocks, so that block boundaries are crossed


@pytest.mark.parametrize("codec,scheme,block_size", [("ef", "t4", 64), ("ef", "t10", 256), ("ef", "t20", 4096),
                                                     ("auto", "8,8,8,8,8,8,8,8:2", 128)])
def test_ef_and_auto_codecs_decode_by_the_spec(tmp_path, simdex_cli, codec, scheme, block_size):
    # `simdex build --codec` and IndexBuilder(codec=) write the same bytes, which the spec's
    # reader decodes; t20 at 4 KiB has blocks of several hundred values, hence select samples.
    ids, fps = planted_entries(900, 8)
    fp_file = tmp_path / "e.fp"
    fp_file.write_text("".join(f"{int(i)}\t{int(f):016x}\n" for i, f in zip(ids, fps)))
    simdex_cli("build", "--quiet", "--codec", codec, "--scheme", scheme, "--block-size", block_size,
               "--out", tmp_path / "cli.sdx", fp_file)
    with simdex.IndexBuilder(str(tmp_path / "py.sdx"), scheme=scheme, block_size=block_size, codec=codec) as b:
        b.add(ids, fps)
    data = (tmp_path / "cli.sdx").read_bytes()
    assert (tmp_path / "py.sdx").read_bytes() == data
    decoded = read_index(data)
    assert decoded["entries"] == by_fingerprint_then_id(ids, fps)
    if codec == "ef":
        assert set(decoded["codecs"]) == {"ef"}
    assert simdex.Index.open(str(tmp_path / "cli.sdx")).info()["codecs"] == decoded["codecs"]


@pytest.mark.parametrize("data", ["uniform", "planted"])
def test_the_default_codec_takes_each_tables_codec_of_fewer_blocks(tmp_path, data):
    # BuildOptions' default, "auto": per table ef or card, whichever takes fewer blocks (ef on a tie).
    if data == "uniform":
        fps = np.random.default_rng(3).integers(0, 2**64, 20000, dtype=np.uint64)
        ids = np.arange(len(fps), dtype=np.uint64)
    else:
        ids, fps = planted_entries(3000, 9)
    decoded = {}
    for codec in (None, "card", "ef"):
        path = tmp_path / f"{codec}.sdx"
        options = {"block_size": 256} if codec is None else {"block_size": 256, "codec": codec}
        with simdex.IndexBuilder(str(path), **options) as b:
            b.add(ids, fps)
        decoded[codec] = read_index(path.read_bytes())
    for t, (card, ef) in enumerate(zip(decoded["card"]["blocks"], decoded["ef"]["blocks"])):
        assert decoded[None]["codecs"][t] == ("ef" if ef <= card else "card"), t
        assert decoded[None]["blocks"][t] == min(card, ef), t
    if data == "uniform":
        assert set(decoded[None]["codecs"]) == {"ef"}


def test_an_unknown_codec_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="codec 'zip' is not one of card, ef, auto"):
        simdex.IndexBuilder(str(tmp_path / "x.sdx"), codec="zip")


def test_string_ids_decode_by_the_spec(tmp_path):
    _, fps = planted_entries(90, 6)
    ids = [f"https://example.org/{i % 40}/文" for i in range(len(fps))]
    path = tmp_path / "s.sdx"
    with simdex.IndexBuilder(str(path), block_size=64) as b:
        b.add(ids, fps)
    decoded = read_index(path.read_bytes())
    assert decoded["entries"] == sorted(by_fingerprint_then_id(ids, fps),
                                        key=lambda e: (e[1], sorted(set(ids), key=str.encode).index(e[0])))


def test_the_spec_reader_rejects_a_damaged_block(tmp_path):
    # The control: the reader does check what it decodes.
    ids, fps = planted_entries(300, 7)
    with simdex.IndexBuilder(str(tmp_path / "s.sdx"), block_size=64) as b:
        b.add(ids, fps)
    data = bytearray((tmp_path / "s.sdx").read_bytes())
    data[64 + 10] ^= 0x10  # inside table 0's first block (block data starts at A = 64)
    with pytest.raises(FormatError, match="block checksum"):
        read_index(data)


def test_batch_search_equals_brute_force_and_the_query_command(sample_index, simdex_cli):
    tmp, ids, fps = sample_index
    rng = np.random.default_rng(3)
    queries = np.concatenate([fps[::40], fps[::97] ^ np.uint64(0b101), rng.integers(0, 2**63, 20, dtype=np.uint64)])
    index = simdex.Index.open(str(tmp / "cli.sdx"))
    for k in range(4):
        lims, got_ids, got_fps, dists = index.search(queries, k, threads=2)
        assert lims.dtype == np.uint64 and len(lims) == len(queries) + 1
        for q in range(len(queries)):
            b, e = int(lims[q]), int(lims[q + 1])
            got = list(zip(got_ids[b:e].tolist(), got_fps[b:e].tolist(), dists[b:e].tolist()))
            assert got == brute_force(ids, fps, queries[q], k)
            assert index.search_one(int(queries[q]), k) == got
    out = simdex_cli("query", "--k", "2", tmp / "cli.sdx", format(int(queries[0]), "016x"))
    assert f'"id":{index.search_one(int(queries[0]), 2)[0][0]}' in out


@pytest.mark.parametrize("access", ["auto", "read-around", "random"])
@pytest.mark.parametrize("cold_reads", ["when-missing", "always", "never"])
def test_every_access_and_cold_reads_gives_the_default_answers(sample_index, access, cold_reads):
    tmp, ids, fps = sample_index
    path = str(tmp / "cli.sdx")
    queries = np.concatenate([fps[::40], fps[::97] ^ np.uint64(0b101)])
    want = simdex.Index.open(path).search(queries, 3)
    for index in (simdex.Index.open(path, access=access, cold_reads=cold_reads),
                  simdex.open_index(path, access=access, cold_reads=cold_reads)):
        got = index.search(queries, 3)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
        assert index.search_one(int(queries[0]), 3) == simdex.Index.open(path).search_one(int(queries[0]), 3)


@pytest.mark.parametrize("option, message", [
    ("access", "access 'sideways' is not one of auto, read-around, random"),
    ("cold_reads", "cold_reads 'sideways' is not one of when-missing, always, never")])
def test_an_unknown_access_or_cold_reads_is_a_value_error_naming_the_choices(sample_index, option, message):
    path = str(sample_index[0] / "cli.sdx")
    for opener in (simdex.Index.open, simdex.open_index):
        with pytest.raises(ValueError) as e:
            opener(path, **{option: "sideways"})
        assert str(e.value) == message


def test_string_ids_come_back_as_str(tmp_path):
    path = str(tmp_path / "s.sdx")
    with simdex.IndexBuilder(path) as b:
        b.add(["https://a.example/1", "https://b.example/2", "文章-3"], np.array([1, 3, 1 << 40], dtype=np.uint64))
    index = simdex.Index.open(path)
    assert index.has_string_ids
    lims, ids, fps, dists = index.search(np.array([1], dtype=np.uint64), 1)
    assert ids.tolist() == ["https://a.example/1", "https://b.example/2"] and dists.tolist() == [0, 1]
    assert index.search_one(1 << 40, 0) == [("文章-3", 1 << 40, 0)]
    assert index.id_string(index.find_id("文章-3")) == "文章-3"
    with pytest.raises(simdex.NotFoundError):
        index.find_id("missing")
    # A lone surrogate cannot be UTF-8: a ValueError naming the id, not
    # pybind11's "Unable to cast Python instance to C++ type".
    with simdex.IndexBuilder(str(tmp_path / "t.sdx")) as b:
        with pytest.raises(ValueError, match=r"ids\[1\] '\\ud800x' is not valid text: it holds a lone surrogate"):
            b.add(["fine", "\ud800x"], np.array([1, 2], dtype=np.uint64))
        b.add(["fine"], np.array([1], dtype=np.uint64))
    # A control character in an id is named escaped: a raw NUL cut the
    # message short ("id 'a").
    with simdex.IndexBuilder(str(tmp_path / "u.sdx")) as b:
        with pytest.raises(ValueError) as error:
            b.add(["a\x00b"], np.array([1], dtype=np.uint64))
        assert str(error.value) == "id 'a\\x00b': id holds control character 0x00 at byte 1"
        b.add(["fine"], np.array([1], dtype=np.uint64))
    with pytest.raises(simdex.NotFoundError) as error:
        index.find_id("no\x00such")
    assert error.value.args[0] == "no entry has the id 'no\\x00such'"  # a KeyError: str() quotes


def test_numpy_queries_are_used_in_place_and_checked(sample_index):
    tmp, ids, fps = sample_index
    index = simdex.Index.open(str(tmp / "cli.sdx"))
    readonly = fps.copy()
    readonly.setflags(write=False)
    index.search(readonly, 0)  # a read-only array is fine: nothing is written to it
    assert index.search(fps[:5].tolist(), 0)[0].tolist() == index.search(fps[:5], 0)[0].tolist()
    with pytest.raises(TypeError, match="queries must be a numpy array of dtype uint64, got dtype int64"):
        index.search(fps.astype(np.int64), 3)
    with pytest.raises(ValueError, match="queries must be a 1-D array, got 2 dimensions"):
        index.search(fps[:4].reshape(2, 2), 3)
    with pytest.raises(ValueError, match="C-contiguous"):
        index.search(fps[::2], 3)
    with pytest.raises(TypeError, match=r"queries\[1\] is not a valid uint64"):
        index.search([1, -2], 3)
    with pytest.raises(ValueError, match="k = 4 is outside 0..3"):
        index.search(fps[:3], 4)
    with pytest.raises(ValueError, match="query must be in 0..2\\*\\*64-1"):
        index.search_one(-1)


def test_library_errors_become_exceptions_with_its_messages(tmp_path, sample_index):
    tmp, ids, fps = sample_index
    missing = str(tmp_path / "missing.sdx")
    for open_missing in (simdex.Index.open, simdex.parts.index_kind):
        with pytest.raises(OSError) as error:
            open_missing(missing)
        # Not Boost's "cannot map ...: failed opening file: ...: iostream error".
        assert str(error.value) == f"cannot open {missing}: No such file or directory"
    (tmp_path / "junk.sdx").write_bytes(b"not an index at all" * 10)
    with pytest.raises(simdex.CorruptionError, match="simdex index|magic"):
        simdex.Index.open(str(tmp_path / "junk.sdx"))
    with pytest.raises(ValueError, match="scheme"):
        simdex.IndexBuilder(str(tmp_path / "x.sdx"), scheme="t99")
    with pytest.raises(ValueError, match="ids and fingerprints differ in length"):
        simdex.IndexBuilder(str(tmp_path / "x.sdx")).add(ids[:3], fps[:2])
    b = simdex.IndexBuilder(str(tmp_path / "never.sdx"))
    b.add(ids, fps)
    b.abandon()
    assert not os.path.exists(tmp_path / "never.sdx")
    index = simdex.Index.open(str(tmp / "cli.sdx"))
    index.close()
    with pytest.raises(ValueError, match="closed"):
        index.search(fps[:1])


def test_merge_is_byte_identical_to_a_fresh_build(sample_index, tmp_path):
    tmp, ids, fps = sample_index
    half = len(ids) // 2
    with simdex.IndexBuilder(str(tmp_path / "old.sdx")) as b:
        b.add(ids[:half], fps[:half])
    stats = simdex.merge(str(tmp_path / "old.sdx"), str(tmp_path / "new.sdx"), ids=ids[half:], fingerprints=fps[half:],
                         delete=ids[:10])
    assert stats["deleted"] == 10 and stats["entries"] == len(ids) - 10
    # The merge keeps OLD's codec when its tables share one (else chooses per table again).
    codecs = set(simdex.Index.open(str(tmp_path / "old.sdx")).info()["codecs"])
    with simdex.IndexBuilder(str(tmp_path / "fresh.sdx"), codec=codecs.pop() if len(codecs) == 1 else "auto") as b:
        b.add(ids[10:], fps[10:])
    assert (tmp_path / "new.sdx").read_bytes() == (tmp_path / "fresh.sdx").read_bytes()


def test_profiles_are_recorded_and_another_is_refused_naming_both(tmp_path):
    ids, fps = planted_entries(300, 3)
    profile = simdex.Fingerprinter().profile
    other = simdex.Fingerprinter(seed=7).profile
    assert profile.startswith("simdex-fp/") and profile != other
    with simdex.IndexBuilder(str(tmp_path / "old.sdx"), profile=profile) as b:
        b.add(ids[:200], fps[:200])
    index = simdex.Index.open(str(tmp_path / "old.sdx"))
    assert index.profile == profile and index.info()["profile"] == profile
    with pytest.raises(ValueError, match="fingerprint profiles differ") as refused:
        simdex.merge(str(tmp_path / "old.sdx"), str(tmp_path / "new.sdx"), ids=ids[200:], fingerprints=fps[200:],
                     profile=other)
    assert profile in str(refused.value) and other in str(refused.value)
    assert not (tmp_path / "new.sdx").exists()
    with pytest.raises(ValueError, match="fingerprint profiles differ"):
        simdex.dedup(fps[200:].copy(), against=[index], profile=other)
    simdex.dedup(fps[200:].copy(), against=[index], profile=profile)
    # planted_entries draws ids with repeats: both halves hold some of them.
    simdex.merge(str(tmp_path / "old.sdx"), str(tmp_path / "new.sdx"), ids=ids[200:], fingerprints=fps[200:],
                 profile=profile, existing_ids="keep")
    assert simdex.Index.open(str(tmp_path / "new.sdx")).profile == profile
    with simdex.IndexBuilder(str(tmp_path / "plain.sdx")) as b:
        b.add(ids, fps)
    assert simdex.Index.open(str(tmp_path / "plain.sdx")).profile is None


def test_ids_the_old_index_holds_are_refused_replaced_or_kept(sample_index, tmp_path):
    # The same batch merged twice stored each id twice (query answered {"id":1},{"id":1}).
    tmp, ids, fps = sample_index
    old, new = str(tmp_path / "old.sdx"), str(tmp_path / "new.sdx")
    with simdex.IndexBuilder(old) as b:
        b.add(ids[:100], fps[:100])
    batch = ids[90:110].copy()  # ten old ids, ten new (the sample's ids are distinct)
    assert len(set(ids[:110].tolist())) == 110
    with pytest.raises(ValueError, match=r"id '\d+' is in the old index already \(and 9 more ids of the batch are\)"):
        simdex.merge(old, new, ids=batch, fingerprints=fps[90:110])
    assert not (tmp_path / "new.sdx").exists()
    stats = simdex.merge(old, new, ids=batch, fingerprints=fps[90:110], existing_ids="replace")
    assert stats["replaced"] == 10 and stats["entries"] == 110
    with simdex.IndexBuilder(str(tmp_path / "fresh.sdx")) as b:
        b.add(np.concatenate([ids[:90], batch]), np.concatenate([fps[:90], fps[90:110]]))
    assert (tmp_path / "new.sdx").read_bytes() == (tmp_path / "fresh.sdx").read_bytes()
    assert simdex.merge(old, new, ids=batch, fingerprints=fps[90:110], existing_ids="keep")["entries"] == 120
    with pytest.raises(ValueError, match="existing_ids 'twice' is not refuse, replace or keep"):
        simdex.merge(old, new, ids=batch, fingerprints=fps[90:110], existing_ids="twice")


def test_plan_chooses_as_simdex_plan_does(simdex_cli):
    import json
    small = simdex.parts.plan(10**6)
    cli = json.loads(simdex_cli("plan", "1000000", "--json"))
    assert small["choice"]["scheme"] == cli["choice"]["scheme"] == "t4"
    assert (small["choice"]["block_size"], small["choice"]["codec"]) == (cli["choice"]["block_size"],
                                                                         cli["choice"]["codec"])
    assert small["reasons"] and small["choice"]["index_bytes"] > 0
    assert simdex.parts.plan(10**8)["choice"]["scheme"] == "t10"
    fixed = simdex.parts.plan(10**6, block_size=1024, codec="card")["choice"]
    assert (fixed["block_size"], fixed["codec"]) == (1024, "card")
    with pytest.raises(ValueError, match="fits a disk budget"):
        simdex.parts.plan(10**9, disk=10**6)
