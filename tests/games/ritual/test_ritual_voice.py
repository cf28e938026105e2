"""The voice table (issue 29): the Choosing's speaking turns, who is silenced, the words said aloud."""

from __future__ import annotations

import random

import pytest
import support.ritual_helpers as H

from games.engine import GameError, IllegalAction, PhaseTimeout, Player, TurnOver, to_thread
from games.engine.run import start, step
from games.ritual import voice
from games.ritual.circle import alive

GAME = H.GAME
Table = H.Table
ROLES7 = ["guardian", "seer", "chronicler", "hollow_servant", "harbinger", "seer", "guardian"]
ROLES5 = ["guardian", "seer", "chronicler", "hollow_servant", "guardian"]
TURNS = {"speaking_turns": True}
# offerings that keep every Performer alive (a PURE Protection ritual), so a Council follows
SAFE = {"a": "mandrake_root", "b": "crystal_salt", "c": "bone_dust", "d": "void_essence", "e": "mandrake_root"}
# offerings of ROLES7 that backfire (36, amplified), Divination dominant: the Performer dies
BACKFIRE = {"a": "silver_thread", "b": "eye_of_newt", "c": "raven_feather", "d": "void_essence",
            "e": "serpent_scale", "f": "eye_of_newt", "g": "silver_thread"}


def turn_over(t: Table):
    turn = GAME.speaking_turn(t.state)
    assert turn is not None
    return t.do(type="turn_over", phase_seq=t.state.phase_seq, turn=turn.index)


def speakers(t: Table) -> list[str]:
    """Every speaker of the current Choosing, in order, ending the turns one by one."""
    heard = []
    while (turn := GAME.speaking_turn(t.state)) is not None:
        heard.append(turn.speaker)
        turn_over(t)
    return heard


def next_round(t: Table) -> None:
    """Fate picks the Performer, everyone offers safely and is spared: the next Choosing opens."""
    rnd = t.state.round
    t.timeout()
    t.offer({p: SAFE[p] for p in t.alive})
    if t.state.phase == "council":
        t.spare_all()
    assert t.state.round == rnd + 1 and t.state.phase == "choosing"


# ----------------------------------------------------------------- the order
def test_default_game_has_no_turns_and_draws_the_same():
    t = Table(ROLES5)
    assert t.state.speakers == [] and GAME.speaking_turn(t.state) is None
    assert GAME.silenced(t.state) == []
    assert not any(e.type == "speaking_turn" for e in t.events)
    assert not any(isinstance(a, TurnOver) for a in GAME.legal_actions(t.state))
    with pytest.raises(IllegalAction) as info:
        t.do(type="turn_over", phase_seq=t.state.phase_seq, turn=0)
    assert info.value.code == "stale_turn"


def test_seat_order_opens_one_seat_later_each_round():
    t = Table(ROLES5, **TURNS)
    assert t.state.speakers == ["a", "b", "c", "d", "e"]
    next_round(t)
    assert t.state.speakers == ["b", "c", "d", "e", "a"]
    next_round(t)
    assert t.state.speakers == ["c", "d", "e", "a", "b"]


def test_seat_order_skips_the_dead_at_the_opening_seat():
    t = Table(ROLES7, **TURNS)
    t.state.dead.append("b")  # as if b died in round 1
    t.state.deaths += 1
    t.state.round = 2
    voice.open_turns(t.state, alive(t.state), random.Random(0))
    assert t.state.speakers == ["c", "d", "e", "f", "g", "a"]


def test_random_order_uses_the_rng_only_with_turns():
    orders = {tuple(Table(ROLES7, rng=random.Random(s), speaking_turns=True, turn_order="random").state.speakers)
              for s in range(8)}
    assert len(orders) > 1 and all(sorted(o) == list("abcdefg") for o in orders)
    # with turns off the random order option draws nothing: the same roles and the same state
    plain = Table(ROLES7, rng=random.Random(3)).state
    off = Table(ROLES7, rng=random.Random(3), turn_order="random").state
    assert off.speakers == [] and off.model_dump(exclude={"options"}) == plain.model_dump(exclude={"options"})
    rng_a, rng_b = random.Random(5), random.Random(5)
    start_a = GAME.setup(H.players(7), {}, rng_a).state
    start_b = GAME.setup(H.players(7), {"turn_order": "random"}, rng_b).state
    assert start_a.roles == start_b.roles and rng_a.random() == rng_b.random()


