"""Rolling Bandits solvers: exact odds and best turn (turn), "is this car mine?" (safety)."""
