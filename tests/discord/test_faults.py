"""The outside audit's faults, reproduced the way they were found, on the simulated Discord.

Discord answering 500/503/403, closed DMs mid-game, a database that is locked, full or read-only,
forged clicks and oversized input: each is refused or retried, and nothing a player was told was
accepted is lost.
"""

import asyncio
import copy
import sqlite3

import pytest
from simcord import actors as sim_actors
from simcord.backend import serializers
from simcord.enums import InteractionType
from support.sim import new_bot, open_and_start

from bot.actor import Actor
from bot.deadlines import Deadlines
from games import get

RITUAL = get("ritual")


def channel_path(w):
    return f"/channels/{w.channel.id}/messages"


def bot_sends(w, path):
    return [r for r in w.env.http_requests if r.method == "POST" and r.path == path]


async def restart(w, db_path, clock, **overrides):
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock, **overrides))
    await old.store.close()


# ----- 1. the closed-DM notice says nothing about what the game does in secret -----

async def test_a_closed_dm_is_announced_once_at_the_deal_never_when_a_secret_is_whispered(world):
    """A 6-player Ritual whose Hollow Servant has closed DMs: the Corrupted whisper during the
    Offering fails, and the channel must not say so (it would name a Corrupted witch)."""
    w = world
    host, ann, bo, cy, di, ed = w.players(6)
    w.env.inject_error("POST", f"/channels/{ann.user.dm_channel.id}/messages", status=403, code=50007,
                       message="Cannot send messages to this user", times=None)
    res = await host.slash(w.channel, "game new", kind="ritual")
    for m in (ann, bo, cy, di, ed):
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    roles = {host: "guardian", ann: "hollow_servant", bo: "seer", cy: "chronicler", di: "harbinger",
             ed: "guardian"}
    await w.bot.service.start(game_id, Actor(id=host.id, name="host"),
                              forced={"roles": {str(m.id): r for m, r in roles.items()}})
    await w.settle_retries()
    notices = [t for t in w.channel_texts() if "DMs are closed" in t]
    assert len(notices) == 1 and str(ann.id) in notices[0]  # at the deal, when everyone got a card

    for m in roles:  # everyone votes one Performer
        await w.bot.service.act(game_id, m.id, {"type": "vote_performer", "player": str(m.id),
                                                "target": str(host.id)})
    await w.settle_retries()
    table = await w.bot.service.load(game_id)
    assert table.state.phase == "offering"
    dm_failures_before = len(bot_sends(w, f"/channels/{ann.user.dm_channel.id}/messages"))
    w.bot.delivery.rides.clear()  # Ann's Join click is long closed: the whisper goes by DM
    for m in (ann, di):  # the Hollow Servant offers, then the Harbinger: a whisper to the Servant
        pool = RITUAL.data.roles[roles[m]].pool
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": pool[0]})
    await w.settle_retries()
    assert len(bot_sends(w, f"/channels/{ann.user.dm_channel.id}/messages")) > dm_failures_before
    assert [t for t in w.channel_texts() if "DMs are closed" in t] == notices  # no second notice


# ----- 2. messages Discord refuses for now are retried, never marked delivered -----

async def test_a_503_on_the_channel_does_not_lose_the_game_started_message(world):
    w = world
    w.env.inject_error("POST", channel_path(w), status=503, message="Service Unavailable", times=1)
    await open_and_start(w)
    await w.settle_retries()
    texts = w.channel_texts()
    assert any("Round 1" in t for t in texts)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert await w.bot.store.pending_messages(game_id) == []


async def test_five_500s_do_not_lose_the_phase_message_and_its_buttons(world):
    w = world
    w.env.inject_error("POST", channel_path(w), status=503, times=5)
    await open_and_start(w)
    await w.settle_retries()
    phase_msg = [m for m in w.channel.history() if m.components]
    assert phase_msg and "Round 1" in phase_msg[-1].embeds[0].description
    res = await w.ann.click(phase_msg[-1], label="Make my choice")
    assert res.ephemeral and "Vote for a colour" in res.response.content


async def test_a_503_on_a_dm_does_not_lose_the_role_card(world):
    w = world
    w.env.inject_error("POST", f"/channels/{w.ann.user.dm_channel.id}/messages", status=503, times=2)
    await open_and_start(w)
    await w.settle_retries()
    assert any("secret animal" in t for t in w.dm_texts(w.ann))
    assert not any("DMs are closed" in t for t in w.channel_texts())  # a passing fault is no closed DM


