"""Forming a peer pair tells its members through the outbox — by email and in the
app — that an agreement waits for them; nobody who already answered is emailed; the
message names people and the rhythm, never what a pair writes."""

import pytest
from django.core import mail

from notifications import outbox
from notifications.models import (
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationStatus,
)
from peers.services import pair_accept, pair_decline
from tests.support.peers_pairs import form_pair


@pytest.mark.django_db
def test_each_member_is_invited_by_email_and_in_the_app(client, org):
    pair = form_pair(org.manager, org.rep, org.peer)
    rows = Notification.objects.filter(kind=NotificationKind.PAIR_INVITED, pair=pair)
    assert set(rows.values_list("recipient", flat=True)) == {org.rep.pk, org.peer.pk}
    outbox.drain()
    by_person = {message.to[0]: message for message in mail.outbox}
    invite = by_person["rep@example.com"]
    assert invite.subject == "Mia Manager suggests you coach each other: Pavel Peer"
    assert "every 2 weeks on Tuesday at 10:00" in invite.body
    assert f"/peers/{pair.pk}/" in invite.body
    assert "we both" not in invite.body  # the agreement is read on the page, not mailed
    client.force_login(org.rep)
    page = client.get("/me/notifications/").content.decode()
    assert "Invited to a peer pair: formed by Mia Manager" in page
    assert f'href="/peers/{pair.pk}/"' in page


@pytest.mark.django_db
def test_whoever_answered_before_it_was_sent_gets_no_email(org):
    pair = form_pair(org.manager, org.rep, org.peer)
    pair_accept(pair=pair, actor=org.rep)
    pair_decline(pair=pair, actor=org.peer, reason="Not now")
    outbox.drain()
    assert mail.outbox == []
    assert set(Notification.objects.filter(pair=pair).values_list("status", flat=True)) == {
        NotificationStatus.SKIPPED
    }


@pytest.mark.django_db
def test_the_email_can_be_switched_off(org):
    NotificationPreference.objects.create(person=org.rep, email_pair_invited=False)
    form_pair(org.manager, org.rep, org.peer)
    outbox.drain()
    assert [m.to for m in mail.outbox] == [["peer@example.com"]]
