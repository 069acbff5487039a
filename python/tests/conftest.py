"""pytest run by hand (`python3 -m pytest python/tests` from the clone):
the tools and the package of a build tree, ANNOTATE_BUILD_DIR (default
build/), where ctest would name them (python/tests/CMakeLists.txt sets
these variables and PYTHONPATH itself, and they win)."""

import importlib.util
import os
import sys

_src = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(os.path.dirname(_src))
_build = os.path.abspath(os.environ.get("ANNOTATE_BUILD_DIR",
                                        os.path.join(_root, "build")))
for var, path in (
        ("ANNOTATE_TRACES_GEN", "bin/dftracer_trace_gen"),
        ("ANNOTATE_TRACES_ANALYZE", "bin/dftracer-analyze"),
        ("ANNOTATE_TRACES_CONVERT", "bin/dftracer-convert"),
        ("ANNOTATE_TRACES_WORK", "python/tests/work_pytest")):
    os.environ.setdefault(var, os.path.join(_build, path))
os.environ.setdefault("ANNOTATE_TRACES_RECORDS",
                      os.path.join(_root, "analysis/test/records"))
if importlib.util.find_spec("annotate_traces") is None:  # no PYTHONPATH
    sys.path.insert(0, os.path.join(_build, "python"))
