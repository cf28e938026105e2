"""A private line that restates its whole state (a private event's ``slot``: the Ritual's Hollow
whisper, which lists every teammate's offering each time) waits ``living_edit_seconds`` from its
first change, and only the newest of the burst is sent: by the window's end, or at once when its
phase closes, beside the channel's messages (which never wait for it). Every other message goes
as before, and a line of another phase has a window of its own.

The rows here are committed and kicked by the test itself: the window is a short real one."""

import asyncio

import pytest
from support.sim import close_made_bots, new_bot, open_and_start

from bot.deadlines import Deadlines
from games.engine import private, public

SHORT = 0.2


@pytest.fixture
async def simcord_bot(db_path, clock):
    bot = new_bot(db_path, clock, ride_seconds=0)  # every private message by DM
    yield bot
    await bot.close()
    await close_made_bots()


def whisper(member, text: str, phase: int = 1):
    return private(str(member.id), "hollow_whisper", text, slot=f"hollow:{phase}")


def dms(w, member) -> list[str]:
    """The texts of a member's DMs, oldest first."""
    channel = member.user.dm_channel
    if channel is None:
        return []
    return [" ".join(e.description or "" for e in m.embeds) for m in sorted(channel.history(), key=lambda m: m.id)]


async def a_table(w, clock):
    """A running game and a way to commit events to it as a game's step would (with ``phase``
    the phase_seq the commit leaves the game in); it returns the requests the commit caused."""
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    w.bot.settings.living_edit_seconds = SHORT
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    table = await w.bot.service.load(game_id)
    step = iter(range(40, 400))

    async def commit(*events, phase: int | None = None):
        messages = w.bot.service.messages(table.row, table.game, table.state, list(events))
        row = await w.bot.store.game(game_id)
        await w.bot.store.commit_step(game_id, state=row.state, phase_seq=phase or row.phase_seq,
                                      step=next(step), deadlines=Deadlines(close=row.deadline),
                                      status="running", actor_id=None, action=None, messages=messages,
                                      now=clock.now())
        since = len(w.env.http_requests)
        w.bot.delivery.kick(game_id)
        await w.settle()
        return w.env.http_requests[since:]

    return game_id, commit


def posts_to_dm(requests, member) -> int:
    return sum(1 for r in requests if r.method == "POST" and r.path.endswith(f"/{member.user.dm_channel.id}/messages"))


async def test_a_burst_of_whispers_is_one_dm_with_the_newest(world, clock):
    w = world
    game_id, commit = await a_table(w, clock)
    await commit(private(str(w.ann.id), "hello", "Your card."))  # ann's DM channel is open
    before = len(dms(w, w.ann))
    for n in range(1, 6):  # five changes, each its own commit, within the window
        assert await commit(whisper(w.ann, f"Bo offers {n}")) == []
    assert len(dms(w, w.ann)) == before  # none sent yet
    since = len(w.env.http_requests)
    await asyncio.sleep(SHORT * 2)  # the window ends: the newest goes
    await w.settle()
    assert posts_to_dm(w.env.http_requests[since:], w.ann) == 1
    assert dms(w, w.ann)[before:] == ["Bo offers 5"]
    assert await w.bot.store.pending_messages(game_id) == []
    # a change after that opens a window of its own: held, then sent
    assert await commit(whisper(w.ann, "Bo offers 6")) == []
    await asyncio.sleep(SHORT * 2)
    await w.settle()
    assert dms(w, w.ann)[before:] == ["Bo offers 5", "Bo offers 6"]


