"""Work counted, not timed (issue 38): the SQL statements one player action costs on SQLite, per
game. A change that adds a statement to every action fails here, by name, long before a bench
shows it. The figure is the most any action of a seeded game took (the lock, the load, the
commit of state + action log + records + outbox rows are each one statement or one batch)."""

import random
import statistics

import pytest

import games
from bot.actor import Actor
from bot.clock import ManualClock
from bot.service import GameService
from bot.stores import open_store
from games.engine import GameError, PhaseTimeout

#: the most statements one action may take, per game: the game row, the action log, the records and
#: the outbox, and at the end the records read for the recap
MOST = {"ritual": 4, "cauldron": 4, "castle": 4}
#: what most actions take: the game row and the action log (and a Castle turn's outbox row); one
#: more statement on every action moves this
TYPICAL = {"ritual": 2, "cauldron": 2, "castle": 3}


def kinds_of(statements: list[str]) -> list[str]:
    """The statements as their kinds, without BEGIN and COMMIT; a kind repeated at once is one (a
    batch's rows, and SQLite's trace of a statement again as each trigger on it runs)."""
    kinds: list[str] = []
    for sql in statements:
        words = sql.split()
        if words[0].upper() in ("BEGIN", "COMMIT"):
            continue
        kind = " ".join(words[:4])
        if not kinds or kinds[-1] != kind:
            kinds.append(kind)
    return kinds


async def traced_actions(store, service: GameService, kind: str, players: int, actions: int, tick=None):
    """Seeded random actions of ``kind`` tables (a new table when one ends), each acted with SQLite's
    trace on: yields (the action, its statements, the game's row before, the row after). ``tick``
    is called before each action (a clock to move)."""
    game = games.get(kind)
    chooser = random.Random(5)
    table, channel = None, 1
    for _ in range(actions):
        if table is None or table.state.finished:
            host = Actor(id=1, name="P1")
            row = await service.new_game(kind=kind, guild_id=1, channel_id=channel, host=host)
            channel += 1
            for i in range(2, players + 1):
                await service.join(row.id, Actor(id=i, name=f"P{i}"))
            table = await service.start(row.id, host)
        before = await store.game(table.row.id)
        if tick is not None:
            tick()
        legal = game.legal_actions(table.state)
        action = chooser.choice(legal) if legal else PhaseTimeout(phase_seq=table.state.phase_seq)
        data = action.model_dump()
        statements: list[str] = []
        await store.db.set_trace_callback(statements.append)
        try:
            outcome = await service.act(table.row.id, int(data.get("player") or 0) or None, data)
        except GameError:
            outcome = None
        await store.db.set_trace_callback(None)
        yield data, statements, before, await store.game(table.row.id)
        table = None if outcome is not None and outcome.state.finished else await service.load(table.row.id)


async def statements_per_action(tmp_path, kind: str, players: int, actions: int = 120) -> list[int]:
    store = await open_store(tmp_path / "counted.db")
    try:
        service = GameService(store, ManualClock())
        return [len(kinds_of(statements))
                async for _data, statements, _before, _after in traced_actions(store, service, kind, players, actions)]
    finally:
        await store.close()


@pytest.mark.parametrize("kind,players", [("ritual", 7), ("cauldron", 7), ("castle", 4)])
async def test_an_action_takes_a_bounded_number_of_statements(tmp_path, kind, players):
    counts = await statements_per_action(tmp_path, kind, players)
    assert max(counts) <= MOST[kind], (kind, sorted(set(counts)))
    assert statistics.median(counts) <= TYPICAL[kind], (kind, sorted(counts))


#: the calls of a pool or a connection that reach the server (each one round trip), and those that
#: open a transaction (its own BEGIN and COMMIT are two more)
ROUND_TRIPS = ("fetch", "fetchval", "fetchrow", "execute", "executemany")


