"""Gymnasium environments, registered on import (``import rolling.envs``)."""

from gymnasium.envs.registration import register, registry

# Rolling Market: docs/market.md, rolling/envs/market.py
if "rolling/Market-v0" not in registry:
    register(id="rolling/Market-v0", entry_point="rolling.envs.market:MarketEnv", max_episode_steps=500)
