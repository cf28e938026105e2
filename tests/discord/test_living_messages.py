"""Living messages: a phase's message that says when it closes, moves with the timer, says when it
is over and loses its buttons; the clock of a phase that starts when players can see it; private
messages that ride on a player's interaction."""

import re

from support.sim import new_bot, open_and_start

import games
from bot.actor import Actor
from bot.deadlines import Deadlines
from bot.store import NewMessage
from games.engine import private, public

RITUAL = games.get("ritual")


def phase_messages(w):
    return [m for m in w.channel.history() if m.author.bot and m.embeds]


def with_buttons(w):
    return [m for m in w.channel.history() if m.components]


def stamp(text):
    found = re.search(r"<t:(\d+):R>", text or "")
    return int(found[1]) if found else None


async def vote_all(w, game_id, members, target="red"):
    for m in members:
        await w.bot.service.act(game_id, m.id, {"type": "vote", "player": str(m.id), "target": target})
    await w.settle()


async def test_a_closed_phase_message_says_so_and_loses_its_buttons(world):
    """Someone talked in the channel, so round 2 comes as a new message: round 1's says closed,
    with no buttons left to press."""
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    first = with_buttons(w)[-1]
    assert first.content.startswith("⏳ Closes")  # the phase alone: nothing to name
    await w.ann.send(w.channel, "I think red.")
    await vote_all(w, game_id, (w.host, w.ann, w.bo))
    old = next(m for m in w.channel.history() if m.id == first.id)
    assert old.content == "🔒 This phase is closed." and not old.components
    live = with_buttons(w)
    assert len(live) == 1 and live[0].id != first.id and "Round 2" in live[0].embeds[-1].description


async def test_in_a_quiet_channel_the_next_phase_is_edited_into_the_same_message(world):
    """No one posted since: round 2 is added to the same message (one edit instead of a send and an
    edit), which now shows round 1's result above round 2 and carries round 2's buttons only."""
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    before = len(phase_messages(w))
    first = with_buttons(w)[-1]
    sends = len([r for r in w.env.http_requests if r.method == "POST" and r.path == f"/channels/{w.channel.id}/messages"])
    await vote_all(w, game_id, (w.host, w.ann, w.bo))
    assert len(phase_messages(w)) == before  # nothing new in the channel
    board = next(m for m in w.channel.history() if m.id == first.id)
    text = " ".join(e.description for e in board.embeds)
    assert "Round 1: red wins" in text and text.index("Round 1: red wins") < text.index("Round 2: vote")
    assert board.components and stamp(board.content) == int((await w.bot.store.game(game_id)).deadline)
    # the countdown, above both rounds, names the one it times
    assert board.content.startswith("⏳ **Round 2**: closes <t:")

    assert sends == len([r for r in w.env.http_requests
                         if r.method == "POST" and r.path == f"/channels/{w.channel.id}/messages"])
    await w.host.slash(w.channel, "mod extend", seconds=120)  # an edit of the countdown alone keeps the name
    await w.settle()
    board = next(m for m in w.channel.history() if m.id == first.id)
    assert board.content.startswith("⏳ **Round 2**: closes <t:")
    assert stamp(board.content) == int((await w.bot.store.game(game_id)).deadline)


async def test_pause_resume_extend_and_shorten_move_the_countdown_on_the_message(world, clock):
    w = world
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id

    def shown():
        return next(m for m in w.channel.history() if m.components).content

    deadline = (await w.bot.store.game(game_id)).deadline
    assert stamp(shown()) == int(deadline)
    await w.host.slash(w.channel, "mod extend", seconds=120)
    await w.settle()
    assert stamp(shown()) == int(deadline + 120)
    await w.host.slash(w.channel, "mod shorten", seconds=300)
    await w.settle()
    assert stamp(shown()) == int(deadline - 180)
    clock.advance(20)
    await w.host.slash(w.channel, "mod pause")
    await w.settle()
    assert shown() == "⏸️ Paused with 6 min 40 s left."  # 600 + 120 - 300 - 20 s
    clock.advance(1000)
    await w.host.slash(w.channel, "mod resume")
    await w.settle()
    row = await w.bot.store.game(game_id)
    assert row.deadline == clock.now() + 400 and stamp(shown()) == int(row.deadline)
    status = await w.ann.slash(w.channel, "game status")
    assert f"<t:{int(row.deadline)}:R>" in status.response.content  # the command and the message agree


