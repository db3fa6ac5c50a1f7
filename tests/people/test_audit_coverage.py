"""Everything the audit trail promises is written, through the real pages and
endpoints: sign-ins (and failed ones), MFA added and removed, every download (the
data export, a session's calendar file, the review export on page and API), and
evaluative feedback read by someone else (page and API); and no audit event ever
holds a private word — the whole trail is searched after a world full of them has
been read, exported and erased."""

import json

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.utils import timezone
from rest_framework.test import APIClient

from feedback.models import Feedback
from people.erasure import person_erase
from people.models import AuditEvent, User
from tests.support.factories import PASSWORD
from tests.support.people_privacy import NOT_THEIRS, THEIRS, build_world

pytestmark = pytest.mark.django_db


def verbs(**filters) -> list[str]:
    return list(AuditEvent.objects.filter(**filters).order_by("pk").values_list("verb", flat=True))


def sign_in(client, person):
    response = client.post("/accounts/login/", {"login": person.email, "password": PASSWORD})
    assert response.status_code == 302


def test_mfa_added_and_removed_through_the_real_pages_are_audited(
    client, org, django_capture_on_commit_callbacks
):
    EmailAddress.objects.create(user=org.rep, email=org.rep.email, primary=True, verified=True)
    sign_in(client, org.rep)
    # MFA changes ask for the password again.
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    secret = client.session["mfa.totp.secret"]
    code = format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/accounts/2fa/totp/activate/", {"code": code})
    assert response.status_code == 302
    assert "mfa.added" in verbs(actor=org.rep)
    added = AuditEvent.objects.filter(verb="mfa.added")
    assert {e.data["type"] for e in added} == {"totp", "recovery_codes"}
    assert secret not in json.dumps([e.data for e in added])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/accounts/2fa/totp/deactivate/")
    assert response.status_code == 302
    assert "mfa.removed" in verbs(actor=org.rep)


def test_sign_ins_and_failed_ones_are_audited(client, org):
    sign_in(client, org.rep)
    client.logout()
    client.post("/accounts/login/", {"login": org.rep.email, "password": "wrong"})
    assert verbs(verb__startswith="auth.") == ["auth.signed_in", "auth.sign_in_failed"]
    failed = AuditEvent.objects.get(verb="auth.sign_in_failed")
    assert failed.actor is None and "wrong" not in json.dumps(failed.data)


@pytest.fixture
def world(org):
    return build_world(org)


def test_every_download_is_audited(client, world):
    org = world.org
    client.force_login(org.rep)
    assert client.get(f"/sessions/{world.session.pk}/calendar.ics").status_code == 200
    event = AuditEvent.objects.get(verb="calendar.session_downloaded")
    assert event.actor == org.rep and event.data == {"session_id": world.session.pk}
    assert client.get("/me/data/download/").status_code == 200
    assert verbs(verb="privacy.data_exported") == ["privacy.data_exported"]

    client.force_login(org.manager)
    assert client.get("/feedback/reviews/export.csv").status_code == 200
    api = APIClient()
    api.force_authenticate(org.hr)
    assert api.get("/api/v1/feedback-reviews/export.csv").status_code == 200
    exports = AuditEvent.objects.filter(verb="feedback.evaluative_export").order_by("pk")
    assert [e.actor for e in exports] == [org.manager, org.hr]

    client.force_login(org.other_rep)  # not in the session: 404 and nothing recorded
    assert client.get(f"/sessions/{world.session.pk}/calendar.ics").status_code == 404
    assert AuditEvent.objects.filter(verb="calendar.session_downloaded").count() == 1


def test_evaluative_reads_by_others_are_audited_on_pages_and_api(client, world):
    org = world.org
    item = Feedback.evaluative.get(recipient=org.rep)
    client.force_login(org.head)
    assert client.get(f"/feedback/{item.pk}/").status_code == 200
    api = APIClient()
    api.force_authenticate(org.hr)
    assert api.get(f"/api/v1/feedback/{item.pk}/").status_code == 200
    reads = AuditEvent.objects.filter(verb="feedback.evaluative_read", target_id=str(item.pk))
    assert {e.actor for e in reads} == {org.head, org.hr}
    client.force_login(org.rep)  # the recipient's own read is not
    client.get(f"/feedback/{item.pk}/")
    assert not reads.filter(actor=org.rep).exists()


def test_no_audit_event_ever_holds_a_private_word(client, world):
    """Read, export, download and erase everything, then search the whole trail."""
    org = world.org
    for person in (org.rep, org.manager, org.head, org.hr, org.peer):
        client.force_login(person)
        client.get("/me/data/download/")
        client.get("/feedback/reviews/export.csv")
        for item in Feedback.objects.all():
            client.get(f"/feedback/{item.pk}/")
    User.objects.filter(pk=org.rep.pk).update(is_active=False)
    org.rep.refresh_from_db()
    person_erase(actor=org.admin, person=org.rep, dry_run=False)
    trail = json.dumps(
        list(AuditEvent.objects.values("verb", "target_repr", "target_id", "data")),
        default=str,
    )
    assert AuditEvent.objects.count() > 20
    words = {**THEIRS, **NOT_THEIRS}
    assert {what for what, word in words.items() if word in trail} == set()
    assert timezone.now()  # the trail was read after everything above
