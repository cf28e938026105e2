"""What the night's choices do: the Demons' kills and poison, the Thief's mark, in night order.

``plan_night`` walks tonight's order over the true grimoire and returns each acting player's step
with its effects (a death, a poison placed or lifted, a vote counted negatively tomorrow) and the
notes a Storyteller should read (an impaired Demon, a choice not submitted, a Soldier saved, a
player dead before their step). The game applies the effects at the lock and shows the steps to
the Storytellers, who may overrule any of it before dawn. Information (the Empath's number...)
is not here: the copilot proposes it.
"""

from __future__ import annotations

from collections.abc import Callable

from . import bmr_night
from .characters import Characters
from .rules import NO_ONE_TONIGHT
from .snv_barber import haircut_steps
from .snv_madness import MADNESS_ACTS
from .snv_night import SNV_ACTS, keeps_ability
from .snv_swaps import SWAP_ACTS
from .state import Abnormal, ClocktowerState, Seat
from .walk import Effect, EffectKind, Night, Step
from .walk import impaired_note as _impaired
from .walk import submitted as _submitted

__all__ = ["Effect", "EffectKind", "Step", "lleech_host", "plan_night"]


def _pukka_victims(state: ClocktowerState) -> list[str]:
    return [r.player for r in state.reminders if r.source == "pukka" and "poison" in r.token.lower()]


def lleech_host(state: ClocktowerState) -> str:
    return next((r.player for r in state.reminders if r.source == "lleech" and "poison" in r.token.lower()), "")


class _Night(Night):
    """The walk, with what Sects & Violets' acts (``snv_night``) use of it."""

    def chosen(self, step: Step) -> list[str] | None:
        return _submitted(step)

    def stops(self, seat: Seat, step: Step, what: str) -> bool:
        return _impaired(self, seat, step, what)

    def kill(self, step: Step, target: str, source: str) -> bool:
        """The Demon's kill; whether the target dies of it."""
        _kill(self, step, target, source)
        return any(e.kind == "dies" and e.player == target for e in step.effects)

    def add(self, step: Step, kind: EffectKind, player: str, source: str) -> None:
        step.effects.append(Effect(kind, player, source))


def plan_night(state: ClocktowerState, chars: Characters) -> list[Step]:
    night = _Night(state, chars)
    order = chars.night_order.first_night if state.night == 1 else chars.night_order.other_night
    steps: list[Step] = []
    for character in order:
        for seat in [s for s in state.seats if s.character == character
                     or (s.character == "philosopher" and s.ability == character)]:  # its gained ability
            act = _ACTS.get(character)
            if act is None:
                continue
            step = Step(player=seat.player, character=character, chose=state.night_choices.get(seat.player))
            if not night.alive(seat.player) and not keeps_ability(state, seat):
                step.notes.append("dead before their step: does not act.")
            elif night.changed.get(seat.player, character) != character:
                step.notes.append(f"became the {chars[night.changed[seat.player]].name} earlier tonight: does not "
                                  "act as before.")
            elif seat.player in night.asleep:
                step.notes.append(f"does not wake tonight: the Exorcist, {night.label(night.asleep[seat.player])}, "
                                  "chose them.")
            else:
                for effect in bmr_night.before_step(night, seat, step):  # the Goon's drunkenness comes first
                    step.effects.append(effect)
                    night.apply(step, effect)
                act(night, seat, step)
            for effect in step.effects:
                night.apply(step, effect)
            steps.append(step)
            steps += bmr_night.after_step(night, step)
    host = lleech_host(state) or next((e.player for s in steps for e in s.effects
                                       if e.source == "lleech" and e.kind == "poison"), "")
    for lleech in (s for s in state.seats if s.character == "lleech"):
        if host and not night.alive(host) and night.alive(lleech.player):
            steps.append(_lleech_link(night, lleech, host))
    return steps + haircut_steps(night)