class Counting:
    """A pool's (or a connection's) calls that reach the server, counted, with its connections'
    too: each is one round trip; ``acquire`` and ``transaction`` are counted by name."""

    def __init__(self, inner, calls: list[str] | None = None, prefix: str = "") -> None:
        self.inner, self.calls, self.prefix = inner, ([] if calls is None else calls), prefix

    def __getattr__(self, name):
        found = getattr(self.inner, name)
        if name in ROUND_TRIPS or name == "transaction":
            def counted(*args, **kwargs):
                self.calls.append(self.prefix + name)
                return found(*args, **kwargs)
            return counted
        if name == "release":
            return lambda conn, **kwargs: found(conn.inner if isinstance(conn, Counting) else conn, **kwargs)
        if name == "acquire":
            def acquired(*args, **kwargs):
                self.calls.append(name)
                return CountingAcquire(found(*args, **kwargs), self.calls)
            return acquired
        return found


class CountingAcquire:
    """``pool.acquire()`` awaited or entered, its connection counted."""

    def __init__(self, taking, calls: list[str]) -> None:
        self.taking, self.calls = taking, calls

    def __await__(self):
        return self._counted().__await__()

    async def _counted(self):
        return Counting(await self.taking, self.calls, "conn.")

    async def __aenter__(self):
        return Counting(await self.taking.__aenter__(), self.calls, "conn.")

    async def __aexit__(self, *exc):
        return await self.taking.__aexit__(*exc)


async def a_ritual(service: GameService):
    """A started 7-player Ritual: its row."""
    host = Actor(id=1, name="P1")
    row = await service.new_game(kind="ritual", guild_id=1, channel_id=1, host=host)
    for i in range(2, 8):
        await service.join(row.id, Actor(id=i, name=f"P{i}"))
    await service.start(row.id, host)
    return row


async def test_an_action_on_postgresql_is_one_round_trip_to_commit(postgres_url):
    """PostgreSQL's commit of a step (state, action-log row, records, outbox rows) is one statement:
    no transaction, so no BEGIN and COMMIT of its own; and after the first, on the connection the
    store keeps for it (asyncpg's pool takes and gives back a connection in about 45 µs)."""
    store = await open_store(postgres_url)
    counting = Counting(store.pool)
    store.pool = counting  # (before the first commit: the connection it keeps is counted too)
    try:
        service = GameService(store, ManualClock())
        row = await a_ritual(service)
        game = games.get("ritual")
        acted = 0
        for _ in range(10):
            table = await service.load(row.id)
            legal = [a for a in game.legal_actions(table.state) if a.type != "phase_timeout"]
            if not legal:
                break
            counting.calls.clear()
            action = legal[0]
            try:
                await service.act(row.id, int(action.player), action.model_dump())
            except GameError:
                continue
            # the commit: one statement, on the connection the store keeps (not the pool's fetchval)
            assert counting.calls == ["conn.fetchval"], counting.calls
            assert "acquire" not in counting.calls, counting.calls  # on the connection kept for it
            acted += 1
        assert acted >= 3
    finally:
        await store.close()


async def test_a_castle_action_builds_no_whole_public_tableau(tmp_path, monkeypatch):
    """A Castle step that draws the tableau keeps its picture's compact data, made straight from the
    state: building the whole public tableau (names, places, flags, arcana) only to drop most of it
    was most of a turn's picture cost (issue 38). Counted over every action of seeded games."""
    from games.castle import game as castle_game
    from games.castle import render, shrines, tableau

    built: list[int] = []
    whole = tableau.public_tableau

    def counted(*args, **kwargs):
        built.append(1)
        return whole(*args, **kwargs)

    for module in (tableau, render, castle_game, shrines):  # wherever it is imported by name
        if hasattr(module, "public_tableau"):
            monkeypatch.setattr(module, "public_tableau", counted)
    counts = await statements_per_action(tmp_path, "castle", 4, actions=80)
    assert len(counts) == 80
    assert len(built) == 0, f"{len(built)} whole public tableaux built over 80 Castle actions"


