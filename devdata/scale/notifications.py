"""The outbox at scale: the notifications the engine would have recorded over the
year that NOTIFICATION_RETENTION_DAYS keeps (365 days by default), so the inbox, the
programme admins' outbox and beat's nightly retention have a deployment's rows.

Derived from what the earlier phases wrote, read back in id order (the same seed and
day give the same rows), as the engine's tasks make them:

- "Session reminder" (`reminders_queue`, every 15 minutes): to every participant of a
  session still scheduled CADENCE_REMINDER_HOURS before it started — not one cancelled
  before then — queued in the quarter hour after that moment, sent within a minute or
  two; reminders for sessions starting soon after "now" are sent too, the rest are
  not due yet.
- "Session missed" (`sweep_missed`): to whoever runs each missed session (coach, host,
  manager, both peers) when the sweep marked it.
- The weekly digest (`digests_queue`, Mondays 06:00 UTC): to every manager.
- "Sessions keep being missed" (`sweep_missed`'s escalation): to the coach's manager
  of the time, for each missed session that made it `CADENCE_ESCALATE_AFTER` or more
  missed in a row of its plan.
- "Feedback asked of you" to everyone asked when the request was made, and "feedback
  request due" at 00:35 UTC the day before it is due (beat's hourly run that first
  finds it) to those still waiting then.
- "Invited to a peer pair" to each member but whoever formed it, when it was formed;
  "asked for a peer" to the manager of each person asking.

Each is emailed within a minute or two of being queued, as `notifications.delivery` would:
about one person in eight has changed their preferences (`PREFERENCES`), and a kind
they turned off stays in the app only (skipped); one in quiet hours waits for them to
end in the person's own time zone (deferred; still waiting if that is after "now").
About two in five are opened in the app too, within two days. Not written:
team-channel messages (the admins read them in the admin site alone)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta

from django.conf import settings
from django.db.models import F

from cadence.engine import iso_week
from cadence.models import Occurrence
from coaching.models import RUNNING_ROLES, ParticipantRole, SessionParticipant, SessionStatus
from feedback.models import RequestedResponder
from notifications.delivery import quiet_until
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
)
from peers.models import PairMember, PeerRequest

from .org import Org
from .sink import Sink

FIELDS = (
    "id",
    "kind",
    "recipient_id",
    "session_id",
    "period",
    "plan_id",
    "feedback_request_id",
    "pair_id",
    "peer_request_id",
    "status",
    "attempts",
    "next_attempt_at",
    "sent_at",
    "read_at",
    "created_at",
)
READ = 0.4
# Of the people who have changed their preferences (one in eight), how many turned
# each kind off, and how many keep quiet hours (evenings and nights, their time).
PREFERENCES = 0.12
TURNED_OFF = {
    "email_upcoming": 0.35,
    "email_missed": 0.1,
    "email_escalation": 0.1,
    "email_digest": 0.45,
    "email_feedback": 0.2,
    "email_pair_invited": 0.05,
    "email_peer_asked": 0.1,
    "email_session_changed": 0.05,
    "email_invitations": 0.15,
}
QUIET = 0.5
QUIET_HOURS = ((time(19), time(7)), (time(20), time(8)), (time(18, 30), time(8, 30)))
RUNS_IT = {*RUNNING_ROLES, ParticipantRole.PEER}
DIGEST_HOUR = 6
REMINDED_AT = time(0, 35)  # beat's hourly feedback reminders, the first run of the day


class Outbox:
    def __init__(self, sink: Sink, org: Org, *, seed: int):
        self.sink, self.org = sink, org
        self.rng = random.Random(f"{seed}:notifications")
        self.now = org.clock.now
        self.since = self.now - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
        self.ahead = timedelta(hours=settings.CADENCE_REMINDER_HOURS)
        self.rows = sink.table(Notification, FIELDS)
        self.next_id = sink.next_id(Notification)
        self.preferences = self._preferences(sink)

    def _preferences(self, sink: Sink) -> dict[int, NotificationPreference]:
        """Who changed their preferences and how, written and kept to deliver by."""
        rng, found = self.rng, {}
        fields = ("id", "person_id", *TURNED_OFF, "quiet_from", "quiet_until")
        table, next_id = (
            sink.table(NotificationPreference, fields),
            sink.next_id(NotificationPreference),
        )
        for person in self.org.people:
            if rng.random() >= PREFERENCES:
                continue
            wants = {name: rng.random() >= share for name, share in TURNED_OFF.items()}
            quiet = rng.choice(QUIET_HOURS) if rng.random() < QUIET else (None, None)
            table.add((next_id(), person.id, *wants.values(), *quiet))
            found[person.id] = NotificationPreference(
                person_id=person.id, **wants, quiet_from=quiet[0], quiet_until=quiet[1]
            )
        return found

    def run(self) -> None:
        self._sessions()
        self._digests()
        self._escalations()
        self._feedback()
        self._pairs()
        self._peer_requests()

    def _add(self, kind, recipient, session, period, queued: datetime, **about) -> None:
        rng = self.rng
        sent = queued + timedelta(seconds=rng.randint(2, 120))
        status, attempts, waits = NotificationStatus.SENT, 1, queued
        preference = self.preferences.get(recipient)
        if preference is not None and not preference.wants_email(kind):
            status = NotificationStatus.SKIPPED  # in the app only
        elif (until := quiet_until(preference, self.org.by_id[recipient].tz, sent)) is not None:
            until = until.astimezone(UTC)
            if until < self.now:
                sent = until + timedelta(seconds=rng.randint(2, 120))
            else:
                status, attempts, waits, sent = NotificationStatus.PENDING, 0, until, None
        read = None
        if rng.random() < READ:
            read = (sent or queued) + timedelta(minutes=rng.randint(5, 2 * 24 * 60))
            read = read if read < self.now else None
        self.rows.add(
            (
                self.next_id(),
                kind,
                recipient,
                session,
                period,
                about.get("plan"),
                about.get("feedback_request"),
                about.get("pair"),
                about.get("peer_request"),
                status,
                attempts,
                waits,
                sent,
                read,
                queued,
            )
        )

    def _sessions(self) -> None:
        """Reminders and missed notices, from the sessions of the kept year and those
        whose reminder time has come, each participant once."""
        participants = (
            SessionParticipant.objects.using(self.sink.using)
            .filter(
                session__scheduled_start__gte=self.since + self.ahead,
                session__scheduled_start__lt=self.now + self.ahead,
            )
            .order_by("session_id", "id")
            .values_list(
                "session_id",
                "person_id",
                "role",
                "session__status",
                "session__scheduled_start",
                "session__cancelled_at",
                "session__missed_at",
            )
        )
        for session, person, role, status, start, cancelled, missed in participants.iterator(
            chunk_size=20_000
        ):
            due = start - self.ahead
            if cancelled is None or cancelled > due:
                queued = _next_quarter_hour(due)
                if queued <= self.now:
                    self._add(NotificationKind.UPCOMING, person, session, "", queued)
            if status == SessionStatus.MISSED and role in RUNS_IT and missed >= self.since:
                self._add(NotificationKind.MISSED, person, session, "", missed)

    def _digests(self) -> None:
        monday = self.org.clock.anchor + timedelta(hours=DIGEST_HOUR)
        if monday > self.now:
            monday -= timedelta(weeks=1)
        managers = sorted(p.id for p in self.org.people if p.reports)
        while monday >= self.since:
            for manager in managers:
                self._add(NotificationKind.DIGEST, manager, None, iso_week(monday), monday)
            monday -= timedelta(weeks=1)

    def _escalations(self) -> None:
        """Walks each plan's resolved occurrences in order (from a little before the
        kept year, for the runs already going when it began)."""
        n = settings.CADENCE_ESCALATE_AFTER
        occurrences = (
            Occurrence.objects.using(self.sink.using)
            .filter(slot_start__gte=self.since - timedelta(weeks=4 * n), slot_start__lt=self.now)
            .exclude(session__status=SessionStatus.SCHEDULED)
            .order_by("plan_id", "slot_start")
            .values_list("plan_id", "session_id", "session__status", "session__missed_at",
                         "plan__coach_id")
        )  # fmt: skip
        plan, run = None, 0
        for plan_id, session, status, missed, coach in occurrences.iterator(chunk_size=20_000):
            if plan_id != plan:
                plan, run = plan_id, 0
            run = run + 1 if status == SessionStatus.MISSED else 0
            if run >= n and missed >= self.since:
                boss = self.org.by_id[coach].manager_at(missed)
                if boss is not None:
                    self._add(NotificationKind.ESCALATION, boss, session, "", missed, plan=plan_id)

    def _feedback(self) -> None:
        asked = (
            RequestedResponder.objects.using(self.sink.using)
            .filter(request__created_at__gte=self.since, request__created_at__lt=self.now)
            .order_by("request_id", "id")
            .values_list("request_id", "responder_id", "request__created_at",
                         "request__due_on", "answered_at", "declined_at")
        )  # fmt: skip
        for request, person, made, due_on, answered, declined in asked.iterator(chunk_size=20_000):
            self._add(
                NotificationKind.FEEDBACK_ASKED, person, None, "", made, feedback_request=request
            )
            reminded = datetime.combine(due_on - timedelta(days=1), REMINDED_AT, tzinfo=UTC)
            waiting = all(t is None or t > reminded for t in (answered, declined))
            if made < reminded < self.now and waiting:
                self._add(
                    NotificationKind.FEEDBACK_DUE,
                    person,
                    None,
                    "",
                    reminded,
                    feedback_request=request,
                )

    def _pairs(self) -> None:
        invited = (
            PairMember.objects.using(self.sink.using)
            .filter(pair__created_at__gte=self.since)
            .exclude(person_id=F("pair__created_by_id"))
            .order_by("pair_id", "id")
            .values_list("pair_id", "person_id", "pair__created_at")
        )
        for pair, person, formed in invited.iterator(chunk_size=20_000):
            self._add(NotificationKind.PAIR_INVITED, person, None, "", formed, pair=pair)

    def _peer_requests(self) -> None:
        asking = (
            PeerRequest.objects.using(self.sink.using)
            .order_by("id")
            .values_list("id", "person_id", "created_at")
        )
        for request, person, asked in asking:
            manager = self.org.by_id[person].manager_at(asked)
            if manager is not None:
                self._add(
                    NotificationKind.PEER_ASKED, manager, None, "", asked, peer_request=request
                )


def _next_quarter_hour(moment: datetime) -> datetime:
    """When beat's reminder task, every 15 minutes, first finds a session due."""
    past = moment.minute % 15 * 60 + moment.second + moment.microsecond / 1e6
    if not past:
        return moment
    return moment + timedelta(seconds=15 * 60 - past)
