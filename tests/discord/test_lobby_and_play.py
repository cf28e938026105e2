"""End to end on the simulated Discord: slash commands, buttons, selects, DMs, permissions."""
import pytest
from simcord.backend.errors import SetupError
from support.sim import open_and_start

from bot.delivery import player_key
from bot.service import NoGameHere
from games.engine import View


async def test_new_join_start_and_vote_by_select(world):
    w = world
    await open_and_start(w)
    phase_msg = w.channel.last_message
    assert "Round 1" in phase_msg.embeds[0].description
    # the secret card went by DM, never to the channel
    assert any("secret animal" in t for t in w.dm_texts(w.ann))
    assert not any("animal is" in t for t in w.channel_texts())

    res = await w.ann.click(phase_msg, label="Make my choice")
    assert res.ephemeral
    prompt = res.response
    res = await w.ann.select(prompt, ["red"])
    assert res.response.ephemeral and "vote is in" in res.response.content

    # the DM carries the same buttons: a choice can be made from the DM too
    dm = w.bo.user.dm_channel.history()[-1]
    res = await w.bo.user.click(dm, label="My hand")
    assert res.ephemeral and "Your animal" in res.response.content
    res = await w.bo.user.click(dm, label="Make my choice")
    res = await w.bo.user.select(res.response, ["blue"])
    assert res.response.ephemeral and "vote is in" in res.response.content

    # /vote reaches a vote that is not among players (here colours, in the Cauldron ingredients):
    # a member as target is answered with how to vote, a choice by name is counted
    res = await w.bo.slash(w.channel, "vote", target=w.ann)
    assert res.ephemeral and "not for a player" in res.response.content and "/vote choice:" in res.response.content
    res = await w.bo.slash(w.channel, "vote", choice="green")
    assert res.ephemeral and "'green' is not on this ballot" in res.response.content
    res = await w.bo.slash(w.channel, "vote", choice="Red")
    assert res.ephemeral and "vote is in" in res.response.content
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert (await w.bot.service.load(game_id)).state.votes[str(w.bo.id)] == "red"


async def test_errors_are_plain_sentences(world):
    w = world
    res = await w.ann.slash(w.channel, "game start")
    assert res.ephemeral and "no game in this channel" in res.response.content
    res = await w.host.slash(w.channel, "game new", kind="chess")
    assert res.ephemeral and "no game called" in res.response.content
    res = await w.host.slash(w.channel, "game new", kind="tally", options="vote_seconds=fast")
    assert res.ephemeral and "vote_seconds" in res.response.content


async def test_moderation_permissions(world):
    w = world
    await open_and_start(w)
    res = await w.ann.slash(w.channel, "mod pause")
    assert res.ephemeral and "Only the host" in res.response.content
    res = await w.admin.slash(w.channel, "mod pause")
    assert res.ephemeral and "paused" in res.response.content  # the moderator is answered ...
    await w.settle()
    assert any("The game is paused" in t for t in w.channel_texts())  # ... and the table told
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    res = await w.ann.click(phase_msg, label="Make my choice")
    res = await w.ann.select(res.response, ["blue"])
    assert "paused" in res.response.content
    res = await w.host.slash(w.channel, "mod resume")
    assert "resumes" in res.response.content


async def test_a_closed_phases_private_choices_lose_their_selects(world, clock):
    """The phase closes: the choices a player has open in front of them say so and keep no select
    (an edit through their interaction), while someone who chose keeps their answer's words."""
    w = world
    await open_and_start(w)
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.ann.click(phase_msg, label="Make my choice")).response
    assert prompt.components
    clock.advance(61)
    await w.bot.service.fire_due()
    await w.settle()
    assert any("Round 2" in t for t in w.channel_texts())
    assert prompt.content.startswith("🔒 That phase is over") and not prompt.components
    assert not w.bot.delivery.prompts  # nothing kept for a closed phase


async def test_every_open_choice_message_of_a_player_is_closed(world, clock):
    """Make my choice pressed twice in one phase: two private messages with selects. Both say the
    phase is over when it closes, not only the latest one."""
    w = world
    await open_and_start(w)
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    first = (await w.ann.click(phase_msg, label="Make my choice")).response
    second = (await w.ann.click(phase_msg, label="Make my choice")).response
    assert first.id != second.id and first.components and second.components
    assert len(w.bot.delivery.prompts) == 2
    clock.advance(61)
    await w.bot.service.fire_due()
    await w.settle()
    for prompt in (first, second):
        assert prompt.content.startswith("🔒 That phase is over") and not prompt.components
    assert not w.bot.delivery.prompts