async def test_a_private_message_that_waits_never_holds_up_the_channel(world):
    """A DM Discord keeps refusing waits alone: were the channel's next messages held up behind it,
    their lateness would tell the table that someone was just sent a secret."""
    w = world
    w.bot.settings.delivery_retry_seconds = 30
    w.bot.settings.delivery_retry_max_seconds = 300
    w.env.inject_error("POST", f"/channels/{w.ann.user.dm_channel.id}/messages", status=503, times=None)
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert any("Round 1" in t for t in w.channel_texts())  # the phase opened on time
    assert any("secret animal" in t for t in w.dm_texts(w.bo))  # other players' cards went
    pending = await w.bot.store.pending_messages(game_id)
    assert [(m.target, m.recipient_id) for m in pending] == [("dm", w.ann.id)]
    w.env.backend.faults.clear()
    await w.bot.sweep()
    await w.settle()
    assert any("secret animal" in t for t in w.dm_texts(w.ann))


async def test_a_lasting_403_keeps_every_message_and_tells_the_host_what_to_grant(world):
    w = world
    w.bot.settings.delivery_retry_seconds = 30  # a lasting fault: retries are minutes apart
    w.bot.settings.delivery_retry_max_seconds = 300
    w.env.inject_error("POST", channel_path(w), status=403, code=50001, message="Missing Access", times=None)
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    pending = await w.bot.store.pending_messages(game_id)
    assert pending and pending[0].target == "channel"  # kept, in order, not marked delivered
    told = [t for t in w.dm_texts(w.host) if "lack a permission" in t]
    assert len(told) == 1 and "Send Messages" in told[0] and f"game #{game_id}" in told[0]

    w.env.backend.faults.clear()  # the admin grants the permission ...
    await w.bot.sweep()  # ... and the next retry (here the minute sweep) sends everything
    await w.settle()
    assert await w.bot.store.pending_messages(game_id) == []
    texts = w.channel_texts()
    started = next(i for i, t in enumerate(texts) if "Round 1" in t)
    assert started >= 0 and len([t for t in w.dm_texts(w.host) if "lack a permission" in t]) == 1


async def test_every_send_carries_a_nonce_from_its_outbox_row_so_a_resend_is_dropped(world):
    """A failure between Discord's acceptance and the mark (a crash, a database refusing the mark)
    re-sends the row with the same nonce, which Discord uses to drop the second copy."""
    w = world
    store = w.bot.store
    real_mark = store.mark_all_delivered
    crashed: list[int] = []

    async def crash_once(message_ids, now, failure=None):
        if not crashed:
            crashed.append(message_ids[0])
            raise sqlite3.OperationalError("disk I/O error")  # the process "dies" before the mark
        await real_mark(message_ids, now, failure)

    store.mark_all_delivered = crash_once
    await open_and_start(w)
    await w.settle_retries()
    nonces = [r.json.get("nonce") for r in w.env.http_requests
              if r.method == "POST" and r.path.endswith("/messages") and r.json]
    assert all(nonces)
    assert nonces.count(f"o{crashed[0]}p0") == 2  # the same row went twice, with the same nonce
    others = [n for n in nonces if n != f"o{crashed[0]}p0"]
    assert len(set(others)) == len(others)  # every other message has a nonce of its own


# ----- 3. long texts are split, free text is bounded -----

async def test_a_long_reason_is_refused_in_words_and_long_texts_arrive_whole(world):
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    res = await w.host.slash(w.channel, "mod end", reason="why " * 1425)  # about 5,700 characters
    assert res.ephemeral and "at most 500 characters" in res.response.content
    assert (await w.bot.store.game(game_id)).status == "running"

    # a text far over Discord's 6,000 characters per message goes out whole, in several messages
    from bot.store import NewMessage
    from games.engine import public
    long_text = "\n".join(f"line {i}: " + "x" * 90 for i in range(200))  # ~20,000 characters
    event = public("reveal", long_text, title="Everything revealed")
    row = await w.bot.store.game(game_id)
    await w.bot.store.commit_step(game_id, state=row.state, phase_seq=row.phase_seq, step=99,
                                  deadlines=Deadlines(close=row.deadline), status="running",
                                  actor_id=None, action=None,
                                  messages=[NewMessage("channel", None, event.model_dump_json())],
                                  now=clock_now(w))
    w.bot.delivery.kick(game_id)
    await w.settle_retries()
    parts = [m for m in w.channel.history() if m.embeds and "Tally · game" in (m.embeds[0].footer.text or "")
             and "/" in (m.embeds[0].footer.text or "")]
    assert len(parts) >= 5
    assert "\n".join(m.embeds[0].description for m in parts) == long_text


