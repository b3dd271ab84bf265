"""Verified-deal catalogues: the file format, building, checking, the daily deal and
lookup."""
