"""The toolkit's version and the rules' version, stamped on catalogues, checkpoints and the
workers of a run."""

__version__ = "0.1.0"

#: Version of RULES.md's rules the routes are valid for; bumped when a rule changes.
RULES_VERSION = 1
