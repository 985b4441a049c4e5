from typing import TypeVar

from .env import AECEnv

AgentID = TypeVar("AgentID")
ObsType = TypeVar("ObsType")
ActionType = TypeVar("ActionType")

class BaseWrapper(AECEnv[AgentID, ObsType, ActionType]):
    env: AECEnv[AgentID, ObsType, ActionType]
    def __init__(self, env: AECEnv[AgentID, ObsType, ActionType]) -> None: ...

class OrderEnforcingWrapper(BaseWrapper[AgentID, ObsType, ActionType]): ...
