"""Interoperability with other implementations (18xx.games exports)."""