async def test_the_newest_whisper_goes_when_its_phase_closes_before_the_players_next_message(world, clock):
    w = world
    w.bot.settings.living_edit_seconds = 60  # (set again below) the window alone would not end in time
    game_id, commit = await a_table(w, clock)
    w.bot.settings.living_edit_seconds = 60
    await commit(private(str(w.ann.id), "hello", "Your card."))
    before = len(dms(w, w.ann))
    phase = (await w.bot.store.game(game_id)).phase_seq
    assert await commit(whisper(w.ann, "Bo offers Ash", phase), phase=phase) == []
    assert await commit(whisper(w.ann, "Bo offers Moss", phase), phase=phase) == []
    # the phase closes (no time passed): the newest whisper goes with it, before ann's next message
    sent = await commit(public("news", "The Offering is over.", title="News"),
                        private(str(w.ann.id), "next", "Your next secret."), phase=phase + 1)
    assert posts_to_dm(sent, w.ann) == 2
    assert dms(w, w.ann)[before:] == ["Bo offers Moss", "Your next secret."]
    assert any("The Offering is over." in t for t in w.channel_texts())
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_held_whisper_delays_no_other_message(world, clock):
    w = world
    game_id, commit = await a_table(w, clock)
    w.bot.settings.living_edit_seconds = 60
    await commit(private(str(w.ann.id), "hello", "Your card."), private(str(w.bo.id), "hello", "Your card."))
    phase = (await w.bot.store.game(game_id)).phase_seq
    assert await commit(whisper(w.ann, "Bo offers Ash", phase)) == []
    # bo's own whisper and bo's other message go their own way; ann's whisper still waits
    await commit(whisper(w.bo, "Ann offers Wax", phase))
    await commit(private(str(w.bo.id), "note", "A note for Bo."))
    assert dms(w, w.bo)[-2:] == ["Ann offers Wax", "A note for Bo."]  # bo's whisper went first, in order
    pending = await w.bot.store.pending_messages(game_id)
    assert [r.payload["text"] for r in pending] == ["Bo offers Ash"]
    assert "Bo offers Ash" not in dms(w, w.ann)


async def test_a_whisper_of_a_new_phase_is_a_new_line(world, clock):
    w = world
    game_id, commit = await a_table(w, clock)
    await commit(private(str(w.ann.id), "hello", "Your card."))
    before = len(dms(w, w.ann))
    phase = (await w.bot.store.game(game_id)).phase_seq
    assert await commit(whisper(w.ann, "Round 1: Bo offers Ash", phase)) == []
    # the round moves on, and the next round's Offering already has a whisper: both go, each whole
    await commit(public("news", "Round two.", title="News"), phase=phase + 1)
    assert dms(w, w.ann)[before:] == ["Round 1: Bo offers Ash"]
    assert await commit(whisper(w.ann, "Round 2: Bo offers Moss", phase + 1), phase=phase + 1) == []
    assert await commit(whisper(w.ann, "Round 2: Bo offers Wax", phase + 1), phase=phase + 1) == []
    await asyncio.sleep(SHORT * 2)
    await w.settle()
    assert dms(w, w.ann)[before:] == ["Round 1: Bo offers Ash", "Round 2: Bo offers Wax"]
    assert await w.bot.store.pending_messages(game_id) == []


async def test_the_channel_never_waits_for_a_whisper_being_sent(world, clock):
    """Whether a whisper was held at a phase's close depends on a secret (a teammate changed their
    mind a moment ago): the channel's closing message must not wait for that DM."""
    w = world
    game_id, commit = await a_table(w, clock)
    await commit(private(str(w.ann.id), "hello", "Your card."))
    w.bot.settings.living_edit_seconds = 60
    phase = (await w.bot.store.game(game_id)).phase_seq
    assert await commit(whisper(w.ann, "Bo offers Ash", phase)) == []
    gate = asyncio.Event()
    deliver = w.bot.delivery.sender.deliver

    async def slow(row, level=0):
        if row.payload.get("slot"):
            await gate.wait()  # Discord is slow to take this DM
        await deliver(row, level)

    w.bot.delivery.sender.deliver = slow
    w.bot.delivery.kick(game_id)
    row = await w.bot.store.game(game_id)
    messages = w.bot.service.messages(row, (await w.bot.service.load(game_id)).game, None,
                                      [public("news", "The Offering is over.", title="News")])
    await w.bot.store.commit_step(game_id, state=row.state, phase_seq=phase + 1, step=300,
                                  deadlines=Deadlines(close=row.deadline), status="running",
                                  actor_id=None, action=None, messages=messages, now=clock.now())
    w.bot.delivery.kick(game_id)
    for _ in range(50):
        await asyncio.sleep(0.01)
        if any("The Offering is over." in t for t in w.channel_texts()):
            break
    assert any("The Offering is over." in t for t in w.channel_texts())  # posted while the DM hangs
    assert "Bo offers Ash" not in " ".join(dms(w, w.ann))
    gate.set()
    await w.settle()
    assert "Bo offers Ash" in dms(w, w.ann)
    assert await w.bot.store.pending_messages(game_id) == []