def test_turn_lines_name_the_speaker_and_call_them():
    t = Table(ROLES5, **TURNS)
    opened = H.public(t.events, "choosing_opened")[-1]
    first = H.public(t.events, "speaking_turn")[-1]
    assert "Silence rules" in opened.text
    assert first.slot.startswith("turn") and first.notify == ["a"]
    assert first.data["on_phase"] == t.state.phase_seq and first.data["turn_ends"] is True
    assert "**Ava** has the floor (turn 1 of 5)" in first.text and first.say == "Ava, you have the floor."
    assert speakers(t) == ["a", "b", "c", "d", "e"]
    last = H.public(t.last_events, "speaking_turn")[-1]
    assert "Everyone may speak again" in last.text and "turn_ends" not in last.data and not last.notify


# ----------------------------------------------------------------- TurnOver
def test_stale_turn_over_is_refused_and_changes_nothing():
    t = Table(ROLES5, **TURNS)
    turn_over(t)
    before = t.state.model_dump_json()
    for stale in ({"turn": 0}, {"turn": 2}, {"turn": 1, "phase_seq": t.state.phase_seq - 1}):
        action = {"type": "turn_over", "phase_seq": t.state.phase_seq, **stale}
        with pytest.raises(IllegalAction) as info:
            GAME.apply(t.state, action, random.Random(0))
        assert info.value.code in ("stale_turn", "stale_phase") and str(info.value)
        assert t.state.model_dump_json() == before
    assert GAME.speaking_turn(t.state).index == 1


def test_turn_over_after_the_choosing_is_refused():
    t = Table(ROLES5, **TURNS)
    seq = t.state.phase_seq
    t.timeout()
    assert t.state.phase == "offering" and GAME.speaking_turn(t.state) is None
    with pytest.raises(IllegalAction) as info:
        t.do(type="turn_over", phase_seq=t.state.phase_seq, turn=0)
    assert info.value.code == "stale_turn"
    with pytest.raises(IllegalAction):
        t.do(type="turn_over", phase_seq=seq, turn=0)


def test_removing_the_speaker_moves_the_floor_on():
    t = Table(ROLES7, **TURNS)
    t.do(type="remove_player", target="a")
    turn = GAME.speaking_turn(t.state)
    assert turn.speaker == "b" and turn.index == 1
    line = H.public(t.last_events, "speaking_turn")[-1]
    assert line.notify == ["b"] and "turn 2 of 7" in line.text


def test_removed_and_dead_speakers_later_in_the_order_are_skipped():
    t = Table(ROLES7, **TURNS)
    t.do(type="remove_player", target="c")
    t.state.dead.append("d")  # a witch gone by another way (the rules cannot kill in the Choosing)
    t.state.deaths += 1
    assert GAME.speaking_turn(t.state).speaker == "a"
    turn_over(t)
    assert GAME.speaking_turn(t.state).speaker == "b"
    turn_over(t)
    assert GAME.speaking_turn(t.state).speaker == "e"


# ----------------------------------------------------------------- the vote and the clock
def test_the_choosing_does_not_close_while_turns_remain():
    t = Table(ROLES5, **TURNS)
    t.elect("b")
    assert t.state.phase == "choosing" and len(t.state.votes) == 5
    for _ in range(4):
        turn_over(t)
        assert t.state.phase == "choosing"
    turn_over(t)  # the last turn ends, everyone has voted: the Choosing closes
    assert t.state.phase == "offering" and t.state.performer == "b"
    assert GAME.speaking_turn(t.state) is None and t.state.speakers == []


def test_when_the_vote_closes_with_the_last_turn_the_turn_line_says_the_turns_are_over():
    """Everyone voted during the turns: the last turn's end closes the Choosing, and first the turn's
    line under the Choosing's message stops counting down a turn that ended (issue 36)."""
    t = Table(ROLES5, **TURNS)
    t.elect("b")
    choosing = t.state.phase_seq
    for _ in range(4):
        turn_over(t)
    out = turn_over(t)
    assert t.state.phase == "offering"
    lines = [e for e in out.events if e.slot == "turn:1"]
    assert [(e.text, e.data.get("on_phase"), e.data.get("turn_ends")) for e in lines] == [
        ("🗣️ **The turns are over.**", choosing, None)]
    assert out.events.index(lines[0]) < next(i for i, e in enumerate(out.events) if e.opens_phase)


