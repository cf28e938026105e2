"""Text to speech for the voice table.

espeak-ng (shipped inside the espeakng-loader wheel: the library and its voice data) turns a line
into a WAV; ffmpeg (shipped inside the imageio-ffmpeg wheel) turns that WAV into the 48 kHz stereo
16-bit PCM that discord.py encodes and sends. Both come with the project's own dependencies:
nothing is downloaded at run time and no cloud service hears the game.

Synthesis blocks (tens of milliseconds a line): callers run it in a worker thread.
"""

from __future__ import annotations

import ctypes
import io
import logging
import threading
import unicodedata
import wave

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


def pcm_source(wav: bytes) -> discord.AudioSource:
    """What discord.py sends: 20 ms frames of 48 kHz stereo 16-bit PCM, converted by ffmpeg.

    Starts an ffmpeg process (briefly blocking); the player cleans it up when the clip ends. ffmpeg
    is handed the raw samples with their format spelled out, so it neither probes nor guesses."""
    with wave.open(io.BytesIO(wav), "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError("pcm_source takes 16-bit WAV audio.")
        rate, channels = w.getframerate(), w.getnchannels()
        samples = w.readframes(w.getnframes())
    layout = {1: "mono", 2: "stereo"}.get(channels)
    if layout is None:
        raise ValueError("pcm_source takes mono or stereo audio.")
    try:
        return discord.FFmpegPCMAudio(
            io.BytesIO(samples),
            pipe=True,
            executable=ffmpeg_path(),
            before_options=f"-f s16le -ar {rate} -ch_layout {layout}",
        )
    except discord.ClientException as e:
        raise SpeechUnavailable(f"ffmpeg could not start: {e}") from e


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
