"""The table hub: a small local page with the table's link, the voice channel (who sits in it, who
is server-muted, what it heard) and, per player, what the bot told them privately (DMs) and the
threads they can read, refreshed as things change.

One simcord preview shows one channel, and a DM preview accepts only its owner, so the hub is
where private messages are read. A thread is read here too, and played on the table: its
**Open on the table** link opens the thread as a page of its own (a room, see
``OfflineTable.open_room``) for its members only. The hub binds to 127.0.0.1; every URL carries
the table's secret (``/<secret>/...``), and a wrong secret gets a plain 404.
"""

from __future__ import annotations

import hmac
import html
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

import discord
import simcord
from aiohttp import web

import games
from bot.client import StorytellerBot
from games.engine import fonts

from . import _simcord
from .heard import TableNarrator
from .world import NotInThread, World, display_name, voice_members


def truth_commands_html() -> str:
    """The commands that show a Storyteller the whole truth, from the games that have one."""
    found = [games.get(name).truth_command for name in games.available() if games.get(name).truth_command]
    return " or ".join(f"<code>{html.escape(c)}</code>" for c in found) or "their own commands"


class HubTable(Protocol):
    """What the hub reads of the offline table it shows (``OfflineTable``)."""

    narrator: TableNarrator

    @property
    def env(self) -> simcord.Env: ...  # simcord's environment: the bot, its channels

    @property
    def world(self) -> World: ...

    @property
    def bot(self) -> StorytellerBot: ...

    @property
    def preview_url(self) -> str | None: ...

    async def open_room(self, thread_id: int, member: Any) -> str: ...

