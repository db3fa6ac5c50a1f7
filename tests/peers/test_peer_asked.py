"""Asking for a peer tells the person's manager through the outbox — by email and in
the app — once, when they first ask; the message names who asked, never what they
wrote; a withdrawn or answered request takes its notification with it; nobody who may
no longer pair them is emailed; the email can be switched off."""

import pytest
from django.core import mail

from notifications import outbox
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
)
from peers.services_requests import peer_request_set, peer_request_withdraw
from people.models import User
from people.services import reporting_line_change

pytestmark = pytest.mark.django_db
NOTE = "ZQASKED the pricing slide, with someone who does it well"


def rows():
    return Notification.objects.filter(kind=NotificationKind.PEER_ASKED)


def test_the_manager_is_told_once_by_email_and_in_the_app(client, org):
    peer_request_set(person=org.rep, note=NOTE)
    peer_request_set(person=org.rep, note="Changed my mind about what")  # no second row
    assert list(rows().values_list("recipient", flat=True)) == [org.manager.pk]
    outbox.drain()
    [email] = mail.outbox
    assert email.to == ["manager@example.com"]
    assert email.subject == "Rita Rep asked for a peer to coach with"
    assert "/peers/new/" in email.body
    assert NOTE not in email.body and "Changed my mind" not in email.body
    assert NOTE not in email.alternatives[0][0]
    client.force_login(org.manager)
    page = client.get("/me/notifications/").content.decode()
    assert "Asked for a peer: Rita Rep" in page and 'href="/peers/new/"' in page
    assert NOTE not in page


def test_withdrawing_takes_the_notification_with_it(org):
    peer_request_set(person=org.rep, note=NOTE)
    peer_request_withdraw(person=org.rep)
    assert not rows().exists()
    peer_request_set(person=org.rep)  # asking again tells the manager again
    assert rows().count() == 1


def test_nobody_without_a_manager_is_told_and_a_former_manager_is_not_emailed(org):
    peer_request_set(person=org.head)
    assert not rows().exists()
    peer_request_set(person=org.rep, note=NOTE)
    reporting_line_change(actor=org.admin, person=org.rep, manager=org.other_manager)
    outbox.drain()
    assert mail.outbox == []
    assert rows().get().status == NotificationStatus.SKIPPED


def test_the_manager_is_the_one_the_database_has_now(org):
    """Not the one on the caller's copy of the person (the demo's, a long request's)."""
    stale = User.objects.get(pk=org.rep.pk)
    reporting_line_change(actor=org.admin, person=org.rep, manager=org.other_manager)
    peer_request_set(person=stale)
    assert list(rows().values_list("recipient", flat=True)) == [org.other_manager.pk]


def test_the_email_can_be_switched_off(org):
    NotificationPreference.objects.create(person=org.manager, email_peer_asked=False)
    peer_request_set(person=org.rep)
    outbox.drain()
    assert mail.outbox == []
    assert rows().get().status == NotificationStatus.SKIPPED  # still in the app
