"""Gymnasium environments, registered on import (``import rolling.envs``): ``rolling/Market-v0``,
``rolling/StarsVsBots-v0``, ``rolling/FreightVsBots-v0``."""

from gymnasium.envs.registration import register, registry

# Rolling Market: docs/market.md, rolling/envs/market.py
if "rolling/Market-v0" not in registry:
    register(id="rolling/Market-v0", entry_point="rolling.envs.market:MarketEnv", max_episode_steps=500)

# single-agent environments against our bots: docs/research.md, rolling/envs/vs_bots.py
if "rolling/StarsVsBots-v0" not in registry:
    register(id="rolling/StarsVsBots-v0", entry_point="rolling.envs.vs_bots:StarsVsBotsEnv")
if "rolling/FreightVsBots-v0" not in registry:
    register(id="rolling/FreightVsBots-v0", entry_point="rolling.envs.vs_bots:FreightVsBotsEnv")
