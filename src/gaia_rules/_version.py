"""The version of gaia-rules (read by the build too)."""

__version__ = "0.1.0"
