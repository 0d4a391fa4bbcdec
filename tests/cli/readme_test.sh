#!/usr/bin/env bash
# Runs the code blocks of README.md in order, as a reader pasting them would,
# in a scratch directory that looks like the top of a checkout after
# scripts/demo.sh (build/bin/simdex, tests/data and scripts/ there). Fails, naming the
# block and showing its output, when any block fails.
#
#   ```sh blocks       run by sh -e, each in its own process group (anything a
#                      block leaves running, a server, is stopped after it)
#   ```python blocks   run by PYTHON with PYTHONPATH=BINARY_DIR/python (this
#                      build's package); without PYTHON the test fails on one
#   a block right after "<!-- readme-test: skip (why) -->" is not run (the
#   commands that build simdex and run the tests, the benchmarks)
#   any other fenced block with a language is an error: it would go untested
#
# Port 8080 in the blocks is replaced by a port the kernel chose free.
# Usage: readme_test.sh SOURCE_DIR BINARY_DIR [PYTHON]
set -euo pipefail
source_dir=$1
binary_dir=$2
python=${3:-}
block_seconds=300

scratch=$(mktemp -d "${TMPDIR:-/tmp}/simdex-readme-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
ln -s "$binary_dir" "$scratch/build"
ln -s "$source_dir/tests" "$scratch/tests"
ln -s "$source_dir/scripts" "$scratch/scripts"
mkdir "$scratch/blocks"

# Split README.md into blocks/NNN.sh, blocks/NNN.py and blocks/NNN.skip.
awk -v dir="$scratch/blocks" '
  /^<!-- readme-test: skip/ { skip = 1; next }
  !inside && /^```/ {
    lang = substr($0, 4); n++
    if (skip) ext = "skip"; else if (lang == "sh") ext = "sh"; else if (lang == "python") ext = "py"
    else if (lang == "") ext = "text"; else { printf "README.md:%d: block in language \"%s\" would not be run\n", NR, lang > "/dev/stderr"; bad = 1; ext = "text" }
    file = sprintf("%s/%03d.%s", dir, n, ext); printf "" > file
    inside = 1; skip = 0; next
  }
  inside && /^```$/ { inside = 0; close(file); next }
  inside { print > file; next }
  /[^[:space:]]/ { skip = skip && /^<!--/ }
  END { exit bad }' "$source_dir/README.md"

port=$("${python:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ran=0
for block in "$scratch"/blocks/*; do
  name=$(basename "$block")
  case "$name" in
    *.skip) echo "readme_test: block ${name%.*} skipped as marked"; continue ;;
    *.text) continue ;;
  esac
  sed -i "s/8080/$port/g" "$block"
  log="$block.log"
  status=0
  case "$name" in
    *.sh)
      (cd "$scratch" && exec setsid timeout "$block_seconds" sh -e "$block") >"$log" 2>&1 &
      pid=$!
      wait "$pid" || status=$?
      # What the block left running is stopped, and waited for (at most 10 s)
      # so that it writes nothing more into the scratch directory.
      # (Zombies, waiting for init to reap them, write nothing: not waited for.)
      kill -TERM -- "-$pid" 2>/dev/null || true
      for _ in $(seq 100); do
        ps -eo pgid=,stat= | awk -v g="$pid" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }' || break
        sleep 0.1
      done
      ;;
    *.py)
      if [ -z "$python" ]; then
        echo "readme_test: README.md has a Python block but this build has no Python package" >&2
        exit 1
      fi
      (cd "$scratch" && PYTHONPATH="$binary_dir/python" timeout "$block_seconds" "$python" "$block") >"$log" 2>&1 ||
        status=$?
      ;;
  esac
  if [ "$status" -ne 0 ]; then
    echo "readme_test: README block ${name%.*} failed (exit $status):" >&2
    sed 's/^/    /' "$block" >&2
    echo "  its output:" >&2
    tail -n 40 "$log" | sed 's/^/    /' >&2
    exit 1
  fi
  ran=$((ran + 1))
  echo "readme_test: block ${name%.*} passed"
done
if [ "$ran" -eq 0 ]; then
  echo "readme_test: no block ran" >&2
  exit 1
fi
echo "readme_test: $ran README blocks ran"
