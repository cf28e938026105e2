"""Audio for the voice tests: a WAV tone, the stand-in for speech where the words do not matter."""

import io
import math
import wave
from array import array


def tone(seconds: float, rate: int = 22050) -> bytes:
    """A WAV (mono, 16-bit) of a 440 Hz tone."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        n = round(seconds * rate)
        w.writeframes(array("h", (int(8000 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(n))).tobytes())
    return out.getvalue()
