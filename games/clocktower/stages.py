"""The cycle's stages and their deadlines: a night is open, closing (the reminder) and locked; a
day has nominations, voting and a final stretch. Pure functions of the settings and the state: the
clock (``clock``) moves through them, and the tally and the phase message show them.
"""

from __future__ import annotations

from .options import Settings
from .state import ClocktowerState


def stages(settings: Settings, phase: str) -> list[tuple[str, float]]:
    """The stages of a night or a day with their lengths, in order (a stage of no length is
    skipped: a day whose announcements close with it has no "final" stage)."""
    if phase == "night":
        opened = settings.night_seconds - settings.lock_seconds - settings.reminder_seconds
        parts = [("open", opened), ("closing", settings.reminder_seconds), ("locked", settings.lock_seconds)]
    elif phase == "day":
        parts = [("nominations", settings.nomination_seconds),
                 ("voting", settings.announcement_seconds - settings.nomination_seconds),
                 ("final", settings.day_seconds - settings.announcement_seconds)]
    elif phase == "fiddle":  # the Demon's choice waits for it; the town's vote has a deadline
        parts = [("voting", settings.fiddle_seconds)]
    else:
        return []
    return [(name, seconds) for name, seconds in parts if seconds > 0]


def stage_seconds(state: ClocktowerState) -> float | None:
    if state.phase == "day" and state.stage == "butcher":  # the Butcher's second nomination (snv_travellers)
        return state.settings.nomination_seconds
    return dict(stages(state.settings, state.phase)).get(state.stage)


def next_stage(state: ClocktowerState) -> str | None:
    """The stage after the current one in the same night or day; None at its end."""
    names = [name for name, _ in stages(state.settings, state.phase)]
    if state.stage not in names:
        return None
    at = names.index(state.stage)
    return names[at + 1] if at + 1 < len(names) else None


STAGE_ENDS = {"nominations": "Nominations close", "voting": "Announcements close", "final": "Voting closes"}


def day_ends(state: ClocktowerState) -> list[list]:
    """The day's boundaries still to come, each with its seconds after the current stage's end
    (the bot turns them into Discord timestamps from the stage's deadline)."""
    out: list[list] = []
    after = 0.0
    started = False
    parts = stages(state.settings, "day")  # (once: every vote's tally tells them)
    for name, seconds in parts:
        if name == state.stage:
            started = True
        elif started:
            after += seconds
        else:
            continue
        label = STAGE_ENDS[name]
        if name == "voting" and not any(n == "final" for n, _ in parts):
            label = "Voting closes"
        out.append([label, after])
    return out


def night_ends(state: ClocktowerState) -> list[list]:
    """The night's boundaries a player cares about, the lock and dawn, each with its seconds after
    the current stage's end (the start of the reminder stage is not one of them)."""
    parts = stages(state.settings, "night")
    names = [name for name, _ in parts]
    if state.stage not in names:
        return []
    out: list[list] = []
    after = 0.0
    for at in range(names.index(state.stage), len(parts)):
        if names[at] != state.stage:
            after += parts[at][1]
        if at == len(parts) - 1:
            out.append(["Dawn comes" if names[at] == "locked" else "Night actions lock at dawn", after])
        elif names[at + 1] == "locked":
            out.append(["Night actions lock", after])
    return out
