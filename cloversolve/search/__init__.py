"""Numba search kernels, one module per rule family, behind thin wrappers."""
