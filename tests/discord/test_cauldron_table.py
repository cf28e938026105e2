"""Ireland Cauldron's table on the simulated Discord: the day's ready count lives on the day's own
message, under its End discussion button, even once the table has talked."""

from support.sim import a_cauldron_day


def text_of(message):
    return message.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in message.embeds)


async def test_the_ready_count_is_edited_into_the_days_message_not_posted_apart(world):
    w = world
    members = w.players(5)
    _game_id, day = await a_cauldron_day(w, members)
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