async def test_the_council_gets_its_whole_time_after_a_long_reveal(world, clock):
    """The Offering closes; the reveal takes 40 s to reach the channel. The Council's 120 s count
    from its message, not from the commit: nobody loses the reveal's time."""
    w = world
    members = w.players(4)
    res = await w.host.slash(w.channel, "game new", kind="ritual", options="council_seconds=120")
    for m in members[1:]:
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    roles = ["guardian", "seer", "chronicler", "hollow_servant"]
    await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"),
                              forced={"roles": {str(m.id): r for m, r in zip(members, roles, strict=True)}})
    await w.settle()
    for m in members:
        await w.bot.service.act(game_id, m.id, {"type": "vote_performer", "player": str(m.id),
                                                "target": str(w.host.id)})
    await w.settle()
    notify = w.bot.service._notify
    w.bot.service._notify = lambda game_id: None  # the reveal is committed but not yet shown
    for m, role in zip(members, roles, strict=True):
        pool = RITUAL.data.roles[role].pool
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": pool[0]})
    row = await w.bot.store.game(game_id)
    assert (await w.bot.service.load(game_id)).state.phase == "council"
    assert row.deadline is None and row.waiting_seconds == 120  # its clock has not started
    status = await w.ann.slash(w.channel, "game status")
    assert "2 min start when its message is posted" in status.response.content
    res = await w.host.slash(w.channel, "mod extend", seconds=30)
    assert "2 min 30 s from when its message is posted" in res.response.content
    clock.advance(40)  # the reveal plays out
    w.bot.service._notify = notify
    w.bot.delivery.kick(game_id)
    await w.settle()
    row = await w.bot.store.game(game_id)
    assert row.deadline == clock.now() + 150
    council = with_buttons(w)[-1]
    assert "The Council" in " ".join(e.title or "" for e in council.embeds)
    assert stamp(council.content) == int(row.deadline)
    assert w.bot.service.timers.armed[game_id][1] == row.deadline


async def test_an_edit_survives_a_crash_between_commit_and_delivery(world, db_path, clock):
    w = world
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    w.bot.service._notify = lambda game_id: None  # the process dies before the edit goes out
    await w.host.slash(w.channel, "mod extend", seconds=300)
    deadline = (await w.bot.store.game(game_id)).deadline
    assert stamp(with_buttons(w)[-1].content) == int(deadline - 300)
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()
    await w.bot.recovered.wait()
    await w.settle()
    assert stamp(with_buttons(w)[-1].content) == int(deadline)
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_burst_of_refreshes_costs_one_edit(world):
    w = world
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    w.bot.service._notify = lambda game_id: None
    for _ in range(5):
        await w.host.slash(w.channel, "mod extend", seconds=10)
    since = len(w.env.http_requests)
    w.bot.delivery.kick(game_id)
    await w.settle()
    edits = [r for r in w.env.http_requests[since:] if r.method == "PATCH"]
    assert len(edits) == 1
    assert stamp(with_buttons(w)[-1].content) == int((await w.bot.store.game(game_id)).deadline)


