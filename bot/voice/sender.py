"""Sending the narration's audio: one thread for every voice channel the bot speaks in.

discord.py plays each voice client's audio on a thread of its own that wakes every 20 ms (and a
streaming ffmpeg source adds a process and a thread that pipes it). Twenty tables narrating at
once were forty threads fighting the event loop for the interpreter's lock: the loop stalled
37-69 ms. Here a line's audio is ready before it plays (``speech.opus_clip``, in a worker thread)
and one thread sends a frame of every playing line each 20 ms.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord

log = logging.getLogger(__name__)

#: discord.py's frame length
FRAME_SECONDS = 0.02
#: silence sent after a line, as discord.py's player does, so the receiver's decoder settles
SILENCE_FRAMES = 5
OPUS_SILENCE = b"\xf8\xff\xfe"
#: behind by more than this (the machine was suspended, or very busy): start the schedule afresh
#: instead of sending the missed frames in a burst
MOST_BEHIND = 0.2

After = Callable[[Exception | None], Any]


class Sends(Protocol):
    """What the sender uses of a discord.VoiceClient."""

    def is_connected(self) -> bool: ...

    def send_audio_packet(self, data: bytes, *, encode: bool = True) -> None: ...


@dataclass(eq=False)
class _Stream:
    client: Sends
    source: discord.AudioSource
    after: After
    #: stop() was asked: the line ends at the next frame
    stopping: bool = False


class AudioSender:
    """Plays lines on voice clients, a frame of each every 20 ms, from one thread (started at the
    first line, idle with no wake-ups while nothing plays)."""

    def __init__(self, *, clock: Callable[[], float] = time.perf_counter,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._streams: dict[int, _Stream] = {}  # id(client) -> its playing line
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def play(self, client: Sends, source: discord.AudioSource, after: After) -> None:
        """Start sending ``source`` on ``client``; ``after(error)`` is called on the sender's thread
        when it ends (played out, stopped, or failed)."""
        with self._lock:
            if self._closed:
                raise discord.ClientException("The audio sender is closed.")
            if id(client) in self._streams:
                raise discord.ClientException("Already playing audio.")
            self._streams[id(client)] = _Stream(client, source, after)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="audio-sender", daemon=True)
                self._thread.start()
        self._wake.set()

    def is_playing(self, client: Sends) -> bool:
        with self._lock:
            stream = self._streams.get(id(client))
            return stream is not None and not stream.stopping

    def stop(self, client: Sends) -> None:
        with self._lock:
            stream = self._streams.get(id(client))
            if stream is not None:
                stream.stopping = True

    def playing(self) -> int:
        """How many lines are playing now."""
        with self._lock:
            return len(self._streams)

    def close(self) -> None:
        """Stop every line and the thread (their ``after`` is called)."""
        with self._lock:
            self._closed = True
            for stream in self._streams.values():
                stream.stopping = True
            thread = self._thread
        self._wake.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    # -- the thread

    def _run(self) -> None:
        start, frames = self._clock(), 0
        while True:
            with self._lock:
                streams = list(self._streams.values())
                closed = self._closed
            if not streams:
                if closed:
                    return
                self._wake.wait()
                self._wake.clear()
                start, frames = self._clock(), 0
                continue
            for stream in streams:
                self._send_one(stream)
            frames += 1
            late = self._clock() - (start + FRAME_SECONDS * frames)
            if late > MOST_BEHIND:
                start, frames = self._clock(), 0
            elif late < 0:
                self._sleep(-late)

    def _send_one(self, stream: _Stream) -> None:
        error: Exception | None = None
        try:
            if stream.stopping:
                return self._end(stream, None)
            if not stream.client.is_connected():
                return self._end(stream, discord.ClientException("Not connected to voice."))
            data = stream.source.read()
            if not data:
                return self._end(stream, None)
            stream.client.send_audio_packet(data, encode=not stream.source.is_opus())
        except Exception as e:  # (a socket or encoding error ends this line only)
            error = e
        if error is not None:
            self._end(stream, error)

    def _end(self, stream: _Stream, error: Exception | None) -> None:
        with self._lock:
            if self._streams.get(id(stream.client)) is stream:
                del self._streams[id(stream.client)]
        try:
            if stream.client.is_connected():
                for _ in range(SILENCE_FRAMES):
                    stream.client.send_audio_packet(OPUS_SILENCE, encode=False)
        except Exception:  # (silence that does not go is of no consequence)
            log.debug("The silence after a line could not be sent.", exc_info=True)
        try:
            stream.source.cleanup()
        finally:
            try:
                stream.after(error)
            except Exception:
                log.exception("The end of a line's playing could not be handled.")


class SharedVoice:
    """A discord.VoiceClient as the narrator uses it (``narrator.VoiceLink``), its audio sent by the
    process's one ``AudioSender`` instead of a player thread of its own."""

    def __init__(self, voice: discord.VoiceClient, sender: AudioSender) -> None:
        self.voice = voice
        self._sender = sender

    @property
    def channel(self) -> Any:
        return self.voice.channel

    def play(self, source: discord.AudioSource, *, after: After) -> None:
        if not self.voice.is_connected():
            raise discord.ClientException("Not connected to voice.")
        loop = asyncio.get_running_loop()
        loop.create_task(self._speaking(discord.SpeakingState.voice))

        def ended(error: Exception | None) -> None:  # on the sender's thread
            asyncio.run_coroutine_threadsafe(self._speaking(discord.SpeakingState.none), loop)
            after(error)

        self._sender.play(self.voice, source, ended)

    async def _speaking(self, state: discord.SpeakingState) -> None:
        try:
            await self.voice.ws.speak(state)
        except Exception as e:  # (the line plays or ended all the same)
            log.debug("Telling Discord the bot is %s speaking failed: %s",
                      "" if state else "not", e)

    def is_playing(self) -> bool:
        return self._sender.is_playing(self.voice)

    def stop(self) -> None:
        self._sender.stop(self.voice)

    async def disconnect(self, *, force: bool = False) -> None:
        self._sender.stop(self.voice)
        await self.voice.disconnect(force=force)

    async def move_to(self, channel: discord.abc.Snowflake | None) -> None:
        await self.voice.move_to(channel)
