"""Research interfaces: fixed action indices and flat observations for every game.

:mod:`.layout` names the indices of flat vectors (observation segments with their bounds and
scale; :func:`.layout.action_layout` decodes an action index into its block and fields and back); :mod:`.stars_codec` and :mod:`.freight_codec`
turn a game state into ``(observation, action_mask)`` for one seat and an action index back into a
rules-engine action. The PettingZoo environments (:mod:`rolling.envs.stars_v0`,
:mod:`rolling.envs.freight_v0`), the Gymnasium environments against bots (:mod:`rolling.envs.vs_bots`)
and the OpenSpiel games (:mod:`rolling.spiel`) are built on them;
docs/research.md documents every index.
"""
