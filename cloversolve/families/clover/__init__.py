"""The ``clover`` rule family: its reference engine, search and players."""
