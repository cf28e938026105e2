"""Helpers for end-to-end tests on simcord's simulated Discord."""

import asyncio

import discord

from bot.client import StorytellerBot
from bot.config import Settings


def bot_settings(db_path, **overrides) -> Settings:
    """The bot's settings in tests: no theatrical pauses, and retries in hundredths of a second."""
    values = {"discord_token": "offline", "database_path": str(db_path), "pause_scale": 0,
              "delivery_retry_seconds": 0.01, "delivery_retry_max_seconds": 0.05,
              "timeout_retry_seconds": 0.05,
              # the pacer has tests of its own; elsewhere a whole game's clicks take almost no
              # virtual time, and pacing them would only run past simcord's settle timeout
              "channel_calls": 100000, "discord_calls_per_second": 10000,
              "gc_freeze": False,  # (a test process makes many bots; tune_gc has its own test)
              "shard_count": 1,  # (simcord needs a sharded bot's count)
              # simcord carries no audio: a test that listens puts a recording narrator in place
              "voice_narration": False,
              # living lines edited at once (test_living_coalesced sets its own window)
              "living_edit_seconds": 0,
              # simcord's actors invoke only synced commands (strict_sync), as Discord shows them
              "sync_commands": True,
              } | overrides
    return Settings(_env_file=None, **values)


#: every bot a test made, closed by the fixture at the end (simcord does not close a bot that a
#: restart put in place, and its database thread would keep the test process alive)
MADE: list[StorytellerBot] = []


def new_bot(db_path, clock, **overrides) -> StorytellerBot:
    use_scheduler = overrides.pop("use_scheduler", False)
    bot = StorytellerBot(bot_settings(db_path, **overrides), clock=clock, use_scheduler=use_scheduler)
    MADE.append(bot)
    return bot


async def close_made_bots() -> None:
    while MADE:
        made = MADE.pop()
        if getattr(made, "listener", None) is not None:
            await made.listener.stop()
        if hasattr(made, "store"):
            await made.store.close()
        if hasattr(made, "service"):
            made.service.timers.shutdown()


class World:
    def __init__(self, env):
        self.env = env
        self.guild = env.create_guild("Coven")
        self.channel = self.guild.create_text_channel("games")
        mods = self.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        self.admin = self.guild.add_member(env.create_user("admin"), roles=[mods])
        self.host = self.guild.add_member(env.create_user("host"))
        self.ann = self.guild.add_member(env.create_user("ann"))
        self.bo = self.guild.add_member(env.create_user("bo"))

    def players(self, n):
        """The host, ann, bo, then as many more members as needed (n in total)."""
        members = [self.host, self.ann, self.bo]
        extra = ["cy", "di", "ed", "flo", "gus", "hal", "ivy"]
        while len(members) < n:
            name = extra[len(members) - 3]
            if not hasattr(self, name):
                setattr(self, name, self.guild.add_member(self.env.create_user(name)))
            members.append(getattr(self, name))
        return members[:n]

    @property
    def bot(self) -> StorytellerBot:
        return self.env.bot

    async def settle(self):
        await self.bot.delivery.wait_idle()
        await self.env.settle()

    async def settle_retries(self, rounds: int = 50):
        """Settle, letting deliveries that back off (after a refusal) retry until none is left."""
        for _ in range(rounds):
            await self.settle()
            if not self.bot.delivery.backing_off:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"deliveries still backing off: {self.bot.delivery.backing_off}")

    def channel_texts(self):
        out = []
        for m in self.channel.history():
            out.append(m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds))
        return out

    def dm_texts(self, member):
        return [" ".join((e.description or "") for e in m.embeds) + m.content
                for m in member.user.dm_channel.history()] if hasattr(member, "user") else []


async def open_and_start(w, options="vote_seconds=60 rounds=2"):
    res = await w.host.slash(w.channel, "game new", kind="tally", options=options)
    assert not res.ephemeral
    lobby = res.response
    assert "gathering players" in lobby.embeds[0].title
    for member in (w.ann, w.bo):
        await member.click(lobby, label="Join")
    res = await w.ann.click(lobby, label="Start")
    assert res.ephemeral and "Only the host" in res.response.content
    await w.host.click(lobby, label="Start")
    await w.settle()
    return lobby


def components_of(response):
    """(selects, buttons) of an ephemeral response: [(custom_id, [values])], [(custom_id, label)]."""
    selects, buttons = [], []
    for row in response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3 and comp.get("options"):
                selects.append((comp["custom_id"], [o["value"] for o in comp["options"]]))
            elif comp.get("type") == 2 and comp.get("custom_id", "").startswith("g:"):
                buttons.append((comp["custom_id"], comp.get("label", "")))
    return selects, buttons


async def choose_in_flow(member, prompt, rng, max_steps: int = 6) -> bool:
    """Choose in a private prompt as a person would: pick in one of its selects, then, when the
    pick waits for a button, press that action's button; follow the message as it shows the next
    step (a Castle turn). Returns whether a choice was accepted: an accepted choice is answered in
    the prompt's own message, a refused one in a new message."""
    accepted = False
    for _ in range(max_steps):
        selects, buttons = components_of(prompt)
        if not selects and not buttons:
            break
        if selects:
            custom_id, values = rng.choice(selects)
            res = await member.select(prompt, [rng.choice(values)], custom_id=custom_id)
            if res.deferred:  # kept: its action's button sends it
                action = custom_id.split(":")[4]
                button = next((b for b, _ in buttons if b.split(":")[4] == action), None)
                if button is None:
                    break
                res = await member.click(prompt, custom_id=button)
        else:
            res = await member.click(prompt, custom_id=buttons[0][0])
        answer = res.response
        assert answer is not None and answer.ephemeral
        if answer.id != prompt.id:  # refused, in a new private message
            break
        accepted = True
        prompt = answer  # the same message, now showing the next step
    return accepted


async def play_by_clicking(w, members, kind, options, rng, max_rounds=400, chatter=False):
    """Open a game of ``kind``, join, start, then play by clicking "Make my choice" and choosing at
    random until the game ends. Returns (game_id, number of accepted choices). With ``chatter``,
    someone writes in the channel before each phase's choices (a table that talks in text)."""
    res = await w.host.slash(w.channel, "game new", kind=kind, options=options)
    lobby = res.response
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await w.host.click(lobby, label="Start")
    await w.settle()
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    accepted = 0
    idle = 0
    for _ in range(max_rounds):
        row = await w.bot.store.game(game_id)
        if row.status != "running":
            break
        if chatter:
            await members[0].send(w.channel, "Hmm.")
        phase_msg = [m for m in w.channel.history() if m.components][-1]
        progressed = False
        for m in members:
            res = await m.click(phase_msg, label="Make my choice")
            assert res.ephemeral
            if await choose_in_flow(m, res.response, rng):
                accepted += 1
                progressed = True
            if (await w.bot.store.game(game_id)).phase_seq != row.phase_seq:
                break
        await w.settle()
        idle = 0 if progressed else idle + 1
        if idle >= 2:  # nobody could act: let the phase time out, as the timer would
            await w.host.slash(w.channel, "mod skip")
            await w.settle()
            idle = 0
    return game_id, accepted


async def a_cauldron_day(w, members):
    """An Ireland Cauldron of ``members`` at its first day: (game id, the day's message with its
    End discussion button)."""
    from bot.actor import Actor

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
    return game_id, next(m for m in reversed(w.channel.history())
                         if any("End discussion" in str(r) for r in m.components))
