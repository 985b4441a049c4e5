from . import wrappers as wrappers
from .env import AECEnv as AECEnv
