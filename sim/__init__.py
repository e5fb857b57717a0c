"""playtest simulators: Numba game kernels, the registry of games and the parallel runner."""

from pathlib import Path

from sim.core.cache import configure as _configure_cache

__version__ = "0.1.0"

NUMBA_CACHE = _configure_cache(Path(__file__).parent)
"""Where this version of the kernels is cached (sim/core/cache.py); None without JIT."""