async def test_a_game_with_no_voice_rules_asks_nothing_of_its_rules_for_the_voice_table(tmp_path, monkeypatch):
    """The service asks who is silenced before and after every action; a game that silences no one
    and runs no speaking turn (the Castle) is not asked at all (issue 38: twice an action before)."""
    from games.engine import Game

    asked: list[str] = []
    silenced, speaking_turn = Game.silenced, Game.speaking_turn

    def counted_silenced(self, state):
        asked.append("silenced")
        return silenced(self, state)

    def counted_turn(self, state):
        asked.append("speaking_turn")
        return speaking_turn(self, state)

    from bot.voice import table as voice_table

    voice_table.has_voice_rules.cache_clear()
    monkeypatch.setattr(Game, "silenced", counted_silenced)
    monkeypatch.setattr(Game, "speaking_turn", counted_turn)
    try:
        counts = await statements_per_action(tmp_path, "castle", 4, actions=30)
        assert len(counts) == 30 and asked == []
    finally:
        voice_table.has_voice_rules.cache_clear()  # (the patched methods would be read as the game's own)


CLOCK_COLUMNS = ("status", "deadline", "paused_remaining", "paused", "waiting_seconds", "remind_at",
                 "turn_deadline")


@pytest.mark.parametrize("kind,players", [("ritual", 7), ("castle", 4)])
async def test_a_step_names_only_the_clock_columns_it_changes(tmp_path, kind, players):
    """SQLite rewrites an index whenever its column is named in an UPDATE's SET, changed or not:
    naming the status and every clock on every step rewrote five indexes of ``games`` (a Castle
    move wrote 12 WAL pages, 6 now). Every clock or status column a step's UPDATE names must be one
    whose value the step changes."""
    store = await open_store(tmp_path / "columns.db")
    clock = ManualClock()
    try:
        service = GameService(store, clock)
        named_unchanged: list[tuple[str, str]] = []
        named = 0
        # (the clock moves: a reminder set from now at every step would show)
        async for data, statements, before, after in traced_actions(store, service, kind, players, 80,
                                                                     tick=lambda: clock.advance(1.5)):
            for sql in statements:
                if not sql.startswith("UPDATE games SET state"):
                    continue
                set_part = sql.split(" SET ", 1)[1].split(" WHERE ", 1)[0]
                for column in CLOCK_COLUMNS:
                    if f" {column} = " in f" {set_part}":
                        named += 1
                        if getattr(before, column) == getattr(after, column):
                            named_unchanged.append((data["type"], column))
        # steps that change a clock do name it (a Ritual's phases); a Castle without a turn timer
        # names none: its reminder is kept as set, step after step (``deadlines.remind``)
        assert named > 0 if kind == "ritual" else named == 0
        assert named_unchanged == []
    finally:
        await store.close()


