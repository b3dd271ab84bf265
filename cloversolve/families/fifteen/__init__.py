"""The ``fifteen`` rule family: its reference engine, search and players."""