def clock_now(w):
    return w.bot.clock.now()


async def test_a_huge_options_string_is_refused_with_a_short_quote(world):
    w = world
    res = await w.host.slash(w.channel, "game new", kind="tally", options="x" * 5000)
    assert res.ephemeral and len(res.followups) == 0
    assert "at most 1000 characters" in res.response.content and len(res.response.content) < 200
    res = await w.host.slash(w.channel, "game new", kind="tally", options="rounds" + "y" * 300)
    assert "key=value" in res.response.content and len(res.response.content) < 200


# ----- 6. pause and resume -----

async def test_resume_with_nothing_left_closes_the_phase_and_shorten_while_paused_says_so(world):
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await w.host.slash(w.channel, "mod pause")
    res = await w.host.slash(w.channel, "mod shorten", seconds=600)
    assert "left when the game resumes" in res.response.content and "<t:" not in res.response.content
    assert (await w.bot.store.game(game_id)).paused  # still paused
    res = await w.host.slash(w.channel, "mod resume")
    assert "resumes" in res.response.content
    await w.settle()
    row = await w.bot.store.game(game_id)
    assert row.phase_seq == 2 and not row.paused and row.deadline is not None  # due now: it closed
    assert any("Round 1: " in t and "wins" in t for t in w.channel_texts())


async def test_a_paused_game_without_a_timer_stays_paused_after_skip(world, monkeypatch):
    """As in the Castle, whose turns have no timer by default."""
    from support.tally import GAME

    monkeypatch.setattr(type(GAME), "phase_seconds", lambda self, state: None)
    w = world
    await open_and_start(w, options="rounds=3")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert (await w.bot.store.game(game_id)).deadline is None
    await w.host.slash(w.channel, "mod pause")
    res = await w.host.slash(w.channel, "mod skip")
    assert not res.ephemeral
    row = await w.bot.store.game(game_id)
    assert row.phase_seq == 2 and row.paused and row.paused_remaining is None
    res = await w.host.slash(w.channel, "mod resume")
    assert "no timer" in res.response.content
    assert not (await w.bot.store.game(game_id)).paused


# ----- 7, 8. slow or refused writes: answered in time, in words, and nobody sees them -----

#: the slow-answer watchdog defers after DEFER_AFTER (2 s, inside Discord's 3), and a write that
#: waits on a busy database waits out its busy_timeout (5 s): here both in hundredths of a second,
#: in the same order, so no test waits seconds
QUICK_DEFER, BUSY_WAIT = 0.02, 0.05


async def test_a_write_that_waits_out_the_busy_timeout_is_answered_within_discords_deadline(world, monkeypatch):
    """The database is locked: the write waits out the busy timeout, then gives up, after the
    watchdog has deferred. simcord keeps Discord's 3-second deadline on its own clock, which runs
    with the event loop's, so the wait is made there."""
    monkeypatch.setattr("bot.interactions.DEFER_AFTER", QUICK_DEFER)
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id

    async def wait_out_the_lock(*args, **kwargs):
        await asyncio.sleep(BUSY_WAIT)  # busy_timeout (5000 ms on the real database)
        raise sqlite3.OperationalError("database is locked")

    w.bot.store.commit_step = wait_out_the_lock
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.ann.click(phase_msg, label="Make my choice")).response
    res = await w.ann.select(prompt, ["blue"])
    assert res.acknowledged and res.deferred  # within 3 s: no "This interaction failed"
    await w.settle()
    answer = " ".join(m.content for m in res.followups)
    assert "NOT recorded" in answer and "busy" in answer and "Try again" in answer
    assert all(m.ephemeral for m in res.followups)
    assert (await w.bot.service.load(game_id)).state.votes == {}


