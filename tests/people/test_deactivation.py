"""Deactivating someone ends every way they are signed in, at once — their sign-in
sessions (all of them, found by the person through people/sessions.py), their API
token and their calendar feed — and is audited; the admin site's checkbox and action
go through the same service. A reporting-line change takes effect on the very next
request: nothing caches the chain across requests."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from cadence.models import CalendarFeed
from cadence.services_calendar import calendar_feed_create_or_rotate
from people.models import AuditEvent, SignInSession
from people.services import account_deactivate, reporting_line_change
from people.services_credentials import api_token_rotate
from people.sessions import SessionStore
from tests.support.factories import UserFactory, one_on_one
from tests.support.people_admin import change_form_data


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


@pytest.fixture
def leaver(org):
    """The rep, signed in on two devices, with an API token, a calendar feed and a 1:1."""
    session = one_on_one(org.manager, org.rep, start=timezone.now())
    return {
        "person": org.rep,
        "browsers": [signed_in(org.rep), signed_in(org.rep)],
        "token": api_token_rotate(person=org.rep),
        "feed": calendar_feed_create_or_rotate(person=org.rep).token,
        "session": session,
    }


def _still_signed_in(client) -> bool:
    return client.get("/me/").status_code == 200


@pytest.mark.django_db
def test_each_session_row_knows_whose_it_is_also_after_its_key_changes(org):
    store = SessionStore()
    store[SESSION_KEY] = str(org.rep.pk)
    store.create()
    assert SignInSession.objects.get(session_key=store.session_key).user_id == org.rep.pk
    store.cycle_key()  # as at sign-in and on a password change
    assert SignInSession.objects.get(session_key=store.session_key).user_id == org.rep.pk
    anonymous = SessionStore()
    anonymous["basket"] = 1
    anonymous.create()
    assert SignInSession.objects.get(session_key=anonymous.session_key).user_id is None


@pytest.mark.django_db
def test_deactivating_ends_every_session_the_token_and_the_feed_at_once(org, leaver):
    colleague = signed_in(org.peer)
    assert all(_still_signed_in(b) for b in leaver["browsers"])
    auth = {"HTTP_AUTHORIZATION": f"Token {leaver['token']}"}
    assert Client().get("/api/v1/me/", **auth).status_code == 200
    feed = f"/calendar/{leaver['feed']}.ics"
    assert Client().get(feed).status_code == 200

    ended = account_deactivate(actor=org.admin, person=org.rep, reason="departed")

    assert ended == {"sessions": 2, "api_tokens": 1, "calendar_feeds": 1, "plans_ended": 0}
    assert not SignInSession.objects.filter(user_id=org.rep.pk).exists()
    assert not Token.objects.filter(user=org.rep).exists()
    assert not CalendarFeed.objects.filter(person=org.rep).exists()
    for browser in leaver["browsers"]:
        response = browser.get(f"/sessions/{leaver['session'].pk}/")
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
        assert browser.get("/api/v1/sessions/").status_code in (401, 403)
    assert Client().get("/api/v1/me/", **auth).status_code == 401
    assert Client().get(feed).status_code == 404
    # Nobody else is signed out.
    assert _still_signed_in(colleague)
    event = AuditEvent.objects.get(verb="person.deactivated")
    assert event.actor == org.admin and event.target_id == str(org.rep.pk)
    assert event.data == {
        "reason": "departed",
        "was_active": True,
        "sessions": 2,
        "api_tokens": 1,
        "calendar_feeds": 1,
        "plans_ended": 0,  # on no team keeping a cadence (tests/cadence/test_follow_leaver.py)
    }


@pytest.mark.django_db
def test_a_deactivation_reason_is_a_code_not_words(org):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        account_deactivate(actor=org.admin, person=org.rep, reason="was rude to Mia")
    org.rep.refresh_from_db()
    assert org.rep.is_active


@pytest.mark.django_db
def test_unticking_active_in_the_admin_goes_through_the_service(client, org, leaver):
    client.force_login(org.admin)
    data = change_form_data(org.rep)
    del data["is_active"]
    response = client.post(f"/admin/people/user/{org.rep.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]

    org.rep.refresh_from_db()
    assert not org.rep.is_active
    assert not SignInSession.objects.filter(user_id=org.rep.pk).exists()
    assert not Token.objects.filter(user=org.rep).exists()
    assert not any(_still_signed_in(b) for b in leaver["browsers"])
    event = AuditEvent.objects.get(verb="person.deactivated")
    assert event.actor == org.admin and event.data["reason"] == "unspecified"

    # Ticking it again lets them sign in afresh; nothing of before comes back.
    client.post(f"/admin/people/user/{org.rep.pk}/change/", change_form_data(org.rep))
    org.rep.refresh_from_db()
    assert org.rep.is_active
    assert AuditEvent.objects.filter(verb="person.reactivated", actor=org.admin).exists()
    assert not any(_still_signed_in(b) for b in leaver["browsers"])


@pytest.mark.django_db
def test_the_admin_action_deactivates_through_the_service_but_never_oneself(client, org, leaver):
    client.force_login(org.admin)
    response = client.post(
        "/admin/people/user/",
        {"action": "deactivate_people", "_selected_action": [org.rep.pk, org.admin.pk]},
    )
    assert response.status_code == 302
    org.rep.refresh_from_db()
    org.admin.refresh_from_db()
    assert not org.rep.is_active and org.admin.is_active
    assert not any(_still_signed_in(b) for b in leaver["browsers"])
    assert AuditEvent.objects.filter(verb="person.deactivated").count() == 1


@pytest.mark.django_db
def test_a_reporting_line_change_takes_effect_on_the_next_request(org):
    """The rep moves from Mia's team to Omar's. Mia still sees the 1:1 she ran (she
    was in it) but no longer the rep; Omar sees the rep and the rep's 1:1s from the
    next request on; so does the head above Omar, and the head above Mia no longer sees
    the rep (the 1:1 still, through Mia)."""
    other_head = UserFactory(display_name="Hugo Head")
    reporting_line_change(person=org.other_manager, manager=other_head)
    session = one_on_one(org.manager, org.rep, start=timezone.now())
    old, new = signed_in(org.manager), signed_in(org.other_manager)
    old_head, new_head = signed_in(org.head), signed_in(other_head)
    person, detail = f"/people/{org.rep.pk}/", f"/api/v1/sessions/{session.pk}/"
    assert old.get(person).status_code == 200
    assert new.get(person).status_code == 404
    assert new.get(detail).status_code == 404
    assert new_head.get(detail).status_code == 404
    assert old_head.get(person).status_code == 200

    reporting_line_change(person=org.rep, manager=org.other_manager, actor=org.admin)

    assert old.get(person).status_code == 404
    assert old.get(detail).status_code == 200  # she ran it
    assert new.get(person).status_code == 200
    assert new.get(detail).status_code == 200
    assert new_head.get(detail).status_code == 200
    assert old_head.get(person).status_code == 404
    assert old_head.get(detail).status_code == 200  # Mia, its coach, is still below her
    assert new.get(f"/sessions/{session.pk}/").status_code == 200
