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
    if not os.path.exists(os.path.join(ROOT, "src", "capi", "axio_capi.h")):
        raise SystemExit("axio: build the package from a clone of the repository (../src is missing)")
    return [os.path.relpath(path, HERE) for path in found]


def write_weights(out):
    """The learned evaluation's weights files (src/ai/weights/*.txt) as C strings, as
    cmake/embed_weights.cmake writes them for the CMake build: the library reads no file."""
    lines = ["/* made by python/setup.py from src/ai/weights/: do not edit */",
             '#include "value.h"', "", "const ai_weights_file ai_weights_files[] = {"]
    files = sorted(glob.glob(os.path.join(ROOT, "src", "ai", "weights", "*.txt")))
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            text = f.read().replace("\\", "\\\\").replace('"', '\\"')
        body = '\\n"\n     "'.join(text.split("\n"))
        lines.append(f'    {{"{name}",\n     "{body}"}},')
    lines += ["    {0, 0}};", f"const int ai_weights_count = {len(files)};", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


class BuildLibrary(build_ext):
    """Names the built library libaxio.so, as axio/_lib.py loads it."""

    def get_ext_filename(self, ext_name):
        return os.path.join(*ext_name.split(".")[:-1], "libaxio.so")

    def build_extension(self, ext):
        os.makedirs(self.build_temp, exist_ok=True)
        generated = os.path.join(self.build_temp, "generated")
        os.makedirs(generated, exist_ok=True)
        write_weights(os.path.join(generated, "weights.c"))
        ext.sources.append(os.path.relpath(os.path.join(generated, "weights.c"), HERE))
        ext.include_dirs.append(os.path.relpath(os.path.join(ROOT, "src", "ai"), HERE))
        # objects of ../src/x.c land in build/temp.../../src/x.o: make the folders first
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
