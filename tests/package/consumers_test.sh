#!/usr/bin/env bash
# Installs simdex from a build tree into a fresh prefix, then checks the
# install as another service would use it: the files and the SONAME, that
# libsimdex.so exports the public API and nothing else, and consumers built
# out of tree against the prefix alone (a C program through pkg-config and
# through find_package(simdex CONFIG), a C++ program through find_package
# with no C++ standard of its own and through pkg-config's cxxflags, the
# Python package built against the prefix) whose answers on the bundled
# sample must equal `simdex query`'s. Last, an ABI
# bump (libsimdex.so.1 in place of .so.0) must stop the consumer at load time
# with the loader's message.
# Usage: tests/package/consumers_test.sh BUILD_DIR SOURCE_DIR
#        tests/package/consumers_test.sh --installed PREFIX SOURCE_DIR
# The second form checks what is already installed under PREFIX (the Debian
# packages under /usr: tests/package/deb_test.sh) and leaves it as it is, so
# it skips the ABI step, which removes the library.
set -euo pipefail
fail() { echo "consumers_test: $*" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/simdex-package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ "$1" = --installed ]; then
  prefix=$2
  installed=1
else
  build=$(cd "$1" && pwd)
  prefix=$work/prefix
  installed=0
  cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log" >&2; fail "install failed"; }
fi
src=$(cd "${@: -1}" && pwd)

# The files a consumer needs, and none of the service's headers.
libdir=
for d in "$prefix/lib" "$prefix/lib64" "$prefix/lib/$(gcc -print-multiarch)"; do
  if [ -f "$d/pkgconfig/simdex.pc" ]; then libdir=$d; break; fi
done
[ -n "$libdir" ] || fail "no simdex.pc under $prefix"
for f in "$libdir/libsimdex.so" "$libdir/libsimdex.so.0" "$libdir/libsimdex.a" "$libdir/cmake/simdex/simdexConfig.cmake" \
         "$libdir/cmake/simdex/simdexConfigVersion.cmake" "$prefix/include/simdex/index.h" \
         "$prefix/include/simdex/simdex_c.h" "$prefix/include/simdex/reloading_index.h" "$prefix/bin/simdex"; do
  [ -e "$f" ] || fail "the install lacks $f"
