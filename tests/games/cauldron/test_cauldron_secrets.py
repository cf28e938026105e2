"""No secret (a hero, who cast what, a gazed card) reaches a public event or another player's view or
private message before the game-over reveal, checked at every step of seeded random games."""

from __future__ import annotations

import json
import random

import pytest
import support.cauldron_helpers as h

from games.cauldron import GAME
from games.cauldron.data import DATA, HEROES
from games.engine import GameError, PhaseTimeout, RemovePlayer, ScriptedRng, rng_for

CARD_IDS = [f"cc{i:02d}" for i in range(1, 17)]


def _own_heroes(state, pid: str) -> set[str]:
    """Every hero this player has held (a Ceol singer knows the hero they gave up and the one they got)."""
    held = {state.starting_heroes[pid], state.heroes[pid]}
    for change in state.hero_changes[pid]:
        held |= {change.before, change.after}
    return held


def _without_legends(text: str, heroes: set[str]) -> str:
    for key in heroes:  # a legend may name another hero ("slayer of Balor")
        text = text.replace(HEROES[key].legend, "")
    return text


def _heroes_named(blob: str) -> set[str]:
    return {h.key for h in DATA.heroes if h.name in blob or f'"{h.key}"' in blob}


def _pids_named(blob: str, state) -> set[str]:
    return {p.id for p in state.players if f'"{p.id}"' in blob}


def _check_public_event(state, event) -> list[str]:
    if event.type == "game_over":
        return []
    blob = event.text + " " + event.title + " " + json.dumps(event.data)
    problems = [f"{event.type}: names hero {k}" for k in _heroes_named(blob)]
    problems += [f"{event.type}: shows card id {c}" for c in CARD_IDS if c in blob]
    if event.type != "player_removed":
        problems += [f"{event.type}: names player {p.name}" for p in state.players if p.name in blob]
        problems += [f"{event.type}: holds player id {pid}" for pid in _pids_named(blob, state)]
    return problems


def _check_private_event(state, event) -> list[str]:
    pid = event.audience.id
    allies = set(state.evil_allies.get(pid, []))
    allowed = _own_heroes(state, pid) | {state.starting_heroes[a] for a in allies}
    blob = _without_legends(event.text, allowed) + " " + event.title + " " + json.dumps(event.data)
    problems = [f"{event.type} to {pid}: names hero {k}" for k in _heroes_named(blob) - allowed]
    others = {p.id for p in state.players if p.id != pid and p.name in blob} | (_pids_named(blob, state) - {pid})
    problems += [f"{event.type} to {pid}: names player {q}" for q in others - allies]
    seen = {k.card for k in state.knowledge[pid]}
    problems += [f"{event.type} to {pid}: shows card id {c}" for c in CARD_IDS if c in blob and c not in seen]
    return problems


def _check_view(state, viewer: str | None) -> list[str]:
    view = GAME.view(state, viewer)
    data = json.loads(json.dumps(view.data))
    data["table"].pop("players")  # the seat list (ids and names) is public
    me = data.get("me", {})
    allies = set(me.pop("allies", []))
    blob = view.text + " " + json.dumps(data)
    who = viewer or "the public"
    own = _own_heroes(state, viewer) if viewer else set()
    problems = [f"view of {who}: names hero {k}" for k in _heroes_named(blob) - own]
    seen = {k.card for k in state.knowledge[viewer]} if viewer else set()
    problems += [f"view of {who}: shows card id {c}" for c in CARD_IDS if c in blob and c not in seen]
    problems += [f"view of {who}: holds player id {q}" for q in _pids_named(blob, state) - {viewer}]
    names = {p.id for p in state.players if p.id != viewer and p.name in view.text}
    problems += [f"view of {who}: names player {q}" for q in names - allies]
    for key in ("played_by", "hands", "chosen", "heroes", "knowledge", "gaze_pending", "yew_votes", "center"):
        if key in view.data:
            problems.append(f"view of {who}: has {key}")
    return problems


