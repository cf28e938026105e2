"""The game service on each engine (a real SQLite file, a real PostgreSQL database): lobby, durable
actions, timers, moderation, restart."""

import pytest
from support.actors import ADMIN, ANN, BO, HOST

from bot.service import GameService, LobbyError, NoGameHere, NotAllowed
from bot.stores import open_store
from games.engine import GameError, IllegalAction


@pytest.fixture
async def service(store_url, clock):
    store = await open_store(store_url)
    svc = GameService(store, clock)
    yield svc
    await store.close()


async def started(service, options="vote_seconds=60 rounds=2", players=(ANN, BO)):
    row = await service.new_game(kind="tally", guild_id=5, channel_id=50, host=HOST, options_text=options)
    for p in players:
        await service.join(row.id, p)
    await service.start(row.id, HOST, forced={"secrets": {"1": "owl", "2": "cat", "3": "owl"}})
    return await service.store.game(row.id)


async def test_lobby_rules(service):
    row = await service.new_game(kind="tally", guild_id=5, channel_id=50, host=HOST, max_players=2)
    with pytest.raises(LobbyError, match="already has a game"):
        await service.new_game(kind="tally", guild_id=5, channel_id=50, host=ANN)
    await service.join(row.id, ANN)
    with pytest.raises(LobbyError, match="already in"):
        await service.join(row.id, ANN)
    with pytest.raises(LobbyError, match="full"):
        await service.join(row.id, BO)
    with pytest.raises(NotAllowed):
        await service.start(row.id, ANN)
    await service.leave(row.id, ANN)
    with pytest.raises(LobbyError, match="needs 2 to 2"):
        await service.start(row.id, HOST)
    with pytest.raises(NotAllowed):
        await service.cancel(row.id, BO)
    await service.cancel(row.id, ADMIN)
    with pytest.raises(NoGameHere):
        await service.game_in_channel(50)


async def test_malformed_options_and_unknown_game_are_refused(service):
    with pytest.raises(GameError, match="key=value"):
        await service.new_game(kind="tally", guild_id=5, channel_id=50, host=HOST, options_text="fast")
    with pytest.raises(GameError, match="vote_seconds"):
        await service.new_game(kind="tally", guild_id=5, channel_id=50, host=HOST, options_text="vote_seconds=1")
    with pytest.raises(GameError, match="no game called"):
        await service.new_game(kind="chess", guild_id=5, channel_id=50, host=HOST)
    with pytest.raises(LobbyError, match="takes 2 to 6"):
        await service.new_game(kind="tally", guild_id=5, channel_id=50, host=HOST, min_players=1)
    assert await service.store.active_games() == []


async def test_start_commits_role_cards_and_the_first_timer(service, clock):
    row = await started(service)
    assert row.status == "running" and row.deadline == clock.now() + 60
    pending = await service.store.pending_messages(row.id)
    dms = {m.recipient_id: m.payload["text"] for m in pending if m.target == "dm"}
    assert dms == {1: "Your secret animal is the owl.", 2: "Your secret animal is the cat.",
                   3: "Your secret animal is the owl."}
    public = [m.payload for m in pending if m.target == "channel"]
    assert public[-1]["opens_phase"] and "animal" not in public[-1]["text"]


async def test_actions_are_durable_and_bad_input_changes_nothing(service):
    row = await started(service)
    out = await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red", "phase_seq": 1})
    assert "change it" in out.reply
    before = await service.store.game(row.id)
    for bad, code in [({"type": "vote", "player": "2", "target": "green"}, "bad_target"),
                      ({"type": "vote", "player": "99", "target": "red"}, "not_a_player"),
                      ({"type": "dance", "player": "2"}, "malformed_action"),
                      ({"type": "vote", "player": "2", "target": "red", "phase_seq": 0}, "stale_phase")]:
        with pytest.raises(IllegalAction) as err:
            await service.act(row.id, 2, bad)
        assert err.value.code == code
    after = await service.store.game(row.id)
    assert after.state == before.state and len(await service.store.actions(row.id)) == 1


async def test_the_timer_closes_the_phase_and_a_late_vote_is_refused(service, clock):
    row = await started(service)
    await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "blue", "phase_seq": 1})
    clock.advance(59)
    assert await service.fire_due() == 0
    clock.advance(2)
    assert await service.fire_due() == 1
    row = await service.store.game(row.id)
    assert row.phase_seq == 2 and row.deadline == clock.now() + 60
    with pytest.raises(IllegalAction, match="Too late"):
        await service.act(row.id, 3, {"type": "vote", "player": "3", "target": "red", "phase_seq": 1})
    # the late vote did not land in round 2
    table = await service.load(row.id)
    assert table.state.votes == {} and table.state.tallies == ["blue"]
    # a stale timer of phase 1 does nothing
    await service.on_deadline(row.id, 1)
    assert (await service.store.game(row.id)).phase_seq == 2


async def test_a_72_hour_phase_moves_without_sleeping(service, clock):
    await started(service, options="vote_seconds=259200")
    clock.advance(72 * 3600 - 1)
    assert await service.fire_due() == 0
    clock.advance(1)
    assert await service.fire_due() == 1


