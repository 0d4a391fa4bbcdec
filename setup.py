"""Builds simdex._simdex for the interpreter running pip: pip install --no-build-isolation .

The extension needs the C++ library; library_source() decides where it comes from, first match:
1. SIMDEX_PREFIX=P: the simdex installed under P (cmake --install, or /usr for the Debian
   packages). The extension alone is compiled (python/ as a project of its own) and links P's
   libsimdex.so.
2. A CMake build tree of this checkout that already builds the extension for this interpreter
   (SIMDEX_CMAKE_BUILD_DIR if set, else build/ or build-pip/ holding python/simdex/_simdex<ABI>.so,
   as scripts/test.sh and scripts/demo.sh leave build/): `cmake --build` there, which compiles only
   what changed (nothing, after a test run), and the module is copied.
3. An installed simdex (simdexConfig.cmake under sys.prefix, /usr/local or /usr): as 1; if the
   extension does not compile against it (an older release), 4.
4. Otherwise the whole project is configured and compiled in SIMDEX_CMAKE_BUILD_DIR (default
   build-pip/): about 6 minutes on two cores. pip shows CMake's progress with -v.
"""

import glob
import os
import shutil
import subprocess
import sys
import sysconfig

ROOT = os.path.dirname(os.path.abspath(__file__))
INSTALL_PREFIXES = (sys.prefix, "/usr/local", "/usr")


def _reusable_build(build: str, ext_suffix: str) -> bool:
    """A configured build tree whose extension module is this interpreter's (same ABI tag), built
    without the sanitizers (whose module only loads with their runtime preloaded)."""
    cache = os.path.join(build, "CMakeCache.txt")
    if not os.path.isfile(cache) or not os.path.isfile(os.path.join(build, "python", "simdex", "_simdex" + ext_suffix)):
        return False
    with open(cache, encoding="utf-8", errors="replace") as f:
        return not any(line.startswith("SIMDEX_SANITIZE:BOOL=ON") for line in f)


def _installed_prefix(prefixes) -> str:
    """The first prefix holding simdex's CMake package, or ''."""
    for prefix in prefixes:
        for libdir in ("lib", "lib64", "lib/*"):
            if glob.glob(os.path.join(prefix, libdir, "cmake", "simdex", "simdexConfig.cmake")):
                return prefix
    return ""


def library_source(root: str, env, ext_suffix: str, prefixes=INSTALL_PREFIXES):
    """(how, where): ("prefix", P) builds the extension against the simdex installed under P
    (explicit: SIMDEX_PREFIX; "installed": found there), ("build", B) reuses build tree B, and
    ("compile", B) compiles the whole project in B. See the module's docstring."""
    if env.get("SIMDEX_PREFIX"):
        return "prefix", os.path.abspath(env["SIMDEX_PREFIX"])
    chosen = env.get("SIMDEX_CMAKE_BUILD_DIR")
    trees = [chosen] if chosen else [os.path.join(root, "build"), os.path.join(root, "build-pip")]
    for tree in trees:
        if _reusable_build(os.path.abspath(tree), ext_suffix):
            return "build", os.path.abspath(tree)
    prefix = _installed_prefix(prefixes)
    if prefix:
        return "installed", prefix
    return "compile", os.path.abspath(chosen or os.path.join(root, "build-pip"))


def _say(message: str) -> None:
    print("simdex: " + message, file=sys.stderr, flush=True)


def _build_against(prefix: str, build: str) -> None:
    subprocess.check_call(["cmake", "-S", os.path.join(ROOT, "python"), "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                           f"-DCMAKE_PREFIX_PATH={prefix}", f"-DPython_EXECUTABLE={sys.executable}"])
    subprocess.check_call(["cmake", "--build", build, "--target", "_simdex", "-j", str(os.cpu_count() or 1)])


def _compile_all(build: str) -> None:
    subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                           "-DSIMDEX_PYTHON=ON", "-DBUILD_TESTING=OFF", "-DSIMDEX_BUILD_BENCH=OFF",
                           f"-DPython_EXECUTABLE={sys.executable}"])
    subprocess.check_call(["cmake", "--build", build, "--target", "_simdex", "-j", str(os.cpu_count() or 1)])


def build_module(ext_suffix: str) -> str:
    """Builds _simdex by library_source's choice; returns the path of the module built."""
    how, where = library_source(ROOT, os.environ, ext_suffix)
    default_build = os.path.abspath(os.environ.get("SIMDEX_CMAKE_BUILD_DIR", os.path.join(ROOT, "build-pip")))
    build = where if how in ("build", "compile") else os.path.join(default_build, "python-only")
    if how == "build":
        _say(f"reusing the build tree {where}: cmake --build {where} --target _simdex")
        subprocess.check_call(["cmake", "--build", where, "--target", "_simdex"])
    elif how == "compile":
        _say(f"no built or installed simdex found: compiling it in {where} (about 6 minutes on two cores; "
             "pip install -v shows the progress)")
        _compile_all(where)
    else:
        _say(f"building the extension alone against the simdex installed under {where}")
        try:
            _build_against(where, build)
        except subprocess.CalledProcessError:
            if how == "prefix":
                raise
            _say(f"the extension does not build against {where}: compiling simdex in {default_build} instead")
            build = default_build
            _compile_all(build)
    return os.path.join(build, "python", "simdex", "_simdex" + ext_suffix)


if __name__ == "__main__":  # as pip's backend (setuptools.build_meta) and `python setup.py` run it
    from setuptools import Extension, setup
    from setuptools.command.build_ext import build_ext

    class CMakeBuild(build_ext):
        def build_extension(self, ext):
            built = build_module(sysconfig.get_config_var("EXT_SUFFIX"))
            target = self.get_ext_fullpath(ext.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(built, target)

    setup(ext_modules=[Extension("simdex._simdex", sources=[])], cmdclass={"build_ext": CMakeBuild})