async def counted_over_castle_actions(tmp_path, monkeypatch, owner, name: str, actions: int = 80) -> tuple[int, int]:
    """How many times ``owner.name`` is called over ``actions`` seeded Castle actions (the service's
    path only: the set-up of each table is not counted), and how many of the actions were timeouts."""
    calls = {"n": 0, "counting": False}
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        if calls["counting"]:
            calls["n"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    store = await open_store(tmp_path / "counted.db")
    timeouts = 0
    try:
        service = GameService(store, ManualClock())
        original_act = service.act

        async def act(*args, **kwargs):
            calls["counting"] = True
            try:
                return await original_act(*args, **kwargs)
            finally:
                calls["counting"] = False

        service.act = act  # type: ignore[method-assign]
        async for data, _statements, _before, _after in traced_actions(store, service, "castle", 4, actions):
            timeouts += data["type"] == "phase_timeout"
    finally:
        await store.close()
    return calls["n"], timeouts


async def test_a_castle_action_that_draws_nothing_seeds_no_random_source(tmp_path, monkeypatch):
    """Seeding a step's random source hashes its seed string (about 9 µs, a few percent of an action):
    only a step that draws pays it (issue 38: every action did). A Castle move draws nothing; only a
    turn whose timer ran out may."""
    seeded, timeouts = await counted_over_castle_actions(tmp_path, monkeypatch, random.Random, "seed")
    assert seeded <= timeouts, f"{seeded} random sources seeded over 80 Castle actions ({timeouts} timeouts)"


async def test_a_castle_action_encodes_no_picture_with_the_stdlib_json(tmp_path, monkeypatch):
    """A turn's tableau picture (1.2 KB of nested lists) is kept as JSON in its outbox row: the stdlib's
    encoder took 22 µs of it, pydantic-core's 6 (issue 38). A Castle action writes no record rows, so
    no ``json.dumps`` at all is left on its path."""
    import json

    dumped, _timeouts = await counted_over_castle_actions(tmp_path, monkeypatch, json, "dumps")
    assert dumped == 0, f"json.dumps called {dumped} times over 80 Castle actions"


async def test_a_castle_action_builds_no_game_row_through_its_init(tmp_path, monkeypatch):
    """The cached row of a game is copied once per action with its new clocks (``GameRow.timed``),
    field by field: ``dataclasses.replace`` re-ran ``__init__`` over its 22 fields (10 µs of every
    action; issue 38). A click on a cached game reads no row either, so no row is built at all."""
    from bot.store import GameRow

    built, _timeouts = await counted_over_castle_actions(tmp_path, monkeypatch, GameRow, "__init__")
    assert built == 0, f"{built} game rows built over 80 Castle actions"


async def test_a_step_seeded_at_its_first_draw_draws_what_the_engine_draws(tmp_path):
    """The service seeds a step's random source only when the step draws (``SeededWhenDrawn``): a
    Castle played through the service, its timers running out into random moves, ends in the very
    state the engine's own replay of its action log reaches with ``rng_for``."""
    from games.engine.run import step

    store = await open_store(tmp_path / "drawn.db")
    try:
        service = GameService(store, ManualClock())
        game = games.get("castle")
        host = Actor(id=1, name="P1")
        row = await service.new_game(kind="castle", guild_id=1, channel_id=1, host=host,
                                     options_text="on_timeout=random")
        for i in range(2, 6):
            await service.join(row.id, Actor(id=i, name=f"P{i}"))
        table = await service.start(row.id, host)
        replayed = game.load_state(table.state.model_dump_json())
        chooser = random.Random(3)
        timeouts = 0
        while not table.state.finished:
            legal = game.legal_actions(table.state)
            action = PhaseTimeout(phase_seq=table.state.phase_seq) if chooser.random() < 0.3 else chooser.choice(legal)
            timeouts += action.type == "phase_timeout"
            data = action.model_dump()
            outcome = await service.act(row.id, int(data.get("player") or 0) or None, data)
            if outcome.state.finished:
                break
            table = await service.load(row.id)
        for logged in await store.actions(row.id):
            replayed = step(game, replayed, logged, row.seed).state
        assert timeouts >= 3  # (each drew: a random move, or the pawns placed at random)
        assert replayed.model_dump_json() == outcome.state.model_dump_json()
    finally:
        await store.close()


async def test_a_castle_turn_with_no_timer_copies_no_clocks(tmp_path, monkeypatch):
    """Each Castle turn is a phase; with no turn timer its opening changes no clock, and the
    clocks' rules then give back the same value, copying nothing (issue 38: a ``dataclasses.replace``
    every turn)."""
    from bot import deadlines

    copied, _timeouts = await counted_over_castle_actions(tmp_path, monkeypatch, deadlines, "replace")
    assert copied == 0, f"the clocks copied {copied} times over 80 Castle actions"


#: a 15-seat Clocktower deal with no Virgin (a vote on her can execute its voter at once)
FIFTEEN = ["pukka", "spy", "baron", "goblin", "washerwoman", "knight", "shugenja", "empath", "highpriestess",
           "mathematician", "undertaker", "alsaahir", "juggler", "soldier", "recluse"]


def clocktower_day_with_votes(votes: int = 30):
    """A 15-player Clocktower day with ``votes`` cast or moved among four nominees and no execution
    (bench/clocktower_vote.py's day, in memory); the state and its players."""
    from support.clocktower_pure import to_day, vote

    from games.clocktower.tally import NO_EXECUTION

    state = to_day(characters=FIFTEEN)
    players = [s.player for s in state.seats]
    targets = players[2:6] + [NO_EXECUTION]
    for i in range(votes):
        voter = players[i % 15]
        target = next(t for t in targets[i % 5:] + targets if t != state.votes.get(voter))
        state = vote(state, voter, target).state
    return state, players, targets


def test_a_clocktower_vote_at_15_seats_looks_for_the_voudon_once(monkeypatch):
    """Whether a living, working Voudon rules the vote (a scan of every seat, and of the grimoire's
    tokens for a Voudon found) was looked up 6 times by one moved vote: who may vote, whether the
    vote spends a token, the count, the early end (issue 38). One moved vote now looks once, and a
    vote that nominates once more after the nomination (the Witch's curse may kill the nominator)."""
    from support.clocktower_pure import shown, vote

    from games.clocktower import bmr_travellers

    state, players, targets = clocktower_day_with_votes()
    looked: list[str] = []
    working = bmr_travellers._working

    def counted(state, character):
        looked.append(character)
        return working(state, character)

    monkeypatch.setattr(bmr_travellers, "_working", counted)
    voter = players[7]
    target = next(t for t in targets if t != state.votes.get(voter))
    out = vote(state, voter, target)
    assert looked.count("voudon") == 1, looked
    assert out.state.votes[voter] == target and any(e.type == "tally" for e in shown(out))  # (its face looks again)

    looked.clear()
    nominated = vote(out.state, players[8], players[9])  # a player not yet nominated
    assert any(e.type == "nomination" for e in nominated.events)
    assert looked.count("voudon") <= 2, looked


def test_a_clocktower_vote_that_changes_no_character_compares_no_seat_one_by_one(monkeypatch):
    """Every Clocktower action records the characters, alignments and abilities it changed, seat by
    seat (``change_records``, ~5 µs at 15 seats, issue 38). An action that changed none (a vote, most
    actions) is now told by one comparison of the seats as taken before and after; one that did
    still records its change (the Storytellers' ``/st character``)."""
    from support.clocktower_pure import act, shown, vote

    from games.clocktower import game as game_module

    state, players, targets = clocktower_day_with_votes()
    compared: list[str] = []
    records = game_module.change_records

    def counted(before, tokens, when, action, *rest):
        compared.append(action)
        return records(before, tokens, when, action, *rest)

    monkeypatch.setattr(game_module, "change_records", counted)
    voter = players[7]
    out = vote(state, voter, next(t for t in targets if t != state.votes.get(voter)))
    assert any(e.type == "tally" for e in shown(out))
    assert compared == []

    changed = act(out.state, type="set_character", target=players[9], character="soldier")
    assert compared == ["set_character"]
    assert [e.data["to"] for e in changed.events if e.type == "character_change"] == ["soldier"]


def test_a_clocktower_vote_that_changes_a_character_still_records_it():
    """The other side of the comparison above: a vote can change a character (the Witch's curse kills
    the nominating Imp, and the Scarlet Woman becomes the Imp), and that vote's change is recorded."""
    import json

    from support.clocktower_pure import act, choose, new_game, timeout, vote

    characters = ["imp", "witch", "scarletwoman", "washerwoman", "empath", "soldier", "monk", "mayor"]
    script = json.dumps([*characters, "chef", "poisoner"])
    state = choose(act(new_game({"script": script}, characters), type="begin").state, "p2", "p1")
    while state.phase == "night":
        state = timeout(state).state
    out = vote(state, "p1", "p4")  # the cursed Imp nominates
    changes = [e.data for e in out.events if e.type == "character_change"]
    assert [(c["player"], c["from"], c["to"]) for c in changes] == [("p3", "scarletwoman", "imp")]
    assert not out.state.seat_of("p1").alive


def test_clocktower_votes_that_change_no_seat_dump_the_seats_once(monkeypatch):
    """Every vote dumped the 15 seats again with the state it stores (11 µs of the 19 of a day's
    dump, issue 38). The seats' stored form is now made once for the same seats: a day's votes
    dump them once; a death dumps them again, once."""
    from support.clocktower_pure import GAME, vote

    from games.clocktower import state as state_module

    state, players, targets = clocktower_day_with_votes()
    dumped: list[int] = []
    adapter = state_module._SEATS

    class Counted:
        def dump_json(self, seats, **kw):
            dumped.append(len(seats))
            return adapter.dump_json(seats, **kw)

    monkeypatch.setattr(state_module, "_SEATS", Counted())
    monkeypatch.setattr(state_module, "_STORED_SEATS", {})
    for i in range(20):
        voter = players[i % 15]
        state = vote(state, voter, next(t for t in targets if t != state.votes.get(voter))).state
        GAME.dump_state(state)
    assert dumped == [15]
    state.seats[3].alive = False
    stored = GAME.dump_state(state)
    assert dumped == [15, 15] and '"alive":false' in stored


def test_a_clocktower_vote_draws_no_tally_and_a_burst_of_votes_is_drawn_once(monkeypatch):
    """Every vote drew the day's tally (its text named each voter of every option, ~20 µs at 15
    seats) and stored it, 1 KB, with the vote (issue 38). A vote now only says the tally changed
    (a ``live`` event); the bot draws the face when it shows it (``Game.living``), once for a burst
    of votes that go together."""
    from support.clocktower_pure import GAME, vote

    from games.clocktower import tally as tally_module
    from games.engine import LIVE

    state, players, targets = clocktower_day_with_votes()
    drawn: list[int] = []
    text = tally_module.tally_text

    def counted(state, t, **kw):
        drawn.append(state.step)
        return text(state, t, **kw)

    monkeypatch.setattr(tally_module, "tally_text", counted)
    outcomes = []
    for voter in players[:5]:
        outcomes.append(vote(state, voter, next(t for t in targets if t != state.votes.get(voter))))
        state = outcomes[-1].state
    assert drawn == []
    assert [[(e.type, e.slot, e.text) for e in o.events if e.audience.kind == "public"] for o in outcomes] == \
        [[(LIVE, "tally:1", "")]] * 5
    [face] = GAME.living(state)  # the burst's newest state, as the delivery draws it
    assert face.type == "tally" and face.slot == "tally:1" and drawn == [state.step]
    assert f"· {sum(1 for v in state.votes.values() if v == targets[0])}" in face.text


@pytest.mark.parametrize("kind,players", [("ritual", 7), ("cauldron", 7)])
async def test_actions_of_a_timed_phase_add_no_timer_job_until_the_phase_changes(tmp_path, monkeypatch, kind,
                                                                                 players):
    """With the timers' scheduler running, as in the bot: an action that leaves the phase and its
    deadline as they were keeps the phase's close job (it was replaced in the scheduler by every
    action, 55 µs each, unseen by the benches, which ran no scheduler); a new phase arms its own.
    (The same deals every run: how many phases 60 actions reach depends on the deal.)"""
    monkeypatch.setattr("bot.service.new_seed", lambda: 1)
    store = await open_store(tmp_path / "jobs.db")
    service = GameService(store, ManualClock())
    service.timers.start()
    added: list[str] = []
    real_add = service.timers.scheduler.add_job
    service.timers.scheduler.add_job = lambda *a, **k: added.append(k["id"]) or real_add(*a, **k)
    try:
        same, changes, armed = 0, 0, 0
        async for _data, _statements, before, after in traced_actions(store, service, kind, players, 60,
                                                                      tick=added.clear):
            jobs = [job for job in added if job.startswith("game-")]  # (the action's own: since the tick)
            if after is None or after.status != "running" or before.status != "running":
                continue
            if (after.phase_seq, after.deadline) == (before.phase_seq, before.deadline):
                assert jobs == [], (after.phase_seq, jobs)
                same += 1
            else:
                changes += 1
                armed += len(jobs)
        # both kinds of action were seen, and the new phases armed their close jobs
        assert same >= 20 and changes >= 2 and armed >= 2, (same, changes, armed)
    finally:
        service.timers.shutdown()
        await store.close()


async def test_a_castle_games_turns_keep_its_reminder_job_in_the_scheduler(tmp_path, monkeypatch):
    """With the timers' scheduler running, as in the bot: the Castle's nudge job is armed once and
    kept turn after turn (a new turn replaced it, 55 µs each, on 6 actions in 10); the reminder is
    the game's, and reminds of the turn the game is in when it comes."""
    monkeypatch.setattr("bot.service.new_seed", lambda: 1)  # (the same deals every run)
    store = await open_store(tmp_path / "nudge-jobs.db")
    clock = ManualClock()
    service = GameService(store, clock)
    service.timers.start()
    added: list[str] = []
    real_add = service.timers.scheduler.add_job
    service.timers.scheduler.add_job = lambda *a, **k: added.append(k["id"]) or real_add(*a, **k)
    try:
        turns = 0
        async for _data, _statements, before, after in traced_actions(store, service, "castle", 4, 80,
                                                                      tick=lambda: clock.advance(7.0)):
            turns += after is not None and after.phase_seq != before.phase_seq
        reminders = [job for job in added if job.startswith("remind-")]
        assert turns >= 20 and reminders
        assert len(reminders) == len(set(reminders))  # each game's job armed once (its id names the game)
    finally:
        service.timers.shutdown()
        await store.close()


async def test_a_castle_games_actions_leave_its_reminder_as_stored_while_the_clock_moves(tmp_path, monkeypatch):
    """The Castle's nudge comes after a quiet while counted from the last action. Each action moved
    ``remind_at`` (an indexed column: on SQLite an index page more per action, on PostgreSQL every
    index of ``games``, no update in place); now no action of a game moves it, turn after turn,
    and the reminder, when it comes, counts the quiet from the last change."""
    monkeypatch.setattr("bot.service.new_seed", lambda: 1)  # (the same deals every run)
    store = await open_store(tmp_path / "nudge.db")
    clock = ManualClock()
    service = GameService(store, clock)
    try:
        kept = 0
        async for _data, _statements, before, after in traced_actions(store, service, "castle", 4, 80,
                                                                      tick=lambda: clock.advance(7.0)):
            if after is None or after.status != "running" or before.status != "running":
                continue
            assert after.remind_at == before.remind_at is not None
            kept += 1
        assert kept >= 40
    finally:
        await store.close()


async def test_a_step_whose_kept_postgresql_connection_was_lost_is_refused_once_and_the_next_goes_on(postgres_url):
    """The connection the store keeps for steps' commits dies (the server ended it): that step is
    refused in words, nothing of it written, and the next step takes another connection and is saved."""
    import asyncpg

    store = await open_store(postgres_url)
    try:
        service = GameService(store, ManualClock())
        row = await a_ritual(service)
        game = games.get("ritual")

        async def a_vote():
            table = await service.load(row.id)
            action = next(a for a in game.legal_actions(table.state) if a.type != "phase_timeout")
            return await service.act(row.id, int(action.player), action.model_dump())

        await a_vote()
        logged = len(await store.actions(row.id))
        killer = await asyncpg.connect(postgres_url)
        try:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", store._kept.get_server_pid())
        finally:
            await killer.close()
        with pytest.raises(GameError, match="NOT recorded|not saved|not recorded"):
            await a_vote()
        assert len(await store.actions(row.id)) == logged  # nothing of it written
        await a_vote()
        assert len(await store.actions(row.id)) == logged + 1
    finally:
        await store.close()
