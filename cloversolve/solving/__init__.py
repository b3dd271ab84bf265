"""The front door over the rules and the searches: ``solve``, ``hint``, ``replay`` and the
certificates that back a verdict."""
