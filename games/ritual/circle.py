"""Who is in the circle, and the checks every witch's action shares (pure functions of the state)."""

from __future__ import annotations

from games.engine import NO_ONE, Action, Event, IllegalAction, public

from .data import load
from .models import RitualState

NONE = NO_ONE  # the Council's "burn no one"
LIGHT, SHADOW = "light", "shadow"


def team(state: RitualState, pid: str) -> str:
    return load().roles[state.roles[pid]].team


def alive(state: RitualState) -> list[str]:
    gone = set(state.dead) | set(state.removed)
    return [p.id for p in state.players if p.id not in gone]


def living_corrupted(state: RitualState) -> list[str]:
    return [p for p in alive(state) if team(state, p) == "corrupted"]


def line(lines: tuple[str, ...] | list[str], state: RitualState, salt: int = 0) -> str:
    """A narration variant, chosen without spending randomness (replays stay simple)."""
    return lines[(state.round * 7 + state.phase_seq + salt) % len(lines)]


def ingredient_label(iid: str) -> str:
    ing = load().ingredients[iid]
    return f"{ing.icon} {ing.name}"


def kill(state: RitualState, pid: str) -> None:
    state.dead.append(pid)
    state.deaths += 1
    state.votes.pop(pid, None)


def role_reveal(state: RitualState, pid: str) -> Event:
    role = load().roles[state.roles[pid]]
    return public("role_revealed", f"🎴 {state.name(pid)} was the **{role.name}** {role.icon}.",
                  data={"player": pid, "role": role.id, "team": role.team})


def check_acting(state: RitualState, action: Action) -> None:
    """A witch's action: by a player still in the circle."""
    if not action.player:
        raise IllegalAction("Say which player is acting.", code="no_player")
    if not state.is_alive(action.player):
        if action.player in state.removed:
            raise IllegalAction("You have left this game and can no longer act.", code="dead_player")
        raise IllegalAction("You are dead: the dead cannot vote or offer ingredients.", code="dead_player")


def all_acted(state: RitualState, book: dict[str, str]) -> bool:
    return all(p in book for p in alive(state))


def living_target(state: RitualState, target: str) -> str:
    for p in state.players:
        if p.id == target or p.name.lower() == target.lower():
            if not state.is_alive(p.id):
                raise IllegalAction(f"{p.name} is no longer in the circle.", code="target_dead")
            return p.id
    raise IllegalAction(f"There is no witch called {target!r} at this table.", code="unknown_target")
