"""The payments service."""