async def test_a_private_message_rides_on_the_players_open_interaction(world, clock):
    """Ann just voted: a private message to her goes as an ephemeral follow-up of that click (only
    she sees it; no DM, no call against the budget). A quarter of an hour later, it is a DM."""
    w = world
    await open_and_start(w, options="vote_seconds=3600 rounds=1")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    phase = with_buttons(w)[-1]
    res = await w.ann.click(phase, label="Make my choice")
    await w.ann.select(res.response, ["red"], custom_id=res.response.components[0]["components"][0]["custom_id"])

    async def tell_ann(text, step):
        row = await w.bot.store.game(game_id)
        note = NewMessage("dm", w.ann.id, private(str(w.ann.id), "note", text).model_dump_json())
        await w.bot.store.commit_step(game_id, state=row.state, phase_seq=row.phase_seq, step=step,
                                      deadlines=Deadlines(close=row.deadline), status="running",
                                      actor_id=None, action=None, messages=[note], now=clock.now())
        since = len(w.env.http_requests)
        w.bot.delivery.kick(game_id)
        await w.settle()
        return [r for r in w.env.http_requests[since:] if not r.path.startswith("/webhooks/")]

    assert await tell_ann("The cauldron hums for you.", 50) == []
    mine = [m for m in w.channel.history(viewer=w.ann) if any("hums for you" in (e.description or "")
                                                             for e in m.embeds)]
    assert len(mine) == 1 and mine[0].flags.ephemeral
    assert not [m for m in w.channel.history(viewer=w.bo) if any("hums" in (e.description or "") for e in m.embeds)]
    assert not any("hums" in t for t in w.dm_texts(w.ann))

    clock.advance(15 * 60)  # Discord closed the interaction
    calls = await tell_ann("The cauldron is silent.", 51)
    assert [(r.method, r.path) for r in calls] == [("POST", f"/channels/{w.ann.user.dm_channel.id}/messages")]
    assert "The cauldron is silent." in w.dm_texts(w.ann)[-1]


async def test_an_event_naming_a_slot_edits_one_living_message(world, clock):
    """A vote tally: the first count is posted, later counts edit it (the last of a burst wins),
    and one deleted by a moderator is posted again."""
    w = world
    await open_and_start(w, options="vote_seconds=600 rounds=1")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    table = await w.bot.service.load(game_id)

    async def count(texts, step):
        events = [public("tally", text, title="Votes", slot="votes") for text in texts]
        messages = w.bot.service.messages(table.row, table.game, table.state, events)
        row = await w.bot.store.game(game_id)
        await w.bot.store.commit_step(game_id, state=row.state, phase_seq=row.phase_seq, step=step,
                                      deadlines=Deadlines(close=row.deadline), status="running",
                                      actor_id=None, action=None, messages=messages, now=clock.now())
        since = len(w.env.http_requests)
        w.bot.delivery.kick(game_id)
        await w.settle()
        return [(r.method, r.path.rsplit("/", 1)[0] if r.method == "PATCH" else r.path)
                for r in w.env.http_requests[since:]]

    def tallies():
        return [m for m in w.channel.history() if m.embeds and m.embeds[0].title == "Votes"]

    assert await count(["Red 1"], 40) == [("POST", f"/channels/{w.channel.id}/messages")]
    first = tallies()[0]
    assert await count(["Red 2", "Red 2, Blue 1", "Red 2, Blue 2"], 41) == [
        ("PATCH", f"/channels/{w.channel.id}/messages")]
    assert [m.embeds[0].description for m in tallies()] == ["Red 2, Blue 2"] and tallies()[0].id == first.id
    await w.bot.http.delete_message(w.channel.id, tallies()[0].id)  # as a moderator would
    await count(["Red 3, Blue 2"], 42)
    assert [m.embeds[0].description for m in tallies()] == ["Red 3, Blue 2"]


