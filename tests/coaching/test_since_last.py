"""The "Since the last 1:1" panel beside a 1:1 (coaching/since_last.py), on the
session page, the coachee's Prepare page and `GET /api/v1/sessions/<id>/since-last/`:
the last held 1:1 and its Will, the coachee's calls since, and how much developmental
feedback came in that the reader may read — for the 1:1's coach and coachee only, each
part through its own visibility rule. (The authorization matrix holds every role's
answer.)"""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from coaching.models import SharedNotes
from coaching.services import session_cancel, session_mark_held
from tests.support.factories import (
    FeedbackFactory,
    FeedbackShareFactory,
    RecordedCallFactory,
    SessionFactory,
    SessionParticipantFactory,
    one_on_one,
)

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # a Wednesday
JSON = {"HTTP_ACCEPT": "application/json"}


def held(org, days_ago: int, will: str = ""):
    when = NOW - timedelta(days=days_ago)
    with time_machine.travel(when, tick=False):
        session = one_on_one(org.manager, org.rep, start=when)
        session_mark_held(session=session, actor=org.manager, held_at=when)
    SharedNotes.objects.filter(session=session).update(will=will)
    return session


@pytest.fixture
def week(org):
    """Rita's 1:1 with Mia a week ago (Will written), another four weeks ago; a 1:1
    cancelled three days ago; this week's tomorrow. Calls: five since last week, one
    before. Feedback to Rita since last week: two developmental from Pavel (one shared
    with Mia), one evaluative from the head, one developmental from Mia herself."""
    held(org, 28, will="Old will")
    last = held(org, 7, will="Ask three open questions before the demo.")
    with time_machine.travel(NOW - timedelta(days=3), tick=False):
        cancelled = one_on_one(org.manager, org.rep, start=NOW - timedelta(days=3))
        session_cancel(session=cancelled, actor=org.manager, reason="forecast_call", note="")
    with time_machine.travel(NOW, tick=False):
        this = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=1))
    for n in range(5):
        RecordedCallFactory(person=org.rep, title=f"Call {n}", call_date=NOW.date() - timedelta(n))
    RecordedCallFactory(person=org.rep, title="Before", call_date=NOW.date() - timedelta(10))
    since = {"created_at": NOW - timedelta(days=2)}
    shared = FeedbackFactory(author=org.peer, recipient=org.rep, **since)
    FeedbackShareFactory(feedback=shared, person=org.manager)
    FeedbackFactory(author=org.peer, recipient=org.rep, **since)
    FeedbackFactory(author=org.head, recipient=org.rep, stream="evaluative", **since)
    FeedbackFactory(author=org.manager, recipient=org.rep, **since)
    FeedbackFactory(author=org.peer, recipient=org.rep, created_at=NOW - timedelta(days=9))
    return type("Week", (), {"last": last, "this": this})


def since_last(client, user, session):
    client.force_login(user)
    with time_machine.travel(NOW, tick=False):
        return client.get(f"/api/v1/sessions/{session.pk}/since-last/", **JSON)


def test_the_coach_reads_the_last_held_1_1_its_will_the_calls_and_what_was_shared(
    client, org, week
):
    data = since_last(client, org.manager, week.this).json()
    assert data["previous"]["id"] == week.last.pk  # not the cancelled one since
    assert data["will"] == "Ask three open questions before the demo."
    assert [c["title"] for c in data["calls"]] == ["Call 0", "Call 1", "Call 2", "Call 3"]
    assert data["more_calls"] is True
    assert data["developmental_feedback"] == 1  # only what Rita shared with Mia


def test_the_coachee_counts_all_her_developmental_feedback_never_the_evaluative(client, org, week):
    data = since_last(client, org.rep, week.this).json()
    assert data["developmental_feedback"] == 3  # Pavel's two and Mia's, not the head's


def test_the_chain_above_and_other_kinds_of_session_get_404(client, org, week):
    assert since_last(client, org.head, week.this).status_code == 404
    assert since_last(client, org.other_manager, week.this).status_code == 404
    with time_machine.travel(NOW, tick=False):
        review = SessionFactory(kind="manager_review")
        SessionParticipantFactory(session=review, person=org.head, role="coach")
        SessionParticipantFactory(session=review, person=org.manager, role="coachee")
    assert since_last(client, org.manager, review).status_code == 404


def test_the_page_shows_it_to_the_coach_and_the_prepare_page_to_the_coachee(client, org, week):
    client.force_login(org.manager)
    with time_machine.travel(NOW, tick=False):
        page = client.get(f"/sessions/{week.this.pk}/").content.decode()
    panel = page.split('id="since-heading"', 1)[1].split("</section>", 1)[0]
    assert "Ask three open questions before the demo." in panel and "Old will" not in panel
    assert "Call 3" in panel and "Call 4" not in panel and "More calls" in panel
    assert "1 shared with you</a> by Rita since then" in panel
    client.force_login(org.rep)
    with time_machine.travel(NOW, tick=False):
        prepare = client.get(f"/sessions/{week.this.pk}/prepare/").content.decode()
    assert "Bring one: the conversation is built around one call." in prepare
    assert "3 new for you</a> since then" in prepare
    client.force_login(org.head)
    with time_machine.travel(NOW, tick=False):
        above = client.get(f"/sessions/{week.this.pk}/").content.decode()
    assert "Since the last 1:1" not in above


