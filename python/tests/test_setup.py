"""setup.py's choice of where the C++ library comes from when pip builds the package:
an explicit prefix, a build tree that already builds the extension for this interpreter,
an installed simdex, and only then a compile of everything (library_source)."""

import importlib.util
import os

from conftest import SOURCE_DIR

SUFFIX = ".cpython-311-x86_64-linux-gnu.so"


def load_setup():
    spec = importlib.util.spec_from_file_location("simdex_setup", os.path.join(SOURCE_DIR, "setup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() does not run
    return module


def build_tree(path, suffix=SUFFIX, sanitized=False):
    os.makedirs(path / "python" / "simdex")
    (path / "CMakeCache.txt").write_text(f"CMAKE_BUILD_TYPE:STRING=Release\nSIMDEX_SANITIZE:BOOL={'ON' if sanitized else 'OFF'}\n")
    (path / "python" / "simdex" / ("_simdex" + suffix)).write_bytes(b"")


def installed(prefix, libdir="lib/x86_64-linux-gnu"):
    os.makedirs(prefix / libdir / "cmake" / "simdex")
    (prefix / libdir / "cmake" / "simdex" / "simdexConfig.cmake").write_text("")


def test_a_built_tree_is_reused_and_an_installed_library_comes_before_compiling_all(tmp_path):
    source = load_setup().library_source
    root, usr = tmp_path / "checkout", tmp_path / "usr"
    os.makedirs(root)
    os.makedirs(usr)
    nothing = source(str(root), {}, SUFFIX, prefixes=[str(usr)])
    assert nothing == ("compile", str(root / "build-pip"))
    installed(usr)
    assert source(str(root), {}, SUFFIX, prefixes=[str(usr)]) == ("installed", str(usr))
    build_tree(root / "build", suffix=".cpython-312-x86_64-linux-gnu.so")  # another interpreter's
    assert source(str(root), {}, SUFFIX, prefixes=[str(usr)]) == ("installed", str(usr))
    build_tree(root / "build-pip")
    assert source(str(root), {}, SUFFIX, prefixes=[str(usr)]) == ("build", str(root / "build-pip"))
    assert source(str(root), {"SIMDEX_PREFIX": "/opt/simdex"}, SUFFIX, prefixes=[str(usr)]) == \
        ("prefix", "/opt/simdex")


def test_the_chosen_build_folder_is_used_as_it_is_and_a_sanitized_tree_never(tmp_path):
    source = load_setup().library_source
    build_tree(tmp_path / "asan", sanitized=True)
    build_tree(tmp_path / "release")
    assert source(str(tmp_path), {"SIMDEX_CMAKE_BUILD_DIR": str(tmp_path / "release")}, SUFFIX, prefixes=[]) == \
        ("build", str(tmp_path / "release"))
    assert source(str(tmp_path), {"SIMDEX_CMAKE_BUILD_DIR": str(tmp_path / "asan")}, SUFFIX, prefixes=[]) == \
        ("compile", str(tmp_path / "asan"))
