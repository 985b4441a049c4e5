"""Types for the parts of PettingZoo (which ships none) that scopa.rl uses."""

from .utils.env import AECEnv as AECEnv
