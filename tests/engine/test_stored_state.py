"""The state as stored with each step (``Game.dump_state``): fields at their default are left out,
and loading fills them back in. So (1) every state of a seeded playthrough of every game comes back
from its stored form exactly, and (2) a default is part of the stored format: every state model's
defaults are held in ``stored_state_defaults.json``, and changing one fails here."""

import json
import random
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel
from pydantic_core import to_json

import games
from games.engine import GameError
from games.engine.protocol import PhaseTimeout, Player
from games.engine.rng import rng_for
from games.engine.run import start, step

DEFAULTS = Path(__file__).with_name("stored_state_defaults.json")

#: (game, options): each game as it plays by default, and each Clocktower edition
PLAYED = [(name, None) for name in games.available()] + [
    ("clocktower", {"script": script}) for script in ("tb", "bmr", "snv")]


def _models(annotation: typing.Any) -> typing.Iterator[type[BaseModel]]:
    """The pydantic models a field's type names (through lists, dicts, unions and optionals)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from _models(arg)


def stored_defaults() -> dict[str, dict[str, typing.Any]]:
    """Every model a game's state is made of, with each field's default as JSON."""
    found: dict[str, dict[str, typing.Any]] = {}
    todo = [games.get(name).State for name in games.available()]
    while todo:
        model = todo.pop()
        key = f"{model.__module__}.{model.__qualname__}"
        if key in found:
            continue
        fields: dict[str, typing.Any] = {}
        for name, info in model.model_fields.items():
            if not info.is_required():
                default = info.get_default(call_default_factory=True)
                fields[name] = json.loads(to_json(default))
            todo.extend(_models(info.annotation))
        found[key] = fields
    return dict(sorted(found.items()))


def test_every_state_model_default_is_the_stored_formats():
    """A stored state omits what is at its default: a default changed in the code changes every
    game stored before, mid-game. Change one only with a migration that writes the old value into
    the stored states that omit it, then update ``stored_state_defaults.json`` (printed below)."""
    now = stored_defaults()
    held = json.loads(DEFAULTS.read_text())
    assert now == held, ("A state model's defaults changed; stored states that omit the field will "
                         "load with the new default. Write the migration, then update "
                         f"{DEFAULTS.name} to:\n" + json.dumps(now, indent=1, sort_keys=True))


@pytest.mark.parametrize(("name", "options"), PLAYED, ids=[f"{n}-{(o or {}).get('script', '')}" for n, o in PLAYED])
def test_every_state_of_a_playthrough_comes_back_from_its_stored_form(name, options):
    game = games.get(name)
    low, high = game.player_range(game.parse_options(options))
    compared = 0
    for n, seed in ((low, 1), (high, 2)):
        chooser = random.Random(f"stored:{seed}")
        players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, n + 1)]
        state = start(game, players, options, seed).state
        while True:
            stored, fixed = game.dump_state(state), game.dump_fixed(state)
            assert game.load_state(stored, fixed).model_dump_json() == state.model_dump_json()
            assert len(stored) <= len(state.model_dump_json())
            assert not set(game.fixed_fields) & json.loads(stored).keys()  # stored apart, not twice
            compared += 1
            if state.finished or compared > 3000:
                break
            legal = game.legal_actions(state)
            action = chooser.choice(legal) if legal and chooser.random() > 0.1 else PhaseTimeout(
                phase_seq=state.phase_seq)
            try:
                state = step(game, state, action, seed).state
            except GameError:
                state = step(game, state, PhaseTimeout(phase_seq=state.phase_seq), seed).state
    assert compared > 20


def test_a_stored_state_leaves_out_what_is_at_its_default():
    """The Clocktower's first morning: most of a seat's fields and most of the state's lists are at
    their defaults, and are not written."""
    game = games.get("clocktower")
    players = [Player(id=f"p{i}", name=f"Player{i}", seat=i) for i in range(1, 16)]
    state = start(game, players, {"script": "tb"}, 3).state
    stored = json.loads(game.dump_state(state))
    assert "alive" not in stored["seats"][0] and "vote_token" not in stored["seats"][0]
    assert "votes" not in stored and "nominations" not in stored
    assert stored["seats"][0]["character"] == state.seats[0].character



def test_the_clocktower_stores_its_script_pool_players_and_settings_apart_from_the_state():
    """The script, the pool, the players and the settings are set at the deal: a step stores the
    rest of the state only, and a state stored whole (as before they were kept apart) still loads."""
    game = games.get("clocktower")
    assert game.fixed_fields == ("script", "pool", "players", "settings")
    players = [Player(id=f"p{i}", name=f"Player{i}", seat=i) for i in range(1, 16)]
    state = start(game, players, {"script": "bmr", "dead_vote": "when_cast"}, 3).state
    stored, fixed = json.loads(game.dump_state(state)), json.loads(game.dump_fixed(state))
    assert not {"script", "pool", "players", "settings"} & stored.keys()
    assert set(fixed) == {"script", "pool", "players", "settings"} and fixed["pool"] == list(state.pool)
    assert fixed["settings"] == {"dead_vote": "when_cast"}  # (defaults left out, as everywhere)
    whole = state.model_dump_json(exclude_defaults=True)  # a row stored by the version before
    assert game.load_state(whole).model_dump_json() == state.model_dump_json()
    assert games.get("ritual").dump_fixed(start(games.get("ritual"), players[:5], None, 1).state) is None


def test_the_clocktower_dumps_the_same_seats_once_and_any_change_of_a_seat_anew():
    """The seats' stored form is kept by their values (``stored_seats``): a vote, which changes no
    seat, reuses it; a death, a spent token or a swap is a new form, stored as it is."""
    from games.clocktower import state as state_module

    game = games.get("clocktower")
    players = [Player(id=f"p{i}", name=f"Player{i}", seat=i) for i in range(1, 16)]
    state = start(game, players, {"script": "tb"}, 3).state
    state_module._STORED_SEATS.clear()
    first = game.dump_state(state)
    assert len(state_module._STORED_SEATS) == 1
    state.votes[state.seats[0].player] = state.seats[1].player  # not a seat: the same seats' form
    assert game.dump_state(state) != first and len(state_module._STORED_SEATS) == 1
    for change in (lambda s: setattr(s, "alive", False), lambda s: setattr(s, "vote_token", False),
                   lambda s: setattr(s, "character", "imp")):
        change(state.seats[4])
        stored = json.loads(game.dump_state(state))
        assert stored["seats"] == json.loads(state.model_dump_json(exclude_defaults=True))["seats"]
    assert len(state_module._STORED_SEATS) == 4
    assert game.load_state(game.dump_state(state), game.dump_fixed(state)).model_dump_json() == \
        state.model_dump_json()
    for _ in range(state_module.STORED_SEATS_KEPT + 1):  # bounded: never more circles than that
        state.seats[4].joined_day += 1
        game.dump_state(state)
    assert len(state_module._STORED_SEATS) <= state_module.STORED_SEATS_KEPT


@pytest.mark.parametrize("script", ["tb", "bmr", "snv", "hrh"])
def test_a_clocktower_step_that_keeps_the_fixed_objects_keeps_their_stored_form(script):
    """The bot writes the fixed part only when a fixed field is not the same object after the step
    (applied in place, as the bot applies it): so no step may change the script or the pool in place.
    Seeded games of each edition, with a re-deal from a new pool in set-up, checked after every step."""
    game = games.get("clocktower")
    options = None if script == "hrh" else {"script": script}
    low, high = game.player_range(game.parse_options(options))
    steps = changed = 0
    for n, seed in ((low, 1), (high, 2), (10, 3)):
        chooser = random.Random(f"fixed:{seed}")
        players = [Player(id=f"p{i}", name=f"Player{i}", seat=i) for i in range(1, n + 1)]
        state = start(game, players, options, seed).state
        pool = [cid for cid in state.pool if cid != state.seats[0].character] + [state.seats[0].character]
        actions: list = [{"type": "redeal", "player": "st", "pool": pool}]
        for _ in range(1500):
            if state.finished:
                break
            if actions:
                action = actions.pop()
            else:
                legal = game.legal_actions(state)
                action = chooser.choice(legal) if legal and chooser.random() > 0.1 else PhaseTimeout(
                    phase_seq=state.phase_seq)
            work = game.load_state(game.dump_state(state), game.dump_fixed(state))  # the bot's own copy
            kept = [getattr(work, name) for name in game.fixed_fields]
            fixed_before = game.dump_fixed(work)
            try:
                after = game.apply(work, action, rng_for(seed, work.step + 1), in_place=True).state
            except GameError:
                continue
            steps += 1
            if all(getattr(after, name) is obj for name, obj in zip(game.fixed_fields, kept, strict=True)):
                assert game.dump_fixed(after) == fixed_before, (script, seed, action)
            else:
                changed += 1
            state = after
    assert steps > 100 and changed >= 3  # each game's re-deal from a new pool is a new pool
