"""Ireland Cauldron's table on the simulated Discord: the day's ready count lives on the day's own
message, under its End discussion button, even once the table has talked."""

from bot.actor import Actor


def text_of(message):
    return message.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in message.embeds)


async def a_cauldron_day(w, members):
    res = await w.host.slash(w.channel, "game new", kind="cauldron")
    for m in members[1:]:
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    # every hand is Brigid's: the first night opens no pending choice, and day comes
    hands = {str(m.id): ["brigid", "ceol", "thistle"] for m in members}
    await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"), forced={"hands": hands})
    await w.settle()
    for m in members:
        await w.bot.service.act(game_id, m.id, {"type": "play", "player": str(m.id), "card": "brigid"})
    await w.settle()
    assert (await w.bot.service.load(game_id)).state.phase == "day"
    return next(m for m in reversed(w.channel.history()) if any("End discussion" in str(r) for r in m.components))


async def test_the_ready_count_is_edited_into_the_days_message_not_posted_apart(world):
    w = world
    members = w.players(5)
    day = await a_cauldron_day(w, members)
    await w.ann.send(w.channel, "I cast Brigid, promise.")  # the table talks: the day's message scrolls up
    await members[0].click(day, label="End discussion")
    await w.settle()
    await w.bo.send(w.channel, "So did I.")
    await members[1].click(day, label="End discussion")
    await w.settle()
    now = next(m for m in w.channel.history() if m.id == day.id)
    assert "✋ 2 of 5 ready for the night." in text_of(now)
    assert "1 of 5 ready" not in text_of(now)  # the line was replaced, not added again
    assert any("End discussion" in str(r) for r in now.components)  # the button is still there
    assert now.content.startswith("⏳")  # and the countdown
    assert [m.id for m in w.channel.history() if "ready for the night" in text_of(m)] == [day.id]