async def test_pause_resume_extend_shorten_skip(service, clock):
    row = await started(service)
    with pytest.raises(NotAllowed):
        await service.pause(row.id, ANN)
    clock.advance(20)
    assert (await service.pause(row.id, HOST)).remaining == 40
    with pytest.raises(IllegalAction, match="paused"):
        await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})
    clock.advance(3600)
    assert await service.fire_due() == 0  # frozen
    change = await service.extend(row.id, HOST, 10)  # while paused: more time left, still paused
    assert change.paused and change.remaining == 50 and change.deadline is None
    change = await service.resume(row.id, HOST)
    assert change.deadline == clock.now() + 50 and not change.paused
    await service.store.set_storyteller_role(5, 77)
    from bot.actor import Actor
    storyteller = Actor(id=8, name="ST", role_ids=frozenset({77}))
    assert (await service.extend(row.id, storyteller, -45)).deadline == clock.now() + 5
    assert await service.skip(row.id, ADMIN, meant=1) == "the vote"
    assert (await service.store.game(row.id)).phase_seq == 2
    # a skip meant for phase 1 that arrives once phase 2 is showing (its timer ran out meanwhile)
    with pytest.raises(IllegalAction, match="nothing was skipped. The table is now in the vote"):
        await service.skip(row.id, ADMIN, meant=1)
    assert (await service.store.game(row.id)).phase_seq == 2


async def test_remove_and_end(service):
    row = await started(service)
    await service.remove(row.id, HOST, 3)
    await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})
    out = await service.act(row.id, 1, {"type": "vote", "player": "1", "target": "red"})
    assert out.state.round == 2  # the removed player was not waited for
    out = await service.end(row.id, HOST, "bedtime")
    assert out.state.finished
    row = await service.store.game(row.id)
    assert row.status == "finished" and row.deadline is None
    # (no delivery here: the ending is still to be shown, so the answer does not run ahead of it)
    with pytest.raises(NoGameHere, match="phase has closed"):
        await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})


async def test_restart_in_the_middle_of_a_game(store_url, clock):
    path = store_url
    first = GameService(await open_store(path), clock)
    row = await started(first)
    await first.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})
    await first.store.close()  # the process dies; the timer is gone with it

    clock.advance(600)  # it comes back long after the deadline
    second = GameService(await open_store(path), clock)
    assert await second.rearm_all() == 1  # re-armed, and the overdue phase resolved at once
    table = await second.load(row.id)
    assert table.state.tallies == ["red"] and table.state.round == 2
    assert table.row.deadline == clock.now() + 60
    await second.act(row.id, 3, {"type": "vote", "player": "3", "target": "blue"})
    assert len(await second.store.actions(row.id)) == 3  # vote, timeout, vote
    await second.store.close()


async def test_the_storyteller_audience_never_reaches_a_seated_host(service):
    import games
    from games.engine import STORYTELLER, Event

    row = await started(service)
    table = await service.load(row.id)
    secret = [Event(type="note", audience=STORYTELLER, text="the grimoire")]
    # the host plays in this game: nobody receives it
    assert service.messages(row, table.game, table.state, secret) == []
    # a host who does not play gets it by DM
    unseated = table.state.model_copy(update={"players": [p for p in table.state.players if p.id != str(HOST.id)]})
    assert [(m.target, m.recipient_id) for m in service.messages(row, table.game, unseated, secret)] == \
        [("dm", HOST.id)]
    # a game with Storytellers: their own thread, whoever they are
    clocktower = games.get("clocktower")
    sent = service.messages(row, clocktower, table.state, secret)
    assert [(m.target, m.payload.count('"storytellers"')) for m in sent] == [("group", 1)]


async def test_storyteller_actions_only_from_the_games_storytellers(service):
    row = await service.new_game(kind="clocktower", guild_id=5, channel_id=51, host=HOST)
    players = [type(ANN)(id=100 + i, name=f"P{i}") for i in range(7)]
    for i, p in enumerate(players):
        await service.join(row.id, p, seat=i + 1)
    with pytest.raises(NotAllowed, match="Storytellers"):
        await service.start(row.id, ADMIN)  # Manage Server is not a Storyteller of this game
    await service.start(row.id, HOST)
    with pytest.raises(NotAllowed, match="Storytellers"):
        await service.act(row.id, players[0].id, {"type": "begin", "player": str(players[0].id)})
    with pytest.raises(NotAllowed, match="Storytellers"):
        await service.storyteller_act(row.id, players[0], {"type": "begin"})
    await service.add_storyteller(row.id, ADMIN, ADMIN)  # Manage Server may add themselves
    outcome = await service.storyteller_act(row.id, ADMIN, {"type": "begin"})
    assert "Night 1" in outcome.reply
    logged = await service.store.actions(row.id)
    assert logged[-1]["player"] == str(ADMIN.id)


async def test_a_clean_stop_waits_for_the_sweep_under_way_and_then_claims_nothing(service):
    """Claims are released once, at the stop: a sweep under way finishes first, and none claims
    after it (its claim would hold its lease while another process could take the game over)."""
    import asyncio

    calls, release = [], asyncio.Event()
    claim_due = service.store.claim_due

    async def slow_claim(*args, **kwargs):
        calls.append(args)
        await release.wait()
        return await claim_due(*args, **kwargs)

    service.store.claim_due = slow_claim
    sweeping = asyncio.ensure_future(service.fire_due())
    await asyncio.sleep(0)
    stopping = asyncio.ensure_future(service.stop_claiming())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # waits for the sweep's claim
    release.set()
    await asyncio.gather(sweeping, stopping)
    assert len(calls) == 1
    assert await service.fire_due() == 0
    assert len(calls) == 1  # the stop's sweep asked the database nothing
