"""Discord's budget: what each thing the bot does costs in REST calls (simcord's request log)."""


from support.seconds import SimulatedSeconds
from support.sim import new_bot, open_and_start

from bot.actor import Actor
from bot.deadlines import Deadlines
from bot.pacer import Pacer
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
                                  deadlines=Deadlines(close=row.deadline), status="running",
                                  actor_id=None, action=None, messages=notes, now=clock.now())
    w.bot.delivery.kick(game_id)
    await w.settle()
    dm_paths = [f"/channels/{m.user.dm_channel.id}/messages" for m in (w.host, w.ann, w.bo)]
    assert calls(w, since) == [("POST", path) for path in dm_paths]  # one call per message, no more
    assert "A note for ann." in w.dm_texts(w.ann)[-1]


# ----- the pacer -----

def record_calls(bot, now):
    """(time, method, url) of every call the bot makes to Discord's REST API, interaction
    responses and follow-ups left out (they are not counted against the budget)."""
    seen = []
    real = bot.http.request

    async def request(route, **kwargs):
        if not route.path.startswith(("/interactions/", "/webhooks/", "/applications/")):
            seen.append((now(), route.method, route.url))
        return await real(route, **kwargs)

    bot.http.request = request
    return seen


def most_in_any_window(times, seconds):
    times = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(times):
        while times[start] <= t - seconds:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_a_burst_of_game_starts_keeps_the_budget_and_posts_openers_before_narration(world):
    """A thousand games start at once (each: three role cards and its opening message), and each
    then has a line of narration queued. At 50 calls per second the pacer never goes over, in any
    sliding second, nor five calls of a kind to one channel in five seconds; and every game's
    opening message is posted before any narration."""
    w = world
    games_count = 1000
    seconds = SimulatedSeconds()
    w.bot.delivery.pacer = Pacer(per_second=50, per_channel=5, channel_seconds=5.0, clock=seconds.now,
                                 sleep=seconds.sleep)
    service = w.bot.service
    notify = service._notify
    service._notify = lambda game_id: None  # all at once: nothing goes before every game is in
    ids, channels = [], []
    for n in range(games_count):
        channel = w.guild.create_text_channel(f"table-{n}")
        host, *others = [Actor(id=w.guild.add_member(w.env.create_user(f"p{n}-{k}")).id, name=f"p{n}-{k}")
                         for k in range(3)]
        row = await service.new_game(kind="tally", guild_id=w.guild.id, channel_id=channel.id, host=host,
                                     options_text="vote_seconds=600 rounds=1")
        for actor in others:
            await service.join(row.id, actor)
        await service.start(row.id, host)
        await service.remove(row.id, host, others[0].id)  # "… left.": narration, queued behind the deal
        ids.append(row.id)
        channels.append(channel)
    seen = record_calls(w.bot, seconds.now)
    service._notify = notify
    for game_id in ids:
        w.bot.delivery.kick(game_id)
    expected = games_count * 8  # per game: 3 DM channels opened, 3 cards, 1 opener, 1 narration
    await w.settle()
    assert len(seen) == expected
    times = [t for t, _, _ in seen]
    assert most_in_any_window(times, 1.0) <= 50
    routes: dict[tuple[str, str], list[float]] = {}
    for t, method, url in seen:
        if "/channels/" in url and "/users/@me/" not in url:  # a channel's own routes
            routes.setdefault((method, url), []).append(t)
    assert max(most_in_any_window(ts, 5.0) for ts in routes.values()) <= 5
    assert times[-1] - times[0] >= expected / 50 - 1  # paced, not bunched
    game_channels = {str(c.id) for c in channels}
    openers = [t for t, method, url in seen if method == "POST" and url.split("/")[-2] in game_channels]
    narration = [t for t, method, url in seen if method == "PATCH"]
    assert len(openers) == len(narration) == games_count
    assert max(openers) <= min(narration)
    for channel in channels[:3]:  # and each table reads as it should
        board = channel.history()[-1]
        assert " left." in board.embeds[-1].description and board.components