async def test_the_move_that_ends_the_game_is_answered_in_its_message(world):
    """The last vote of the last round ends the game: the voter's private message says their vote
    is in (and that the game is over), not that the phase closed or an error."""
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=1")
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    for member in (w.host, w.ann):
        await w.settle()
        prompt = (await member.click(phase_msg, label="Make my choice")).response
        await member.select(prompt, ["red"])
    prompt = (await w.bo.click(phase_msg, label="Make my choice")).response
    res = await w.bo.select(prompt, ["blue"])
    assert not res.ephemeral or "phase has closed" not in (res.response.content or "")
    await w.settle()
    assert prompt.content.startswith("Your vote is in.") and "The game is over" in prompt.content
    assert not prompt.components
    assert not any(k[1] == w.bo.id for k in w.bot.delivery.prompts)
    assert any("Game over" in t for t in w.channel_texts())


async def test_a_stale_choice_is_refused_after_the_timer(world, clock):
    """A private choice the bot could no longer edit (Discord lets it for 15 minutes) is refused."""
    w = world
    await open_and_start(w)
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.ann.click(phase_msg, label="Make my choice")).response
    w.bot.delivery.prompts.clear()  # opened too long ago to be edited
    clock.advance(61)
    await w.bot.service.fire_due()
    await w.settle()
    assert any("Round 2" in t for t in w.channel_texts())
    res = await w.ann.select(prompt, ["red"])
    assert "Too late" in res.response.content
    table = await w.bot.service.load((await w.bot.service.game_in_channel(w.channel.id)).id)
    assert table.state.votes == {}


async def test_closed_dms_fall_back_to_my_hand(world):
    w = world
    w.env.inject_error("POST", f"/channels/{w.bo.user.dm_channel.id}/messages", status=403, code=50007,
                       message="Cannot send messages to this user", times=None)
    await open_and_start(w)
    notices = [t for t in w.channel_texts() if "DMs are closed" in t]
    assert len(notices) == 1 and "animal" not in notices[0]
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    res = await w.bo.click(phase_msg, label="My hand")
    assert res.ephemeral and "Your animal" in res.response.content


async def test_games_with_private_threads_get_one_thread_per_player(world, monkeypatch):
    from support.tally import GAME

    monkeypatch.setattr(type(GAME), "private_threads", True)
    w = world
    await open_and_start(w)
    threads = {t.name: t for t in w.channel.threads}
    assert len(threads) == 3, list(threads)
    ann_thread = next(t for name, t in threads.items() if "ann" in name)
    texts = [e.description for m in ann_thread.history() for e in m.embeds]
    assert texts == ["Your secret animal is the cat."] or texts == ["Your secret animal is the owl."]
    assert w.dm_texts(w.ann) == []
    # a second private message reuses the thread (stored, so it survives a restart)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert (await w.bot.store.group_thread(game_id, player_key(w.ann.id)))[0] == ann_thread.id


async def test_a_group_audience_gets_one_private_thread_shared_by_its_members(world):
    """Whisper threads (the Clocktower's whispers): one thread per group, the host in each."""
    w = world
    await open_and_start(w)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    ann, bo = str(w.ann.id), str(w.bo.id)
    await w.bot.service.act(game_id, w.ann.id, {"type": "whisper", "player": ann, "to": [bo], "text": "psst"})
    await w.settle()
    threads = [t for t in w.channel.threads if "ann" in t.name and "bo" in t.name]
    assert len(threads) == 1
    thread = threads[0]
    assert [e.description for m in thread.history() for e in m.embeds] == ["ann: psst"]
    for member in (w.ann, w.bo):  # both whisperers read it
        assert thread.history(viewer=member)
    outsider = w.players(4)[3]
    assert _cannot_read(thread, outsider)
    # the host plays in this game: a seated player never reads another group's thread
    assert _cannot_read(thread, w.host)
    assert not any("psst" in t for t in w.channel_texts() + w.dm_texts(w.ann) + w.dm_texts(w.bo))

    # the same group again: the same thread, found in the database (so after a restart too)
    await w.bot.service.act(game_id, w.bo.id, {"type": "whisper", "player": bo, "to": [ann], "text": "yes?"})
    await w.settle()
    assert [t.id for t in w.channel.threads if "ann" in t.name] == [thread.id]
    assert [e.description for m in thread.history() for e in m.embeds][-1] == "bo: yes?"
    key = "whisper:" + "+".join(sorted([ann, bo]))
    assert (await w.bot.store.group_thread(game_id, key))[0] == thread.id


