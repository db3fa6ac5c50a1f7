"""/me/notifications/: a person's own notifications as one line each (kind, session,
people, time — never anyone's words), newest first, fifty a page; "Mark all read";
email preferences with quiet hours. Same queries for three notifications or sixty."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.services import notes_save, private_note_save
from notifications.models import Notification, NotificationKind, NotificationPreference
from people.services import reporting_line_change
from tests.support.factories import SessionFactory, SessionParticipantFactory, one_on_one

PEOPLE = ["manager", "rep", "head", "other_manager", "peer", "other_rep", "hr", "admin"]
SECRET = "PRIVATE-MARKER-5e6f"
SHARED = "SHARED-NOTES-MARKER-0b1c"


def _notify(kind, recipient, session=None, **kw):
    return Notification.objects.create(kind=kind, recipient=recipient, session=session, **kw)


@pytest.fixture
def session(org):
    s = one_on_one(org.manager, org.rep)
    notes_save(session=s, actor=org.manager, base_version=0, changes={"reality": SHARED})
    private_note_save(session=s, author=org.manager, text=SECRET, base_version=0)
    return s


@pytest.fixture
def inboxes(org, session):
    """An upcoming reminder each for Mia and Rita; a digest for Mia."""
    return {
        "rep": _notify(NotificationKind.UPCOMING, org.rep, session),
        "manager": _notify(NotificationKind.UPCOMING, org.manager, session),
        "digest": _notify(NotificationKind.DIGEST, org.manager, period="2026-W47"),
    }


# --- Whose --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_everyone_sees_their_own_notifications_and_nobody_elses(client, org, inboxes, who):
    client.force_login(getattr(org, who))
    response = client.get("/me/notifications/")
    assert response.status_code == 200
    page = response.content.decode()
    lines = page.count("<li>\n      <time")
    assert lines == {"rep": 1, "manager": 2}.get(who, 0), who
    if who == "rep":
        assert "Session tomorrow: 1:1 with Mia Manager" in page
    if who == "manager":
        assert "Session tomorrow: 1:1 with Rita Rep" in page
        assert "Weekly digest for the week 2026-W47" in page
    assert SECRET not in page and SHARED not in page


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, inboxes):
    for path in ["/me/notifications/"]:
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    response = client.post("/me/notifications/read/", {"up_to": inboxes["rep"].pk})
    assert response.status_code == 302
    assert not Notification.objects.filter(read_at__isnull=False).exists()


@pytest.mark.django_db
def test_a_line_links_to_the_session_only_while_the_person_may_see_it(client, org, session):
    escalation = _notify(NotificationKind.ESCALATION, org.head, session)
    client.force_login(org.head)
    page = client.get("/me/notifications/").content.decode()
    assert f'href="/sessions/{session.pk}/"' in page
    # Mia no longer reports to Hana: the escalation stays in Hana's list, without a way in.
    reporting_line_change(person=org.manager, manager=None)
    page = client.get("/me/notifications/").content.decode()
    assert f'href="/sessions/{session.pk}/"' not in page
    assert "Rita Rep" not in page
    assert "Sessions keep being missed: 1:1 on" in page
    assert escalation.pk


@pytest.mark.django_db
def test_an_escalation_names_the_plans_people(client, org, session, weekly_plan):
    _notify(NotificationKind.ESCALATION, org.head, session, plan=weekly_plan())
    client.force_login(org.head)
    page = client.get("/me/notifications/").content.decode()
    # The run (none recorded here) and the place to act: Rita's coaching history.
    assert "Sessions keep being missed: Rita Rep&#x27;s 1:1s with Mia Manager missed again" in page
    assert f'href="/people/{org.rep.pk}/#h-heading"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sent", "starts", "said"),
    [
        # Rita is in Berlin: her calendar day decides, not UTC's.
        ("2026-03-04 12:59", "2026-03-04 13:00", "Session today"),
        ("2026-03-04 22:30", "2026-03-05 09:00", "Session tomorrow"),  # 23:30 → 10:00
        ("2026-03-04 10:00", "2026-03-04 23:30", "Session tomorrow"),  # 00:30 next day
        ("2026-03-04 09:00", "2026-03-06 08:00", "Session coming up"),  # a 48-hour window
    ],
)
def test_a_reminder_says_when_the_session_was_as_of_its_sending(client, org, sent, starts, said):
    utc = ZoneInfo("UTC")
    at = datetime.fromisoformat(sent).replace(tzinfo=utc)
    with time_machine.travel(at, tick=False):
        session = one_on_one(
            org.manager, org.rep, start=datetime.fromisoformat(starts).replace(tzinfo=utc)
        )
        _notify(NotificationKind.UPCOMING, org.rep, session)
    client.force_login(org.rep)
    with time_machine.travel(at + timedelta(days=3), tick=False):  # read days later
        page = client.get("/me/notifications/").content.decode()
    assert f"{said}: 1:1 with Mia Manager" in page


@pytest.mark.django_db
def test_a_reminder_about_a_session_no_longer_theirs_says_when_too(client, org):
    at = datetime(2026, 3, 4, 12, 0, tzinfo=ZoneInfo("UTC"))
    with time_machine.travel(at, tick=False):
        session = one_on_one(org.manager, org.rep, start=at + timedelta(hours=2))
        _notify(NotificationKind.UPCOMING, org.other_rep, session)  # not in it (any more)
    client.force_login(org.other_rep)
    page = client.get("/me/notifications/").content.decode()
    assert "Session today: 1:1 on Wed 4 Mar, 15:00" in page  # Berlin time
    assert f'href="/sessions/{session.pk}/"' not in page and "Rita Rep" not in page


@pytest.mark.django_db
def test_nav_has_notifications_for_everyone(client, org):
    client.force_login(org.hr)
    assert b'href="/me/notifications/"' in client.get("/me/").content


# --- Reading ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_mark_all_read_marks_what_was_shown_and_only_ones_own(client, org, inboxes, session):
    client.force_login(org.manager)
    page = client.get("/me/notifications/").content.decode()
    newest = max(inboxes["manager"].pk, inboxes["digest"].pk)
    assert f'name="up_to" value="{newest}"' in page
    arrived_since = _notify(NotificationKind.MISSED, org.manager, session)
    response = client.post("/me/notifications/read/", {"up_to": newest})
    assert response.status_code == 302
    read = set(Notification.objects.filter(read_at__isnull=False).values_list("pk", flat=True))
    assert read == {inboxes["manager"].pk, inboxes["digest"].pk}
    assert arrived_since.pk not in read and inboxes["rep"].pk not in read


@pytest.mark.django_db
def test_marking_someone_elses_ids_touches_nothing(client, org, inboxes):
    client.force_login(org.other_rep)
    response = client.post("/me/notifications/read/", {"up_to": inboxes["rep"].pk + 100})
    assert response.status_code == 302
    assert not Notification.objects.filter(read_at__isnull=False).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("up_to", ["", "abc", "0", "-3"])
def test_mark_read_without_a_proper_id_is_400(client, org, inboxes, up_to):
    client.force_login(org.manager)
    response = client.post("/me/notifications/read/", {"up_to": up_to})
    assert response.status_code == 400
    assert b"Nothing to mark read" in response.content
    assert not Notification.objects.filter(read_at__isnull=False).exists()


@pytest.mark.django_db
def test_newest_first_fifty_a_page(client, org):
    sessions = _sessions_for(org.rep, 60)
    rows = [_notify(NotificationKind.MISSED, org.rep, s) for s in sessions]
    Notification.objects.filter(pk=rows[0].pk).update(
        created_at=timezone.now() + timedelta(minutes=1)
    )
    client.force_login(org.rep)
    first = client.get("/me/notifications/").content.decode()
    assert first.count("<li>\n      <time") == 50
    assert first.index(f'href="/sessions/{sessions[0].pk}/"') < first.index(
        f'href="/sessions/{sessions[59].pk}/"'
    )
    assert "Page 1 of 2" in first and 'href="?page=2">Older</a>' in first
    second = client.get("/me/notifications/?page=2").content.decode()
    assert second.count("<li>\n      <time") == 10
    assert 'href="?page=1">Newer</a>' in second
    bad = client.get("/me/notifications/?page=zzz")
    assert bad.status_code == 400
    assert "Give a page number: a whole number from 1." in bad.content.decode()
    assert "Page 1 of 2" in bad.content.decode()
    assert "Page 2 of 2" in client.get("/me/notifications/?page=9").content.decode()


# --- Preferences --------------------------------------------------------------------


@pytest.mark.django_db
def test_preferences_are_saved_for_the_person(client, org):
    client.force_login(org.rep)
    response = client.post(
        "/me/notifications/preferences/",
        {
            "email_upcoming": "on",
            "email_digest": "on",
            "quiet_from": "20:00",
            "quiet_until": "07:30",
        },
    )
    assert response.status_code == 302
    preference = NotificationPreference.objects.get(person=org.rep)
    assert (preference.email_upcoming, preference.email_missed, preference.email_digest) == (
        True,
        False,
        True,
    )
    assert (preference.quiet_from, preference.quiet_until) == (time(20, 0), time(7, 30))
    page = client.get("/me/notifications/").content.decode()
    assert 'name="quiet_from" value="20:00"' in page
    # Saving again updates the same row.
    client.post("/me/notifications/preferences/", {"email_missed": "on"})
    assert NotificationPreference.objects.filter(person=org.rep).count() == 1
    preference.refresh_from_db()
    assert (preference.email_missed, preference.quiet_from) == (True, None)


MANAGER_KINDS = ("email_escalation", "email_digest", "email_peer_asked")


@pytest.mark.django_db
def test_only_someone_with_reports_is_offered_the_kinds_only_managers_receive(client, org):
    """Digests, escalations and peer requests go to managers alone; a rep is offered
    what can reach them: reminders, misses (of a peer session they run), feedback asked
    of them, peer pair invitations."""
    client.force_login(org.rep)
    rep_page = client.get("/me/notifications/").content.decode()
    for name in MANAGER_KINDS:
        assert f'name="{name}"' not in rep_page, name
    for name in ("email_upcoming", "email_missed", "email_feedback", "email_pair_invited"):
        assert f'name="{name}"' in rep_page, name
    assert "weekly digests" not in rep_page
    client.force_login(org.manager)
    manager_page = client.get("/me/notifications/").content.decode()
    for name in MANAGER_KINDS:
        assert f'name="{name}"' in manager_page, name


@pytest.mark.django_db
def test_a_reps_save_keeps_the_manager_kinds_for_the_day_they_manage_someone(client, org):
    NotificationPreference.objects.create(person=org.rep, email_digest=False)
    client.force_login(org.rep)
    response = client.post("/me/notifications/preferences/", {"email_upcoming": "on"})
    assert response.status_code == 302
    preference = NotificationPreference.objects.get(person=org.rep)
    assert (preference.email_upcoming, preference.email_missed) == (True, False)
    # What they never saw is as it was: the digest off, escalations and peer requests on.
    assert (
        preference.email_digest,
        preference.email_escalation,
        preference.email_peer_asked,
    ) == (False, True, True)
    reporting_line_change(person=org.other_rep, manager=org.rep, actor=org.admin)
    page = client.get("/me/notifications/").content.decode()
    assert 'name="email_escalation" id="id_email_escalation" checked' in page
    assert 'name="email_digest" id="id_email_digest">' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"quiet_from": "22:00"}, "Quiet hours need a start and an end."),
        ({"quiet_until": "06:00"}, "Quiet hours need a start and an end."),
        ({"quiet_from": "22:00", "quiet_until": "22:00"}, "must end at a different time"),
        ({"quiet_from": "26:00", "quiet_until": "06:00"}, "Enter a valid time"),
    ],
)
def test_bad_quiet_hours_are_400_and_save_nothing(client, org, data, message):
    NotificationPreference.objects.create(person=org.rep, email_digest=False)
    client.force_login(org.rep)
    response = client.post("/me/notifications/preferences/", {"email_upcoming": "on", **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    preference = NotificationPreference.objects.get(person=org.rep)
    assert (preference.email_upcoming, preference.quiet_from, preference.quiet_until) == (
        True,
        None,
        None,
    )
    assert preference.email_digest is False


# --- Query count -----------------------------------------------------------------------


def _sessions_for(person, n):
    sessions = []
    for i in range(n):
        s = SessionFactory(scheduled_start=timezone.now() + timedelta(days=1, minutes=i))
        SessionParticipantFactory(session=s, person=person, role="coachee")
        SessionParticipantFactory(session=s, role="coach")
        sessions.append(s)
    return sessions


def _queries(client, person):
    client.force_login(person)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/me/notifications/")
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_the_page_costs_the_same_queries_for_three_notifications_or_sixty(client, org):
    for s in _sessions_for(org.rep, 3):
        _notify(NotificationKind.UPCOMING, org.rep, s)
    few = _queries(client, org.rep)
    for s in _sessions_for(org.rep, 57):
        _notify(NotificationKind.MISSED, org.rep, s)
    many = _queries(client, org.rep)
    # session, user, count, page rows, their sessions' people, who is below them and
    # which sessions are still visible, unread count, preferences, roles (nav), the
    # header's unread count.
    assert few == many == 11


@pytest.mark.django_db
@pytest.mark.parametrize("walk_from", [0, 1000])  # each session checked, or all gathered
def test_from_above_the_lines_check_the_pages_sessions_one_by_one(
    client, org, monkeypatch, walk_from
):
    """The head of 10,000 people may see a million sessions: which of a page's fifty
    they may still see is checked session by session, not by gathering them all (1.4 s
    → 56 ms there). Either way, the same lines: a session no longer theirs has none."""
    from coaching import models as coaching_models

    monkeypatch.setattr(coaching_models, "WALK_FROM_PEOPLE_BELOW", walk_from)
    theirs = one_on_one(org.head, org.manager)
    below = one_on_one(org.manager, org.rep)
    peers = SessionFactory(kind="peer")
    SessionParticipantFactory(session=peers, person=org.rep, role="peer")
    for s in (theirs, below, peers):
        _notify(NotificationKind.MISSED, org.head, s)
    client.force_login(org.head)
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/me/notifications/").content.decode()
    assert f"/sessions/{theirs.pk}/" in page and f"/sessions/{below.pk}/" in page
    assert f"/sessions/{peers.pk}/" not in page  # a peer session stays with the peers
    check = next(
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith('SELECT "coaching_coachingsession"."id"')
    )
    assert ("UNION" in check) == (walk_from == 1000), check
