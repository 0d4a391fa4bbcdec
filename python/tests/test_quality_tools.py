"""scripts/quality.sh's report reads what simdex prints: a change to those outputs fails here, not only in
scripts/quality.sh, which runs outside CI (on corpora built from Debian packages, about ten minutes). Twice
such a change went unseen: `simdex dedup` on documents became MinHash-LSH, whose summary the SimHash
timings could not read, and `simdex eval --minhash` rows were taken for the baseline's."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import BINARY_DIR, SOURCE_DIR

pytest.importorskip("matplotlib")  # the report's plots; scripts/deps.sh installs it for Debian's python3
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import quality_corpora  # noqa: E402
import quality_defaults  # noqa: E402
import quality_report  # noqa: E402

EDITS = os.path.join(SOURCE_DIR, "tests", "data", "eval", "edits.jsonl")


def simdex(*args):
    done = subprocess.run([os.path.join(BINARY_DIR, "bin", "simdex"), *map(str, args)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("extra,second_stage", [([], False), (["--k-short", "10", "--confirm", "jaccard:0.5"], True)])
def test_the_report_reads_the_simhash_dedup_summary(extra, second_stage):
    done = simdex("dedup", "--method", "simhash", "--threads", "1", "--id", "ordinal", "-o", os.devnull, *extra,
                  EDITS)
    (candidates, within, accepted), stage = quality_report.dedup_summary(done.stderr)
    assert candidates >= within >= accepted > 0
    assert (stage is not None) == second_stage


def test_the_corpora_report_takes_only_the_baselines_rows_for_the_baseline(tmp_path):
    out = tmp_path / "eval.jsonl"
    simdex("eval", "-q", "--truth", "jaccard", "--config", quality_corpora.DEFAULT, "--config", quality_corpora.CAPPED,
           "--baseline", "--minhash", "--max-k", "3", "-o", out, EDITS)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["kind"] for r in rows} == {"truth", "simhash", "baseline", "minhash"}
    truth, simhash, baseline = quality_corpora.index(rows)
    assert sorted(f for _, f in baseline) == ["estimate", "none"]
    for row in baseline.values():
        assert row["kind"] == "baseline"
        assert row["shingle_seconds"] + row["sign_seconds"] + row["band_seconds"] + row["filter_seconds"] >= 0
    assert sorted(config for _, config in simhash) == sorted([quality_corpora.DEFAULT, quality_corpora.CAPPED])


# A hand-made batch against the word 5-shingle truth: "long" has 14 distinct words (10 shingles), "prefix" its
# first 11 (7 shingles, all of them long's): J = 7 / 10 = 0.7, in between 0.5 and 0.8. "copy1" and "copy2" are
# one text (J = 1); the two groups share no word (J = 0). At k = 64 every pair is reported.
LONG = "quartz maple harbor violet canyon pepper lantern walrus meadow copper saddle thistle beacon orchard"
COPY = "glacier tundra falcon ember juniper velvet marble cobalt"


def hand_made_batch(tmp_path):
    path = tmp_path / "batch.jsonl"
    docs = [("long", LONG), ("prefix", " ".join(LONG.split()[:11])), ("copy1", COPY), ("copy2", COPY)]
    path.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in docs))
    return path


def eval_batch(tmp_path, *extra):
    out = tmp_path / "eval.jsonl"
    done = simdex("eval", "--truth", "jaccard", "--config", "default", "--max-k", "64", "-o", out, *extra,
                  hand_made_batch(tmp_path))
    return [json.loads(line) for line in out.read_text().splitlines()], done.stderr


def test_eval_counts_a_reported_pair_at_j_07_false_strictly_and_leaves_it_out_leniently(tmp_path):
    rows, _ = eval_batch(tmp_path, "-q")
    truth = next(r for r in rows if r["kind"] == "truth")
    assert (truth["positive"], truth["negative"], truth["unrelated"]) == (0.8, 0.5, 0.2)
    every = next(r for r in rows if r["kind"] == "simhash")["buckets"][-1]
    assert (every["bucket"], every["positives"], every["between"], every["negatives"]) == ("all", 1, 1, 4)
    at64 = every["k"][64]
    # Strict first: the J = 0.7 pair and the four J = 0 pairs are false. Then the in-between count, then lenient:
    # the J = 0.7 pair left out.
    assert list(at64) == ["k", "tp", "fn", "strict_fp", "strict_precision", "strict_recall", "strict_f1", "between",
                          "lenient_fp", "lenient_precision", "lenient_recall", "lenient_f1", "unrelated"]
    assert (at64["tp"], at64["fn"], at64["between"], at64["strict_fp"], at64["lenient_fp"]) == (1, 0, 1, 5, 4)
    assert at64["strict_precision"] == pytest.approx(1 / 6, abs=1e-6)
    assert at64["lenient_precision"] == pytest.approx(1 / 5, abs=1e-6)
    assert at64["strict_recall"] == at64["lenient_recall"] == 1
    assert at64["strict_f1"] == pytest.approx(2 / 7, abs=1e-6)
    assert at64["lenient_f1"] == pytest.approx(1 / 3, abs=1e-6)


def test_eval_prints_strict_figures_first_and_the_in_between_count(tmp_path):
    rows, stderr = eval_batch(tmp_path, "--minhash")
    at3 = next(r for r in rows if r["kind"] == "simhash")["buckets"][-1]["k"][3]
    line = next(x for x in stderr.splitlines() if ", default at k = 3: " in x)
    m = re.search(r"strict P/R/F1 ([\d.]+)/([\d.]+)/([\d.]+); lenient \(0\.5 <= J < 0\.8 left out\) "
                  r"([\d.]+)/([\d.]+)/([\d.]+); (\d+) pairs reported: (\d+) with J >= 0\.8, (\d+) with "
                  r"0\.5 <= J < 0\.8, (\d+) with J < 0\.5$", line)
    assert m, line
    scores = [float(x) for x in m.groups()[:6]]
    assert scores == pytest.approx([at3[f"{s}_{what}"] for s in ("strict", "lenient")
                                    for what in ("precision", "recall", "f1")], abs=6e-4)
    reported, tp, between, below = (int(x) for x in m.groups()[6:])
    assert (tp, between, below) == (at3["tp"], at3["between"], at3["lenient_fp"])
    assert reported == tp + between + below
    assert tp == 1  # the two copies, 0 bits apart
    for name in ("no filter", "estimate filter (--approximate)", "exact Jaccard of every candidate",
                 "defaults (exact check)"):
        assert any(f", simdex MinHash-LSH, {name}: strict P/R/F1 " in x for x in stderr.splitlines()), stderr


def test_the_report_gives_the_defaults_strict_figures_first(tmp_path):
    """docs/generated/quality.md's "Today's defaults, scored strictly": the MinHash-LSH row that `simdex dedup` reports
    at its defaults (filter "default": the exact check), strict figures in bold before the lenient ones, and
    the pairs by their J; then --approximate's (filter "estimate"), which reports pairs below 0.8."""
    out = tmp_path / "eval.jsonl"
    simdex("eval", "-q", "--truth", "jaccard", "--config", quality_corpora.DEFAULT, "--baseline", "--minhash",
           "--max-k", "3", "-o", out, EDITS)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    md = quality_defaults.section(rows, [("edits", "labelled edits", "test")], "before", "after: {targets}",
                                  quality_corpora.DEFAULT)

    def last_bucket(name):
        return next(r for r in rows if r["kind"] == "minhash" and r["filter"] == name)["buckets"][-1]["k"][0]

    def triple(x):
        return f'{x["strict_precision"]:.3f} / {x["strict_recall"]:.3f} / {x["strict_f1"]:.3f}'

    every, approximate = last_bucket("default"), last_bucket("estimate")
    line = next(x for x in md.splitlines() if x.startswith("| edits | test | all |"))
    strict = f'**{triple(every)}**'
    lenient = f'{every["lenient_precision"]:.3f} / {every["lenient_recall"]:.3f} / {every["lenient_f1"]:.3f}'
    assert (f' {every["tp"]:,} / {every["between"]:,} / {every["lenient_fp"]:,} | {strict} | {lenient} | '
            f'{triple(approximate)} |') in line
    assert every["between"] == 0 and every["strict_precision"] == 1
    assert approximate["between"] > 0 and approximate["strict_f1"] < approximate["lenient_f1"]
    assert "after: strict F1 >= 0.95 in " in md
