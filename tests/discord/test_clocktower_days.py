"""Clocktower days on simcord: the 72-hour cycle on real deadlines (through restarts and
downtime), forum votes by `/vote` and by the town square's prompt, the live tally edited in
place, the Storytellers' early end, the execution, and the end confirmed by the Storytellers."""

import re

from support.clocktower_helpers import CHARS, HOUR, advance, begun, character_names, game_row, state_of, texts
from support.sim import new_bot


def tally_messages(w, day=1):
    return [m for m in w.channel.history() if any(e.title and e.title.startswith(f"🗳️ Day {day} votes")
                                                 for e in m.embeds)]


def by_member(members, state):
    return {m: state.seat_of(str(m.id)) for m in members}


async def test_a_day_of_forum_votes_with_a_live_tally_and_an_execution(world, clock):
    w = world
    members = await begun(w)
    row = await game_row(w)
    start = (await w.bot.store.game(row.id)).deadline
    assert start == clock.now() + 20 * HOUR  # night actions open 20 h, then the reminder, then the lock
    res = await members[0].slash(w.channel, "vote", target=members[1])
    assert res.ephemeral and "voting opens at dawn" in res.response.content
    await advance(w, clock, 24)
    state = await state_of(w)
    assert (state.phase, state.stage, state.day) == ("day", "nominations", 1)
    assert any("Day 1 dawns" in t and "Nobody died in the night" in t for t in texts(w.channel))
    # the Virgin first (never nominated here) and the Demon last (not executed below)
    members.sort(key=lambda m: (state.seat_of(str(m.id)).character != "virgin",
                                CHARS[state.seat_of(str(m.id)).character].team == "demon"))
    # the tally: one message, with the day's boundaries as Discord timestamps
    [tally] = tally_messages(w)
    deadline = (await w.bot.store.game(row.id)).deadline
    assert f"Nominations close <t:{int(deadline)}:R>" in tally.content
    assert f"Voting closes <t:{int(deadline + 24 * HOUR)}:R>" in tally.content

    res = await members[0].slash(w.channel, "vote", target=members[1])
    assert res.ephemeral and "You nominated them" in res.response.content
    for voter in members[2:5]:
        await voter.slash(w.channel, "vote", target=members[1])
    res = await members[5].slash(w.channel, "vote")  # no target: no execution
    assert "No execution" in res.response.content
    res = await members[4].slash(w.channel, "vote", target=members[5])  # moves, and nominates
    assert "You nominated them" in res.response.content
    res = await members[0].slash(w.channel, "st endvoting")
    assert res.ephemeral and "Only this game's Storytellers" in res.response.content
    res = await w.host.slash(w.channel, "st endvoting")  # 3 to 2, with 2 votes uncast
    assert res.ephemeral and "cannot end early yet" in res.response.content
    # from the town square's prompt as well as the command
    prompt = (await members[6].click(_phase_message(w), label="Make my choice")).response
    await members[6].select(prompt, [str(members[1].id)])
    await w.settle()
    [tally] = tally_messages(w)  # still one message, edited in place
    body = tally.embeds[0].description
    name1 = members[1].name
    assert re.search(rf"\*\*{name1} \(seat \d+\)\*\* · 4 \(nominated by {members[0].name}\)", body), body
    assert "Not voted (" in body and "About to die" in body

    await advance(w, clock, 48)
    state = await state_of(w)
    assert state.phase == "night" and state.night == 2
    executed = state.seat_of(str(members[1].id))
    assert not executed.alive
    said = texts(w.channel)
    assert any(f"{name1}" in t and "is executed and dies" in t for t in said)
    assert any("Night 2 falls" in t for t in said)
    [closed] = tally_messages(w)
    assert "(closed)" in closed.embeds[0].title and closed.content == ""
    # no character in play is named where the town reads
    in_play = {CHARS[s.character].name for s in state.seats} | {CHARS[s.shown].name for s in state.seats}
    assert not character_names(" ".join(said)) & in_play


def _phase_message(w):
    """The town square's latest message with the phase's buttons."""
    return next(m for m in reversed(w.channel.history())
                if any(c.label == "Make my choice" for row in m.components for c in row.children))