def _cannot_read(thread, member) -> bool:
    try:
        return thread.history(viewer=member) == []
    except SetupError:  # "That viewer cannot read this channel's history"
        return True


async def test_the_grimoire_is_for_moderators_who_are_not_playing(world):
    w = world
    await open_and_start(w)
    res = await w.host.slash(w.channel, "mod grimoire")  # the host plays: no peeking
    assert res.ephemeral and "playing in this game" in res.response.content
    res = await w.ann.slash(w.channel, "mod grimoire")
    assert res.ephemeral and "Only the host" in res.response.content
    res = await w.admin.slash(w.channel, "mod grimoire")  # Manage Server, not seated
    assert res.ephemeral and "Storyteller view" in res.response.content
    table = await w.bot.service.load((await w.bot.service.game_in_channel(w.channel.id)).id)
    assert all(f"{p.name}: {table.state.secret[p.id]}" in res.response.content for p in table.state.players)


async def test_a_long_private_answer_arrives_whole_in_several_messages(world, monkeypatch):
    from support.tally import GAME

    long_text = "\n".join(f"line {k}: " + "x" * 60 for k in range(80))  # about 5,600 characters
    monkeypatch.setattr(type(GAME), "view", lambda self, state, viewer: View(text=long_text))
    w = world
    await open_and_start(w)
    res = await w.ann.click(w.channel.last_message, label="My hand")
    messages = [res.response, *res.followups]
    assert len(messages) == 3 and all(m.ephemeral for m in messages)
    assert all(len(m.content) <= 2000 for m in messages)
    assert "\n".join(m.content for m in messages).startswith(long_text)
    # My hand shows what you hold; the choice's select is under Make my choice alone
    assert not any(m.components for m in messages) and "under **Make my choice**" in messages[-1].content


async def test_game_rules_shows_the_whole_summary_and_every_option_in_words(world):
    import games

    w = world
    for kind in ("ritual", "castle", "clocktower"):
        res = await w.host.slash(w.channel, "game rules", kind=kind)
        messages = [res.response, *res.followups]
        text = "\n".join(e.description or "" for m in messages for e in m.embeds)
        game = games.get(kind)
        assert game.rules_summary().split()[-1] in text  # the summary's last word: nothing cut off
        for name in game.Options.model_fields:
            assert f"**{name}**: " in text, (kind, name)
        assert "None" not in text.replace("(or none)", "")
        for m in messages:  # every message within Discord's limits
            assert sum(len(e.description or "") + len(e.title or "") for e in m.embeds) <= 6000
            assert all(len(e.description or "") <= 4096 for e in m.embeds)


async def test_the_lobby_names_the_host_and_says_when_they_run_the_game_without_playing(world):
    w = world
    res = await w.host.slash(w.channel, "game new", kind="ritual")
    lobby = res.response
    text = lobby.embeds[0].description
    assert f"Host: **{w.host.name}**, also playing" in text and "not playing" not in text
    assert f"• {w.host.name} (host)" in text
    assert f"<@{w.host.id}>" not in text  # named once on each line, not name and mention side by side
    await w.host.click(lobby, label="Leave")
    lobby = next(m for m in reversed(w.channel.history()) if m.embeds and "gathering players" in (m.embeds[0].title or ""))
    text = lobby.embeds[0].description
    assert f"Host: **{w.host.name}**: not playing" in text and "(host)" not in text
    assert "run the game without playing" in text


async def test_a_click_while_the_ending_is_still_shown_does_not_run_ahead_of_it(world, clock):
    """The last phase closed and the game ended, but its ending is still going out (in beats, or
    after a refusal): a click on the old phase's button says the phase closed, not that the game is
    over, which the channel has not shown yet. Once it is shown, the answer says so."""
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=1")
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    notify = w.bot.service._notify
    w.bot.service._notify = lambda game_id: None  # the ending is committed, not yet delivered
    clock.advance(61)
    await w.bot.service.fire_due()
    res = await w.ann.click(phase_msg, label="Make my choice")
    assert res.ephemeral
    assert "being shown in the channel now" in res.response.content
    assert "over" not in res.response.content
    assert not any("wins" in t for t in w.channel_texts())

    w.bot.service._notify = notify
    w.bot.delivery.kick(game_id)
    await w.settle()
    assert any("wins" in t for t in w.channel_texts())
    shown = next(m for m in w.channel.history() if m.id == phase_msg.id)
    assert not shown.components and "closed" in shown.content  # nothing left to click
    w.bot.service._cache.clear()
    with pytest.raises(NoGameHere, match="That game is over."):
        await w.bot.service.load(game_id)
