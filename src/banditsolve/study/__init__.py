"""Studies at scale: batch tasks over every registered game (see :mod:`banditsolve.study.task`)."""