async def test_the_schedule_survives_a_restart_and_downtime_resolves_every_boundary_in_order(world, db_path, clock):
    w = world
    await begun(w)
    row = await game_row(w)
    first = (await w.bot.store.game(row.id)).deadline
    clock.advance(5 * HOUR)
    await w.env.restart_bot(new_bot(db_path, clock))  # a redeploy in the night's first stage
    await w.settle()
    assert (await w.bot.store.game(row.id)).deadline == first
    # down for 30 hours: the reminder, the lock and dawn passed; each resolves, in order, and the
    # day keeps the schedule's times (dawn at 24 h, nominations close at 48 h), not the restart's
    clock.advance(30 * HOUR)
    await w.env.restart_bot(new_bot(db_path, clock))
    await w.bot.service.fire_due()
    await w.settle()
    state = await state_of(w)
    assert (state.phase, state.stage) == ("day", "nominations")
    assert (await w.bot.store.game(row.id)).deadline == first + 4 * HOUR + 24 * HOUR
    said = texts(w.channel)
    assert any("Day 1 dawns" in t for t in said)
    logged = [a["type"] for a in await w.bot.store.actions(row.id)]
    assert logged == ["begin", "phase_timeout", "phase_timeout", "phase_timeout"]


async def test_a_co_storyteller_pauses_and_extends_the_day(world, clock):
    w = world
    members = await begun(w)
    co = w.guild.add_member(w.env.create_user("zed"))  # no Manage Server: a Storyteller only
    res = await w.host.slash(w.channel, "st cohost add", member=co)
    assert "now a Storyteller" in res.response.content
    await advance(w, clock, 24)
    row = await game_row(w)
    deadline = (await w.bot.store.game(row.id)).deadline
    await co.slash(w.channel, "mod extend", seconds=7200)
    assert (await w.bot.store.game(row.id)).deadline == deadline + 2 * HOUR
    res = await members[0].slash(w.channel, "mod pause")
    assert res.ephemeral and "Only the host" in res.response.content


async def test_the_storytellers_confirm_the_end_and_the_reveal_has_every_days_votes(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    state = await state_of(w)
    demon = next(m for m, s in by_member(members, state).items() if CHARS[s.character].team == "demon")
    voters = [m for m in members if m != demon]
    for voter in voters:
        await voter.slash(w.channel, "vote", target=demon)
    await w.settle()
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("Voting may end early" in t for t in texts(st_thread))
    res = await w.host.slash(w.channel, "st endvoting")
    assert "Voting is over" in res.response.content
    await w.settle()
    assert any("The game may be over" in t and "every Demon is dead" in t for t in texts(st_thread))
    assert not any("wins" in t for t in texts(w.channel))  # the town waits for the Storytellers
    res = await w.host.slash(w.channel, "st win", team="good")
    await w.settle()
    said = texts(w.channel)
    assert any("Good wins!" in t and "Every Demon is dead" in t for t in said)
    votes = next(t for t in said if "Every day's votes" in t)
    assert "Day 1" in votes and f"{demon.name}" in votes and "executed" in votes
    reveal = next(m for m in w.channel.history() if any("grimoire" in (e.title or "").lower() for e in m.embeds))
    assert reveal.attachments and reveal.attachments[0].filename.endswith(".png")


async def test_a_restart_in_every_stage_keeps_the_stage_and_its_deadline(world, db_path, clock):
    w = world
    await begun(w)
    row = await game_row(w)
    seen = []
    for _ in range(6):  # night: open, closing, locked; day: nominations, voting, final
        before = await state_of(w)
        deadline = (await w.bot.store.game(row.id)).deadline
        clock.advance(HOUR / 2)
        await w.env.restart_bot(new_bot(db_path, clock))
        await w.bot.service.fire_due()
        await w.settle()
        after = await state_of(w)
        assert (after.phase, after.stage, after.phase_seq) == (before.phase, before.stage, before.phase_seq)
        assert (await w.bot.store.game(row.id)).deadline == deadline
        seen.append(after.stage)
        clock.advance(deadline - clock.now())  # on to the next stage, on time
        await w.bot.service.fire_due()
        await w.settle()
    assert seen == ["open", "closing", "locked", "nominations", "voting", "final"]
    assert (await state_of(w)).phase == "night"


async def test_the_virgins_closed_tally_names_the_nominator_executed_at_once(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    seats = by_member(members, await state_of(w))
    virgin = next(m for m, s in seats.items() if s.character == "virgin")
    nominator = next(m for m, s in seats.items() if CHARS[s.character].team == "townsfolk" and m is not virgin)
    res = await nominator.slash(w.channel, "vote", target=virgin)
    assert "you are executed at once" in res.response.content
    await w.settle()
    [closed] = tally_messages(w)  # the living tally, closed in place
    body = closed.embeds[0].description
    assert "(closed)" in closed.embeds[0].title
    assert f"Executed: **{nominator.name} (seat {seats[nominator].seat})**." in body, body
    assert f"Executed: **{virgin.name}" not in body
