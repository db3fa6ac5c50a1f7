"""The welcome email: a programme admin adds someone and, unless they say not to, a
worker emails them where to sign in and a link to set their password — allauth's own
reset link, which works once; following it they set a password and sign in. It can be
sent again from their page or the API, never to someone deactivated, and the audit
trail records that it was sent, never the link."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from people.models import AuditEvent, User
from people.services import account_create, account_deactivate
from people.welcome import welcome_send

pytestmark = pytest.mark.django_db
NEW = {"display_name": "Priya Raman", "email": "priya@example.com", "time_zone": "UTC"}
LINK = re.compile(r"http://localhost:8000(/accounts/password/reset/key/\S+)")


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def added(admin, django_capture_on_commit_callbacks, **extra):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post("/programme/people/new/", {**NEW, **extra}, follow=True)
    assert response.status_code == 200
    return response, User.objects.get(email="priya@example.com")


def test_someone_added_gets_a_link_that_sets_their_password_and_signs_them_in(
    admin, client, org, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "http://localhost:8000"
    response, priya = added(admin, django_capture_on_commit_callbacks, welcome="on")
    assert "A link to set their password is on its way to priya@example.com." in (
        response.content.decode()
    )
    [message] = mail.outbox
    assert message.to == ["priya@example.com"]
    assert message.subject == "Welcome to Tandem: set your password"
    assert "Adam Admin has added you to Tandem" in message.body
    assert "The link works once, for 3 days" in message.body
    link = LINK.search(message.body).group(1)
    assert link in message.alternatives[0][0]
    event = AuditEvent.objects.get(verb="person.welcomed")
    assert (event.actor, event.target_id, event.data) == (org.admin, str(priya.pk), {})

    client.logout()
    form = client.get(link, follow=True)
    password = "a brand new passphrase 42"
    assert "Set your password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"password1": password, "password2": password}, follow=True
    )
    # Setting it signs them in: they land on their own page, not on a dead end, with
    # one notice that says both (not "Password successfully changed." and "Successfully
    # signed in as Priya Raman." one above the other).
    assert done.redirect_chain[-1][0] == "/me/"
    assert done.wsgi_request.user == priya
    assert [str(m) for m in done.context["messages"]] == [
        "Your password is set, and you are signed in."
    ]
    assert done.content.decode().count('class="message ') == 1
    client.logout()
    signed_in = client.post(
        "/accounts/login/", {"login": "priya@example.com", "password": password}, follow=True
    )
    assert signed_in.redirect_chain[-1][0] == "/me/"
    client.logout()
    used = client.get(link, follow=True).content.decode()
    assert "This link no longer works" in used and "Ask for a new link" in used


def test_changing_a_password_while_signed_in_still_says_just_that(client, org):
    """Only a sign-in that follows a password set from a link merges the two notices."""
    org.rep.set_password("the old passphrase 42")
    org.rep.save()
    client.force_login(org.rep)
    new = "a brand new passphrase 42"
    done = client.post(
        "/accounts/password/change/",
        {"oldpassword": "the old passphrase 42", "password1": new, "password2": new},
        follow=True,
    )
    assert [str(m) for m in done.context["messages"]] == ["Password successfully changed."]


def test_unticked_nobody_is_emailed(admin, django_capture_on_commit_callbacks):
    response, priya = added(admin, django_capture_on_commit_callbacks)
    assert "They sign in with priya@example.com" in response.content.decode()
    assert mail.outbox == [] and not AuditEvent.objects.filter(verb="person.welcomed").exists()


def test_it_is_sent_again_from_their_page_but_never_to_someone_deactivated(
    admin, org, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        again = admin.post(f"/programme/people/{org.rep.pk}/welcome/")
    assert again.status_code == 302 and [m.to for m in mail.outbox] == [["rep@example.com"]]
    account_deactivate(actor=org.admin, person=org.peer, reason="departed")
    with django_capture_on_commit_callbacks(execute=True):
        refused = admin.post(f"/programme/people/{org.peer.pk}/welcome/")
    assert refused.status_code == 400
    assert "Pavel Peer is deactivated: reactivate them first." in refused.content.decode()
    assert len(mail.outbox) == 1


def test_the_worker_sends_nothing_to_someone_deactivated_meanwhile(org):
    priya = account_create(actor=org.admin, **NEW)
    account_deactivate(actor=org.admin, person=priya, reason="departed")
    priya.refresh_from_db()
    assert welcome_send(priya, invited_by=org.admin) is False and mail.outbox == []


def test_the_api_sends_it_when_asked(org, django_capture_on_commit_callbacks):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_login(org.admin)
    with django_capture_on_commit_callbacks(execute=True):
        quiet = api.post("/api/v1/people/", NEW, format="json")
    assert quiet.status_code == 201 and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        sent = api.post(f"/api/v1/people/{quiet.json()['id']}/welcome/")
    assert sent.status_code == 202 and [m.to for m in mail.outbox] == [["priya@example.com"]]
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(
            "/api/v1/people/", {**NEW, "email": "sam@example.com", "welcome": True}, format="json"
        )
    assert created.status_code == 201 and mail.outbox[-1].to == ["sam@example.com"]


def test_only_programme_admins_send_it(org, client_for):
    for who in (org.hr, org.manager, org.rep):
        assert client_for(who).post(f"/programme/people/{org.peer.pk}/welcome/").status_code == 404
    assert mail.outbox == []


def test_everyone_who_never_signed_in_is_welcomed_in_batches(
    admin, org, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr("people.services_people.WELCOME_BATCH", 1)
    User.objects.filter(pk__in=[org.rep.pk, org.peer.pk, org.other_rep.pk]).update(last_login=None)
    User.objects.exclude(pk__in=[org.rep.pk, org.peer.pk, org.other_rep.pk]).update(
        last_login=timezone.now()
    )
    account_deactivate(actor=org.admin, person=org.other_rep, reason="departed")
    tab = admin.get("/programme/people/", {"show": "new"}).content.decode()
    assert "Email all 2 a welcome" in tab and "Olga Outsider" not in tab
    with django_capture_on_commit_callbacks(execute=True) as batches:
        response = admin.post("/programme/people/welcome/", follow=True)
    assert "A welcome email is on its way to 2 people." in response.content.decode()
    assert sorted(m.to[0] for m in mail.outbox) == ["peer@example.com", "rep@example.com"]
    assert len(batches) == 2  # a batch a person, here
    assert AuditEvent.objects.get(verb="people.welcomed").data == {"people": 2}


def test_nobody_left_to_welcome_is_a_400(admin, org):
    User.objects.update(last_login=timezone.now())
    response = admin.post("/programme/people/welcome/")
    assert response.status_code == 400
    assert "Everyone here has signed in at least once" in response.content.decode()
    assert mail.outbox == []


def test_the_programme_page_counts_who_never_signed_in(admin, org):
    User.objects.exclude(pk=org.rep.pk).update(last_login=timezone.now())
    User.objects.filter(pk=org.rep.pk).update(last_login=None)
    page = admin.get("/programme/").content.decode()
    assert '<dt>Never signed in</dt><dd><a href="/programme/people/?show=new">1</a></dd>' in page


# --- a link that still works is not sent again ------------------------------------


def never_signed_in(org, *people):
    User.objects.update(last_login=timezone.now())
    User.objects.filter(pk__in=[p.pk for p in people]).update(last_login=None)


def test_sending_notes_when_so_the_page_says_until_when_the_link_works(admin, org):
    sent_at = datetime(2026, 12, 7, 9, 30, tzinfo=UTC)
    with time_machine.travel(sent_at, tick=False):
        assert welcome_send(org.rep, invited_by=org.admin) is True
    org.rep.refresh_from_db()
    assert org.rep.welcome_sent_at == sent_at
    with time_machine.travel(sent_at + timedelta(days=1), tick=False):
        page = admin.get(f"/programme/people/{org.rep.pk}/").content.decode()
    assert "The last one was sent 7 Dec 2026, 10:30; its link works until 10 Dec, 10:30" in page
    with time_machine.travel(sent_at + timedelta(days=3, seconds=1), tick=False):
        page = admin.get(f"/programme/people/{org.rep.pk}/").content.decode()
    assert "its link has expired" in page


def test_a_backend_that_sends_fewer_notes_nobody(org, monkeypatch):
    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", lambda *a: 0)
    assert welcome_send(org.rep, invited_by=org.admin) is False
    org.rep.refresh_from_db()
    assert org.rep.welcome_sent_at is None


def test_welcoming_everyone_twice_emails_nobody_twice_until_their_links_expire(
    admin, org, django_capture_on_commit_callbacks
):
    never_signed_in(org, org.rep, org.peer)
    start = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert admin.post("/programme/people/welcome/").status_code == 302
        assert len(mail.outbox) == 2
        tab = admin.get("/programme/people/", {"show": "new"}).content.decode()
        assert "a welcome whose link still works" in tab and "a welcome</button>" not in tab
        again = admin.post("/programme/people/welcome/")
    assert again.status_code == 400
    assert "was sent a welcome whose link still works: nobody to welcome" in (
        again.content.decode()
    )
    assert len(mail.outbox) == 2
    assert AuditEvent.objects.filter(verb="people.welcomed").count() == 1

    # One newcomer later: only they are emailed.
    priya = account_create(actor=org.admin, **NEW)
    with time_machine.travel(start + timedelta(hours=1), tick=False):
        tab = admin.get("/programme/people/", {"show": "new"}).content.decode()
        assert "Email a welcome to the 1 without a working link" in tab
        assert "Not sent" in tab and "Sent 7 Dec, 10:00" in tab
        with django_capture_on_commit_callbacks(execute=True):
            admin.post("/programme/people/welcome/")
    assert [m.to for m in mail.outbox[2:]] == [[priya.email]]

    # Three days on, the first two links have expired: they are offered again.
    with time_machine.travel(start + timedelta(days=3, minutes=1), tick=False):
        tab = admin.get("/programme/people/", {"show": "new"}).content.decode()
        assert "Email a welcome to the 2 without a working link" in tab
        assert tab.count("link expired") == 2


def test_the_api_refuses_welcoming_when_every_link_still_works(
    org, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    never_signed_in(org, org.rep)
    api = APIClient()
    api.force_login(org.admin)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/v1/people/welcome/").status_code == 202
    refused = api.post("/api/v1/people/welcome/")
    assert refused.status_code == 400 and "link still works" in str(refused.json())
    assert api.get(f"/api/v1/people/{org.rep.pk}/").json()["welcome_sent_at"] is not None
    assert len(mail.outbox) == 1


def test_the_new_tab_costs_the_same_at_two_sizes(admin, org):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.support.factories import UserFactory

    def queries(n):
        for i in range(n):
            person = UserFactory(manager=org.manager)
            if i % 2:
                welcome_send(person, invited_by=org.admin)
        User.objects.update(last_login=None)
        with CaptureQueriesContext(connection) as captured:
            assert admin.get("/programme/people/", {"show": "new"}).status_code == 200
        return len(captured)

    assert queries(2) == queries(12)
