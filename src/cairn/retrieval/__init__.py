"""Retrieval: query compilation, lexical and semantic search, fusion."""
