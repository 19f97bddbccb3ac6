"""The compiled closure core (csrc/closure), built by setuptools with pybind11; everything else
about the package is in pyproject.toml."""

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup

SOURCES = [
    "csrc/closure/board.cpp",
    "csrc/closure/maps.cpp",
    "csrc/closure/placements.cpp",
    "csrc/closure/search.cpp",
    "csrc/closure/module.cpp",
]

setup(
    ext_modules=[
        Pybind11Extension(
            "banditsolve.tunnels.solvers.closure_core",
            SOURCES,
            include_dirs=["csrc/closure"],
            cxx_std=17,
            extra_compile_args=["-O3"],
        )
    ]
)
