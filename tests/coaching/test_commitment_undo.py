"""Done or Dropped can be undone in the minute after, on the session page, on the
commitments page and through the API; after that it is refused, saying why. Counts
that a close or an undo changes are sent again with the htmx answer."""

import re
from datetime import datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils import timezone
from rest_framework.test import APIClient

from coaching.models import Commitment
from coaching.selectors import carried_commitments
from coaching.services import commitment_close, commitment_create, commitment_reopen
from tests.support.factories import one_on_one

TOO_LATE = "Too late to undo: closing a commitment can be undone only in the minute after."
HX = {"HTTP_HX_REQUEST": "true"}


def promise(session, actor, text="Open with the customer's goal"):
    return commitment_create(
        session=session,
        actor=actor,
        text=text,
        evidence="Two recorded calls",
        due_on=timezone.localdate() + timedelta(days=14),
    )


@pytest.fixture
def two_sessions(org):
    first = one_on_one(org.manager, org.rep, start=timezone.now() - timedelta(days=7))
    return first, one_on_one(org.manager, org.rep)


def carried_count(body):
    """The agenda's "N open commitments carried forward", sent out of band."""
    found = re.search(r'<p id="carried-count"[^>]*hx-swap-oob="true"[^>]*>([^<]*)</p>', body)
    assert found, body
    return found.group(1)


# --- The service and its one-minute rule ----------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("status, reason", [("done", ""), ("dropped", "No longer selling it")])
def test_closing_is_undone_within_the_minute_and_the_commitment_is_carried_again(
    org, two_sessions, status, reason
):
    first, second = two_sessions
    commitment = promise(first, org.manager)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        commitment_close(
            commitment=commitment, actor=org.rep, status=status, reason=reason, session=second
        )
        clock.shift(timedelta(seconds=59))
        reopened = commitment_reopen(commitment=commitment, actor=org.manager)
    assert (reopened.status, reopened.drop_reason, reopened.closed_at, reopened.closed_in) == (
        "open",
        "",
        None,
        None,
    )
    assert carried_commitments(session=second, viewer=org.manager) == [reopened]


@pytest.mark.django_db
def test_after_the_minute_it_is_refused_saying_why_and_stays_closed(org, two_sessions):
    first, second = two_sessions
    commitment = promise(first, org.manager)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        commitment_close(commitment=commitment, actor=org.rep, status="done", session=second)
        clock.shift(timedelta(seconds=61))
        with pytest.raises(ValidationError) as refused:
            commitment_reopen(commitment=commitment, actor=org.rep)
    assert refused.value.messages[0].startswith(TOO_LATE)
    commitment.refresh_from_db()
    assert commitment.status == "done"


@pytest.mark.django_db
def test_an_open_commitment_has_nothing_to_undo(org, two_sessions):
    commitment = promise(two_sessions[0], org.manager)
    with pytest.raises(ValidationError, match="open already"):
        commitment_reopen(commitment=commitment, actor=org.rep)


@pytest.mark.django_db
def test_someone_who_does_not_see_it_cannot_reopen_it(org, two_sessions):
    commitment = promise(two_sessions[0], org.manager)
    commitment_close(commitment=commitment, actor=org.rep, status="done")
    with pytest.raises(Http404):
        commitment_reopen(commitment=commitment, actor=org.other_manager)


# --- The session page -----------------------------------------------------------------


@pytest.mark.django_db
def test_done_on_the_session_page_offers_undo_and_sends_the_new_count(client, org, two_sessions):
    first, second = two_sessions
    kept = promise(first, org.manager, text="Ask for the budget")
    promise(first, org.manager, text="Send the recap")
    client.force_login(org.manager)
    page = client.get(f"/sessions/{second.pk}/").content.decode()
    assert "2 open commitments carried forward" in page

    done = client.post(
        f"/commitments/{kept.pk}/close/", {"status": "done", "session": second.pk}, **HX
    )
    body = done.content.decode()
    assert done.status_code == 200
    assert carried_count(body) == "1 open commitment carried forward — see below the notes."
    assert '<p class="saved">Marked done: Ask for the budget. Undo is offered' in body
    assert f'action="/commitments/{kept.pk}/reopen/"' in body
    assert 'data-undo-seconds="60"' in body

    undone = client.post(f"/commitments/{kept.pk}/reopen/", {"session": second.pk}, **HX)
    body = undone.content.decode()
    assert undone.status_code == 200
    assert carried_count(body) == "2 open commitments carried forward — see below the notes."
    assert '<p class="saved">Open again: Ask for the budget.</p>' in body


