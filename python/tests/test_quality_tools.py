"""tools/quality.sh's report reads what simdex prints: a change to those outputs fails here, not only in
tools/quality.sh, which runs outside CI (on corpora built from Debian packages, about ten minutes). Twice
such a change went unseen: `simdex dedup` on documents became MinHash-LSH, whose summary the SimHash
timings could not read, and `simdex eval --minhash` rows were taken for the baseline's."""

import json
import os
import subprocess
import sys

import pytest

from conftest import BINARY_DIR, SOURCE_DIR

pytest.importorskip("matplotlib")  # the report's plots; tools/deps.sh installs it for Debian's python3
sys.path.insert(0, os.path.join(SOURCE_DIR, "tools"))
import quality_corpora  # noqa: E402
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