@pytest.mark.parametrize(("cause", "words"), [
    ("database or disk is full", "disk is full"),
    ("attempt to write a readonly database", "read-only"),
])
async def test_a_full_or_read_only_database_says_not_recorded_and_not_try_again(world, cause, words):
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id

    async def refuse(*args, **kwargs):
        raise sqlite3.OperationalError(cause)

    w.bot.store.commit_step = refuse
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.ann.click(phase_msg, label="Make my choice")).response
    res = await w.ann.select(prompt, ["blue"])
    text = res.response.content
    assert "NOT recorded" in text and words in text and "Try again in a moment" not in text
    assert (await w.bot.service.load(game_id)).state.votes == {}


async def test_other_players_never_see_a_state_whose_commit_failed(world):
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    store = w.bot.store
    real = store.commit_step
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow_then_fail(*args, **kwargs):
        entered.set()
        await release.wait()
        raise sqlite3.OperationalError("database or disk is full")

    phase_msg = [m for m in w.channel.history() if m.components][-1]
    prompts = {m: (await m.click(phase_msg, label="Make my choice")).response for m in (w.ann, w.bo)}
    await w.ann.select(prompts[w.ann], ["red"])  # committed
    store.commit_step = slow_then_fail
    last_vote = asyncio.create_task(w.bo.select(prompts[w.bo], ["red"]))  # would close round 1
    await entered.wait()
    # meanwhile, another player presses My hand (simcord runs one interaction at a time, so the
    # service call behind the button is made directly)
    _table, seen, _prompts = await w.bot.service.private_view(game_id, w.host.id)
    release.set()
    await last_vote
    store.commit_step = real
    assert "Round 1" in seen.text and "Round 2" not in seen.text
    table = await w.bot.service.load(game_id)
    assert table.state.round == 1 and table.state.votes == {str(w.ann.id): "red"}


# ----- 9. /game new is one transaction -----

