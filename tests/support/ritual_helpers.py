"""Helpers for The Ritual's tests (loaded by file path: tests run in importlib mode)."""

from __future__ import annotations

import random
from typing import Any

from games import get
from games.engine import Event, Player
from games.ritual.circle import alive

GAME = get("ritual")
IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
NAMES = ["Ava", "Bram", "Cora", "Dax", "Esme", "Finn", "Gwen", "Hugo", "Iris"]


def players(n: int) -> list[Player]:
    return [Player(id=IDS[k], name=NAMES[k]) for k in range(n)]


class Table:
    """A game at a table, stepping with a given random source and checking invariants each step."""

    def __init__(self, roles: list[str], rng: random.Random | None = None, **options: Any) -> None:
        self.rng = rng or random.Random(0)
        ps = players(len(roles))
        out = GAME.setup(ps, options, self.rng, {"roles": {p.id: r for p, r in zip(ps, roles, strict=True)}})
        self.state = out.state
        self.events: list[Event] = list(out.events)
        self.last_events: list[Event] = list(out.events)
        assert GAME.check_invariants(self.state, out.events) == []

    def do(self, rng: random.Random | None = None, **action: Any):
        out = GAME.apply(self.state, action, rng or self.rng)
        problems = GAME.check_invariants(out.state, out.events)
        assert problems == [], problems
        self.state = out.state
        self.events += out.events
        self.last_events = list(out.events)
        return out

    @property
    def alive(self) -> list[str]:
        return alive(self.state)

    def each(self, phase: str, action: str, field: str, choices: dict[str, str],
             rng: random.Random | None = None) -> list[Event]:
        """Every player in ``choices`` makes ``action`` with their value; the events it caused."""
        assert self.state.phase == phase
        seen = len(self.events)
        for p, value in choices.items():
            self.do(rng=rng, type=action, player=p, **{field: value})
        return self.events[seen:]

    def elect(self, performer: str, rng: random.Random | None = None) -> list[Event]:
        return self.each("choosing", "vote_performer", "target", dict.fromkeys(self.alive, performer), rng)

    def offer(self, offers: dict[str, str], rng: random.Random | None = None) -> list[Event]:
        """Offer for the given players; if they are all the living ones, the ritual resolves."""
        return self.each("offering", "offer", "ingredient", offers, rng)

    def burn(self, votes: dict[str, str], rng: random.Random | None = None) -> list[Event]:
        return self.each("council", "vote_burn", "target", votes, rng)

    def spare_all(self) -> list[Event]:
        return self.burn({p: "none" for p in self.alive})

    def timeout(self, rng: random.Random | None = None) -> list[Event]:
        seen = len(self.events)
        self.do(rng=rng, type="phase_timeout", phase_seq=self.state.phase_seq)
        return self.events[seen:]

    def round(self, performer: str, offers: dict[str, str], rng: random.Random | None = None) -> list[Event]:
        """Elect, offer (all living), and spare at the Council if there is one."""
        seen = len(self.events)
        self.elect(performer)
        self.offer(offers, rng=rng)
        if self.state.phase == "council":
            self.spare_all()
        return self.events[seen:]


def public(events: list[Event], type: str | None = None) -> list[Event]:
    return [e for e in events if e.audience.kind == "public" and (type is None or e.type == type)]


def private_to(events: list[Event], pid: str, type: str | None = None) -> list[Event]:
    return [e for e in events if e.audience.kind == "player" and e.audience.id == pid
            and (type is None or e.type == type)]


# The Revenant's table: seven witches, rounds that never backfire (the offerings are muted).
REV_ROLES = ["guardian", "seer", "chronicler", "seer", "hollow_servant", "harbinger", "revenant"]
REV_OFFERS = {"a": "silver_thread", "b": "crystal_salt", "c": "raven_feather", "d": "crystal_salt",
              "e": "shadow_ash", "f": "iron_thorn", "g": "graveyard_soil"}


def haunt(t: Table, burns: list[str]) -> None:
    """One round per target: "b" performs, everyone offers, the Council burns the target (or no one)."""
    for target in burns:
        t.elect("b")
        t.offer({p: i for p, i in REV_OFFERS.items() if p in t.alive})
        assert t.state.phase == "council"
        t.burn({p: (target if p != target else "none") for p in t.alive})
