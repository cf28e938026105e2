"""The deal: the roles dealt (or forced), the opening words and each witch's role card."""

from __future__ import annotations

from games.engine import Event, Outcome, Player, Rng, SetupError, private, public

from .choosing import open_choosing
from .circle import team
from .data import load
from .models import CORRUPTED_BY_COUNT, RitualOptions, RitualSetup, RitualState
from .words import count_words, round_word


def setup(players: list[Player], options: RitualOptions, rng: Rng, forced: RitualSetup) -> Outcome:
    data = load()
    n = len(players)
    ids = [p.id for p in players]
    if forced.roles:
        if set(forced.roles) != set(ids):
            raise SetupError("Forced roles must name every player exactly once.", code="bad_setup")
        for rid in forced.roles.values():
            if rid not in data.roles:
                raise SetupError(f"There is no role {rid!r}.", code="bad_setup")
        roles = dict(forced.roles)
        teams = [data.roles[r].team for r in roles.values()]
        k, coven = teams.count("corrupted"), teams.count("coven")
        if k < 1 or k >= coven:
            raise SetupError(
                "A game needs at least one Corrupted witch, and fewer Corrupted than Coven witches.",
                code="bad_setup")
    else:
        revenant = options.revenant and n >= 7
        k = options.corrupted_count or CORRUPTED_BY_COUNT[n]
        coven = n - k - (1 if revenant else 0)
        if k >= coven:
            raise SetupError(
                f"{k} Corrupted witches are too many for {n} players: they must be fewer than the Coven.",
                code="bad_option")
        corrupted = [r.id for r in data.roles.values() if r.team == "corrupted"]
        rng.shuffle(corrupted)
        loyal = [r.id for r in data.roles.values() if r.team == "coven"]
        rng.shuffle(loyal)
        deck = corrupted[:k] + [loyal[i % len(loyal)] for i in range(coven)]
        if revenant:
            deck.append("revenant")
        rng.shuffle(deck)
        roles = dict(zip(ids, deck, strict=True))
    state = RitualState(players=players, phase="setup", round=1, options=options, roles=roles,
                        performed=dict.fromkeys(ids, 0))
    events: list[Event] = []
    n_corrupted = sum(1 for r in roles.values() if data.roles[r].team == "corrupted")
    has_revenant = any(data.roles[r].team == "neutral" for r in roles.values())
    events.append(public(
        "game_started",
        f"🕯️ **The Ritual begins.** {round_word(n)} witches take their places around the cauldron. "
        f"The Hollow has crept into the circle: {count_words(n_corrupted)} among you now "
        f"feed{'s' if n_corrupted == 1 else ''} it."
        + (" A restless spirit haunts the circle too, seeking an ending of its own." if has_revenant else "")
        + "\nCheck your role card (DM or **My hand**).",
        title="The Ritual",
    ))
    for p in players:
        events.append(role_card(state, p.id))
    events += open_choosing(state, rng)
    return Outcome(state=state, events=events)


def role_card(state: RitualState, pid: str) -> Event:
    data = load()
    role = data.roles[state.roles[pid]]
    side = data.teams[role.team]
    lines = [f"🎴 **You are the {role.name}** {role.icon} ({side.icon} {side.name})", f"*{role.description}*", "",
             "**Your ingredients:**"]
    for iid in role.pool:
        ing = data.ingredients[iid]
        lines.append(f"{ing.icon} **{ing.name}**: {ing.flavour}")
    lines += ["", f"**Goal:** {side.goal}"]
    mates: list[str] = []
    if role.team == "corrupted":
        mates = [p for p in state.roles if p != pid and team(state, p) == "corrupted"]
        if not mates:
            lines.append("You feed the Hollow alone.")
        elif state.options.corrupted_know_each_other:
            lines.append("**Your fellow Corrupted:** " + ", ".join(
                f"{state.name(m)} ({data.roles[state.roles[m]].name})" for m in mates))
        else:
            lines.append("Others feed the Hollow too, but you do not know their faces. Once you have "
                         "offered, the Hollow will whisper their offerings to you.")
        if mates:
            lines.append("Once you have offered, you see your teammates' offerings: a strong corruption "
                         "ingredient signals *sabotage*, a milder one signals *lie low*.")
    return private(pid, "role_card", "\n".join(lines), title="Your role",
                   data={"role": role.id, "team": role.team, "pool": list(role.pool),
                         "teammates": mates if state.options.corrupted_know_each_other else []})

