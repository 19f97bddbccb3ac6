"""Rolling Bandits solvers: exact odds and best turn (turn), "is this wagon mine?" (safety)."""
