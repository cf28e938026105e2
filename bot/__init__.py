"""The Discord side: a thin adapter around the pure rules in ``games/``."""
