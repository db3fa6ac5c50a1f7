"""A large outbox for fault tests, and a webhook sink that counts what reaches it.

`queue_backlog` runs in a `manage.py shell` of the app (against the test's own database
copy): people of their own (no preferences, so no quiet hours) with one missed 1:1
each — one "missed" email to its coach, naming the session — and teams of their own
whose channels point at the sink, with "channel test" posts told apart by the path.
Every message can be traced to its row, so a lost or doubled one shows."""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from . import services

BACKLOG_DOMAIN = "backlog.test"
_SCRIPT = """
from datetime import timedelta
from django.utils import timezone
from notifications.models import Notification, NotificationKind, TeamChannel
from coaching.models import CoachingSession, ParticipantRole, SessionParticipant
from people.models import Team, User

now = timezone.now()
coaches = User.objects.bulk_create(
    User(email=f"coach{{i}}@{domain}", display_name=f"Coach {{i:03d}}") for i in range({coaches})
)
reps = User.objects.bulk_create(
    User(email=f"rep{{i}}@{domain}", display_name=f"Rep {{i:05d}}") for i in range({emails})
)
start = lambda i: now - timedelta(days=2, minutes=i % 600)
sessions = CoachingSession.objects.bulk_create(
    CoachingSession(kind="one_on_one", status="missed", scheduled_start=start(i),
                    original_start=start(i), scheduled_end=start(i) + timedelta(minutes=30),
                    duration_minutes=30)
    for i in range({emails})
)
SessionParticipant.objects.bulk_create(
    SessionParticipant(session=s, person=person, role=role, scheduled_start=s.scheduled_start,
                       speaking_order=order)
    for i, s in enumerate(sessions)
    for person, role, order in [(coaches[i % {coaches}], ParticipantRole.COACH, 0),
                                (reps[i], ParticipantRole.COACHEE, 1)]
)
teams = Team.objects.bulk_create(Team(name=f"Backlog team {{i}}") for i in range({teams}))
TeamChannel.objects.bulk_create(
    TeamChannel(team=t, webhook_url=f"{sink}/team/{{t.pk}}") for t in teams
)
Notification.objects.bulk_create(
    [Notification(kind=NotificationKind.MISSED, session=s, recipient=coaches[i % {coaches}],
                  next_attempt_at=now) for i, s in enumerate(sessions)]
    + [Notification(kind=NotificationKind.CHANNEL_TEST, team=t, period=f"backlog-{{k}}",
                    next_attempt_at=now) for t in teams for k in range({posts_per_team})]
)
print(",".join(str(t.pk) for t in teams))
"""


def queue_backlog(
    env: dict, *, emails: int, teams: int, posts_per_team: int, sink: str, coaches: int = 40
) -> list[int]:
    """Queue `emails` missed-session emails and `teams` x `posts_per_team` webhook
    posts, all due now; the teams' ids."""
    script = _SCRIPT.format(
        domain=BACKLOG_DOMAIN, coaches=coaches, emails=emails, teams=teams,
        posts_per_team=posts_per_team, sink=sink,
    )  # fmt: skip
    out = services.manage(env, "shell", "-c", script)
    return [int(pk) for pk in out.strip().splitlines()[-1].split(",")]


def kick_senders(env: dict, messages: int) -> None:
    """Send "drain the outbox" `messages` times, as a burst does (tasks.kick_senders)."""
    services.manage(
        env, "shell", "-c",
        f"from notifications.tasks import send_notifications\n"
        f"for _ in range({messages}): send_notifications.delay()",
    )  # fmt: skip


_SESSION_LINK = re.compile(r"/sessions/(\d+)/")


def backlog_emails(mail_dir: Path) -> Counter:
    """How many times each backlog email went out, by (recipient, session id)."""
    sent = Counter()
    for message in services.sent_mail(mail_dir):
        if message["To"].endswith(f"@{BACKLOG_DOMAIN}"):
            text = next(p for p in message.walk() if p.get_content_type() == "text/plain")
            session = _SESSION_LINK.search(text.get_payload(decode=True).decode()).group(1)
            sent[(message["To"], int(session))] += 1
    return sent


class WebhookSink:
    """An incoming-webhook endpoint on loopback: answers 200 after `delay` seconds (a
    chat service's round trip) and counts the posts by path, and by Idempotency-Key."""

    def __init__(self, delay: float = 0.0):
        self.posts: Counter = Counter()
        self.keys: Counter = Counter()
        self.lock = threading.Lock()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server spelling
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                time.sleep(delay)
                with sink.lock:
                    sink.posts[self.path] += 1
                    sink.keys[self.headers.get("Idempotency-Key")] += 1
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> WebhookSink:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def counts(self) -> Counter:
        with self.lock:
            return Counter(self.posts)