def _play(seed: int, n: int, options: dict) -> tuple[list[str], dict[str, int]]:
    """One random game to the end (legal actions, timeouts, now and then a removal); every step checked."""
    chooser = random.Random(seed)
    out = GAME.setup(h.players(n), options, rng_for(seed, 0))
    state, events = out.state, out.events
    seen = {"gaze": 0, "ceol_change": 0, "peek": 0, "public": 0, "reveal": 0}
    problems: list[str] = []
    for step in range(5000):
        for e in events:
            if e.audience.kind == "public":
                seen["public"] += 1
                problems += _check_public_event(state, e)
            elif e.audience.kind == "player":
                problems += _check_private_event(state, e)
            seen["gaze"] += e.type == "gaze"
            seen["peek"] += e.type == "peek"
            seen["ceol_change"] += e.type == "new_hero" and e.data["changed"]
        if state.finished:
            over = [e for e in events if e.type == "game_over"]
            assert over and all(HEROES[k].name in over[0].text for k in state.heroes.values())
            seen["reveal"] += 1
            break
        problems += _check_view(state, None)
        problems += [p for pid in h.pids(n) for p in _check_view(state, pid)]
        if problems:
            break
        legal = GAME.legal_actions(state)
        roll = chooser.random()
        if roll < 0.005 and len(state.active()) > 2:
            action = RemovePlayer(target=chooser.choice(state.active()))
        elif roll < 0.08 or not legal:
            action = PhaseTimeout(phase_seq=state.phase_seq)
        else:
            action = chooser.choice(legal)
        try:
            res = GAME.apply(state, action, rng_for(seed, step + 1))
        except GameError as exc:  # pragma: no cover - a legal action must be accepted
            problems.append(f"refused {action!r}: {exc}")
            break
        state, events = res.state, res.events
    assert state.finished or problems, f"game {seed} did not finish"
    return problems, seen


@pytest.mark.parametrize("options", [{}, {"evil_know_each_other": False, "ceol_leftover": "discard"},
                                     {"blocker": "both", "night_timeout": "nothing"}])
@pytest.mark.slow
def test_no_secret_reaches_the_public_or_another_player(options):
    totals: dict[str, int] = {}
    for n in range(5, 11):
        for g in range(2):
            problems, seen = _play(1000 * n + g, n, options)
            assert problems == [], problems[:5]
            for k, v in seen.items():
                totals[k] = totals.get(k, 0) + v
    # the games did reach the situations that hold secrets
    assert totals["gaze"] > 0 and totals["peek"] > 0 and totals["ceol_change"] > 0
    assert totals["reveal"] == 12


def test_a_gazed_card_stays_with_its_gazer():
    state, events = h.round_with(["gaze"] * 3 + ["ceol"] * 2, center=["blood", "milk", "milk"],
                                 rng=ScriptedRng(choices=[0, 0, 0]))
    assert state.gaze_pending["p1"] == "cc01"
    gaze = [e for e in events if e.type == "gaze"]
    assert {e.audience.kind for e in gaze} == {"player"}
    assert all(e.type != "gaze" for e in events if e.audience.kind == "public")
    assert GAME.view(state, "p1").data["me"]["gaze_card"] == "blood"
    for viewer in ("p2", "p4", None):
        assert "cc01" not in json.dumps(GAME.view(state, viewer).data)
    assert GAME.view(state, "p2").data["me"]["gaze_card"] == "milk"  # their own card, cc02
    assert GAME.view(state, "p4").data["me"]["gaze_card"] is None
    assert GAME.view(state, "p4").data["me"]["seen"] == []
    out = h.act(state, {"type": "gaze", "player": "p1", "choice": "discard"})
    for pid in ("p2", "p3"):
        out = h.act(out.state, {"type": "gaze", "player": pid, "choice": "bottom"})
    effect = [e for e in out.events if e.type == "effect"][0]
    assert effect.audience.kind == "public"
    assert not {"kind", "kinds", "shown", "card"} & set(effect.data)
    assert "Blood" not in effect.text and "Milk" not in effect.text
    assert effect.data["discarded"] == 1 and effect.data["bottom"] == 2


def test_the_checker_catches_a_leak():
    """The check above is not vacuous: a hero name or an owner in a public event is caught."""
    state, events = h.round_with(["ceol"] * 5)
    reveal = [e for e in events if e.type == "reveal"][0]
    assert _check_public_event(state, reveal) == []
    leaked = reveal.model_copy(update={"text": reveal.text + " Aoife cast Ceol; she is Balor of the Evil Eye."})
    assert len(_check_public_event(state, leaked)) == 2
    owner = reveal.model_copy(update={"data": {**reveal.data, "by": {"p1": "ceol"}}})
    assert _check_public_event(state, owner) == ["reveal: holds player id p1"]
    assert GAME.check_invariants(state, [leaked]) != []
