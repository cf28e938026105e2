"""The hidden record of each ritual, stored in the state as one compact string per ritual.

The engine copies the whole state (a JSON round trip) on every action, and a list of nested dicts
grows with every round; one plain string per ritual costs almost nothing to copy. Player ids are
percent-encoded, so any id is safe; ingredient ids and labels are plain words.

    "3|p7|p0:mandrake_root,p1:ink_of_secrets|p1|23|divination|TAINTED|TAINTED|muted|||||p2:light:shadow|p4"
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

FIELDS = ("round", "performer", "offerings", "idle", "corruption", "dominant", "base", "quality",
          "intensity", "moon", "warded", "deaths", "spite", "visions", "burned")


def _q(pid: str) -> str:
    return quote(pid, safe="")


def _u(text: str) -> str:
    return unquote(text) if "%" in text else text


def _ids(text: str) -> list[str]:
    return [_u(x) for x in text.split(",")] if text else []


def encode(rec: dict[str, Any]) -> str:
    visions = ";".join(
        "+".join(_q(t) for t in v["targets"]) + f":{v['shown']}:{v['true']}" for v in rec["visions"])
    return "|".join((
        str(rec["round"]), _q(rec["performer"]),
        ",".join(f"{_q(p)}:{i}" for p, i in rec["offerings"].items()),
        ",".join(_q(p) for p in rec["idle"]), str(rec["corruption"]), rec["dominant"], rec["base"],
        rec["quality"], rec["intensity"], "1" if rec["moon"] else "", "1" if rec["warded"] else "",
        ",".join(_q(p) for p in rec["deaths"]), _q(rec["spite"]), visions, _q(rec["burned"]),
    ))


def decode(text: str) -> dict[str, Any]:
    parts = text.split("|")
    if len(parts) != len(FIELDS):
        raise ValueError(f"a ritual record needs {len(FIELDS)} fields: {text!r}")
    (rnd, performer, offerings, idle, corruption, dominant, base, quality, intensity, moon, warded,
     deaths, spite, visions, burned) = parts
    offered: dict[str, str] = {}
    for pair in offerings.split(",") if offerings else ():
        pid, _, iid = pair.rpartition(":")
        offered[_u(pid)] = iid
    seen = []
    for v in visions.split(";") if visions else ():
        targets, shown, true = v.split(":")
        seen.append({"targets": [_u(t) for t in targets.split("+")] if targets else [],
                     "shown": shown, "true": true})
    return {
        "round": int(rnd), "performer": _u(performer), "offerings": offered, "idle": _ids(idle),
        "corruption": int(corruption), "dominant": dominant, "base": base, "quality": quality,
        "intensity": intensity, "moon": moon == "1", "warded": warded == "1", "deaths": _ids(deaths),
        "spite": _u(spite), "visions": seen, "burned": _u(burned),
    }
