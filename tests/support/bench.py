"""A script of bench/ as a module, for the tests that run one (bench/ is not a package, and its
scripts are run as ``python bench/<name>.py``): loaded from its file, not by putting bench/ on
``sys.path``."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_script(name: str) -> ModuleType:
    """``bench/<name>.py``, loaded once as the module ``bench_<name>``."""
    module_name = f"bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
