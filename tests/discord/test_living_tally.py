"""The day's tally drawn when it is shown, not with every vote (issue 38): a vote stores a `live`
row naming the tally, and the delivery draws its face from the game's committed state. On simcord:
each vote still shows, a burst shows its newest count, an edit Discord refuses at first shows the
votes cast meanwhile, and a tally whose day closed before it went shows the closed count."""

import json

from support.clocktower_helpers import CHARS, HOUR, advance, begun, game_row, state_of
from support.sim import new_bot


def tally_messages(w, day=1):
    return [m for m in w.channel.history() if any(e.title and e.title.startswith(f"🗳️ Day {day} votes")
                                                 for e in m.embeds)]


async def a_day(w, clock):
    """A Clocktower game at dawn of day 1; its members, the Virgin first and the Demon last (so
    the first ones' votes nominate without an execution at once)."""
    members = await begun(w)
    await advance(w, clock, 24)
    state = await state_of(w)
    assert (state.phase, state.day) == ("day", 1)
    members.sort(key=lambda m: (state.seat_of(str(m.id)).character != "virgin",
                                CHARS[state.seat_of(str(m.id)).character].team == "demon"))
    return members


async def mark(w, game_id):
    return (await w.bot.store.game(game_id)).live_step


async def tally_rows(w, game_id):
    rows = await w.bot.store.db.execute_fetchall(
        "SELECT payload FROM outbox WHERE game_id = ? AND slot = 'game:tally:1' ORDER BY id", (game_id,))
    return [json.loads(r[0]) for r in rows]


async def test_a_vote_stores_no_tally_text_and_the_town_square_shows_every_vote(world, clock):
    w = world
    members = await a_day(w, clock)
    game_id = (await game_row(w)).id
    for voter in members[:4]:
        res = await voter.slash(w.channel, "vote", target=members[1])
        assert res.ephemeral and "on " + members[1].name in res.response.content
        await w.settle()
        [tally] = tally_messages(w)  # one message, edited in place
    assert f"· 4 (nominated by {members[0].name})" in tally.embeds[0].description
    # dawn's row drew the day's first face; the votes wrote none, and their mark is cleared
    assert [r["type"] for r in await tally_rows(w, game_id)] == ["tally"]
    assert await mark(w, game_id) is None
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_tally_edit_discord_refuses_at_first_shows_the_votes_cast_meanwhile(world, clock):
    w = world
    members = await a_day(w, clock)
    game_id = (await game_row(w)).id
    [tally] = tally_messages(w)
    w.env.inject_error("PATCH", f"/channels/{w.channel.id}/messages/{tally.id}", status=503, times=3)
    for voter in members[:3]:
        await voter.slash(w.channel, "vote", target=members[1])
    await w.settle_retries()
    [tally] = tally_messages(w)
    assert f"· 3 (nominated by {members[0].name})" in tally.embeds[0].description
    assert await mark(w, game_id) is None


async def three_votes_never_shown(w, clock):
    """Day 1 with three votes on one nominee, committed by a process that stops before it shows
    them (its delivery is never told of them): the members and the game's id."""
    members = await a_day(w, clock)
    game_id = (await game_row(w)).id
    w.bot.service._notify = lambda game_id: None
    for voter in members[:3]:
        await voter.slash(w.channel, "vote", target=members[1])
    return members, game_id


async def test_votes_not_yet_shown_when_the_process_stopped_show_after_the_restart(world, db_path, clock):
    w = world
    members, game_id = await three_votes_never_shown(w, clock)
    state = await state_of(w)
    assert await mark(w, game_id) == state.step  # the last vote's step
    assert [r.slot for r in await w.bot.store.pending_messages(game_id)] == [None]  # the nomination; no tally
    await w.env.restart_bot(new_bot(db_path, clock))
    await w.settle_retries()
    [tally] = tally_messages(w)
    assert f"· 3 (nominated by {members[0].name})" in tally.embeds[0].description
    assert await mark(w, game_id) is None


async def test_a_tally_whose_day_closed_before_it_was_shown_shows_the_closed_count(world, db_path, clock):
    """The process stops right after the votes and the day's close are committed, before any of
    their messages went. After the restart the waiting faces are not drawn from the night's state:
    the closed count is what the town sees."""
    w = world
    members, game_id = await three_votes_never_shown(w, clock)
    clock.advance(48 * HOUR)  # the day closes, with its execution: night 2
    await w.bot.service.fire_due()
    assert (await state_of(w)).phase == "night"
    waiting = [(r.payload["type"], r.payload["title"]) for r in await w.bot.store.pending_messages(game_id)
               if r.slot == "game:tally:1"]
    # the day's stages redrawn (nominations, then announcements, close) and its close; the votes' mark
    assert waiting == [("tally", "🗳️ Day 1 votes")] * 2 + [("tally", "🗳️ Day 1 votes (closed)")]
    assert await mark(w, game_id) is not None
    await w.env.restart_bot(new_bot(db_path, clock))
    await w.settle_retries()
    [closed] = tally_messages(w)
    assert "(closed)" in closed.embeds[0].title
    assert f"· 3 (nominated by {members[0].name})" in closed.embeds[0].description
    assert "Executed:" in closed.embeds[0].description
    assert await w.bot.store.pending_messages(game_id) == [] and await mark(w, game_id) is None
