"""Redis stops while Tandem runs (it is both the cache and the Celery broker): pages,
sign-in and the API keep working, /healthz says "degraded", and what people do
meanwhile still reaches whoever it concerns — the outbox is in PostgreSQL, and beat's
next tick after Redis returns drains it. Nothing is lost."""

from datetime import date, timedelta

import pytest
import requests

from . import services

pytestmark = pytest.mark.faults

ASKED = ["tom.becker@example.com", "grace.liu@example.com"]


def test_pages_keep_working_and_nothing_queued_meanwhile_is_lost(
    cluster, database, redis, mail_dir, tmp_path, processes
):
    env = services.app_env(database_url=cluster.url(database), redis=redis, mail_dir=mail_dir)
    web, base = services.gunicorn(env, tmp_path)
    processes += [web, services.worker(env, tmp_path), services.beat(env, tmp_path)]
    hr = services.signed_in(base, "helen.park@example.com")
    rep = services.signed_in(base, "aisha.bello@example.com")

    redis.stop()
    for session, path in [(hr, "/hr/"), (rep, "/me/"), (rep, "/api/v1/sessions/")]:
        assert session.get(base + path, timeout=30).status_code == 200, path
    services.signed_in(base, "marcus.chen@example.com")  # allauth's rate limiter needs no lock
    health = requests.get(f"{base}/healthz", timeout=10)
    assert (health.status_code, health.json()["status"]) == (200, "degraded")

    ids = [
        row[0]
        for row in cluster.sql(
            "SELECT id FROM people_user WHERE email = ANY(%s)", (ASKED,), database=database
        )
    ]
    due_on = date.today() + timedelta(days=7)
    asked = rep.post(
        f"{base}/api/v1/feedback-requests/",
        json={"responders": ids, "due_on": str(due_on)},
        headers=services.csrf(rep),
        timeout=30,
    )
    assert asked.status_code == 201, asked.text
    request_id = asked.json()["id"]

    def statuses():
        return sorted(
            row[0]
            for row in cluster.sql(
                "SELECT status FROM cadence_notification WHERE feedback_request_id = %s",
                (request_id,),
                database=database,
            )
        )

    assert statuses() == ["pending", "pending"]  # kept, waiting for a worker

    redis.start()
    services.wait_until(
        lambda: statuses() == ["sent", "sent"],
        timeout=100,  # beat sends "drain the outbox" every minute
        what="the notifications queued during the outage sent",
        every=1,
    )
    # The demo's own pending notifications (other requests, reminders, digests) are
    # drained too: count only this request's message, once per responder.
    subject = f"Aisha Bello asks for your feedback, by {due_on.day} {due_on:%b}"
    to = sorted(
        message["To"] for message in services.sent_mail(mail_dir) if message["Subject"] == subject
    )
    assert to == sorted(ASKED)
    services.report("redis", {"notifications_queued_while_down": 2, "sent_after": 2, "lost": 0})
