"""The demo's audit trail before today: what Programme → Audit log shows a programme
admin about the last six weeks — sign-ins on working mornings from the office's
addresses, two failed ones, Helen turning on two-factor and downloading cadence
health, Daniel reading and downloading his managers' evaluative feedback, a rep
downloading her own data, a manager's calendar address. Written once, as rows dated in
the past (the services date what they write now); the verbs and data are those the
services write (docs/security.md), never any words."""

import random
import zoneinfo
from datetime import datetime, time, timedelta

from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from devdata.demo.people import ADMIN, HEAD, HR, TEAMS
from feedback.models import Feedback
from people.models import AuditEvent, Team, User

WEEKS = 6
OFFICE = "10.20.{}.{}"  # the office's addresses, as the proxy passes them on


def seed_audit_history(people: dict[str, User]) -> str:
    today = timezone.localdate()
    if AuditEvent.objects.filter(verb="auth.signed_in", at__date__lt=today).exists():
        return "Audit trail already has its history — left as it is."
    rng = random.Random(7)
    sign_ins = _sign_ins(people, today, rng)
    events = sign_ins + _the_rest(people, today, rng)
    AuditEvent.objects.bulk_create(events, batch_size=500)
    _last_logins(sign_ins)
    return f"Audit trail: {len(events)} events over the last {WEEKS} weeks."


def _last_logins(sign_ins: list[AuditEvent]) -> None:
    """Each person's last sign-in as the trail has it, so "Never signed in" on the
    programme page agrees with the audit log (and nobody is welcomed twice)."""
    latest: dict[int, datetime] = {}
    for event in sign_ins:
        if event.actor_id:
            latest[event.actor_id] = max(latest.get(event.actor_id, event.at), event.at)
    people = list(User.objects.filter(pk__in=latest, last_login__isnull=True))
    for person in people:
        person.last_login = latest[person.pk]
    User.objects.bulk_update(people, ["last_login"])


def _at(person: User, day, hour: int, minute: int) -> datetime:
    """A moment on `day` at `hour:minute` where `person` works."""
    zone = zoneinfo.ZoneInfo(person.time_zone)
    return timezone.make_aware(datetime.combine(day, time(hour, minute)), zone)


def _ip(rng) -> str:
    return OFFICE.format(rng.randint(1, 9), rng.randint(2, 250))


def _sign_ins(people: dict[str, User], today, rng) -> list[AuditEvent]:
    """Leads, HR and the admin most working mornings; reps two or three a week."""
    leads = {HEAD.key, ADMIN.key, HR.key, *(spec.key for spec in TEAMS.values())}
    events = []
    for offset in range(WEEKS * 7, 0, -1):
        day = today - timedelta(days=offset)
        if day.weekday() >= 5:
            continue
        for key, person in people.items():
            if rng.random() > (0.85 if key in leads else 0.45):
                continue
            moment = _at(person, day, 8 + rng.randint(0, 1), rng.randint(0, 59))
            events.append(_event(person, "auth.signed_in", at=moment, ip=_ip(rng)))
    for days_ago in (23, 9):  # someone mistyped, or tried an address that is not here
        moment = _at(people[HR.key], today - timedelta(days=days_ago), 7, 12)
        events.append(AuditEvent(verb="auth.sign_in_failed", at=moment, ip=_ip(rng)))
    return events


def _the_rest(people: dict[str, User], today, rng) -> list[AuditEvent]:
    helen, daniel = people[HR.key], people[HEAD.key]
    aisha, sofia = people["aisha.bello"], people["sofia.alvarez"]

    def on(person, days_ago, hour=10):
        return _at(person, today - timedelta(days=days_ago), hour, rng.randint(0, 59))

    events = [
        _event(helen, "mfa.added", at=on(helen, 40), ip=_ip(rng), data={"type": "totp"}),
        _event(helen, "mfa.added", at=on(helen, 40), ip=_ip(rng), data={"type": "recovery_codes"}),
        _event(
            helen,
            "dashboards.export",
            at=on(helen, 15, 14),
            ip=_ip(rng),
            data={"table": "teams", "rows": 3, "weeks": 8},
        ),
        _event(
            sofia,
            "calendar_feed.created",
            at=on(sofia, 30, 9),
            ip=_ip(rng),
            data={"rotated": False},
            target=sofia,
        ),
        _event(
            aisha,
            "privacy.data_exported",
            at=on(aisha, 18, 17),
            ip=_ip(rng),
            data={"entries": {"sessions": 11, "commitments": 9, "feedback_received": 6}},
            target=aisha,
        ),
    ]
    team = Team.objects.filter(lead=sofia).first()
    if team is not None:
        events.append(
            _event(
                helen,
                "dashboards.export",
                at=on(helen, 15, 14),
                ip=_ip(rng),
                data={"table": "weeks", "rows": 8, "weeks": 8},
                target=team,
            )
        )
    # Daniel reads his managers' reps' evaluative feedback before a review cycle.
    below = Feedback.evaluative.exclude(author=daniel).exclude(recipient=daniel).order_by("pk")
    read, review_time = list(below[:4]), on(daniel, 12, 16)
    for item in read:
        events.append(
            _event(
                daniel,
                "feedback.evaluative_read",
                at=review_time,
                ip=_ip(rng),
                data={"via": "list"},
                target=item,
            )
        )
    if read:
        events.append(
            _event(
                daniel,
                "feedback.evaluative_export",
                at=review_time,
                ip=_ip(rng),
                data={"filters": {"person_id": None, "from": None, "to": None}, "rows": len(read)},
            )
        )
    return events


def _event(actor, verb, *, at, ip, data=None, target=None) -> AuditEvent:
    return AuditEvent(
        actor=actor,
        verb=verb,
        at=at,
        ip=ip,
        data=data or {},
        target_type=ContentType.objects.get_for_model(target) if target is not None else None,
        target_id=str(target.pk) if target is not None else "",
        target_repr=str(target)[:200] if target is not None else "",
    )
