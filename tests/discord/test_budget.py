"""Discord's budget: what each thing the bot does costs in REST calls (simcord's request log)."""

from support.sim import new_bot, open_and_start

from bot.store import NewMessage
from games.engine import private


def calls(w, since=0):
    return [(r.method, r.path) for r in w.env.http_requests[since:]
            if not r.path.startswith("/interactions/") and not r.path.startswith("/applications/")]


async def test_a_private_message_costs_one_call_even_after_a_restart(world, db_path, clock):
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    # the deal opened each player's DM channel once: one POST /users/@me/channels each, no user fetch
    assert len([c for c in calls(w) if c == ("POST", "/users/@me/channels")]) == 3
    assert not [c for c in calls(w) if c[0] == "GET" and c[1].startswith("/users/")]

    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))  # discord.py's cache of DM channels is empty
    await old.store.close()
    await w.settle()
    since = len(w.env.http_requests)
    row = await w.bot.store.game(game_id)
    notes = [NewMessage("dm", m.id, private(str(m.id), "note", f"A note for {m.user.name}.").model_dump_json())
             for m in (w.host, w.ann, w.bo)]
    await w.bot.store.commit_step(game_id, state=row.state, phase_seq=row.phase_seq, step=50,
                                  deadline=row.deadline, paused_remaining=None, status="running",
                                  actor_id=None, action=None, messages=notes, now=clock.now())
    w.bot.delivery.kick(game_id)
    await w.settle()
    dm_paths = [f"/channels/{m.user.dm_channel.id}/messages" for m in (w.host, w.ann, w.bo)]
    assert calls(w, since) == [("POST", path) for path in dm_paths]  # one call per message, no more
    assert "A note for ann." in w.dm_texts(w.ann)[-1]
