"""Speaking the phases aloud in a game's voice channel.

A phase clock calls Narrator.say and goes straight on: say only queues the line, so narration never
delays or shortens a phase. Narration is a courtesy: when it cannot happen (no permission, no
ffmpeg, Discord slow to connect) the game goes on in text and the log says why, once per game.
The narrator speaks only what it is given; keeping secrets out of the lines is the caller's work.

A line said late is worse than none: each line carries its game's phase (``phase_seq``) and, for a
living line edited in place (a speaking turn's), its slot. A line whose phase has passed (a line of
a later phase of its game has come) or whose slot holds a newer line is dropped, queued or not yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.voice import speech
from bot.voice.sender import FRAME_SECONDS, AudioSender, SharedVoice

log = logging.getLogger(__name__)

# More lines than this waiting and the oldest goes: a stale phase is not worth saying.
MAX_QUEUED = 3
CONNECT_TIMEOUT = 15.0
# A line that has not finished this long after its clip should have is cut (a stuck player).
PLAY_GRACE = 10.0
# Ended games remembered so a late line does not bring the bot back into the channel.
ENDED_REMEMBERED = 1024


class NarrationFailed(RuntimeError):
    """A line could not be spoken; the game goes on without it."""


class Narrator(Protocol):
    """Says the phases aloud (``bot.voice.narrator``); tests put a ``RecordingNarrator`` in place."""

    def say(self, guild_id: int, channel_id: int, game_id: int, text: str, *,
            phase_seq: int | None = None, slot: str | None = None) -> None:
        """Queue a line and return at once (never awaited by a phase clock). ``phase_seq``: the
        phase of the game it belongs to; ``slot``: the living line it says (a newer one replaces it)."""

    def finish(self, guild_id: int, game_id: int) -> None:
        """The game is over: say what is queued for it, then leave if no other game speaks there."""

    async def stop(self, guild_id: int, game_id: int) -> None:
        """The game was cancelled: stop its line, drop its queued lines, leave if no other game speaks."""


class VoiceLink(Protocol):
    """A voice connection as the narrator uses it: a discord.VoiceClient whose audio the process's
    one sender plays (``sender.SharedVoice``); tests fake it (simcord carries no audio)."""

    @property
    def channel(self) -> Any: ...

    def play(self, source: discord.AudioSource, *, after: Callable[[Exception | None], Any]) -> None: ...

    def is_playing(self) -> bool: ...

    def stop(self) -> None: ...

    async def disconnect(self, *, force: bool = False) -> None: ...

    async def move_to(self, channel: discord.abc.Snowflake | None) -> None: ...


Connect = Callable[[int, int], Awaitable[VoiceLink]]  # (guild_id, channel_id) -> a joined voice client


class RecordingNarrator:
    """The narrator of tests: remembers what would have been said, and which games were stopped."""

    def __init__(self) -> None:
        self.lines: list[tuple[int, int, str]] = []  # (game_id, channel_id, text), in order
        self.stopped: list[tuple[int, int]] = []  # (guild_id, game_id), in order
        self.finished: list[tuple[int, int]] = []  # (guild_id, game_id): left after the last words

    def say(self, guild_id: int, channel_id: int, game_id: int, text: str, *,
            phase_seq: int | None = None, slot: str | None = None) -> None:
        self.lines.append((game_id, channel_id, text))

    async def stop(self, guild_id: int, game_id: int) -> None:
        self.stopped.append((guild_id, game_id))

    def finish(self, guild_id: int, game_id: int) -> None:
        self.finished.append((guild_id, game_id))

    def said(self, game_id: int) -> list[str]:
        return [text for game, _, text in self.lines if game == game_id]


@dataclass
class _Line:
    channel_id: int
    game_id: int
    text: str
    #: the game is over once this line is reached: its narrator leaves if no other game speaks
    final: bool = False
    #: the game's phase the line belongs to, and the living line it says (None: not known / none)
    phase_seq: int | None = None
    slot: str | None = None

    def replaced_by(self, newer: _Line) -> bool:
        """A later line of the same game makes this one stale: a later phase, or the same slot."""
        if self.final or newer.game_id != self.game_id:
            return False
        if self.phase_seq is not None and newer.phase_seq is not None and newer.phase_seq > self.phase_seq:
            return True
        return self.slot is not None and self.slot == newer.slot


@dataclass
class _Guild:
    """One guild's narration: its queue, the games speaking there, its voice client and worker."""

    lines: deque[_Line] = field(default_factory=deque)
    games: set[int] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    voice: VoiceLink | None = None
    current: _Line | None = None
    worker: asyncio.Task[None] | None = None
    closed: bool = False