def _lleech_link(night: Night, lleech: Seat, host: str) -> Step:
    """"You die if & only if they are dead" is the Lleech's ability: an impaired Lleech lives on
    (and dies once sober again, at a later check); it counts as failing when the host died tonight."""
    step = Step(player=lleech.player, character="lleech", chose=None)
    why = night.impaired(lleech.player)
    if not why:
        step.effects.append(Effect("dies", lleech.player, "lleech"))
        step.notes.append(f"its host, {night.label(host)}, is dead: the Lleech dies too.")
        return step
    step.notes.append(f"its host, {night.label(host)}, is dead, but the Lleech is impaired ({why}): it does "
                      "not die. Once sober again it dies (at the next execution or kill by day, the day's end or "
                      "the lock).")
    if host in night.dying:
        step.abnormal = f"impaired ({why}): it does not die with its host, {night.label(host)}"
    return step


def _kill(night: Night, step: Step, target: str, source: str) -> None:
    if target in night.safe:
        step.notes.append(f"{night.label(target)} is safe from the Demon tonight (the Monk, "
                          f"{night.label(night.safe[target])}): nobody dies of it.")
        step.abnormal = f"its kill failed on {night.label(target)}, protected by the Monk"
    elif night.safe_soldier(target):
        step.notes.append(f"{night.label(target)} is the Soldier, safe from the Demon: nobody dies of it.")
        step.abnormal = f"its kill failed on the Soldier, {night.label(target)}"
    elif not night.alive(target):
        step.notes.append(f"{night.label(target)} is already dead.")
    else:
        _dies(night, step, target, source)


def _dies(night: Night, step: Step, target: str, source: str) -> None:
    """The Demon's kill: a Soldier who dies of it is one whose ability failed (poisoned or drunk).
    A working Mayor's death is flagged: another player might die instead, the Storytellers' call.
    Bad Moon Rising's protections (the Innkeeper's, the Tea Lady's...) may spare them (``bmr_night``)."""
    if bmr_night.spared(night, step, target, source):
        return
    step.effects.append(Effect("dies", target, source))
    if night.state.seat_of(target).has("mayor") and not night.impaired(target):
        step.notes.append(f"{night.label(target)} is the Mayor: another player might die instead. Proposed: the "
                          "Mayor dies. To have another die instead, `/st revive` the Mayor and `/st kill` them.")
    if night.state.seat_of(target).has("soldier"):
        why = night.impaired(target) or "not working"
        step.failed.append(Abnormal(player=target, why=f"the Soldier, {why}, was killed by the Demon"))


def _pukka(night: Night, seat: Seat, step: Step) -> None:
    """Poison tonight's choice; the previously poisoned player dies, then becomes healthy."""
    if _impaired(night, seat, step, "its choice poisons nobody and the previously poisoned player does not die."):
        return
    chosen = step.chose[0] if step.chose and step.chose != [NO_ONE_TONIGHT] else ""
    if step.chose is None:
        step.notes.append("nothing submitted: nobody new is poisoned.")
    previous = _pukka_victims(night.state)
    if chosen and chosen not in previous:
        if night.safe_soldier(chosen) and night.state.settings.soldier_safe_from_pukka:
            step.notes.append(f"{night.label(chosen)} is the Soldier, safe from the Demon: not poisoned.")
            step.abnormal = f"its poison failed on the Soldier, {night.label(chosen)}"
        else:
            step.effects.append(Effect("poison", chosen, "pukka"))
    for victim in previous:
        if night.alive(victim):
            _dies(night, step, victim, "pukka")
        step.effects.append(Effect("heal", victim, "pukka"))
        if victim == chosen:
            step.notes.append(f"{night.label(victim)} was chosen again: they die and become healthy, and "
                              "nobody is poisoned for tomorrow (your call, if you read it otherwise).")


