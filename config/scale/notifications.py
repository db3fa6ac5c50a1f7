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

Everything is sent by email (the seeded people keep the default preferences); about
two in five are opened in the app too, within two days. Not written: escalations,
feedback reminders, pair invitations and team-channel messages — rarer, and their
pages read them the same way."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings

from cadence.engine import iso_week
from cadence.models import Notification, NotificationKind, NotificationStatus
from coaching.models import RUNNING_ROLES, ParticipantRole, SessionParticipant, SessionStatus

from .org import Org
from .sink import Sink

FIELDS = (
    "id",
    "kind",
    "recipient_id",
    "session_id",
    "period",
    "status",
    "attempts",
    "next_attempt_at",
    "sent_at",
    "read_at",
    "created_at",
)
READ = 0.4
RUNS_IT = {*RUNNING_ROLES, ParticipantRole.PEER}
DIGEST_HOUR = 6


class Outbox:
    def __init__(self, sink: Sink, org: Org, *, seed: int):
        self.sink, self.org = sink, org
        self.rng = random.Random(f"{seed}:notifications")
        self.now = org.clock.now
        self.since = self.now - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
        self.ahead = timedelta(hours=settings.CADENCE_REMINDER_HOURS)
        self.rows = sink.table(Notification, FIELDS)
        self.next_id = sink.next_id(Notification)

    def run(self) -> None:
        self._sessions()
        self._digests()

    def _add(self, kind, recipient, session, period, queued: datetime) -> None:
        rng = self.rng
        sent = queued + timedelta(seconds=rng.randint(2, 120))
        read = None
        if rng.random() < READ:
            read = sent + timedelta(minutes=rng.randint(5, 2 * 24 * 60))
            read = read if read < self.now else None
        self.rows.add(
            (
                self.next_id(),
                kind,
                recipient,
                session,
                period,
                NotificationStatus.SENT,
                1,
                queued,
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


def _next_quarter_hour(moment: datetime) -> datetime:
    """When beat's reminder task, every 15 minutes, first finds a session due."""
    past = moment.minute % 15 * 60 + moment.second + moment.microsecond / 1e6
    if not past:
        return moment
    return moment + timedelta(seconds=15 * 60 - past)
