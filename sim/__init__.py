"""playtest simulators: Numba game kernels, the registry of games and the parallel runner."""

__version__ = "0.1.0"
