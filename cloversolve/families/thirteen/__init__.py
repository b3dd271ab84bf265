"""The ``thirteen`` rule family: its reference engine, search and players."""