def _lleech(night: Night, seat: Seat, step: Step) -> None:
    chose = _submitted(step)
    if night.state.night == 1:
        if chose is None:
            step.notes.append("the Lleech has no host: choose one for it (`/st reminder add ... Poisoned lleech`).")
            return
        host = chose[0]
        step.effects.append(Effect("poison", host, "lleech"))
        step.notes.append(f"{night.label(host)} is the Lleech's host.")
        return
    if chose is None or _impaired(night, seat, step, "nobody dies."):
        return
    _kill(night, step, chose[0], "lleech")


def _po(night: Night, seat: Seat, step: Step) -> None:
    chose = _submitted(step)
    if chose is None:
        return
    if chose == [NO_ONE_TONIGHT]:
        step.notes.append("chose no-one: it chooses three players next night.")
        return
    if _impaired(night, seat, step, "nobody dies."):
        return
    for target in chose:
        _kill(night, step, target, "po")


def _thief(night: Night, seat: Seat, step: Step) -> None:
    chose = _submitted(step)
    if chose is None or _impaired(night, seat, step, "no vote counts negatively."):
        return
    step.effects.append(Effect("negative", chose[0], "thief"))


def _waitress(night: Night, seat: Seat, step: Step) -> None:
    chose = _submitted(step)
    if chose is None:
        return
    target = chose[0]
    answer = night.state.waitress_answers.get(target)
    if answer:
        step.notes.append(f"{night.label(target)} agreed: the Waitress learns their character "
                          f"({night.chars[night.state.seat_of(target).character].name}); you may kill either or "
                          "both (`/st kill`).")
    else:
        step.notes.append(f"{night.label(target)} {'refused' if answer is False else 'did not answer'}: nothing happens.")


def _lunatic(night: Night, seat: Seat, step: Step) -> None:
    if step.chose is not None:
        step.notes.append("its choice does nothing (the real Demon was told).")


def _imp(night: Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose a player: they die. If you kill yourself this way, a Minion becomes the
    Imp": the death is here; who becomes the Imp is settled after the walk (``succession``)."""
    chose = _submitted(step)
    if chose is None or _impaired(night, seat, step, "nobody dies."):
        return
    target = chose[0]
    _kill(night, step, target, "imp")
    if target == seat.player and any(e.kind == "dies" for e in step.effects):
        step.notes.append("the Imp chose itself: a living Minion becomes the Imp (see below).")


def _poisoner(night: Night, seat: Seat, step: Step) -> None:
    """"Each night, choose a player: they are poisoned tonight and tomorrow day" (healthy at dusk)."""
    chose = _submitted(step)
    if chose is None or _impaired(night, seat, step, "nobody is poisoned."):
        return
    step.effects.append(Effect("poison", chose[0], "poisoner"))


def _monk(night: Night, seat: Seat, step: Step) -> None:
    """The Monk: "each night*, choose a player (not yourself): they are safe from the Demon tonight"."""
    chose = _submitted(step)
    if chose is None or _impaired(night, seat, step, "nobody is protected."):
        return
    step.effects.append(Effect("safe", chose[0], "monk"))
    step.notes.append(f"{night.label(chose[0])} is safe from the Demon tonight.")


def _bureaucrat(night: Night, seat: Seat, step: Step) -> None:
    """Its choice is read by the tally tomorrow (``tally.tripled``), while the Bureaucrat lives and works."""
    chose = _submitted(step)
    if chose is None or _impaired(night, seat, step, "no vote counts 3 times."):
        return
    step.notes.append(f"{night.label(chose[0])}'s vote counts as 3 votes tomorrow.")


_ACTS: dict[str, Callable[[_Night, Seat, Step], None]] = {
    **bmr_night.acts(_kill), "imp": _imp, "bureaucrat": _bureaucrat, "poisoner": _poisoner, "monk": _monk,
    "pukka": _pukka, "lleech": _lleech, "po": _po, "thief": _thief, "waitress": _waitress, "lunatic": _lunatic,
    **SNV_ACTS, **MADNESS_ACTS, **SWAP_ACTS}
