"""Issue 27, items 6-11, on simcord: a night's board names the lock and dawn and keeps its buttons,
and the prompts opened from it keep working, through the reminder stage until the lock; /mod skip
and /mod extend say what they did in the same terms; one sign-up sheet, edited in place."""

import re

from support.clocktower_helpers import CHARS, advance, begun, game_row, sign_up, state_of, texts

from bot.delivery import PROMPT_CLOSED
from bot.play import LOBBY_SLOT
from bot.store import Slot


def stamps(text):
    return [int(n) for n in re.findall(r"<t:(\d+):R>", text)]


def board_of(w, title):
    """The town square's latest message showing ``title``, as it is now."""
    return [m for m in w.channel.history() if any(title in (e.title or "") for e in m.embeds)][-1]


async def night_two(w, clock):
    members = await begun(w)
    await advance(w, clock, 72)
    state = await state_of(w)
    assert (state.phase, state.night, state.stage) == ("night", 2, "open")
    by_id = {str(m.id): m for m in members}
    demon = by_id[next(s.player for s in state.seats if CHARS[s.character].team == "demon")]
    return members, demon


async def test_the_night_board_and_game_status_name_the_lock_and_dawn(world, clock):
    w = world
    _members, demon = await night_two(w, clock)
    now = clock.now()
    board = board_of(w, "Night 2 falls")
    # the lock (22 h) and dawn (24 h), not the start of the reminder stage (20 h)
    assert "Night actions lock" in board.content and "Dawn comes" in board.content
    assert stamps(board.content) == [int(now + 22 * 3600), int(now + 24 * 3600)]
    await advance(w, clock, 20)  # the reminder stage: the same times, on the board and in /game status
    assert stamps(board_of(w, "Night 2 falls").content) == [int(now + 22 * 3600), int(now + 24 * 3600)]
    status = await demon.slash(w.channel, "game status")
    assert stamps(status.response.content) == [int(now + 22 * 3600), int(now + 24 * 3600)]
    await advance(w, clock, 2)  # the lock: the town is told, with dawn's time
    assert any("actions locked" in t and "Dawn comes" in t for t in texts(w.channel))


async def test_the_night_board_and_its_prompts_keep_working_through_the_reminder_stage(world, clock):
    w = world
    members, demon = await night_two(w, clock)
    victim, other = [m for m in members if m is not demon][:2]
    prompt = (await demon.click(board_of(w, "Night 2 falls"), label="Make my choice")).response
    assert prompt.components
    await advance(w, clock, 20)  # the reminder stage: a phase_seq of its own
    assert (await state_of(w)).stage == "closing"
    board = board_of(w, "Night 2 falls")
    assert board.components, "the board lost its buttons before the lock"
    assert not prompt.content.startswith(PROMPT_CLOSED) and prompt.components
    await demon.select(prompt, [str(victim.id)])  # the prompt opened before the reminder still counts
    await w.settle()
    assert (await state_of(w)).night_choices[str(demon.id)] == [str(victim.id)]
    again = (await demon.click(board, label="Make my choice")).response  # and the board's button
    await demon.select(again, [str(other.id)])
    await w.settle()
    assert (await state_of(w)).night_choices[str(demon.id)] == [str(other.id)]
    hand = await demon.slash(w.channel, "game hand")
    assert "under **Make my choice**" in hand.response.content
    await advance(w, clock, 1.9)
    last = (await demon.click(board_of(w, "Night 2 falls"), label="Make my choice")).response
    assert last.components
    await advance(w, clock, 0.1)  # the lock closes the prompts; a later try is answered in words
    assert last.content.startswith(PROMPT_CLOSED) and not last.components
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {demon.name} "))
    ask = next(m for m in reversed(thread.history(viewer=demon)) if any(
        "your choice" in (e.title or "") for e in m.embeds))
    late = (await demon.click(ask, label="Make my choice")).response
    assert "nothing to choose" in late.content


async def test_extend_in_the_reminder_stage_moves_the_boards_lock_and_dawn(world, clock):
    w = world
    await night_two(w, clock)
    await advance(w, clock, 20)
    before = stamps(board_of(w, "Night 2 falls").content)
    res = await w.host.slash(w.channel, "mod extend", seconds=3600)
    assert "Night actions lock" in res.response.content and "Dawn comes" in res.response.content
    await w.settle()
    assert stamps(board_of(w, "Night 2 falls").content) == [t + 3600 for t in before]
    await w.host.slash(w.channel, "mod pause")  # paused: how far each deadline will be at the resume
    await w.settle()
    assert board_of(w, "Night 2 falls").content == ("⏸️ Paused. When the game resumes: night actions lock in 3 h"
                                                    " · dawn comes in 5 h.")
    status = await w.host.slash(w.channel, "game status")
    assert "night actions lock in 3 h · dawn comes in 5 h" in status.response.content