log = logging.getLogger(__name__)

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_UNDER = re.compile(r"__(.+?)__", re.S)
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", re.S)
_STRIKE = re.compile(r"~~(.+?)~~", re.S)
_SPOILER = re.compile(r"\|\|(.+?)\|\|", re.S)
_CODE = re.compile(r"`([^`]+)`")
_USER = re.compile(r"&lt;@!?(\d+)&gt;")
_CHANNEL = re.compile(r"&lt;#(\d+)&gt;")
_ROLE = re.compile(r"&lt;@&amp;(\d+)&gt;")
_TIME = re.compile(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;")
_HEADING = re.compile(r"^(#{1,3}) (.+)$", re.M)
_QUOTE = re.compile(r"^&gt; ?(.*)$", re.M)


def relative(unix: int, now: float) -> str:
    delta = unix - now
    seconds = abs(int(delta))
    if seconds < 60:
        amount = f"{seconds} second{'s' * (seconds != 1)}"
    elif seconds < 3600:
        amount = f"{seconds // 60} minute{'s' * (seconds // 60 != 1)}"
    elif seconds < 86400:
        amount = f"{seconds // 3600} hour{'s' * (seconds // 3600 != 1)}"
    else:
        amount = f"{seconds // 86400} day{'s' * (seconds // 86400 != 1)}"
    return f"in {amount}" if delta >= 0 else f"{amount} ago"


def markdown(text: str, names: dict[int, str], *, now: float | None = None) -> str:
    """Discord Markdown as minimal, safe HTML: everything is escaped first, then a few marks return."""
    now = datetime.now(UTC).timestamp() if now is None else now
    out = html.escape(text or "", quote=True)
    codes: list[str] = []

    def stash(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = _CODE.sub(stash, out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _UNDER.sub(r"<u>\1</u>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    out = _STRIKE.sub(r"<s>\1</s>", out)
    out = _SPOILER.sub(r'<span class="spoiler">\1</span>', out)
    out = _USER.sub(lambda m: f'<span class="mention">@{html.escape(names.get(int(m[1]), "someone"))}</span>',
                    out)
    out = _CHANNEL.sub(lambda m: f'<span class="mention">#{html.escape(names.get(int(m[1]), "channel"))}</span>',
                       out)
    out = _ROLE.sub('<span class="mention">@role</span>', out)

    def stamp(match: re.Match[str]) -> str:
        unix = int(match[1])
        when = datetime.fromtimestamp(unix, UTC)
        label = relative(unix, now) if match[2] == "R" else when.strftime("%Y-%m-%d %H:%M:%S UTC")
        return f'<time datetime="{when.isoformat()}">{label}</time>'

    out = _TIME.sub(stamp, out)
    out = _HEADING.sub(lambda m: f"<strong>{m[2]}</strong>", out)
    out = _QUOTE.sub(r'<span class="quote">\1</span>', out)
    out = out.replace("\n", "<br>\n")
    for index, code in enumerate(codes):
        out = out.replace(f"\x00{index}\x00", code)
    return out


#: where a picture the hub does not draw can be seen
PICTURE_IN_THREAD = "a picture: open this thread on the table to see it"
PICTURE_IN_DM = "a picture the hub cannot show"
#: how many of the lines the voice channel heard the hub shows
HEARD_SHOWN = 20
GRIMOIRE_HINT = "; `/st grimoire`, typed on the table, shows you the grimoire with its picture"


def render_message(message: discord.Message, names: dict[int, str], *, now: float | None = None,
                   picture: str = PICTURE_IN_DM) -> str:
    """One message as an HTML card: author, time, content, embeds (title, text, fields, footer);
    ``picture`` says where an attached picture can be seen."""
    author = names.get(message.author.id) or message.author.display_name
    parts = [f'<article class="msg"><header><strong>{html.escape(author)}</strong> '
             f'<time datetime="{message.created_at.isoformat()}">'
             f'{message.created_at.strftime("%H:%M:%S")}</time></header>']
    if message.content:
        parts.append(f'<div class="content">{markdown(message.content, names, now=now)}</div>')
    for embed in message.embeds:
        colour = f"#{embed.colour.value:06x}" if embed.colour else "#4e5058"
        parts.append(f'<section class="embed" style="border-left-color:{colour}">')
        if embed.title:
            parts.append(f'<div class="title">{markdown(embed.title, names, now=now)}</div>')
        if embed.description:
            parts.append(f'<div class="desc">{markdown(embed.description, names, now=now)}</div>')
        for field in embed.fields:
            parts.append(f'<div class="field"><div class="fname">{markdown(field.name or "", names, now=now)}'
                         f'</div><div>{markdown(field.value or "", names, now=now)}</div></div>')
        if embed.image and embed.image.url:
            parts.append(f'<div class="note">[{markdown(picture, names, now=now)}]</div>')
        if embed.footer and embed.footer.text:
            parts.append(f'<footer>{html.escape(embed.footer.text)}</footer>')
        parts.append("</section>")
    for attachment in message.attachments:
        if not any(e.image and e.image.url == f"attachment://{attachment.filename}" for e in message.embeds):
            parts.append(f'<div class="note">[attachment {html.escape(attachment.filename)}]</div>')
    parts.append("</article>")
    return "".join(parts)


STYLE = """
body{font:15px/1.45 "Table Sans","Table Symbols","Table CJK","Noto Color Emoji","Table Emoji",system-ui,sans-serif;background:#313338;color:#dbdee1;margin:0;padding:1rem 1.5rem;max-width:52rem}
a{color:#00a8fc} h1{font-size:1.3rem;color:#f2f3f5} h2{font-size:1.05rem;color:#f2f3f5;margin-top:1.6rem}
.msg{background:#2b2d31;border-radius:6px;padding:.5rem .75rem;margin:.5rem 0}
.msg header time{color:#949ba4;font-size:.8rem;margin-left:.4rem}
.embed{border-left:4px solid #4e5058;background:#232428;padding:.4rem .7rem;margin:.35rem 0;border-radius:4px}
.embed .title{font-weight:600;color:#f2f3f5} .embed footer{color:#949ba4;font-size:.75rem;margin-top:.3rem}
.field{margin-top:.3rem} .fname{font-weight:600} .note{color:#949ba4;font-style:italic}
.mention{background:#3c4270;color:#c9cdfb;border-radius:3px;padding:0 2px}
.spoiler{background:#1e1f22;color:#1e1f22} .spoiler:hover{color:inherit}
.quote{border-left:3px solid #4e5058;padding-left:.5rem;display:inline-block}
code{background:#1e1f22;padding:0 3px;border-radius:3px}
.empty{color:#949ba4} ul.players li{margin:.3rem 0} .muted{color:#949ba4;font-size:.85rem}
.voice{background:#2b2d31;border-radius:6px;padding:.5rem .75rem} .mute{color:#f23f43}
ol.heard{padding-left:1.2rem} ol.heard time{color:#949ba4;font-size:.8rem;margin-right:.4rem}
"""


#: the faces the pictures draw names with (games/engine/fonts.py), served by the hub so that a name
#: in any script (李雷, Юля) or with an emoji shows on every machine, not only where the system has a
#: font for it: (family in the page's CSS, the face)
FONT_FAMILIES = tuple(zip(("Table Sans", "Table Symbols", "Table CJK", "Table Emoji"), fonts.FACES, strict=True))


def font_faces(token: str) -> str:
    """The CSS ``@font-face`` rules of the served faces (each downloaded only when a page needs it)."""
    return "".join(f'@font-face{{font-family:"{family}";src:url(/{token}/fonts/{i});font-display:swap}}'
                   for i, (family, _face) in enumerate(FONT_FAMILIES))


def page(title: str, body: str, *, version: int, token: str) -> str:
    """A page that reloads itself when the table changed (it polls a tiny version URL)."""
    script = (
        "<script>(function(){var v=" + str(int(version)) + ";setInterval(function(){fetch('/"
        + token + "/version',{cache:'no-store'})"
        ".then(function(r){return r.text()}).then(function(t){if(t&&+t!==v){location.reload()}})"
        ".catch(function(){})},2000)})();</script>"
    )
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f"content='width=device-width,initial-scale=1'><meta name=referrer content=no-referrer>"
            f"<title>{html.escape(title)}</title><style>{font_faces(token)}{STYLE}</style></head><body>{body}{script}</body></html>")


class Hub:
    """The aiohttp app of the hub; ``start()`` binds 127.0.0.1:port (0 picks a free port)."""

    def __init__(self, table: HubTable, token: str, port: int = 0,
                 clock: Callable[[], float] | None = None) -> None:
        self.table = table
        self.token = token
        self.requested_port = port
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._clock = clock or (lambda: datetime.now(UTC).timestamp())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.token}/"

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/{token}/", self._index)
        app.router.add_get("/{token}/version", self._version)
        app.router.add_get("/{token}/fonts/{index}", self._font)
        app.router.add_get("/{token}/p/{user_id}", self._player)
        app.router.add_get("/{token}/p/{user_id}/t/{thread_id}", self._room)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        for port in dict.fromkeys((self.requested_port, 0)):
            site = web.TCPSite(self._runner, "127.0.0.1", port)
            try:
                await site.start()
            except OSError:
                log.warning("the hub's port %s is busy; trying another", port)
                continue
            self.port = self._runner.addresses[0][1]  # the one site bound (port 0: the one chosen)
            return
        raise OSError("the table hub could not bind a port")

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ----- requests -----
    def _check(self, request: web.Request) -> None:
        if not hmac.compare_digest(request.match_info["token"].encode(), self.token.encode()):
            raise web.HTTPNotFound()

    def _headers(self) -> dict[str, str]:
        return {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; "
                                           "script-src 'unsafe-inline'; connect-src 'self'"}

    def _version_number(self) -> int:
        return _simcord.change_marker(self.table.env)

    async def _version(self, request: web.Request) -> web.Response:
        self._check(request)
        return web.Response(text=str(self._version_number()), headers=self._headers())

    async def _font(self, request: web.Request) -> web.FileResponse:
        """One of the picture fonts (``FONT_FAMILIES``), kept by the browser for a day."""
        self._check(request)
        index = request.match_info["index"]
        if not index.isdigit() or int(index) >= len(FONT_FAMILIES):
            raise web.HTTPNotFound()
        path = fonts.face_path(FONT_FAMILIES[int(index)][1])
        return web.FileResponse(path, headers={"Cache-Control": "private, max-age=86400",
                                               "Content-Type": "font/ttf" if path.endswith(".ttf") else
                                               "font/collection", "X-Content-Type-Options": "nosniff"})

    def names(self) -> dict[int, str]:
        world = self.table.world
        names = {m.id: display_name(m) for m in world.players}
        names[world.channel.id] = world.channel.name or "table"
        for thread in world.threads():
            names[thread.id] = thread.name or "thread"
        me = self.table.env.bot.user
        if me is not None:
            names[me.id] = me.display_name
        return names

    async def _index(self, request: web.Request) -> web.Response:
        self._check(request)
        return self._html("The offline table", self.index_html())

    async def _player(self, request: web.Request) -> web.Response:
        self._check(request)
        try:
            member = self.table.world.player(int(request.match_info["user_id"]))
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        storyteller = member.id in await self.storytellers()
        return self._html(f"{display_name(member)}: private messages",
                          self.player_html(member, storyteller=storyteller))

    async def _room(self, request: web.Request) -> web.Response:
        """Open the thread on the table as this player (one of its members), then go there."""
        self._check(request)
        try:
            member = self.table.world.player(int(request.match_info["user_id"]))
            url = await self.table.open_room(int(request.match_info["thread_id"]), member)
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        except NotInThread as exc:
            return self._html("Not your thread", f"<p>{html.escape(str(exc))}</p>", status=404)
        except simcord.SetupError as exc:
            log.warning("a thread could not open on the table: %s", exc)
            return self._html("The thread could not open", "<p>The thread could not open on the table "
                              "just now. Go back and try again in a moment.</p>", status=503)
        raise web.HTTPSeeOther(url, headers=self._headers())

    def _html(self, title: str, body: str, status: int = 200) -> web.Response:
        return web.Response(text=page(title, body, version=self._version_number(), token=self.token),
                            content_type="text/html", headers=self._headers(), status=status)

    async def storytellers(self) -> set[int]:
        """Who is a Storyteller (``/st``) of a game at the table."""
        bot, found = self.table.bot, set()
        for row in await bot.store.active_games(self.table.world.guild.id):
            if games.get(row.kind).storytellers:
                found.update(await bot.service.storyteller_ids(row))
        return found

    # ----- content -----
    def dms(self, member: simcord.MemberActor) -> list[discord.Message]:
        return member.user.dm_channel.history()

    def visible_threads(self, member: simcord.MemberActor) -> list[tuple[simcord.ChannelHandle, list[Any]]]:
        out = []
        for thread in self.table.world.threads():
            try:
                out.append((thread, thread.history(viewer=member)))
            except (simcord.SetupError, simcord.BackendError):
                continue  # a private thread this player is not in
        return out

    def index_html(self) -> str:
        preview = self.table.preview_url
        rows = []
        for member in self.table.world.players:
            dms = len(self.dms(member))
            threads = len(self.visible_threads(member))
            rows.append(
                f'<li><a href="/{self.token}/p/{member.id}">{html.escape(display_name(member))}</a> '
                f'<span class="muted">{dms} private message{"s" * (dms != 1)}'
                + (f", {threads} thread{'s' * (threads != 1)}" if threads else "") + "</span></li>")
        table_link = (f'<a href="{html.escape(preview)}" target="_blank" rel="noopener">Open the table</a>'
                      if preview else '<span class="empty">The table is reopening; refresh in a moment.</span>')
        return (
            "<h1>The offline table</h1>"
            f"<p>{table_link}: the game channel <strong>#{html.escape(self.table.world.channel.name or '')}</strong>. "
            "Pick who you are with <em>Viewing as</em> at the top; open it in several tabs to be several "
            "players at once. A player's secret prompts appear there under <strong>Make my choice</strong> "
            "and <strong>My hand</strong>, only for the player viewing. A game's Storyteller is not "
            f"seated, so <strong>My hand</strong> has nothing for them: {truth_commands_html()} shows "
            "them the whole truth, and the Storytellers' thread is on their page below.</p>"
            + self.voice_html() +
            "<h2>Private messages and threads, per player</h2>"
            f'<ul class="players">{"".join(rows)}</ul>'
            '<p class="muted">A player\'s page shows what the bot sent them privately. Each of their threads '
            "has <strong>Open on the table</strong>: the thread as a page of the table, where its members "
            "press its buttons, fill its forms and write. This page updates by itself when something "
            "happens. Close the table with Ctrl+C in its terminal.</p>")

    def voice_html(self, count: int = HEARD_SHOWN) -> str:
        """The voice channel: who sits in it and who Discord has server-muted now (simcord's
        voice states), and the last lines the bot said there, newest last."""
        world = self.table.world
        people = [f'<li>{html.escape(name)}' + (' <strong class="mute">🔇 server-muted</strong>' if mute else
                                                ' <span class="muted">may speak</span>') + "</li>"
                  for name, mute in voice_members(world)]
        lines = [f'<li><time datetime="{datetime.fromtimestamp(line.at, UTC).isoformat()}">'
                 f'{datetime.fromtimestamp(line.at, UTC).strftime("%H:%M:%S")}</time>'
                 f'<span class="muted">game #{line.game_id}:</span> {html.escape(line.text)}</li>'
                 for line in self.table.narrator.last(world.voice.id, count)]
        return (
            f'<h2>Voice channel 🔊 {html.escape(world.voice.name or "")}</h2><div class="voice">'
            + (f'<ul class="players in-voice">{"".join(people)}</ul>' if people
               else '<p class="empty">Nobody is in the voice channel.</p>')
            + f"<p><strong>Heard</strong> <span class=muted>(the last {count} lines; simcord carries no "
            "sound, so the bot's words are written here)</span></p>"
            + (f'<ol class="heard">{"".join(lines)}</ol>' if lines
               else '<p class="empty">Nothing said yet. A game started with /game new here links '
                    "this channel and says each phase aloud.</p>")
            + "</div>")

    def player_html(self, member: simcord.MemberActor, *, storyteller: bool = False) -> str:
        names = self.names()
        now = self._clock()
        name = html.escape(display_name(member))
        dms = self.dms(member)
        body = [f'<p><a href="/{self.token}/">&larr; all players</a></p>',
                f"<h1>{name}: what the bot told you privately</h1>",
                f'<p class="muted">Only {name} should read this. Newest first.</p>',
                "<h2>Direct messages</h2>"]
        grimoire = GRIMOIRE_HINT if storyteller else ""
        if dms:
            body += [render_message(m, names, now=now, picture=PICTURE_IN_DM + grimoire) for m in reversed(dms)]
        else:
            body.append('<p class="empty">No private messages yet.</p>')
        for thread, messages in self.visible_threads(member):
            kind = "private thread" if thread.is_thread and self._private(thread) else "thread"
            body.append(f"<h2>#{html.escape(thread.name or 'thread')} <span class=muted>({kind})</span> "
                        f'<a href="/{self.token}/p/{member.id}/t/{thread.id}" target="_blank" rel="noopener">'
                        "Open on the table</a></h2>")
            if messages:
                body += [render_message(m, names, now=now, picture=PICTURE_IN_THREAD + grimoire)
                         for m in reversed(messages)]
            else:
                body.append('<p class="empty">No messages yet.</p>')
        return "".join(body)

    def _private(self, thread: simcord.ChannelHandle) -> bool:
        channel = self.table.env.bot.get_channel(thread.id)
        return getattr(channel, "type", None) == discord.ChannelType.private_thread
