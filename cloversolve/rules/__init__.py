"""Reference rules engines in plain Python, one module per rule family."""