@pytest.mark.django_db
def test_dropping_the_last_carried_one_empties_the_count(client, org, two_sessions):
    first, second = two_sessions
    only = promise(first, org.manager)
    client.force_login(org.rep)
    dropped = client.post(
        f"/commitments/{only.pk}/close/",
        {"status": "dropped", "reason": "Account lost", "session": second.pk},
        **HX,
    )
    body = dropped.content.decode()
    assert carried_count(body) == ""
    assert re.search(r'<p id="carried-count"[^>]* hidden', body)
    assert "Marked dropped: Open with the customer&#x27;s goal." in body


@pytest.mark.django_db
def test_adding_a_commitment_sends_the_count_too(client, org, two_sessions):
    first, second = two_sessions
    promise(first, org.manager)
    client.force_login(org.manager)
    due = (timezone.localdate() + timedelta(days=7)).isoformat()
    data = {"text": "Call the CFO", "evidence": "Invite sent", "due_on": due, "owner": org.rep.pk}
    made = client.post(f"/sessions/{second.pk}/commitments/", data, **HX)
    assert carried_count(made.content.decode()).startswith("1 open commitment carried")


@pytest.mark.django_db
def test_undo_is_gone_after_the_minute_and_a_late_post_says_why(client, org, two_sessions):
    first, second = two_sessions
    commitment = promise(first, org.manager)
    client.force_login(org.manager)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        client.post(
            f"/commitments/{commitment.pk}/close/", {"status": "done", "session": second.pk}, **HX
        )
        clock.shift(timedelta(seconds=61))
        page = client.get(f"/sessions/{second.pk}/").content.decode()
        late = client.post(f"/commitments/{commitment.pk}/reopen/", {"session": second.pk}, **HX)
    assert "/reopen/" not in page
    assert late.status_code == 400
    assert TOO_LATE in late.content.decode()
    commitment.refresh_from_db()
    assert commitment.status == "done"


@pytest.mark.django_db
def test_a_commitment_made_in_the_session_offers_undo_in_its_place(client, org, two_sessions):
    second = two_sessions[1]
    commitment = promise(second, org.manager)
    client.force_login(org.rep)
    done = client.post(
        f"/commitments/{commitment.pk}/close/", {"status": "done", "session": second.pk}, **HX
    )
    assert f'action="/commitments/{commitment.pk}/reopen/"' in done.content.decode()


@pytest.mark.django_db
def test_a_manager_reading_along_is_offered_no_undo(client, org, two_sessions):
    first, second = two_sessions
    commitment = promise(first, org.manager)
    commitment_close(commitment=commitment, actor=org.rep, status="done", session=second)
    client.force_login(org.head)
    assert "/reopen/" not in client.get(f"/sessions/{second.pk}/").content.decode()


# --- The commitments page -------------------------------------------------------------


@pytest.mark.django_db
def test_done_on_the_commitments_page_says_so_with_an_undo(client, org, two_sessions):
    commitment = promise(two_sessions[0], org.manager, text="Ask for the budget")
    client.force_login(org.manager)
    done = client.post(f"/commitments/{commitment.pk}/close/", {"status": "done"})
    assert done.status_code == 302
    assert done["Location"] == f"/commitments/?closed={commitment.pk}"
    page = client.get(done["Location"]).content.decode()
    assert "Marked done: Ask for the budget (Rita Rep)." in page
    assert f'action="/commitments/{commitment.pk}/reopen/"' in page
    assert "1 open, soonest due first" not in page  # the count of my people's open ones

    undone = client.post(f"/commitments/{commitment.pk}/reopen/", follow=True)
    body = undone.content.decode()
    assert "Open again: Ask for the budget" in body
    assert "1 open, soonest due first" in body
    commitment.refresh_from_db()
    assert commitment.status == "open"


