"""Builds simdex._simdex with the project's CMake (the same flags as scripts/test.sh) for the
interpreter running pip: pip install --no-build-isolation .
SIMDEX_CMAKE_BUILD_DIR chooses the CMake build folder (default: build-pip).
SIMDEX_PREFIX=P builds the extension alone against the simdex installed under P (cmake --install,
or /usr for the Debian packages): it links P's libsimdex.so instead of compiling the library."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.environ.get("SIMDEX_CMAKE_BUILD_DIR", os.path.join(ROOT, "build-pip")))
        prefix = os.environ.get("SIMDEX_PREFIX")
        if prefix:
            subprocess.check_call(["cmake", "-S", os.path.join(ROOT, "python"), "-B", build,
                                   "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={os.path.abspath(prefix)}",
                                   f"-DPython_EXECUTABLE={sys.executable}"])
        else:
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DSIMDEX_PYTHON=ON", "-DBUILD_TESTING=OFF", "-DSIMDEX_BUILD_BENCH=OFF",
                                   f"-DPython_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", build, "--target", "_simdex", "-j", str(os.cpu_count() or 1)])
        built = os.path.join(build, "python", "simdex", os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[Extension("simdex._simdex", sources=[])], cmdclass={"build_ext": CMakeBuild})
