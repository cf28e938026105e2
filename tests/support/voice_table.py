"""The voice tests' table on simcord: a Ritual with its roles forced, started in the channel the host
sits in, and who speaks now."""

from bot.actor import Actor

#: the roles of a forced five-player Ritual (seat order)
ROLES5 = ("guardian", "seer", "hollow_servant", "chronicler", "harbinger")


async def start_ritual(w, options: str, n: int = 5) -> int:
    """A Ritual of the first ``n`` players, roles forced, in the channel the host sits in; started."""
    players = w.players(n)
    res = await w.host.slash(w.channel, "game new", kind="ritual", options=options)
    for m in players[1:]:
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    roles = {str(m.id): role for m, role in zip(players, ROLES5[:n], strict=True)}
    await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"), forced={"roles": roles})
    await w.settle()
    return game_id


async def speaker(w, game_id: int) -> int | None:
    """The speaker's id while a speaking turn runs (None between turns)."""
    table = await w.bot.service.load(game_id)
    turn = table.game.speaking_turn(table.state)
    return None if turn is None else int(turn.speaker)
