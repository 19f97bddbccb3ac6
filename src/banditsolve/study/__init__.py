"""Studies at scale: batch tasks (:class:`banditsolve.core.hooks.Task`) over every game."""