def test_before_a_first_1_1_the_fortnight_before_it(client, org):
    RecordedCallFactory(person=org.rep, title="Recent", call_date=NOW.date() - timedelta(13))
    RecordedCallFactory(person=org.rep, title="Too old", call_date=NOW.date() - timedelta(16))
    with time_machine.travel(NOW, tick=False):
        first = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=1))
    data = since_last(client, org.manager, first).json()
    assert data["previous"] is None and data["will"] == ""
    assert datetime.fromisoformat(data["since"]) == NOW - timedelta(days=13)
    assert [c["title"] for c in data["calls"]] == ["Recent"]
    client.force_login(org.manager)
    with time_machine.travel(NOW, tick=False):
        page = client.get(f"/sessions/{first.pk}/").content.decode()
    assert "No 1:1 held together before this one: here are the 14 days before it." in page


def test_a_coach_outside_the_reporting_line_sees_only_what_is_theirs(client, org, week):
    """Omar coaches Rita once (a mentor, not her manager): he does not see her 1:1s with
    Mia, her calls, or what she shared with Mia."""
    with time_machine.travel(NOW, tick=False):
        mentoring = SessionFactory(scheduled_start=NOW + timedelta(days=2))
        SessionParticipantFactory(session=mentoring, person=org.other_manager, role="coach")
        SessionParticipantFactory(session=mentoring, person=org.rep, role="coachee")
    data = since_last(client, org.other_manager, mentoring).json()
    assert (data["previous"], data["calls"], data["developmental_feedback"]) == (None, [], 0)


def test_a_long_will_is_cut_with_an_ellipsis(client, org):
    held(org, 7, will="word " * 100)
    with time_machine.travel(NOW, tick=False):
        this = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=1))
    will = since_last(client, org.manager, this).json()["will"]
    assert len(will) <= 280 and will.endswith("…")


def test_anonymous_answers_still_held_back_are_not_counted(client, org):
    """Mia, coached by Hana, asked her three reports anonymously: one answer is in and
    held back (fewer than three), so her count does not tell her it arrived; once all
    three are in, they count."""
    from feedback.models import Stream
    from feedback.services import feedback_request_answer, feedback_request_create
    from tests.support.factories import UserFactory

    with time_machine.travel(NOW - timedelta(days=14), tick=False):
        last = one_on_one(org.head, org.manager, start=NOW - timedelta(days=14))
        session_mark_held(session=last, actor=org.head, held_at=NOW - timedelta(days=14))
    reports = [org.rep, org.peer, UserFactory(manager=org.manager)]
    with time_machine.travel(NOW - timedelta(days=5), tick=False):
        asked = feedback_request_create(
            requester=org.manager,
            responders=reports,
            due_on=NOW.date(),
            stream=Stream.DEVELOPMENTAL,
            anonymous=True,
        )
        feedback_request_answer(request=asked, responder=reports[0], observation="One")
    with time_machine.travel(NOW, tick=False):
        review = one_on_one(org.head, org.manager, start=NOW + timedelta(days=1))
    assert since_last(client, org.manager, review).json()["developmental_feedback"] == 0
    with time_machine.travel(NOW - timedelta(days=4), tick=False):
        for responder in reports[1:]:
            feedback_request_answer(request=asked, responder=responder, observation="More")
    assert since_last(client, org.manager, review).json()["developmental_feedback"] == 3


def test_the_last_1_1_is_the_last_the_two_held_together(client, org, week):
    """Rita's mentoring 1:1 with Omar two days ago is not Mia's "last 1:1" with her."""
    when = NOW - timedelta(days=2)
    with time_machine.travel(when, tick=False):
        mentoring = SessionFactory(scheduled_start=when, status="held", held_at=when)
        SessionParticipantFactory(session=mentoring, person=org.other_manager, role="coach")
        SessionParticipantFactory(session=mentoring, person=org.rep, role="coachee")
    assert since_last(client, org.manager, week.this).json()["previous"]["id"] == week.last.pk


@pytest.mark.parametrize("weeks", [2, 12])
def test_the_api_costs_the_same_however_long_the_history(client, org, weeks):
    """A held 1:1, a call and a shared item each week before this one: the same queries
    for two weeks of history or twelve (pinned: the sign-in session and the person, the
    session with its notes and its people, the last 1:1, the calls, the feedback)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for n in range(weeks, 0, -1):
        held(org, 7 * n, will=f"Week {n}")
        RecordedCallFactory(person=org.rep, call_date=NOW.date() - timedelta(days=7 * n - 1))
        item = FeedbackFactory(recipient=org.rep, created_at=NOW - timedelta(days=7 * n - 1))
        FeedbackShareFactory(feedback=item, person=org.manager)
    with time_machine.travel(NOW, tick=False):
        this = one_on_one(org.manager, org.rep, start=NOW + timedelta(days=1))
    client.force_login(org.manager)
    path = f"/api/v1/sessions/{this.pk}/since-last/"
    with time_machine.travel(NOW, tick=False):
        client.get(path, **JSON)
        with CaptureQueriesContext(connection) as queries:
            data = client.get(path, **JSON).json()
    assert (data["will"], data["developmental_feedback"]) == ("Week 1", 1)
    assert len(queries) == 7, [q["sql"][:60] for q in queries]
