from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.models import CoachingSession, Commitment, SharedNotes
from tests.support.factories import RecordedCallFactory, one_on_one


@pytest.mark.django_db
def test_a_stale_notes_save_gets_409_with_both_texts_and_nothing_is_lost(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.rep)
    assert (
        client.post(
            f"/sessions/{session.pk}/notes/",
            {"version": 0, "reality": "Rep's view"},
            HTTP_HX_REQUEST="true",
        ).status_code
        == 200
    )
    client.force_login(org.manager)
    response = client.post(
        f"/sessions/{session.pk}/notes/",
        {"version": 0, "reality": "Coach's view"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "Rep&#x27;s view" in body and "Coach&#x27;s view" in body
    assert SharedNotes.objects.get(session=session).reality == "Rep's view"


@pytest.mark.django_db
def test_too_long_notes_are_refused_with_a_message_and_nothing_saved(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    response = client.post(f"/sessions/{session.pk}/notes/", {"version": 0, "will": "x" * 10_001})
    assert response.status_code == 400
    assert "at most 10000 characters" in response.content.decode()
    assert SharedNotes.objects.get(session=session).version == 0


@pytest.mark.django_db
def test_a_commitment_due_in_the_past_is_refused(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    yesterday = (timezone.localdate() - timedelta(days=2)).isoformat()
    response = client.post(
        f"/sessions/{session.pk}/commitments/",
        {
            "text": "Call the CFO",
            "evidence": "Calendar invite",
            "due_on": yesterday,
            "owner": org.rep.pk,
        },
    )
    assert response.status_code == 400
    assert "The due date is in the past." in response.content.decode()
    assert not Commitment.objects.exists()


@pytest.mark.django_db
def test_a_manager_cannot_start_a_1_on_1_with_someone_outside_their_team(client, org):
    client.force_login(org.manager)
    response = client.post(
        "/sessions/new/?kind=one_on_one",
        {"coachee": org.other_rep.pk, "scheduled_start": "2026-12-01T10:00"},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not CoachingSession.objects.exists()


@pytest.mark.django_db
def test_a_rep_cannot_open_the_managers_kinds_of_session(client, org):
    client.force_login(org.rep)
    assert client.get("/sessions/new/?kind=one_on_one").status_code == 404
    assert client.get("/sessions/new/?kind=peer").status_code == 200


@pytest.mark.django_db
def test_a_manager_plans_logs_and_the_page_nudges_when_nothing_was_written(client, org):
    client.force_login(org.manager)
    start = timezone.localtime(timezone.now(), org.manager.tzinfo) - timedelta(hours=1)
    response = client.post(
        "/sessions/new/?kind=one_on_one",
        {"coachee": org.rep.pk, "scheduled_start": start.strftime("%Y-%m-%dT%H:%M")},
    )
    session = CoachingSession.objects.get()
    assert response["Location"] == f"/sessions/{session.pk}/"
    held = client.post(f"/sessions/{session.pk}/held/", follow=True)
    assert "nothing is written down yet" in held.content.decode()
    session.refresh_from_db()
    assert session.status == "held" and session.held_but_empty


@pytest.mark.django_db
def test_cancelling_needs_a_reason_and_records_it(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    assert client.post(f"/sessions/{session.pk}/cancel/", {"reason": "other"}).status_code == 400
    client.post(f"/sessions/{session.pk}/cancel/", {"reason": "forecast_call"})
    session.refresh_from_db()
    assert (session.status, session.cancel_reason) == ("cancelled", "forecast_call")


@pytest.mark.django_db
@pytest.mark.parametrize("sessions", [3, 15])
def test_the_session_page_costs_the_same_queries_however_long_the_history(client, org, sessions):
    """Held 1:1s and a call a day before this one: "Since the last 1:1" reads the last
    held, the calls since and the feedback since in three queries however many."""
    from coaching.services import session_mark_held

    for i in range(sessions):
        when = timezone.now() - timedelta(days=i + 1)
        past = one_on_one(org.manager, org.rep, start=when)
        session_mark_held(session=past, actor=org.manager, held_at=when)
        RecordedCallFactory(person=org.rep, call_date=when.date())
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    client.get(f"/sessions/{session.pk}/")
    with CaptureQueriesContext(connection) as queries:
        body = client.get(f"/sessions/{session.pk}/").content.decode()
    assert "Since the last 1:1" in body
    count = len(queries)
    # 17: one of them is the coachee's current goal, carried into a 1:1 not yet held;
    # one the header's unread count.
    assert count <= 17, [q["sql"] for q in queries]
    pytest.session_page_queries = getattr(pytest, "session_page_queries", set()) | {count}
    assert len(pytest.session_page_queries) == 1


# Parts of the session page that an htmx save of another part never reads.
OTHER_PARTS = {
    "agenda": ("coaching_sharednotes", "coaching_privatenote", "feedback_feedback"),
    "notes": ("coaching_agendaitem", "coaching_commitment", "coaching_privatenote"),
    "private-note": ("coaching_agendaitem", "coaching_commitment", "feedback_feedback"),
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "part, data, queries",
    [
        ("agenda", {"text": "Pipeline review"}, 11),
        ("notes", {"version": 0, "goal": "Open with a question"}, 13),
        ("private-note", {"version": 0, "text": "Ask about the move"}, 15),
    ],
)
def test_an_htmx_save_reads_only_the_part_it_renders(client, org, part, data, queries):
    """The notes, the agenda, a private note: each saved part comes back alone, so its
    save reads that part, not the whole page (commitments, "since the last 1:1"…)."""
    session = one_on_one(org.manager, org.rep)
    RecordedCallFactory(person=org.rep, call_date=timezone.now().date())
    client.force_login(org.manager)
    client.get(f"/sessions/{session.pk}/")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(f"/sessions/{session.pk}/{part}/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()
    sql = [query["sql"] for query in captured]
    assert not [q for q in sql if any(f'FROM "{table}"' in q for table in OTHER_PARTS[part])]
    assert len(sql) == queries, sql


@pytest.mark.django_db
def test_moving_a_session_moves_its_end_so_the_sweep_follows(org):
    from coaching.services import session_reschedule

    session = one_on_one(org.manager, org.rep)
    later = session.scheduled_start + timedelta(days=2)
    session_reschedule(session=session, actor=org.manager, start=later)
    session.refresh_from_db()
    assert session.scheduled_end == later + timedelta(minutes=30)


@pytest.mark.django_db
@pytest.mark.parametrize("action, words", [("cancel", "cancel it"), ("reschedule", "move it")])
def test_someone_who_sees_but_does_not_run_a_session_is_told_so_and_offered_no_form(
    client, org, action, words
):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.rep)

    page = client.get(f"/sessions/{session.pk}/{action}/")
    sent = client.post(f"/sessions/{session.pk}/{action}/", {"reason": "travel"})

    assert page.status_code == sent.status_code == 403
    body = page.content.decode()
    assert f"Only the person running this session can {words}." in body
    assert 'method="post" class="panel form"' not in body
    session.refresh_from_db()
    assert session.status == "scheduled"


@pytest.mark.django_db
@pytest.mark.parametrize("action, words", [("cancel", "cancelled"), ("reschedule", "moved")])
def test_a_session_no_longer_scheduled_cannot_be_cancelled_or_moved_and_says_why(
    client, org, action, words
):
    from coaching.services import session_mark_held

    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(hours=1))
    session_mark_held(session=session, actor=org.manager)
    client.force_login(org.manager)

    page = client.get(f"/sessions/{session.pk}/{action}/")
    sent = client.post(
        f"/sessions/{session.pk}/{action}/",
        {"reason": "travel", "scheduled_start": "2099-01-05T10:00", "duration_minutes": 30},
    )

    assert (page.status_code, sent.status_code) == (200, 400)
    assert f"Only a scheduled session can be {words}." in sent.content.decode()
    assert f"Only a scheduled session can be {words}." in page.content.decode()
    assert 'method="post" class="panel form"' not in page.content.decode()
    session.refresh_from_db()
    assert session.status == "held"


@pytest.mark.django_db
def test_a_session_ahead_is_not_offered_or_taken_as_held(client, org):
    session = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=5))
    client.force_login(org.manager)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert "Log as held" not in page
    assert "Not started yet" in page and "Move" in page and "Cancel…" in page
    refused = client.post(f"/sessions/{session.pk}/held/")
    assert refused.status_code == 400
    assert "has not started yet" in refused.content.decode()
    session.refresh_from_db()
    assert session.status == "scheduled" and session.held_at is None


@pytest.mark.django_db
def test_a_session_can_be_logged_held_from_the_start_of_its_day_in_the_coachs_zone(client, org):
    """Met in the morning for an afternoon 1:1: it is logged without moving it first.
    The day is the coach's: 15:00 in Berlin opens at midnight Berlin time."""
    org.manager.time_zone = "Europe/Berlin"
    org.manager.save(update_fields=["time_zone"])
    with time_machine.travel(datetime(2026, 3, 16, 9, 0, tzinfo=UTC)):
        session = one_on_one(org.manager, org.rep, start=datetime(2026, 3, 18, 14, tzinfo=UTC))
    client.force_login(org.manager)

    with time_machine.travel(datetime(2026, 3, 17, 22, 59, tzinfo=UTC), tick=False):
        page = client.get(f"/sessions/{session.pk}/").content.decode()
        refused = client.post(f"/sessions/{session.pk}/held/")
    assert "Log as held" not in page and "if you met earlier, move it" in page
    assert refused.status_code == 400
    assert "it is on Wednesday 18 March" in refused.content.decode()

    with time_machine.travel(datetime(2026, 3, 17, 23, 0, tzinfo=UTC), tick=False):
        page = client.get(f"/sessions/{session.pk}/").content.decode()
        logged = client.post(f"/sessions/{session.pk}/held/")
    assert "Met earlier today? Log as held" in page and logged.status_code == 302
    session.refresh_from_db()
    assert session.status == "held"
    assert session.held_at == datetime(2026, 3, 17, 23, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_a_session_under_way_is_offered_as_held(client, org):
    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(minutes=5))
    client.force_login(org.manager)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert "Log as held" in page and "Not started yet" not in page
    assert "Met earlier today?" not in page  # it has started: the plain button


@pytest.mark.django_db
def test_a_session_past_its_start_and_not_logged_reads_the_same_on_every_page(client, org):
    """One wording (`SessionState`) for the session page, the lists and My team's week."""
    session = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(minutes=30))
    client.force_login(org.manager)
    for path in (f"/sessions/{session.pk}/", "/sessions/", f"/people/{org.rep.pk}/"):
        page = client.get(path).content.decode()
        assert "Due, still to log" in page and ">Scheduled<" not in page, path
    ahead = one_on_one(org.manager, org.rep, start=timezone.now() + timedelta(days=1))
    assert ">Scheduled<" in client.get(f"/sessions/{ahead.pk}/").content.decode()


def test_notes_boxes_are_tall_enough_for_what_they_hold():
    import re

    from coaching.forms import NotesForm

    long = "\n".join(f"- option {n}: ask who else needs to say yes" for n in range(9))
    form = NotesForm(initial={"options": long, "will": "", "version": 0})
    rows = lambda name: int(re.search(r'rows="(\d+)"', str(form[name])).group(1))  # noqa: E731
    assert rows("options") >= 9  # every line shown, not clipped to three
    assert rows("will") == 3  # an empty box keeps its size
    assert rows("reality") == 4
    huge = NotesForm(initial={"notes": "word " * 5000, "version": 0})
    assert 'rows="20"' in str(huge["notes"])  # then it scrolls


@pytest.mark.django_db
def test_private_notes_name_the_one_other_person_of_a_1_on_1(client, org):
    session = one_on_one(org.manager, org.rep)
    for reader, other in ((org.rep, org.manager), (org.manager, org.rep)):
        client.force_login(reader)
        page = client.get(f"/sessions/{session.pk}/").content.decode()
        assert f"not {other.get_short_name()}, not your manager" in page
        assert "the others" not in page


@pytest.mark.django_db
def test_the_agenda_tick_and_the_save_line_speak_plainly(client, org):
    from coaching.services import agenda_item_add, notes_save

    session = one_on_one(org.manager, org.rep)
    agenda_item_add(session=session, actor=org.rep, text="The Beacon Hill call")
    client.force_login(org.manager)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert 'aria-label="Mark done: The Beacon Hill call"' in page and 'title="Mark done"' in page
    assert "Tick an item once you have talked it through." in page
    assert "Version 0" not in page and "Last saved" not in page
    notes_save(session=session, actor=org.manager, base_version=0, changes={"will": "Ask"})
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert "Version 1" not in page and "Last saved" in page
    assert 'name="version" value="1"' in page  # the guard against overwriting stays


@pytest.mark.django_db
def test_remove_is_offered_only_on_ones_own_agenda_items_as_the_service_takes_it(client, org):
    from coaching.models import AgendaItem
    from coaching.services import agenda_item_add

    session = one_on_one(org.manager, org.rep)
    item = agenda_item_add(session=session, actor=org.rep, text="The Beacon Hill call")
    remove = f'action="/agenda/{item.pk}/delete/"'
    client.force_login(org.manager)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert 'aria-label="Remove: The Beacon Hill call"' not in page
    refused = client.post(f"/agenda/{item.pk}/delete/")
    assert refused.status_code == 400 and AgendaItem.objects.filter(pk=item.pk).exists()
    client.force_login(org.rep)
    page = client.get(f"/sessions/{session.pk}/").content.decode()
    assert 'aria-label="Remove: The Beacon Hill call"' in page and remove in page


@pytest.mark.django_db
def test_adding_to_the_agenda_or_a_commitment_says_so(client, org):
    """Said in words (read out by the page's live region), not only by a new row."""
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.manager)
    hx = {"HTTP_HX_REQUEST": "true"}
    agenda = client.post(f"/sessions/{session.pk}/agenda/", {"text": "Pipeline review"}, **hx)
    assert '<p class="saved">Added to the agenda.</p>' in agenda.content.decode()
    due = (timezone.localdate() + timedelta(days=7)).isoformat()
    data = {"text": "Call the CFO", "evidence": "Invite sent", "due_on": due, "owner": org.rep.pk}
    made = client.post(f"/sessions/{session.pk}/commitments/", data, **hx)
    assert '<p class="saved">Commitment added.</p>' in made.content.decode()


@pytest.mark.django_db
def test_a_sessions_page_title_says_whose_session_and_when(client, org):
    """Read first by a screen reader, and what tells browser tabs apart."""
    start = timezone.make_aware(datetime(2026, 12, 7, 10, 0))
    session = one_on_one(org.manager, org.rep, start=start)
    client.force_login(org.manager)
    body = client.get(f"/sessions/{session.pk}/").content.decode()
    title = " ".join(body.split("<title>")[1].split("</title>")[0].split())  # as shown
    assert title == "1:1, 7 Dec — Rita Rep · Tandem"