async def test_skip_says_what_it_closed_and_what_comes_next(world, clock):
    w = world
    await night_two(w, clock)
    await advance(w, clock, 20)  # the reminder stage
    res = await w.host.slash(w.channel, "mod skip")
    said = res.response.content
    assert "closed the night" not in said
    assert said.startswith("⏭️ A moderator skipped ahead: night actions lock now; dawn comes <t:")
    state = await state_of(w)
    assert (state.phase, state.stage) == ("night", "locked")
    row = await game_row(w)
    assert stamps(said) == [int(row.deadline)]


async def test_one_sign_up_sheet_edited_in_place(world):
    w = world
    members = await sign_up(w)  # the host opens the game, seven players /in
    sheets = [m for m in w.channel.history() if any("sign-ups" in (e.title or "") for e in m.embeds)]
    assert len(sheets) == 1
    sheet = sheets[0].embeds[0].description
    assert all(m.name in sheet for m in members)
    res = await members[0].slash(w.channel, "out")
    assert not res.ephemeral and not res.response.embeds
    sheets = [m for m in w.channel.history() if any("sign-ups" in (e.title or "") for e in m.embeds)]
    assert len(sheets) == 1 and members[0].name not in sheets[0].embeds[0].description


async def test_a_sign_up_sheet_posted_again_keeps_its_buttons(world):
    """The sheet was deleted (its slot names a message that is gone): the next sign-up posts it
    again, with Join, Leave and Start, and that one is the sheet from then on."""
    w = world
    members = await sign_up(w, n=2)
    row = await game_row(w)
    await w.bot.store.set_slot(row.id, LOBBY_SLOT, Slot(w.channel.id, 1, 1))  # a message that is gone
    res = await w.players(5)[4].slash(w.channel, "spectate")
    assert not res.ephemeral and res.response.embeds and res.response.components
    assert (await w.bot.store.slot(row.id, LOBBY_SLOT)).message_id == res.response.id
    assert members


async def test_a_spectator_of_a_running_game_is_not_promised_a_character(world):
    w = world
    await begun(w)
    res = await w.players(10)[9].slash(w.channel, "spectate")
    assert not res.ephemeral and "spectating" in res.response.content
    assert "chooses their character" not in res.response.content


async def test_the_day_board_and_the_tally_agree_and_follow_extend_and_pause(world, clock):
    w = world
    await begun(w)
    await advance(w, clock, 24)  # dawn of day 1
    now = clock.now()
    board, tally = board_of(w, "Day 1 dawns"), board_of(w, "Day 1 votes")
    expected = [int(now + h * 3600) for h in (24, 36, 48)]
    assert stamps(board.content) == stamps(tally.content) == expected
    assert "Nominations close" in board.content and "Voting closes" in board.content
    await w.host.slash(w.channel, "mod extend", seconds=3600)
    await w.settle()
    moved = [t + 3600 for t in expected]
    assert stamps(board_of(w, "Day 1 dawns").content) == stamps(board_of(w, "Day 1 votes").content) == moved
    await w.host.slash(w.channel, "mod pause")
    await w.settle()
    assert "paused" in board_of(w, "Day 1 votes").content


async def test_the_sign_up_sheet_names_the_storytellers_not_a_raw_mention(world):
    w = world
    res = await w.host.slash(w.channel, "game new", kind="clocktower")
    sheet = res.response.embeds[0].description
    assert f"Storytellers: **{w.host.name}**" in sheet and "<@" not in sheet


async def test_a_dead_players_nomination_by_vote_is_refused_with_the_reason(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)  # day 1: nominations open
    dead, living, nominee = members[:3]
    res = await w.host.slash(w.channel, "st kill", player=dead)
    assert res.ephemeral
    res = await dead.slash(w.channel, "vote", target=nominee)
    assert res.ephemeral and "the dead cannot nominate" in res.response.content
    assert "vote token still lets you vote once on an existing nomination" in res.response.content
    assert not (await state_of(w)).nominations  # nothing changed
    await living.slash(w.channel, "vote", target=nominee)
    res = await dead.slash(w.channel, "vote", target=nominee)  # on an existing nomination: counted
    assert (await state_of(w)).votes[str(dead.id)] == str(nominee.id)
