"""Living lines that only count (the Cauldron's ready count, a vote tally, the sign-up sheet) are
edited at most once per ``living_edit_seconds``, always ending on the true text; a line that calls
someone, an opener and a private message never wait for it.

The window is the event loop's time. A click's held edit waits on a timer simcord keeps: with a
window longer than simcord's settle timeout (5 s) the timer is parked, and ``advance_time`` ends the
window. Rows a test commits and kicks itself are not simcord's: their window is a short real one."""

import asyncio
import json

import pytest
from support.sim import a_cauldron_day, close_made_bots, new_bot, open_and_start

from bot.deadlines import Deadlines
from games.engine import private, public

WINDOW = 10.0  # past simcord's settle timeout: only advance_time ends it
SHORT = 0.2  # for the rows a test kicks itself (a real wait)


@pytest.fixture
async def simcord_bot(db_path, clock):
    bot = new_bot(db_path, clock, living_edit_seconds=WINDOW)
    yield bot
    await bot.close()
    await close_made_bots()


def text_of(message):
    return message.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in message.embeds)


def edits_of(w, message_id, since):
    return [r for r in w.env.http_requests[since:]
            if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}")]


def now_of(w, message_id):
    return next(m for m in w.channel.history() if m.id == message_id)


async def test_a_burst_of_ready_clicks_is_two_edits_ending_on_the_true_count(world):
    w = world
    members = w.players(7)
    _game_id, day = await a_cauldron_day(w, members)
    since = len(w.env.http_requests)
    for m in members[:6]:
        res = await m.click(day, label="End discussion")
        assert "ready" in (res.response.content or "")  # each click is answered at once
    assert len(edits_of(w, day.id, since)) == 1  # the first shows at once, the others wait
    assert "✋ 1 of 7 ready for the night." in text_of(now_of(w, day.id))
    await w.env.advance_time(WINDOW)
    await w.settle()
    assert len(edits_of(w, day.id, since)) == 2  # not 6
    assert "✋ 6 of 7 ready for the night." in text_of(now_of(w, day.id))


async def test_the_night_that_a_last_click_opens_does_not_wait_for_the_window(world):
    w = world
    members = w.players(7)
    game_id, day = await a_cauldron_day(w, members)
    since = len(w.env.http_requests)
    for m in members:
        await m.click(day, label="End discussion")
    await w.settle()
    # no time passed: the night came at once, and the count showed its true end before it
    assert (await w.bot.service.load(game_id)).state.phase != "day"
    assert await w.bot.store.pending_messages(game_id) == []
    ready_edits = [r for r in w.env.http_requests[since:]
                   if r.method == "PATCH" and "ready for the night" in json.dumps(r.json)]
    assert len(ready_edits) <= 3  # 1 of 7 at once, then 7 of 7 with the night (not 7 edits)
    assert "7 of 7 ready for the night: night falls." in json.dumps(ready_edits[-1].json)


async def a_tally(w, clock):
    """A commit of living-line events, as a game's click makes: the requests it caused."""
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    w.bot.settings.living_edit_seconds = SHORT
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    table = await w.bot.service.load(game_id)
    step = iter(range(40, 400))

    async def commit(*events):
        messages = w.bot.service.messages(table.row, table.game, table.state, list(events))
        row = await w.bot.store.game(game_id)
        await w.bot.store.commit_step(game_id, state=row.state, phase_seq=row.phase_seq, step=next(step),
                                      deadlines=Deadlines(close=row.deadline), status="running",
                                      actor_id=None, action=None, messages=messages, now=clock.now())
        since = len(w.env.http_requests)
        w.bot.delivery.kick(game_id)
        await w.settle()
        return w.env.http_requests[since:]

    return game_id, commit


def tallies(w):
    return [m for m in w.channel.history() if m.embeds and m.embeds[0].title == "Votes"]


async def test_a_tally_moved_by_each_vote_is_edited_once_a_window_with_the_last_count(world, clock):
    w = world
    game_id, commit = await a_tally(w, clock)
    assert [r.method for r in await commit(public("tally", "Red 1", title="Votes", slot="votes"))] == ["POST"]
    for n in range(2, 7):  # five votes, each its own commit, within the window
        assert await commit(public("tally", f"Red {n}", title="Votes", slot="votes")) == []
    assert [m.embeds[0].description for m in tallies(w)] == ["Red 1"]
    since = len(w.env.http_requests)
    await asyncio.sleep(SHORT * 2)  # no vote came: the held edit goes at the window's end
    await w.settle()
    assert [r.method for r in w.env.http_requests[since:]] == ["PATCH"]
    assert [m.embeds[0].description for m in tallies(w)] == ["Red 6"]
    assert await w.bot.store.pending_messages(game_id) == []
    # a vote after a quiet window shows at once (the tally still shows a vote within the window)
    await asyncio.sleep(SHORT * 2)
    assert [r.method for r in await commit(public("tally", "Red 7", title="Votes", slot="votes"))] == ["PATCH"]


async def test_a_line_that_calls_someone_is_never_held(world, clock):
    w = world
    _game_id, commit = await a_tally(w, clock)
    ann = str(w.ann.id)
    assert [r.method for r in await commit(public("turn", "Ann speaks", slot="turn:1", notify=[ann]))] == ["POST"]
    for name in ("Bo", "Host"):
        assert [r.method for r in await commit(public("turn", f"{name} speaks", slot="turn:1",
                                                      notify=[ann]))] == ["PATCH"]
    said = await commit(public("turn", "The turns are over.", slot="turn:1", say="The turns are over."))
    assert [r.method for r in said] == ["PATCH"]  # a line said aloud shows when it is said


async def test_a_held_line_holds_up_neither_a_private_message_nor_the_next_message(world, clock):
    w = world
    game_id, commit = await a_tally(w, clock)
    await commit(public("tally", "Red 1", title="Votes", slot="votes"))
    assert await commit(public("tally", "Red 2", title="Votes", slot="votes")) == []  # held
    await commit(public("tally", "Red 3", title="Votes", slot="votes"),
                 private(str(w.ann.id), "secret", "Your secret."))
    pending = await w.bot.store.pending_messages(game_id)
    assert [r.payload["text"] for r in pending] == ["Red 3"]  # the private message went, the tally waits
    assert [m.embeds[0].description for m in tallies(w)] == ["Red 1"]
    # the next channel message goes at once, the tally's last count just before it (in order)
    sent = await commit(public("tally", "Red 4", title="Votes", slot="votes"),
                        public("news", "The vote is over.", title="News"))
    assert [r.method for r in sent] == ["PATCH", "POST"]
    assert [m.embeds[0].description for m in tallies(w)] == ["Red 4"]
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_rush_of_joins_edits_the_sign_up_sheet_once_a_window(world):
    w = world
    members = w.players(6)
    res = await w.host.slash(w.channel, "game new", kind="cauldron")
    sheet = res.response
    since = len(w.env.http_requests)
    for m in members[1:]:
        answer = await m.slash(w.channel, "game join")
        assert "joins." in answer.response.content  # the answer says so at once
    assert len(edits_of(w, sheet.id, since)) == 1  # the first join; the others wait for the window
    await w.env.advance_time(WINDOW)
    await w.settle()
    assert len(edits_of(w, sheet.id, since)) == 2  # not 5
    shown = text_of(now_of(w, sheet.id))
    assert all(m.user.name in shown for m in members[1:])
