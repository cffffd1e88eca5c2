"""Research interfaces: fixed action indices and flat observations for every game.

:mod:`.layout` names the indices of flat vectors; :mod:`.stars_codec` and :mod:`.freight_codec`
turn a game state into ``(observation, action_mask)`` for one seat and an action index back into a
rules-engine action. The PettingZoo environments (:mod:`rolling.envs.stars_v0`,
:mod:`rolling.envs.freight_v0`) and the OpenSpiel games (:mod:`rolling.spiel`) are built on them;
docs/research.md documents every index.
"""