done
[ ! -e "$prefix/include/simdex/service.h" ] || fail "the service's header is installed without its library"
[ ! -e "$prefix/include/simdex/eval.h" ] || fail "the evaluation's header is installed without its library"
soname=$(objdump -p "$libdir/libsimdex.so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libsimdex.so.0 ] || fail "SONAME is '$soname', not libsimdex.so.0"

# Exported symbols: C functions declared in simdex_c.h, C++ names declared in
# the installed headers; nothing else (the version node aside).
nm -D --defined-only "$libdir/libsimdex.so" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$work/symbols"
[ -s "$work/symbols" ] || fail "libsimdex.so exports nothing"
while read -r sym; do
  case "$sym" in
    SIMDEX_0) ;;
    simdex_*) grep -qw "$sym" "$prefix/include/simdex/simdex_c.h" || fail "exported C symbol $sym is not in simdex_c.h" ;;
    _Z*)
      name=$(echo "$sym" | c++filt | sed -E 's/^(typeinfo name for|typeinfo for|vtable for) //; s/^simdex::([A-Za-z_0-9]+).*/\1/')
      case "$name" in
        operator*) ;;
        *) grep -qw "$name" "$prefix"/include/simdex/*.h || fail "exported $(echo "$sym" | c++filt) is not declared in a public header" ;;
      esac ;;
    *) fail "libsimdex.so exports $sym" ;;
  esac
done <"$work/symbols"
grep -q '^simdex_index_reload$' "$work/symbols" || fail "simdex_index_reload is not exported"
grep -q '^_ZN6simdex11IndexReader4Open' "$work/symbols" || fail "simdex::IndexReader::Open is not exported"
if grep -q '^_ZN6simdex6format' "$work/symbols"; then fail "internals (simdex::format) are exported"; fi
if c++filt <"$work/symbols" | grep -Eq '^simdex::(BaselineMinHash|EvalBucket|TruthBucket|Evaluate|ReadLabelledSet)'; then
  fail "the evaluation (simdex eval's library) is exported"
fi

# An index of the bundled sample, made with the installed CLI.
"$prefix/bin/simdex" fingerprint -q --text-field text -o "$work/sample.fp" "$src/tests/data/sample/docs.jsonl"
"$prefix/bin/simdex" build --out "$work/sample.sdx" "$work/sample.fp" 2>"$work/build.log" || { cat "$work/build.log" >&2; fail "simdex build failed"; }
# (The file's first line is its fingerprint profile, docs/fingerprint-files.md.)
mapfile -t queries < <(awk -F'\t' 'NR > 1 && NR % 397 == 2 { print $2 }' "$work/sample.fp")
queries+=(0000000000000000 ffffffffffffffff)

# The C consumer, through pkg-config.
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$work/c_consumer" "$src/tests/package/consumer.c" \
  $(pkg-config --cflags --libs simdex) -Wl,-rpath,"$libdir" || fail "the C consumer does not build with pkg-config"
# The C++ consumer, through find_package, with no C++ standard of its own:
# simdex::simdex brings C++20.
cmake -S "$src/tests/package/cxx_consumer" -B "$work/cxx" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_RPATH="$libdir" >"$work/cxx.log" 2>&1 || { cat "$work/cxx.log" >&2; fail "find_package(simdex) failed"; }
cmake --build "$work/cxx" >>"$work/cxx.log" 2>&1 || { cat "$work/cxx.log" >&2; fail "the C++ consumer does not build"; }
# The same C++ program through pkg-config: Cflags serve C and C++ alike, and
# the cxxflags variable gives C++ the standard the headers need.
# shellcheck disable=SC2046
c++ $(pkg-config --variable=cxxflags simdex) -Wall -Werror -o "$work/cxx_pc_consumer" \
  "$src/tests/package/cxx_consumer/main.cc" $(pkg-config --cflags --libs simdex) -Wl,-rpath,"$libdir" ||
  fail "the C++ consumer does not build with pkg-config's cxxflags"
# The C consumer through find_package too, in a project of C alone.
cmake -S "$src/tests/package/c_consumer" -B "$work/c" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_RPATH="$libdir" >"$work/c.log" 2>&1 || { cat "$work/c.log" >&2; fail "find_package(simdex) failed in C"; }
cmake --build "$work/c" >>"$work/c.log" 2>&1 || { cat "$work/c.log" >&2; fail "the C consumer does not build with CMake"; }

"$prefix/bin/simdex" query "$work/sample.sdx" "${queries[@]}" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    for m in r["matches"]:
        print(r["query"], m["id"], m["fingerprint"], m["distance"])' >"$work/expected"
[ -s "$work/expected" ] || fail "simdex query found no matches for the sample queries"
"$work/c_consumer" "$work/sample.sdx" "${queries[@]}" >"$work/c_out"
"$work/cxx/cxx_consumer" "$work/sample.sdx" "${queries[@]}" >"$work/cxx_out"
"$work/cxx_pc_consumer" "$work/sample.sdx" "${queries[@]}" >"$work/cxx_pc_out"
"$work/c/c_consumer" "$work/sample.sdx" "${queries[@]}" >"$work/c_cmake_out"
diff "$work/expected" "$work/c_out" >&2 || fail "the C consumer's answers differ from simdex query's"
diff "$work/expected" "$work/cxx_out" >&2 || fail "the C++ consumer's answers differ from simdex query's"
diff "$work/expected" "$work/cxx_pc_out" >&2 || fail "the C++ consumer built with pkg-config answers differently"
diff "$work/expected" "$work/c_cmake_out" >&2 || fail "the C consumer built with CMake answers differently"
# A MinHash-LSH index of the sample, opened by the C consumer as `simdex inspect` describes it.
"$prefix/bin/simdex" build --method minhash -q --out "$work/sample-lsh.sdx" "$src/tests/data/sample/docs.jsonl" ||
  fail "simdex build --method minhash failed"
"$prefix/bin/simdex" inspect "$work/sample-lsh.sdx" | python3 -c '
import json, sys
i = json.load(sys.stdin)
print(i["documents"], i["num_perm"], i["bands"], i["rows"])' >"$work/lsh_expected"
"$work/c_consumer" --lsh "$work/sample-lsh.sdx" >"$work/lsh_out" || fail "the C consumer cannot open a MinHash-LSH index"
diff "$work/lsh_expected" "$work/lsh_out" >&2 || fail "the C consumer's view of the MinHash-LSH index differs from simdex inspect's"

if [ "$installed" = 1 ]; then
  echo "consumers_test: the install under $prefix, its exports, and the C and C++ consumers ($(wc -l <"$work/expected") matches) passed"
  exit 0
fi

# (Not with --installed: the Debian packages serve C and C++ consumers.)
# The Python package built against the prefix alone (setup.py's SIMDEX_PREFIX
# path: python/ as a project of its own), linking the installed libsimdex.so;
# a Debug build, which compiles in a fraction of the time of an optimised one.
cmake -S "$src/python" -B "$work/py" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$prefix" \
  -DPython_EXECUTABLE="$(command -v python3)" >"$work/py.log" 2>&1 || { cat "$work/py.log" >&2; fail "python/ does not configure against the prefix"; }
cmake --build "$work/py" >>"$work/py.log" 2>&1 || { cat "$work/py.log" >&2; fail "the Python extension does not build against the prefix"; }
loaded=$(ldd "$work"/py/python/simdex/_simdex*.so)  # not piped into grep -q: pipefail and SIGPIPE
grep -q "libsimdex.so.0 => $libdir/libsimdex.so.0" <<<"$loaded" ||
  fail "the Python extension does not load the installed libsimdex.so.0: $loaded"
(cd "$work" && PYTHONPATH=$work/py/python python3 -c '
import sys, simdex
index = simdex.Index.open(sys.argv[1])
for q in sys.argv[2:]:
    for i, f, d in index.search_one(int(q, 16)):
        print(q, i, format(f, "016x"), d)' "$work/sample.sdx" "${queries[@]}") >"$work/py_out"
diff "$work/expected" "$work/py_out" >&2 || fail "the Python package built against the prefix answers differently"

# An ABI bump installed in place of the old library: the loader refuses.
mkdir "$work/abi1"
cp "$libdir/libsimdex.so.0" "$work/abi1/libsimdex.so.1"
rm "$libdir"/libsimdex.so.0*
if LD_LIBRARY_PATH=$work/abi1 "$work/c_consumer" "$work/sample.sdx" 2>"$work/loader.err"; then
  fail "a consumer of libsimdex.so.0 ran without it"
fi
grep -q 'libsimdex.so.0: cannot open shared object file' "$work/loader.err" ||
  fail "the loader's message is not the expected one: $(cat "$work/loader.err")"
echo "consumers_test: install, exports, C, C++ and Python consumers ($(wc -l <"$work/expected") matches) and the ABI check passed"
