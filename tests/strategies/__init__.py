"""Shared hypothesis strategies: random legal games of any registered game (``games``), malformed
JSON documents (``json_docs``) and mutated text (``text``)."""
