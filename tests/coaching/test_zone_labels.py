"""Times say which zone they are in whenever someone else in the session reads another
time then: Mia coaches from Berlin, Rita is in New York. One rule (coaching/zones.py)
through one tag (`zoned`), on the session page, the sessions list, the move and cancel
pages and the reminder emails."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.zones import needs_zone, zone_name
from notifications import outbox
from notifications.models import Notification, NotificationKind
from tests.support.factories import one_on_one

# Monday 11 January 2027, 14:30 UTC: 15:30 in Berlin (CET), 09:30 in New York (EST).
START = datetime(2027, 1, 11, 14, 30, tzinfo=UTC)
NOW = START - timedelta(days=3)


def zone(name):
    return ZoneInfo(name)


def test_the_zone_is_named_as_read_on_the_day():
    assert zone_name(START, zone("Europe/Berlin")) == "CET"
    assert zone_name(START + timedelta(days=180), zone("Europe/Berlin")) == "CEST"
    assert zone_name(START, zone("America/New_York")) == "EST"
    assert zone_name(START, zone("Europe/Istanbul")) == "UTC+03"  # no letters for it


def test_a_label_is_needed_only_when_another_clock_reads_another_time():
    berlin, new_york, paris = zone("Europe/Berlin"), zone("America/New_York"), zone("Europe/Paris")
    assert needs_zone(START, berlin, [zone("America/New_York")])
    assert not needs_zone(START, berlin, [paris])  # Paris reads what Berlin reads
    assert not needs_zone(START, new_york, [zone("America/Toronto")])
    assert not needs_zone(START, berlin, [])
    # London and Lisbon share winter time, not an offset all year: the day decides.
    assert not needs_zone(START, zone("Europe/London"), [zone("Europe/Lisbon")])


@pytest.fixture
def apart(org):
    """Mia in Berlin (the factories' zone), Rita in New York."""
    org.rep.time_zone = "America/New_York"
    org.rep.save(update_fields=["time_zone"])
    return org


def page(client, user, path):
    with time_machine.travel(NOW, tick=False):
        client.force_login(user)
        response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, coach_reads, coachee_reads",
    [
        ("/sessions/{}/", "Monday 11 January 2027, 15:30 CET", "Monday 11 January 2027, 09:30 EST"),
        ("/sessions/", "Mon 11 Jan, 15:30 CET", "Mon 11 Jan, 09:30 EST"),
        (
            "/sessions/{}/reschedule/",
            "Monday 11 January, 15:30 CET",
            "Monday 11 January, 09:30 EST",
        ),
        ("/sessions/{}/cancel/", "Monday 11 January, 15:30 CET", "Monday 11 January, 09:30 EST"),
    ],
)
def test_each_reads_their_own_time_with_its_zone(client, apart, path, coach_reads, coachee_reads):
    session = one_on_one(apart.manager, apart.rep, start=START)
    path = path.format(session.pk)
    assert coach_reads in page(client, apart.manager, path)
    if "reschedule" not in path and "cancel" not in path:  # pages for whoever runs it
        assert coachee_reads in page(client, apart.rep, path)


@pytest.mark.django_db
def test_the_coachee_preparing_reads_their_own_zone(client, apart):
    session = one_on_one(apart.manager, apart.rep, start=START)
    assert "Monday 11 January, 09:30 EST" in page(
        client, apart.rep, f"/sessions/{session.pk}/prepare/"
    )


@pytest.mark.django_db
def test_a_moved_session_labels_where_it_was_too(client, apart):
    from coaching.services import session_reschedule

    session = one_on_one(apart.manager, apart.rep, start=START)
    with time_machine.travel(NOW, tick=False):
        session_reschedule(session=session, actor=apart.manager, start=START + timedelta(hours=1))
    body = page(client, apart.manager, f"/sessions/{session.pk}/")
    assert "Monday 11 January 2027, 16:30 CET" in body and "moved from 11 Jan, 15:30 CET" in body


@pytest.mark.django_db
def test_in_one_zone_nothing_is_added(client, org):
    session = one_on_one(org.manager, org.rep, start=START)
    body = page(client, org.manager, f"/sessions/{session.pk}/")
    assert "Monday 11 January 2027, 15:30<" in body and "15:30 CET" not in body


@pytest.mark.django_db
def test_the_sessions_list_costs_the_same_queries_with_the_labels(client, apart):
    for days in range(2):
        one_on_one(apart.manager, apart.rep, start=START + timedelta(days=days))
    with time_machine.travel(NOW, tick=False):
        client.force_login(apart.manager)
        client.get("/sessions/")
        with CaptureQueriesContext(connection) as few:
            client.get("/sessions/")
        for days in range(2, 12):
            one_on_one(apart.manager, apart.rep, start=START + timedelta(days=days))
        with CaptureQueriesContext(connection) as many:
            body = client.get("/sessions/").content.decode()
    assert body.count("15:30 CET") == 12
    assert len(few) == len(many)


@pytest.mark.django_db
def test_the_reminder_email_says_the_zone_when_the_other_reads_another_time(apart):
    session = one_on_one(apart.manager, apart.rep, start=START)
    with time_machine.travel(START - timedelta(hours=20), tick=False):
        for person in (apart.rep, apart.manager):
            Notification.objects.create(
                kind=NotificationKind.UPCOMING, session=session, recipient=person
            )
        outbox.deliver_claimed(outbox.claim())
    sent = {message.to[0]: message for message in mail.outbox}
    to_rita, to_mia = sent[apart.rep.email], sent[apart.manager.email]
    assert "Monday 11 January at 09:30 EST" in to_rita.body
    assert "at 09:30 EST with Mia Manager" in to_rita.subject
    assert "Monday 11 January at 15:30 CET" in to_mia.body
    html = to_mia.alternatives[0][0]
    assert "at 15:30 CET</strong>" in html


@pytest.mark.django_db
def test_the_inbox_line_names_the_zone_too(client, apart):
    session = one_on_one(apart.manager, apart.rep, start=START)
    with time_machine.travel(START - timedelta(hours=20), tick=False):
        Notification.objects.create(
            kind=NotificationKind.UPCOMING, session=session, recipient=apart.rep
        )
    body = page(client, apart.rep, "/me/notifications/")
    assert "1:1 with Mia Manager, Mon 11 Jan, 09:30 EST" in body
