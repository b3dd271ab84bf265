"""The ``cloversolve`` command line: one module per command group, each imported only when
one of its commands runs (:mod:`cloversolve.cli.main` holds the group and the lazy table)."""
