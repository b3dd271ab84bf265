"""The ``hole`` rule family: its reference engine, search and players."""
