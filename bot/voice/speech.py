"""Text to speech for the voice table.

espeak-ng (shipped inside the espeakng-loader wheel: the library and its voice data) turns a line
into a WAV; ffmpeg (shipped inside the imageio-ffmpeg wheel) turns that WAV into the 48 kHz stereo
16-bit PCM that discord.py sends, which is Opus-encoded whole before the line plays (``opus_clip``).
All of it comes with the project's own dependencies: nothing is downloaded at run time and no
cloud service hears the game.

Synthesis, conversion and encoding block (tens of milliseconds a line): the narrator runs them in
a process of its own (``SpeechProcess``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import io
import logging
import multiprocessing
import os
import subprocess
import threading
import unicodedata
import wave
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import discord

log = logging.getLogger(__name__)

# A line longer than this is cut at a word: narration names phases, it does not read rules out.
MAX_CHARS = 200
VOICE = "en"

# espeak-ng's speak_lib.h
_AUDIO_OUTPUT_SYNCHRONOUS = 2
_INITIALIZE_DONT_EXIT = 0x8000  # report a missing data file instead of calling exit()
_POS_CHARACTER = 1
_CHARS_UTF8 = 1
_SYNTH_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


class SpeechUnavailable(RuntimeError):
    """The text-to-speech engine or ffmpeg cannot run on this machine."""


class NothingToSay(ValueError):
    """The text holds no words to speak."""


class _Espeak:
    """The espeak-ng library, loaded once. Its state is global: every call holds _lock."""

    def __init__(self) -> None:
        try:
            import espeakng_loader
        except ImportError as e:
            raise SpeechUnavailable(
                "Speech needs the espeakng-loader package; reinstall the project (pip install -e .)."
            ) from e
        try:
            self._lib = ctypes.CDLL(espeakng_loader.get_library_path())
            data = espeakng_loader.get_data_path()
        except (OSError, RuntimeError) as e:
            raise SpeechUnavailable(f"The espeak-ng library could not be loaded: {e}") from e
        lib = self._lib
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_SetSynthCallback.argtypes = [_SYNTH_CALLBACK]
        lib.espeak_SetSynthCallback.restype = None
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetVoiceByName.restype = ctypes.c_int
        lib.espeak_Synth.argtypes = [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p,
        ]
        lib.espeak_Synth.restype = ctypes.c_int
        lib.espeak_Synchronize.restype = ctypes.c_int
        self.rate = lib.espeak_Initialize(
            _AUDIO_OUTPUT_SYNCHRONOUS, 0, data.encode(), _INITIALIZE_DONT_EXIT
        )
        if self.rate <= 0:
            raise SpeechUnavailable(f"espeak-ng did not start (its data should be in {data}).")
        self._chunks: list[bytes] = []
        # kept on self: ctypes would free the callback while espeak still holds it
        self._callback = _SYNTH_CALLBACK(self._collect)
        lib.espeak_SetSynthCallback(self._callback)
        if lib.espeak_SetVoiceByName(VOICE.encode()) != 0:
            raise SpeechUnavailable(f"espeak-ng has no voice named {VOICE!r}.")

    def _collect(self, samples, count, _events) -> int:
        if samples and count > 0:
            self._chunks.append(ctypes.string_at(samples, count * 2))
        return 0  # 0 = go on

    def speak(self, text: str) -> bytes:
        """16-bit mono samples at self.rate."""
        self._chunks = []
        data = text.encode()
        error = self._lib.espeak_Synth(data, len(data) + 1, 0, _POS_CHARACTER, 0, _CHARS_UTF8, None, None)
        self._lib.espeak_Synchronize()
        if error != 0:
            raise SpeechUnavailable(f"espeak-ng could not speak the line (error {error}).")
        return b"".join(self._chunks)


_lock = threading.Lock()
_engine: _Espeak | None = None


def _espeak() -> _Espeak:
    """The engine; call with _lock held."""
    global _engine
    if _engine is None:
        _engine = _Espeak()
    return _engine


def clean(text: str) -> str:
    """The words to speak: one line of printable text, cut at a word near MAX_CHARS."""
    printable = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    words = " ".join(printable.split())
    if len(words) > MAX_CHARS:
        cut = words[:MAX_CHARS]
        words = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return words


def synthesize(text: str) -> bytes:
    """A WAV file (mono, 16-bit, espeak's rate) speaking the text. Blocking.

    Raises NothingToSay for text with no words, SpeechUnavailable when espeak-ng cannot run."""
    words = clean(text)
    if not words:
        raise NothingToSay("There is nothing to say: the line is empty.")
    with _lock:
        engine = _espeak()
        samples = engine.speak(words)
        rate = engine.rate
    if not samples:
        raise SpeechUnavailable(f"espeak-ng made no sound for {words!r}.")
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples)
    return out.getvalue()


def ffmpeg_path() -> str:
    """The ffmpeg binary shipped by imageio-ffmpeg (or the one IMAGEIO_FFMPEG_EXE names)."""
    try:
        import imageio_ffmpeg

        return imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError) as e:
        raise SpeechUnavailable(
            f"Speech needs ffmpeg, from the imageio-ffmpeg package; reinstall the project ({e})."
        ) from e


#: processes making speech: two lines at once, at most a core each
WORKERS = 2
#: how far the speech processes give way to the bot's own (``os.nice``)
NICENESS = 10
#: discord.py's frame: 20 ms of 48 kHz stereo 16-bit PCM
FRAME_BYTES = 3840
#: how long ffmpeg may take to convert one line (a few seconds of audio take tens of milliseconds)
CONVERT_TIMEOUT = 30.0


def pcm(wav: bytes) -> bytes:
    """The clip as discord.py sends it before encoding: 48 kHz stereo 16-bit PCM, converted by ffmpeg
    in one go. Blocking (a process runs to its end; the wait holds no lock of the interpreter).

    ffmpeg is handed the raw samples with their format spelled out, so it neither probes nor guesses."""
    with wave.open(io.BytesIO(wav), "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError("pcm takes 16-bit WAV audio.")
        rate, channels = w.getframerate(), w.getnchannels()
        samples = w.readframes(w.getnframes())
    layout = {1: "mono", 2: "stereo"}.get(channels)
    if layout is None:
        raise ValueError("pcm takes mono or stereo audio.")
    command = [ffmpeg_path(), "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", str(rate),
               "-ch_layout", layout, "-i", "pipe:0", "-f", "s16le", "-ar", "48000", "-ac", "2", "pipe:1"]
    try:
        done = subprocess.run(command, input=samples, capture_output=True, timeout=CONVERT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SpeechUnavailable(f"ffmpeg could not convert the line: {e}") from e
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise SpeechUnavailable(f"ffmpeg could not convert the line: {why[-1] if why else done.returncode}")
    return done.stdout


class OpusClip(discord.AudioSource):
    """A line's audio, Opus-encoded before it plays: sending it is a read of the next frame, with no
    encoding and no ffmpeg process on the thread that sends it."""

    def __init__(self, frames: list[bytes]) -> None:
        self.frames = frames
        self._next = 0

    def __len__(self) -> int:
        return len(self.frames)

    def read(self) -> bytes:
        if self._next >= len(self.frames):
            return b""
        self._next += 1
        return self.frames[self._next - 1]

    def is_opus(self) -> bool:
        return True


def opus_clip(wav: bytes) -> OpusClip:
    """The clip converted (``pcm``) and encoded as discord.py's own encoder would, frame by frame,
    the last frame padded with silence. Blocking: callers run it in a worker thread."""
    data = pcm(wav)
    if len(data) % FRAME_BYTES:
        data += bytes(FRAME_BYTES - len(data) % FRAME_BYTES)
    try:
        encoder = discord.opus.Encoder()
    except discord.opus.OpusNotLoaded as e:
        raise SpeechUnavailable("Voice needs the Opus library (libopus0 on Debian) to encode speech.") from e
    samples = encoder.SAMPLES_PER_FRAME
    return OpusClip([encoder.encode(data[i:i + FRAME_BYTES], samples) for i in range(0, len(data), FRAME_BYTES)])


def opus_frames(text: str) -> list[bytes]:
    """A line's Opus frames, ready to send: synthesized, converted and encoded (what the speech
    process runs)."""
    return opus_clip(synthesize(text)).frames


def _courtesy() -> None:
    """In the speech process: give way to the bot's own (narration is a courtesy; a turn's timer
    and a vote are not). Its ffmpeg runs inherit this."""
    with contextlib.suppress(OSError, AttributeError):  # (not on every platform)
        os.nice(NICENESS)


class SpeechProcess:
    """Makes lines' audio in a process of its own, started at the first line.

    Synthesis, conversion and encoding are mostly Python between short calls into C: in a worker
    thread of the bot's process, twenty tables' lines held the event loop 33-38 ms at a time (the
    interpreter's lock). In a process of their own they cost the loop nothing but the frames'
    hand-over. A process that dies fails its lines (the game goes on in text) and is started
    afresh at the next line."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def __call__(self, text: str) -> OpusClip:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self._workers, initializer=_courtesy,
                                             mp_context=multiprocessing.get_context("spawn"))
        pool = self._pool
        try:
            # (submitted from a worker thread: a submit may start a process, which is not the loop's work)
            frames = await asyncio.wrap_future(await asyncio.to_thread(pool.submit, opus_frames, text))
        except BrokenProcessPool as e:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise SpeechUnavailable("the speech process stopped; it is started again for the next line") from e
        return OpusClip(frames)

    def close(self) -> None:
        """Stop the process (the bot is shutting down). Blocking: a line being made is finished."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def speech_available() -> str | None:
    """None when the bot can speak here; otherwise a sentence saying why not."""
    try:
        with _lock:
            _espeak()
        ffmpeg_path()
    except SpeechUnavailable as e:
        return str(e)
    from discord import voice_client

    if not voice_client.has_nacl:
        return "Voice needs PyNaCl: install the project with discord.py's voice extra."
    if not voice_client.has_dave:
        return "Voice needs davey (Discord's end-to-end encryption): install discord.py's voice extra."
    try:
        discord.opus.Encoder()
    except discord.opus.OpusNotLoaded:
        return "Voice needs the Opus library (libopus0 on Debian) to encode speech."
    return None
