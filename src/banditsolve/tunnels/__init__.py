"""Bandido and Bandida: the cooperative tunnel games, on one engine."""
