"""Bandida (seed 003) as a variant of Bandido's rules: the modes and their components
(:mod:`.components`), the options and the state (:mod:`.state`), the objects and the alarms
(:mod:`.effects`), the map's removals (:mod:`.maps`), the modes' ends (:mod:`.ends`), the rules
that differ from Bandido's (:mod:`.rules`, :class:`~.rules.BandidaRules`), and the state's text
forms and pictures (:mod:`.notation`, :mod:`.render`).

Bandido's rules (:mod:`banditsolve.tunnels.rules`) never import this package: a Bandida state
carries its rules (:attr:`~banditsolve.tunnels.state.GameState.variant`).
"""