async def test_a_reveal_cut_short_by_a_crash_goes_on_in_the_same_message(world, db_path, clock):
    """Round 1's result and round 2 go out in two beats; the bot dies after the first. After the
    restart the second beat edits the same message: nothing is posted twice or lost."""
    w = world
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock, theatre_cut_seconds=0))  # every pause a beat
    await old.store.close()
    await w.ann.send(w.channel, "Ready?")
    await open_and_start(w, options="vote_seconds=600 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await w.ann.send(w.channel, "Red!")  # round 2 will be a new message

    crashed = []

    async def die_after_the_first_beat(event):
        if not crashed:
            crashed.append(event.type)
            raise RuntimeError("power cut")

    w.bot.delivery._pause = die_after_the_first_beat
    posts = len([m for m in w.channel.history() if m.author.bot])
    await vote_all(w, game_id, (w.host, w.ann, w.bo))
    assert crashed == ["tally"]
    shown = [m for m in w.channel.history() if m.author.bot][-1]
    assert "Round 1: red wins" in shown.embeds[0].description and len(shown.embeds) == 1
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock, theatre_cut_seconds=0))
    await old.store.close()
    await w.bot.recovered.wait()
    await w.settle()
    after = [m for m in w.channel.history() if m.author.bot]
    assert len(after) == posts + 1  # the one message of round 2, finished in place
    text = " ".join(e.description for e in after[-1].embeds)
    assert "Round 1: red wins" in text and "Round 2: vote" in text and after[-1].components
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_deleted_board_does_not_swallow_the_next_phase(world):
    w = world
    await open_and_start(w, options="vote_seconds=600 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    board = with_buttons(w)[-1]
    await w.bot.http.delete_message(w.channel.id, board.id)  # as a moderator would
    await vote_all(w, game_id, (w.host, w.ann, w.bo))
    live = with_buttons(w)
    assert len(live) == 1 and "Round 1: red wins" in live[0].embeds[0].description
    assert "Round 2: vote" in live[0].embeds[-1].description
    assert await w.bot.store.pending_messages(game_id) == []


async def test_no_private_message_rides_on_a_thinking_deferral(world):
    """After a "thinking..." deferral Discord gives the first follow-up the deferral's place and
    visibility (public for a moderator's command): a secret must never ride there."""
    from types import SimpleNamespace

    import discord

    def click(response_type):
        return SimpleNamespace(type=discord.InteractionType.application_command,
                               response=SimpleNamespace(type=response_type), user=SimpleNamespace(id=7),
                               followup=object(), channel_id=w.channel.id, guild_id=w.guild.id)

    w = world
    w.bot.delivery.note_interaction(click(discord.InteractionResponseType.deferred_channel_message))
    assert 7 not in w.bot.delivery.rides
    w.bot.delivery.note_interaction(click(discord.InteractionResponseType.channel_message))
    assert 7 in w.bot.delivery.rides


async def reveal_edits(w, db_path, clock, **settings):
    """Round 1's result and round 2 after chatter (a new message, in two beats by default): the
    edits that message got, and its text."""
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock, theatre_cut_seconds=0, **settings))
    await old.store.close()
    await open_and_start(w, options="vote_seconds=600 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await w.ann.send(w.channel, "Red!")  # round 2 will be a new message
    await vote_all(w, game_id, (w.host, w.ann, w.bo))
    await w.bot.delivery.wait_idle()
    await w.settle()
    shown = [m for m in w.channel.history() if m.author.bot][-1]
    edits = [r for r in w.env.http_requests
             if r.method == "PATCH" and r.path == f"/channels/{w.channel.id}/messages/{shown.id}"]
    return len(edits), " ".join(e.description for e in shown.embeds)


async def test_a_reveal_goes_in_its_beats_while_the_budget_has_room(world, db_path, clock):
    edits, text = await reveal_edits(world, db_path, clock)
    assert edits == 1  # the result first, then round 2 added by an edit
    assert "Round 1: red wins" in text and "Round 2: vote" in text


async def test_a_reveal_goes_in_one_step_when_the_tokens_budget_is_pressed(world, db_path, clock, monkeypatch):
    """With the token's calls pressed (``Pacer.pressed``, tested with the pacer), the beat's edit
    would spend a call others wait for: the reveal is sent whole, with nothing lost."""
    from bot.pacer import Pacer

    monkeypatch.setattr(Pacer, "pressed", lambda self: True)
    edits, text = await reveal_edits(world, db_path, clock)
    assert edits == 0
    assert "Round 1: red wins" in text and "Round 2: vote" in text