@pytest.mark.django_db
def test_a_late_undo_on_the_commitments_page_is_a_400_saying_why(client, org, two_sessions):
    commitment = promise(two_sessions[0], org.manager)
    client.force_login(org.rep)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        client.post(f"/commitments/{commitment.pk}/close/", {"status": "done"})
        clock.shift(timedelta(minutes=2))
        page = client.get(f"/commitments/?closed={commitment.pk}").content.decode()
        late = client.post(f"/commitments/{commitment.pk}/reopen/")
    assert "Marked done" in page and "/reopen/" not in page
    assert late.status_code == 400 and TOO_LATE in late.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["abc", "-1", "1.5", "²", "9" * 40])
def test_a_bad_closed_value_is_a_400_saying_so(client, org, raw):
    client.force_login(org.rep)
    response = client.get("/commitments/", {"closed": raw})
    assert response.status_code == 400
    assert "closed= takes the number of the commitment just closed." in response.content.decode()


@pytest.mark.django_db
def test_closed_names_nothing_the_viewer_may_not_see(client, org, two_sessions):
    commitment = promise(two_sessions[0], org.manager, text="Ask for the budget")
    commitment_close(commitment=commitment, actor=org.rep, status="done")
    client.force_login(org.other_manager)
    page = client.get(f"/commitments/?closed={commitment.pk}")
    assert page.status_code == 200
    assert "Ask for the budget" not in page.content.decode()
    assert client.post(f"/commitments/{commitment.pk}/reopen/").status_code == 404


# --- The API ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_says_until_when_and_reopens_within_the_minute(org, two_sessions):
    commitment = promise(two_sessions[0], org.manager)
    api = APIClient()
    api.force_login(org.rep)
    url = f"/api/v1/commitments/{commitment.pk}/"
    assert api.get(url).json()["undo_until"] is None
    with time_machine.travel(timezone.now(), tick=False) as clock:
        closed = api.post(url + "close/", {"status": "done"}, format="json").json()
        closed_at = Commitment.objects.get(pk=commitment.pk).closed_at
        assert datetime.fromisoformat(closed["undo_until"]) == closed_at + timedelta(minutes=1)
        clock.shift(timedelta(seconds=30))
        reopened = api.post(url + "reopen/")
    assert reopened.status_code == 200
    assert (reopened.json()["status"], reopened.json()["undo_until"]) == ("open", None)


@pytest.mark.django_db
def test_the_api_refuses_a_late_undo_with_a_400_and_an_outsider_with_a_404(org, two_sessions):
    commitment = promise(two_sessions[0], org.manager)
    api = APIClient()
    api.force_login(org.rep)
    url = f"/api/v1/commitments/{commitment.pk}/"
    with time_machine.travel(timezone.now(), tick=False) as clock:
        api.post(url + "close/", {"status": "done"}, format="json")
        clock.shift(timedelta(seconds=61))
        late = api.post(url + "reopen/")
    assert late.status_code == 400
    assert TOO_LATE in str(late.json())
    outsider = APIClient()
    outsider.force_login(org.other_rep)
    assert outsider.post(url + "reopen/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("session, status", [("abc", 400), ("1.5", 400), ("9" * 30, 404)])
def test_a_bad_session_on_undo_is_refused_and_reopens_nothing(
    client, org, two_sessions, session, status
):
    """Not a number: 400; a session that does not exist (or is not theirs): 404."""
    commitment = promise(two_sessions[0], org.manager)
    commitment_close(commitment=commitment, actor=org.rep, status="done")
    client.force_login(org.rep)
    response = client.post(f"/commitments/{commitment.pk}/reopen/", {"session": session})
    assert response.status_code == status
    commitment.refresh_from_db()
    assert commitment.status == "done"
