"""Bad Moon Rising on simcord, end to end: `/st script edition:Bad Moon Rising` to the reveal. The official
counts deal 7 players; the night sheet and the copilot reach the Storytellers; a Gossip's statement is
made in the announcement thread; the town votes the Demon, the Storytellers confirm the end, and the
reveal names the characters the town square never did."""

import re

from support.clocktower_helpers import advance, begun_script, game_row, state_of, texts

from games.clocktower.bmr_information import GRANDCHILD
from games.clocktower.script_characters import characters_for

# the Demon's execution ends the game: no Zombuul (lives through its first death), no Mastermind (an
# extra day), no Devil's Advocate (an executed player might not die)
POOL = "-zombuul -mastermind -devilsadvocate"


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


async def test_a_bad_moon_rising_game_on_simcord_from_the_edition_to_the_reveal(world, clock):
    w = world
    members = await begun_script(w, "Bad Moon Rising", edition="bmr", pool=POOL)
    gid = (await game_row(w)).id
    state = await state_of(w)
    known = characters_for(state.script)
    assert state.script.name == "Bad Moon Rising" and len(state.seats) == 7
    assert {s.character for s in state.seats} <= set(state.script.all_ids())
    assert not {"zombuul", "mastermind", "devilsadvocate"} & {s.character for s in state.seats}
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("Night 1: the night sheet" in t for t in texts(st_thread))
    if any("grandmother" in (s.character, s.shown) for s in state.seats):  # the grandchild marked at the deal
        assert any(r.token == GRANDCHILD for r in state.reminders)
    await advance(w, clock, 24)  # dawn of day 1
    state = await state_of(w)
    assert state.phase == "day"
    by_id = {str(m.id): m for m in members}
    thread = announcement_thread(w)
    res = await members[0].slash(thread, "announce gossip", statement="seat 3 has been very quiet")
    assert "Your announcement is noted" in res.response.content, res.response.content
    res = await members[0].slash(thread, "announce gossip", statement="again")
    assert res.ephemeral and "one a day" in res.response.content
    await w.settle()
    assert any("seat 3 has been very quiet" in t for t in texts(thread))
    square = " ".join(texts(w.channel, viewer=members[0]))
    for seat in state.seats:  # no character is named in the town square while the game runs
        assert not re.search(rf"\b{re.escape(known[seat.character].name)}\b", square), seat.character
    assert GRANDCHILD not in square
    demon = by_id[next(s.player for s in state.seats if known[s.character].team == "demon")]
    for voter in [m for m in members if m is not demon]:
        await voter.slash(w.channel, "vote", target=demon)
    await w.settle()
    res = await w.host.slash(w.channel, "st endvoting")
    assert "Voting is over" in res.response.content, res.response.content
    await w.settle()
    state = await state_of(w)
    assert state.pending_end is not None and state.pending_end.team == "good"
    res = await w.host.slash(w.channel, "st win", team="good", reason="The town executed the Demon.")
    await w.settle()
    said = texts(w.channel)
    assert any("Good wins!" in t and "The town executed the Demon." in t for t in said)
    reveal = " ".join(t for t in said if "grimoire, revealed" in t.lower())
    for seat in state.seats:
        assert known[seat.character].name in reveal
    assert (await w.bot.store.game(gid)).status == "finished"


async def test_the_bishop_and_the_matron_on_simcord_by_the_storytellers_commands(world, clock):
    """The Bishop: a player's nomination refused, the Storytellers nominate with `/st traveller bishop`;
    the Matron: `/st traveller matron` swaps two seats, told to the town."""
    w = world
    members = await begun_script(w, "Bad Moon Rising", edition="bmr")
    await advance(w, clock, 24)  # day 1
    bishop = w.guild.add_member(w.env.create_user("bishop"))
    matron = w.guild.add_member(w.env.create_user("matron"))
    for member, seat, character in ((bishop, 11, "bishop"), (matron, 12, "matron")):
        await member.slash(w.channel, "travel in", seat=seat)
        res = await w.host.slash(w.channel, "st traveller add", player=member, character=character, alignment="good")
        assert "is the" in res.response.content, res.response.content
    res = await members[1].slash(w.channel, "vote", target=members[2])
    assert res.ephemeral and "Only the Storytellers nominate while the Bishop" in res.response.content
    res = await w.host.slash(w.channel, "st traveller bishop", player=members[2])
    assert "You nominated" in res.response.content, res.response.content
    res = await members[1].slash(w.channel, "vote", target=members[2])
    assert "Your vote is on" in res.response.content, res.response.content
    before = {s.player: s.seat for s in (await state_of(w)).seats}
    res = await w.host.slash(w.channel, "st traveller matron", first=members[0], second=members[3])
    assert "The Matron's swap" in res.response.content, res.response.content
    await w.settle()
    after = {s.player: s.seat for s in (await state_of(w)).seats}
    a, b = str(members[0].id), str(members[3].id)
    assert (after[a], after[b]) == (before[b], before[a])
    square = " ".join(texts(w.channel))
    assert "The Storytellers nominate" in square and "The Matron's swap" in square


async def test_the_judge_forces_an_execution_on_simcord(world, clock):
    w = world
    members = await begun_script(w, "Bad Moon Rising", edition="bmr")
    await advance(w, clock, 24)  # day 1
    judge = w.guild.add_member(w.env.create_user("judge"))
    await judge.slash(w.channel, "travel in", seat=11)
    res = await w.host.slash(w.channel, "st traveller add", player=judge, character="judge", alignment="good")
    assert "is the" in res.response.content, res.response.content
    await members[1].slash(w.channel, "vote", target=members[2])
    res = await judge.slash(w.channel, "announce judge", player=members[2], verdict="pass")
    assert "they are executed" in res.response.content, res.response.content
    await w.settle()
    state = await state_of(w)
    assert state.executed == str(members[2].id) and not state.seat_of(str(members[2].id)).alive
    assert any("the Judge, forces the execution" in t for t in texts(w.channel))
    res = await judge.slash(w.channel, "announce judge", player=members[2], verdict="fail")
    assert res.ephemeral
