"""The package version (one place; read by the run metadata and the CLI)."""

__version__ = "0.3.0"
