"""Builds libaxio.so, the C library of the package, from the repository's C sources.

The library is the C ABI of src/capi over the engine (src/engine) and the
computer players (src/ai); the package loads it with ctypes, so it is no Python
extension module, only built like one (setuptools finds the compiler, and the
wheel is marked for this platform). It needs the repository around python/ (a
clone, not an sdist) and Debian's libjansson-dev, as the rest of axio does.
"""

import glob
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def sources():
    found = []
    for folder in ("src/capi", "src/engine", "src/ai"):
        found += sorted(glob.glob(os.path.join(ROOT, folder, "*.c")))
    found.append(os.path.join(ROOT, "src", "cli", "board_text.c"))
    if not os.path.exists(os.path.join(ROOT, "src", "capi", "axio_capi.h")):
        raise SystemExit("axio: build the package from a clone of the repository (../src is missing)")
    return [os.path.relpath(path, HERE) for path in found]


class BuildLibrary(build_ext):
    """Names the built library libaxio.so, as axio/_lib.py loads it."""

    def get_ext_filename(self, ext_name):
        return os.path.join(*ext_name.split(".")[:-1], "libaxio.so")

    def build_extension(self, ext):
        # objects of ../src/x.c land in build/temp.../../src/x.o: make the folders first
        os.makedirs(self.build_temp, exist_ok=True)
        for source in ext.sources:
            folder = os.path.normpath(os.path.join(self.build_temp, os.path.dirname(source)))
            os.makedirs(folder, exist_ok=True)
        super().build_extension(ext)


setup(
    ext_modules=[
        Extension(
            "axio.libaxio",
            sources=sources(),
            libraries=["jansson", "m", "pthread"],
            # -Wno-stringop-overflow: GCC 12 at -O3 misreads the swaps of the engine's small
            # insertion sort (src/engine/ranking.c) as overflows
            extra_compile_args=[
                "-std=c17",
                "-O3",
                "-D_GNU_SOURCE",
                "-DNDEBUG",
                "-fvisibility=hidden",
                "-Wno-stringop-overflow",
            ],
        )
    ],
    cmdclass={"build_ext": BuildLibrary},
)