def test_after_the_last_turn_the_vote_stays_open_until_all_voted():
    t = Table(ROLES5, **TURNS)
    assert "after the last speaking turn" in t.do(type="vote_performer", player="a", target="c").reply
    speakers(t)
    assert t.state.phase == "choosing" and GAME.silenced(t.state) == []
    t.each("choosing", "vote_performer", "target", {p: "c" for p in "bcde"})
    assert t.state.phase == "offering" and t.state.performer == "c"


def test_removal_during_turns_does_not_close_the_vote_early():
    t = Table(ROLES5, **TURNS)
    t.each("choosing", "vote_performer", "target", {p: "a" for p in "abcd"})
    t.do(type="remove_player", target="e")  # everyone left has voted, but turns remain
    assert t.state.phase == "choosing"
    speakers(t)
    assert t.state.phase == "offering"


def test_phase_seconds_with_turns():
    plain = Table(ROLES5)
    assert GAME.phase_seconds(plain.state) == 90.0
    fitted = Table(ROLES7, **TURNS)  # (90 - 20) // 7 = 10 s a turn, 70 + 15 < 90
    assert GAME.speaking_turn(fitted.state).seconds == 10.0
    assert GAME.phase_seconds(fitted.state) == 90.0
    long = Table(ROLES7, speaking_turns=True, turn_seconds=30)
    assert GAME.speaking_turn(long.state).seconds == 30.0
    assert GAME.phase_seconds(long.state) == 7 * 30 + 15
    short = Table(ROLES7, speaking_turns=True, choosing_seconds=30)  # (30 - 20) // 7 = 1 -> 8 s
    assert GAME.speaking_turn(short.state).seconds == 8.0
    assert GAME.phase_seconds(short.state) == 7 * 8 + 15
    few = Table(["guardian", "seer", "hollow_servant"], **TURNS)  # 70 // 3 = 23 -> 20 s
    assert GAME.speaking_turn(few.state).seconds == 20.0
    few.elect("a")
    few.timeout()
    assert GAME.phase_seconds(few.state) == 45.0  # the Offering keeps its own clock


# ----------------------------------------------------------------- silenced
def test_silenced_during_a_turn_is_everyone_but_the_speaker():
    t = Table(ROLES5, **TURNS)
    assert GAME.silenced(t.state) == ["b", "c", "d", "e"]
    turn_over(t)
    assert GAME.silenced(t.state) == ["a", "c", "d", "e"]
    t.do(type="remove_player", target="e")
    assert "e" not in GAME.silenced(t.state)


def test_the_dead_are_muted_only_with_mute_dead_and_never_after_the_end():
    for mute in (False, True):
        t = Table(ROLES7, mute_dead=mute, speaking_turns=True)
        t.timeout()  # fate picks a Performer
        t.offer(BACKFIRE)
        dead = list(t.state.dead)
        assert dead, "the ritual was meant to backfire"
        t.do(type="remove_player", target=next(p for p in t.alive if p != "a"))
        quiet = GAME.silenced(t.state)
        assert all(r not in quiet for r in t.state.removed)
        assert all((d in quiet) == mute for d in dead)
        t.do(type="end_game")
        assert GAME.silenced(t.state) == []


def test_mute_dead_during_a_turn_adds_the_dead():
    t = Table(ROLES7, mute_dead=True, speaking_turns=True)
    t.state.dead.append("g")
    t.state.deaths += 1
    assert GAME.silenced(t.state) == ["b", "c", "d", "e", "f", "g"]


# ----------------------------------------------------------------- words said aloud
def test_the_phases_are_said_aloud_with_the_clock_s_numbers():
    t = Table(ROLES5, choosing_seconds=90, offering_seconds=45)
    assert H.public(t.events, "choosing_opened")[-1].say == \
        "Round one. The Choosing: ninety seconds to choose the Performer."
    t.elect("b")
    assert H.public(t.last_events, "performer_chosen")[-1].say == "Bram takes the thirteenth chair."
    assert H.public(t.last_events, "offering_opened")[-1].say == "The Offering, for Bram's ritual: forty-five seconds."
    t.offer(SAFE)
    assert H.public(t.events, "ritual_outcome")[-1].say == "The ritual is pure."
    assert H.public(t.events, "council_opened")[-1].say == "The Council opens: two minutes."
    t.burn({"a": "d", "b": "d", "c": "d", "d": "a", "e": "d"})
    assert H.public(t.events, "council_result")[-1].say == "Dax burns."
    assert H.public(t.events, "game_over")[-1].say == "The Coven wins."
    assert all(not e.say for e in t.events if e.audience.kind != "public")


