"""rolling: rules engines, play, bots and research APIs for the Rolling family of train games."""

__version__ = "0.1.0"
