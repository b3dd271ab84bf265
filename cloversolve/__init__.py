"""cloversolve: solver and deal-verification toolkit for the clover family of patience games."""

__version__ = "0.1.0"