def test_deaths_are_said_aloud():
    t = Table(ROLES7)
    t.elect("a")
    t.offer(BACKFIRE)
    assert H.public(t.events, "ritual_outcome")[-1].say == "The ritual backfires."
    assert H.public(t.events, "death")
    for death in H.public(t.events, "death"):
        assert death.say.startswith(t.state.name(death.data["player"]))


def test_spoken_numbers():
    assert voice.spoken_seconds(90) == "ninety seconds"
    assert voice.spoken_seconds(120) == "two minutes"
    assert voice.spoken_seconds(60) == "one minute"
    assert voice.spoken_seconds(45) == "forty-five seconds"
    assert voice.spoken_seconds(125) == "one hundred and twenty-five seconds"


# ----------------------------------------------------------------- random play
def voice_games(n, seeds, options):
    """Seeded random games that end turns often (a third of the steps when one runs)."""
    for seed in seeds:
        chooser = random.Random(seed)
        ps = [Player(id=f"p{i}", name=f"Witch{chr(64 + i)}") for i in range(1, n + 1)]
        out = start(GAME, ps, options, seed)
        yield out.state, out.events
        state = out.state
        while not state.finished:
            legal = GAME.legal_actions(state)
            turns = [a for a in legal if isinstance(a, TurnOver)]
            if turns and chooser.random() < 0.3:
                action = turns[0]
            elif not legal or chooser.random() < 0.05:
                action = PhaseTimeout(phase_seq=state.phase_seq)
            else:
                action = chooser.choice(legal)
            try:
                out = step(GAME, state, action, seed)
            except GameError as exc:  # pragma: no cover - a failure message
                raise AssertionError(f"seed {seed}: legal {action!r} refused: {exc}") from exc
            state = out.state
            yield state, out.events


@pytest.mark.parametrize("n", [4, 7, 9])
def test_random_play_with_voice_options_keeps_every_invariant(n):
    options = {"speaking_turns": True, "mute_dead": True, "turn_order": "random", "revenant": n >= 7}
    turns_seen = 0
    for state, events in voice_games(n, range(10), options):
        assert GAME.check_invariants(state, events) == []
        quiet = GAME.silenced(state)
        assert not set(quiet) & set(state.removed)
        assert quiet == [] if state.finished else set(state.dead) <= set(quiet)
        turns_seen += sum(e.type == "speaking_turn" for e in events)
        for e in events:
            if e.type in ("choosing_opened", "offering_opened", "council_opened", "ritual_outcome", "game_over",
                          "performer_chosen", "death", "speaking_turn") and not e.data.get("closing"):
                assert e.say, e.type  # (the turn line closed with its phase is written, not said)
    assert turns_seen > 50


def test_the_invariants_catch_a_secret_in_spoken_words():
    t = Table(ROLES5)
    role = GAME.data.roles[t.state.roles["d"]].name
    bad = H.public(t.events, "choosing_opened")[-1].model_copy(update={"say": f"Dax is the {role}"})
    assert any("secret" in p for p in GAME.check_invariants(t.state, [bad]))
    whisper = bad.model_copy(update={"audience": H.private_to(t.events, "a")[0].audience, "say": "hello"})
    assert any("spoken" in p for p in GAME.check_invariants(t.state, [whisper]))
    # a thread's message reaches a private thread, never the voice channel: no words on it either
    threaded = bad.model_copy(update={"audience": to_thread("town"), "say": "hello"})
    assert any("spoken" in p for p in GAME.check_invariants(t.state, [threaded]))


def test_speaking_turns_or_the_dead_muted_mute_anyone():
    roles = ["guardian", "seer", "hollow_servant"]
    assert not GAME.mutes_anyone(Table(roles).state)
    assert GAME.mutes_anyone(Table(roles, speaking_turns=True).state)
    assert GAME.mutes_anyone(Table(roles, mute_dead=True).state)
