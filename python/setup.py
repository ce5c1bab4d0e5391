"""Builds and installs the dmlref Python module from this checkout (docs/python.md, "Install"):

    /usr/bin/python3 -m venv --system-site-packages ~/.venvs/dmlref
    ~/.venvs/dmlref/bin/pip install --no-build-isolation --no-index ./python

Offline: setuptools, pybind11 and numpy come from Debian (python3-setuptools python3-wheel
python3-pybind11 python3-numpy), the C++ headers from ../include. CMake builds the same module
into build/<preset>/python/ (python/CMakeLists.txt).
"""

import os
import re

import numpy
from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.normpath(os.path.join(HERE, "..", "include"))


def version():
    with open(os.path.join(INCLUDE, "dmlref", "version.hpp")) as f:
        parts = dict(re.findall(r"#define DMLREF_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
    return "%s.%s.%s" % (parts["MAJOR"], parts["MINOR"], parts["PATCH"])


extension = Pybind11Extension(
    "dmlref._dmlref",
    ["src/module.cpp"],
    include_dirs=[INCLUDE, numpy.get_include()],
    cxx_std=17,
    extra_compile_args=["-O2", "-g0"],  # one translation unit with every kernel: no debug info
)

setup(
    name="dmlref",
    version=version(),
    description="CPU reference implementations of DirectML's gather and scatter operators",
    packages=["dmlref"],
    package_data={"dmlref": ["*.pyi", "py.typed"]},
    ext_modules=[extension],
    cmdclass={"build_ext": build_ext},
    install_requires=["numpy"],
    python_requires=">=3.9",  # PyObject_CallMethodNoArgs
    zip_safe=False,
)