async def test_a_failed_game_new_leaves_no_lobby_behind(world, db_path):
    w = world
    trigger = sqlite3.connect(db_path, isolation_level=None)
    trigger.execute("CREATE TRIGGER refuse_seat BEFORE INSERT ON lobby_players "
                    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    res = await w.host.slash(w.channel, "game new", kind="tally")
    assert res.ephemeral and "NOT recorded" in res.response.content
    trigger.execute("DROP TRIGGER refuse_seat")
    trigger.close()
    assert await w.bot.store.active_game_in_channel(w.channel.id) is None
    res = await w.host.slash(w.channel, "game new", kind="tally")  # the channel is free
    assert not res.ephemeral and "gathering players" in res.response.embeds[0].title


# ----- 11. forged clicks -----

async def forged_click(member, message, custom_id):
    """A click whose message payload was doctored to carry ``custom_id`` on its first button, as
    a hostile client (or a forged gateway event) could send it."""
    backend = member._env.backend
    stored = sim_actors._visible_message(member, message)
    payload = copy.deepcopy(dict(serializers.message_payload(backend, stored)))
    payload["components"][0]["components"][0]["custom_id"] = custom_id
    channel = sim_actors.ChannelHandle(member._env, getattr(member, "guild", None),
                                       backend.get_channel(stored.channel_id))
    return await sim_actors._dispatch_actor_interaction(
        member, InteractionType.MESSAGE_COMPONENT, channel, {"custom_id": custom_id, "component_type": 2},
        extra={"message": payload}, source_message_id=stored.id)


async def test_a_forged_join_for_another_servers_lobby_changes_nothing(world):
    w = world
    other_guild = w.env.create_guild("Elsewhere")
    other_channel = other_guild.create_text_channel("games")
    stranger_host = other_guild.add_member(w.env.create_user("stranger"))
    await stranger_host.slash(other_channel, "game new", kind="tally")
    other_id = (await w.bot.service.game_in_channel(other_channel.id)).id

    res = await w.host.slash(w.channel, "game new", kind="tally")
    lobby = res.response
    before = lobby.message.embeds[0].to_dict()
    res = await forged_click(w.ann, lobby, f"g:{other_id}:join")
    assert res.ephemeral and "another server" in res.response.content
    assert [uid for uid, _ in await w.bot.store.lobby_players(other_id)] == [stranger_host.id]
    mine = w.channel.history()[-1] if w.channel.history() else None
    assert mine is None or mine.embeds[0].to_dict().get("footer") == before.get("footer")

    # and a 20-digit id is a game that does not exist, not a traceback
    res = await forged_click(w.ann, lobby, "g:99999999999999999999:join")
    assert res.ephemeral and "no longer exists" in res.response.content
    w.env.raise_errors()


async def test_a_forged_button_of_a_game_in_another_channel_is_refused(world):
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    side = w.guild.create_text_channel("side")
    side_lobby = (await w.bo.slash(side, "game new", kind="tally")).response
    res = await forged_click(w.ann, side_lobby, f"g:{game_id}:choose")  # game 1's button, elsewhere
    assert res.ephemeral and "another channel" in res.response.content
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    res = await w.ann.click(phase_msg, label="Make my choice")  # the real one still works
    assert "Vote for a colour" in res.response.content


# ----- 4, 5. timers and start-up under a locked database -----

async def test_a_timeout_refused_by_a_locked_database_is_retried_and_the_sweep_catches_the_rest(world, db_path,
                                                                                                clock):
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await w.bot.store.db.execute_fetchall("PRAGMA busy_timeout=50")
    locker = sqlite3.connect(db_path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    clock.advance(61)
    assert await w.bot.service.fire_due() == 0  # the sweep is refused, and says so without raising
    assert not await w.bot.service.on_deadline(game_id, 1)  # the timer's job: refused, the phase is open ...
    assert w.bot.service.timers.retries == {game_id: 1}  # ... and a retry is armed
    locker.execute("ROLLBACK")
    locker.close()
    await w.bot.sweep()  # the minute sweep closes what no job did
    await w.settle()
    assert (await w.bot.store.game(game_id)).phase_seq == 2


async def test_recovery_at_start_up_outlasts_a_locked_database(world, db_path, clock):
    """Messages committed but unsent, a database locked through the start-up: once the lock goes,
    everything is delivered with no second restart, and the phase, whose opening message had never
    been posted, gets its whole time from the moment it is."""
    w = world
    res = await w.host.slash(w.channel, "game new", kind="tally", options="rounds=3")
    for member in (w.ann, w.bo):
        await member.click(res.response, label="Join")
    w.bot.service._notify = lambda game_id: None  # nothing is sent before the "crash"
    await w.host.click(res.response, label="Start")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    # (no vote: a phase whose message was never posted takes none, issue 29)
    assert len(await w.bot.store.pending_messages(game_id)) >= 4
    assert (await w.bot.store.game(game_id)).waiting_seconds == 60  # no one has seen the phase yet
    clock.advance(3600)  # an hour down: still no one has seen it

    locker = sqlite3.connect(db_path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    old = w.bot
    restarted = asyncio.create_task(w.env.restart_bot(new_bot(db_path, clock, use_scheduler=True)))
    await asyncio.sleep(0.3)
    locker.execute("ROLLBACK")
    locker.close()
    await restarted
    await old.store.close()
    await asyncio.wait_for(w.bot.recovered.wait(), 30)
    for _ in range(100):
        await w.settle()
        if not await w.bot.store.pending_messages(game_id):
            break
        await asyncio.sleep(0.05)
    row = await w.bot.store.game(game_id)
    assert row.phase_seq == 1 and row.deadline == clock.now() + 60  # the whole minute, from the post
    clock.advance(61)
    await w.bot.sweep()
    await w.settle()
    assert (await w.bot.store.game(game_id)).phase_seq > 1
    assert await w.bot.store.pending_messages(game_id) == []
    assert any("Round 1: " in t and "wins" in t for t in w.channel_texts())


async def test_a_slow_join_still_updates_the_lobby_after_the_deferral(world, monkeypatch):
    monkeypatch.setattr("bot.interactions.DEFER_AFTER", QUICK_DEFER)
    w = world
    lobby = (await w.host.slash(w.channel, "game new", kind="tally")).response
    service = w.bot.service
    real_join = service.join

    async def slow_join(game_id, actor):
        await asyncio.sleep(BUSY_WAIT)  # a write that waits on a busy database
        return await real_join(game_id, actor)

    service.join = slow_join
    res = await w.ann.click(lobby, label="Join")
    assert res.acknowledged and res.deferred
    await w.settle()
    lobby_now = w.env.backend.get_message(lobby.channel_id, lobby.id)  # the lobby message, edited
    assert "ann" in lobby_now.embeds[0]["description"]
