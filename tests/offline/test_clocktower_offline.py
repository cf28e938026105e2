"""A whole Clocktower game on the offline table, one of its people the Storyteller: sign-ups,
the deal, the characters on the hub, the Storyteller moving the clock with /mod skip, votes from
the table's Make my choice, a whisper and an announcement typed in #table (with
announce_anywhere), a neighbour whisper, the execution of the Demon and the confirmed end."""

import aiohttp

from games.clocktower import load

CHARS = load()
NAMES = ["Sam", "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


def _texts(messages):
    return [m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds)
            for m in messages]


async def test_a_whole_clocktower_game_on_the_offline_table(open_table):
    async with open_table(NAMES) as table:
        w = table.world
        st, players = w.host, w.players[1:]
        async with table.acting():
            res = await st.slash(w.channel, "game new", kind="clocktower", options="announce_anywhere=true")
            assert not res.ephemeral, res.response.content
            for seat, member in enumerate(players, start=1):
                res = await member.slash(w.channel, "in", seat=seat)
                assert not res.ephemeral, res.response.content
            res = await st.slash(w.channel, "st deal")
            assert "Dealt" in res.response.content, res.response.content
            res = await st.slash(w.channel, "st begin")
            assert "Night 1 has begun" in res.response.content
            await table.env.settle()
            game = (await table.bot.store.active_games(w.guild.id))[0]
            state = (await table.bot.service.load(game.id)).state
        # each player's character is on their hub page, in their private thread
        async with aiohttp.ClientSession() as http, http.get(f"{table.hub_url}p/{players[0].id}") as r:
            page = await r.text()
        mine = CHARS[state.seat_of(str(players[0].id)).shown].name
        assert "Your character" in page and mine in page

        async with table.acting():
            for _ in range(3):  # the Storyteller moves the night along: reminder, lock, dawn
                res = await st.slash(w.channel, "mod skip")
                await table.env.settle()
            state = (await table.bot.service.load(game.id)).state
            assert (state.phase, state.day) == ("day", 1), (state.phase, state.stage)
            by_id = {str(m.id): m for m in players}
            demon = next(by_id[s.player] for s in state.seats if CHARS[s.character].team == "demon")
            others = [m for m in players if m is not demon]
            virgin = next((by_id[s.player] for s in state.seats if s.character == "virgin"), None)
            # a whisper and an announcement typed in #table, a neighbour whisper
            res = await others[0].slash(w.channel, "whisper", player=others[1])
            assert "Your whisper with" in res.response.content, res.response.content
            res = await others[1].slash(w.channel, "announce goblin")
            assert "Your announcement is noted" in res.response.content
            circle = [by_id[s.player] for s in state.seats]
            res = await circle[0].slash(w.channel, "neighbour", to=circle[1], text="I trust you")
            assert "Whispered to" in res.response.content, res.response.content
            # everyone votes the Demon from the table's Make my choice (the Virgin's nominator:
            # whoever votes first nominates; keep the Virgin out of it)
            voters = [m for m in others if m is not virgin] + ([virgin] if virgin else [])
            phase_message = next(m for m in reversed(w.channel.history())
                                 if any(c.label == "Make my choice" for row in m.components for c in row.children))
            for voter in voters:
                prompt = (await voter.click(phase_message, label="Make my choice")).response
                assert prompt.ephemeral
                await voter.select(prompt, [str(demon.id)])
            await table.env.settle()
            res = await st.slash(w.channel, "st endvoting")
            assert "Voting is over" in res.response.content, res.response.content
            await table.env.settle()
            res = await st.slash(w.channel, "st win", team="good")
            await table.env.settle()
        said = _texts(w.channel.history())
        assert any("Good wins!" in t for t in said)
        assert any("Every day's votes" in t for t in said)
        assert any("Every day's whispers" in t for t in said)
        assert (await table.bot.store.game(game.id)).status == "finished"


async def test_the_offline_table_offers_trouble_brewing_and_deals_it_to_five(open_table):
    async with open_table(NAMES) as table:
        w = table.world
        st, players = w.host, w.players[1:6]
        welcome = " ".join(_texts(w.channel.history()))
        assert "Trouble Brewing" in welcome and "options:script=tb" in welcome
        async with table.acting():
            res = await st.slash(w.channel, "game new", kind="clocktower", options="script=tb")
            assert not res.ephemeral, res.response.content
            for seat, member in enumerate(players, start=1):
                res = await member.slash(w.channel, "in", seat=seat)
                assert not res.ephemeral, res.response.content
            res = await st.slash(w.channel, "st deal")
            assert "Dealt" in res.response.content, res.response.content
            game = (await table.bot.store.active_games(w.guild.id))[0]
            state = (await table.bot.service.load(game.id)).state
        assert state.script.name == "Trouble Brewing" and len(state.seats) == 5
        assert {s.character for s in state.seats} <= set(state.script.all_ids())