class DiscordNarrator:
    """Speaks in Discord voice channels: one queue and one worker task per guild."""

    def __init__(
        self,
        client: discord.Client | None,
        connect: Connect | None = None,
        synthesize: Callable[[str], bytes] | None = None,
    ) -> None:
        """``synthesize``: a stand-in for speech (tests), run in a worker thread; by default lines
        are made in a process of their own (``speech.SpeechProcess``)."""
        self._client = client
        self._connect: Connect = connect or self._connect_discord
        self._synthesize = synthesize
        self._speech = speech.SpeechProcess()
        self._guilds: dict[int, _Guild] = {}
        self._retired: set[asyncio.Task[None]] = set()  # workers of left guilds, finishing up
        self._ended: dict[int, None] = {}
        self._failed: set[int] = set()  # games whose failure was already logged
        self._phase: dict[int, int] = {}  # the latest phase each game has said a line of
        self._sender = AudioSender()  # one thread sends every guild's audio (bot/voice/sender.py)

    # -- the Narrator interface

    def say(self, guild_id: int, channel_id: int, game_id: int, text: str, *,
            phase_seq: int | None = None, slot: str | None = None) -> None:
        if game_id in self._ended or not speech.clean(text):
            return
        if self._passed(game_id, phase_seq):
            log.info("Narration of game %s: %r comes after its phase %s has passed; dropped.", game_id, text, phase_seq)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.warning("Narration for game %s was asked outside the event loop; line dropped.", game_id)
            return
        g = self._guilds.get(guild_id)
        if g is None:
            g = self._guilds[guild_id] = _Guild()
        g.games.add(game_id)
        new = _Line(channel_id, game_id, text, phase_seq=phase_seq, slot=slot)
        if phase_seq is not None:
            self._phase[game_id] = max(phase_seq, self._phase.get(game_id, phase_seq))
        for stale in [old for old in g.lines if old.replaced_by(new)]:  # (so none of a passed phase waits)
            g.lines.remove(stale)
            log.info("Narration of game %s: %r is no longer true; dropped.", game_id, stale.text)
        g.lines.append(new)
        spoken = [line for line in g.lines if not line.final]
        while len(spoken) > MAX_QUEUED:
            stale = spoken.pop(0)
            g.lines.remove(stale)
            log.info("Narration in guild %s fell behind; dropped %r (game %s).", guild_id, stale.text, stale.game_id)
        g.idle.clear()
        g.wake.set()
        if g.worker is None:
            g.worker = loop.create_task(self._work(guild_id, g), name=f"narrator-guild-{guild_id}")

    def finish(self, guild_id: int, game_id: int) -> None:
        """The game is over: what is queued for it is still said, then the narrator leaves the
        channel (unless another game there still speaks). Later lines of the game are ignored."""
        g = self._guilds.get(guild_id)
        if g is None or game_id not in g.games:
            self._end(game_id)
            return
        g.lines.append(_Line(0, game_id, "", final=True))
        self._end(game_id)
        g.idle.clear()
        g.wake.set()

    def _passed(self, game_id: int, phase_seq: int | None) -> bool:
        """Whether a line of this phase comes too late: the game has said a line of a later one."""
        return phase_seq is not None and phase_seq < self._phase.get(game_id, phase_seq)

    def _end(self, game_id: int) -> None:
        self._ended[game_id] = None
        self._phase.pop(game_id, None)
        while len(self._ended) > ENDED_REMEMBERED:
            del self._ended[next(iter(self._ended))]

    async def stop(self, guild_id: int, game_id: int) -> None:
        self._end(game_id)
        self._failed.discard(game_id)
        g = self._guilds.get(guild_id)
        if g is None:
            return
        g.games.discard(game_id)
        kept = [line for line in g.lines if line.game_id != game_id]
        g.lines.clear()
        g.lines.extend(kept)
        if g.current is not None and g.current.game_id == game_id and g.voice is not None:
            g.voice.stop()
        if not g.games:
            await self._leave(guild_id, g)

    # -- more

    async def close(self) -> None:
        """Leave every voice channel (the bot is shutting down)."""
        for guild_id, g in list(self._guilds.items()):
            if g.voice is not None:
                g.voice.stop()
            await self._leave(guild_id, g)
        await asyncio.to_thread(self._sender.close)
        await asyncio.to_thread(self._speech.close)

    async def wait_quiet(self) -> None:
        """Until every queued line has been spoken or dropped (for tests and shutdown)."""
        await asyncio.gather(*(g.idle.wait() for g in list(self._guilds.values())), *list(self._retired))

    # -- the worker

    async def _leave(self, guild_id: int, g: _Guild) -> None:
        g.closed = True
        g.lines.clear()
        g.wake.set()
        if self._guilds.get(guild_id) is g:
            del self._guilds[guild_id]
        if g.worker is not None and not g.worker.done():
            self._retired.add(g.worker)
            g.worker.add_done_callback(self._retired.discard)
        voice, g.voice = g.voice, None
        if voice is not None:
            try:
                await voice.disconnect(force=True)
            except Exception as e:
                log.warning("Leaving the voice channel in guild %s failed: %s", guild_id, e)

    async def _work(self, guild_id: int, g: _Guild) -> None:
        try:
            while not g.closed:
                if not g.lines:
                    g.idle.set()
                    g.wake.clear()
                    await g.wake.wait()
                    continue
                line = g.current = g.lines.popleft()
                if line.final:
                    g.current = None
                    g.games.discard(line.game_id)
                    if not g.games:
                        await self._leave(guild_id, g)
                    continue
                try:
                    await self._speak(guild_id, g, line)
                except Exception as e:
                    self._report(line, e)
                finally:
                    g.current = None
        finally:
            g.idle.set()

    def _wanted(self, g: _Guild, line: _Line) -> bool:
        return not g.closed and line.game_id in g.games

    async def _speak(self, guild_id: int, g: _Guild, line: _Line) -> None:
        source = await self._prepare(line.text)
        seconds = len(source) * FRAME_SECONDS
        handed = False
        try:
            if not self._wanted(g, line):
                return
            voice = await self._join(guild_id, g, line.channel_id)
            if voice is None or not self._wanted(g, line):
                return
            handed = True
            await self._play(g, voice, source, seconds)
        finally:
            if not handed:
                source.cleanup()

    async def _prepare(self, text: str) -> speech.OpusClip:
        """The line's audio, ready to send."""
        synthesize = self._synthesize
        if synthesize is None:
            return await self._speech(text)
        return await asyncio.to_thread(lambda: speech.opus_clip(synthesize(text)))

    async def _join(self, guild_id: int, g: _Guild, channel_id: int) -> VoiceLink | None:
        voice = g.voice
        if voice is None:
            voice = await self._connect(guild_id, channel_id)
            if g.closed:  # the game ended while joining
                await voice.disconnect(force=True)
                return None
            g.voice = voice
        elif voice.channel is None or voice.channel.id != channel_id:
            await voice.move_to(self._channel(channel_id))
        return voice

    def _channel(self, channel_id: int) -> discord.abc.Snowflake:
        channel = self._client.get_channel(channel_id) if self._client is not None else None
        return channel if channel is not None else discord.Object(id=channel_id)

    async def _play(self, g: _Guild, voice: VoiceLink, source: discord.AudioSource, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Exception | None] = loop.create_future()

        def settle(error: Exception | None) -> None:
            if not done.done():
                done.set_result(error)

        def after(error: Exception | None) -> None:  # called on the player's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
                loop.call_soon_threadsafe(settle, error)

        try:
            voice.play(source, after=after)
        except discord.ClientException as e:  # not connected any more: join afresh next line
            g.voice = None
            source.cleanup()
            raise NarrationFailed(f"the voice connection was lost ({e})") from e
        try:
            error = await asyncio.wait_for(asyncio.shield(done), seconds + PLAY_GRACE)
        except TimeoutError:
            voice.stop()
            raise NarrationFailed(f"a {seconds:.1f} s line had not finished after {seconds + PLAY_GRACE:.0f} s") from None
        if error is not None:
            raise NarrationFailed(f"playing failed: {error}") from error

    def _report(self, line: _Line, error: Exception) -> None:
        if isinstance(error, TimeoutError):
            why = (
                f"could not join voice channel {line.channel_id} in time "
                "(does the bot have the Connect and Speak permissions there?)"
            )
        else:
            why = str(error) or type(error).__name__
        if line.game_id in self._failed:
            log.debug("Narration for game %s failed again: %s", line.game_id, why)
            return
        self._failed.add(line.game_id)
        log.warning(
            "Narration for game %s failed: %s. The game goes on in text; further failures are logged at debug level.",
            line.game_id,
            why,
            exc_info=error if not isinstance(error, TimeoutError | NarrationFailed | speech.SpeechUnavailable) else None,
        )

    async def _connect_discord(self, guild_id: int, channel_id: int) -> VoiceLink:
        if self._client is None:
            raise NarrationFailed("no Discord client to join voice with")
        channel = self._client.get_channel(channel_id)
        if not isinstance(channel, discord.VoiceChannel | discord.StageChannel):
            raise NarrationFailed(f"channel {channel_id} is not a voice channel the bot can see")
        current = channel.guild.voice_client
        if isinstance(current, discord.VoiceClient):
            if current.channel.id != channel_id:
                await current.move_to(channel)
            return SharedVoice(current, self._sender)
        if current is not None:
            raise NarrationFailed(f"guild {guild_id} already has a voice connection the narrator does not own")
        voice: discord.VoiceClient = await channel.connect(self_deaf=True, timeout=CONNECT_TIMEOUT)
        return SharedVoice(voice, self._sender)
