"""Ingestion: walking, decoding, parsing and chunking source files."""
