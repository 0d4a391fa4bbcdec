"""scripts/bench_report.py on recorded simdex-bench JSON Lines: every searcher and codec the harness writes
(the baselines, simdex's card, ef and auto codecs, warm, first-use and cold records, with and without
--repeat) makes a report, tables and plots, without a traceback, in docs/generated/side-by-side.md's generated
section or standalone (--out DIR). It once crashed on the first "simdex-ef" row, and nothing ran it on one.
Without matplotlib the standalone report holds the tables and says that its plots were skipped."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import bench_report  # noqa: E402

# The report's plots; scripts/deps.sh installs python3-matplotlib for Debian's python3.
needs_plots = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")

REPORT = os.path.join(SOURCE_DIR, "scripts", "bench_report.py")
# simdex-bench --datasets uniform --n 2000 --scheme t4 --block-sizes 512 --codec card,ef,auto --k 3
#     --threads 1,2 --cold --checksums --queries 40 --cold-queries 20 --repeat 2
SMALL_GRID = os.path.join(SOURCE_DIR, "tests", "data", "bench", "small_grid.jsonl")
# A run of the scheme planner's study (docs/benchmarks.md), card and ef at k = 3 and 4, before --repeat.
PLANNER_RUN = os.path.join(SOURCE_DIR, "docs", "generated", "bench-results", "plan-1e5-1.jsonl")


def report(*args, env=None):
    done = subprocess.run([sys.executable, REPORT, *map(str, args)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done


def linked_images(text):
    return re.findall(r"!\[[^]]*\]\(([^)]+\.png)\)", text)


@needs_plots
@pytest.mark.parametrize("records,searchers", [
    (SMALL_GRID, ["scan", "permuted t4", "faiss-hash (24 bits)", "faiss-multihash (4 x 16 bits)", "simdex t4",
                  "simdex-ef t4", "simdex-auto t4"]),
    (PLANNER_RUN, ["scan", "simdex t10", "simdex-ef t10", "simdex-ef 10,9,9,9,9,9,9:4"]),
])
def test_the_doc_section_holds_every_searcher_and_codec(tmp_path, records, searchers):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# kept\n%s\nold\n%s\n" % (bench_report.BEGIN, bench_report.END))
    report("--doc", doc, "--plots", tmp_path / "plots", records)
    text = doc.read_text()
    assert text.startswith("# kept\n") and "\nold\n" not in text
    warm = text[text.index("### Warm, one thread"):]
    for name in searchers:
        assert re.search(r"^\| %s \|" % re.escape(name), warm, re.M), name
    images = linked_images(text)
    assert images
    for image in images:
        assert (tmp_path / "plots" / os.path.basename(image)).is_file(), image


def test_searchers_the_report_does_not_know_are_ordered_after_the_known_baselines():
    rows = [{"searcher": s, "scheme": "t4", "block_size": b} for s, b in
            [("simdex-ef", 512), ("faiss-ivf", None), ("simdex", 512), ("scan", None), ("simdex-zz", 1024)]]
    assert [r["searcher"] for r in sorted(rows, key=bench_report.sort_key)] == [
        "scan", "faiss-ivf", "simdex", "simdex-ef", "simdex-zz"]
    assert [bench_report.label(r) for r in rows] == ["simdex-ef t4", "faiss-ivf", "simdex t4", "scan", "simdex-zz t4"]


@needs_plots
def test_the_standalone_report_holds_the_tables_plots_and_spread_of_repeated_runs(tmp_path):
    out = tmp_path / "made" / "report"  # created with its parents
    report("--out", out, SMALL_GRID, PLANNER_RUN)
    text = (out / "report.md").read_text()
    assert text.startswith("# simdex-bench report\n")
    assert bench_report.BEGIN not in text
    for heading in ["## Runs", "## How these figures are taken", "## Warm, one thread, k = 3, near queries",
                    "### uniform, N = 2,000", "### uniform, N = 10^5", "## Cold batches (one thread)",
                    "## First queries of a freshly opened reader", "## Plots"]:
        assert "\n%s\n" % heading in text, heading
    assert "Targets (issue 4)" not in text  # the study's own sections stay in docs/generated/side-by-side.md
    # --repeat 2 records: each median with the range of the runs' medians.
    row = re.search(r"^\| simdex-ef t4 \| 512 B \|.*$", text, re.M).group(0)
    assert re.search(r"\| [0-9.]+-[0-9.]+ \(2\) \|", row), row
    images = linked_images(text)
    assert "space_latency_uniform.png" in images and "warm_vs_cold.png" in images
    for image in images:
        assert (out / image).is_file(), image


def test_out_and_doc_are_refused_together_before_any_work(tmp_path):
    done = subprocess.run([sys.executable, REPORT, "--out", tmp_path / "r", "--doc", tmp_path / "d.md", SMALL_GRID],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--out" in done.stderr, done.stderr
    assert not (tmp_path / "r").exists()


def without_matplotlib(tmp_path):
    """An environment in which `import matplotlib` fails, as where python3-matplotlib is not installed."""
    hidden = tmp_path / "hidden" / "matplotlib"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError(\"No module named 'matplotlib'\")\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(hidden.parent), os.environ.get("PYTHONPATH", "")]))


def test_without_matplotlib_the_report_holds_every_table_and_says_the_plots_were_skipped(tmp_path):
    out = tmp_path / "report"
    done = report("--out", out, SMALL_GRID, env=without_matplotlib(tmp_path))
    assert "without plots" in done.stderr, done.stderr
    text = (out / "report.md").read_text()
    for heading in ["## Warm, one thread, k = 3, near queries", "## Cold batches (one thread)", "## Plots"]:
        assert "\n%s\n" % heading in text, heading
    for name in ["scan", "simdex t4", "simdex-ef t4", "simdex-auto t4"]:
        assert re.search(r"^\| %s \|" % re.escape(name), text, re.M), name
    plots = text[text.index("\n## Plots\n"):]
    assert "Skipped: matplotlib cannot be imported (No module named 'matplotlib')" in plots, plots
    assert not linked_images(text)
    assert sorted(os.listdir(out)) == ["report.md"]


def test_without_matplotlib_the_doc_section_is_refused_and_left_as_it_was(tmp_path):
    doc = tmp_path / "benchmarks.md"
    before = "# kept\n%s\nold\n%s\n" % (bench_report.BEGIN, bench_report.END)
    doc.write_text(before)
    done = subprocess.run([sys.executable, REPORT, "--doc", doc, "--plots", tmp_path / "plots", SMALL_GRID],
                          capture_output=True, text=True, env=without_matplotlib(tmp_path))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--out" in done.stderr and "matplotlib" in done.stderr, done.stderr
    assert doc.read_text() == before
    assert not (tmp_path / "plots").exists()
