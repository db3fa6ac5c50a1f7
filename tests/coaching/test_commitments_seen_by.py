"""`open_commitments_seen_by`: for many (viewer, owner) pairs at once — the outbox's
"session tomorrow" reminders of a whole claim — exactly the open commitments that
`Commitment.objects.visible_to(viewer)` lets the viewer see of the owner, in at most
two queries however many pairs."""

import random
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coaching.models import Commitment, CommitmentStatus
from coaching.selectors import open_commitments_seen_by
from people.models import User

DAY = date(2026, 3, 2)


def closed(status: str) -> dict:
    """What a closed commitment carries besides its status."""
    if status == CommitmentStatus.OPEN:
        return {}
    reason = {"drop_reason": "Not relevant any more"} if status == CommitmentStatus.DROPPED else {}
    return {"closed_at": timezone.now(), **reason}


def one_by_visible_to(viewer: User, owner: int, limit: int = 10) -> list[Commitment]:
    return list(
        Commitment.objects.visible_to(viewer)
        .open()
        .filter(owner_id=owner)
        .order_by("due_on", "pk")[:limit]
    )


def random_organisation(rng: random.Random, size: int = 9) -> list[User]:
    """`size` people in a random reporting forest (now and then a loop written
    around the service, or someone deactivated), with open, done and dropped
    commitments written down by the owner, a manager or anyone else."""
    people = User.objects.bulk_create(
        User(email=f"p{i}-{rng.random()}@example.com", display_name=f"P{i}") for i in range(size)
    )
    for i, person in enumerate(people):
        if i and rng.random() < 0.85:
            person.reports_to = people[rng.randrange(i)]  # a tree: always someone earlier
        person.is_active = rng.random() > 0.1
    if rng.random() < 0.2:
        people[0].reports_to = people[-1]  # a loop, as a hand-edited table could have
    User.objects.bulk_update(people, ["reports_to", "is_active"])
    statuses = [CommitmentStatus.OPEN] * 3 + [CommitmentStatus.DONE, CommitmentStatus.DROPPED]
    Commitment.objects.bulk_create(
        Commitment(
            owner=rng.choice(people),
            created_by=rng.choice([*people, None]),
            text=f"Commitment {n}",
            evidence="Seen",
            due_on=DAY + timedelta(days=rng.randrange(-10, 30)),
            status=status,
            **closed(status),
        )
        for n, status in enumerate(rng.choice(statuses) for _ in range(rng.randrange(10, 40)))
    )
    return people


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(12))
def test_every_pair_sees_exactly_what_visible_to_shows_in_at_most_two_queries(seed):
    rng = random.Random(seed)
    people = random_organisation(rng)
    pairs = [(viewer, owner.pk) for viewer in people for owner in people]
    with CaptureQueriesContext(connection) as queries:
        seen = open_commitments_seen_by(pairs, limit=4)
    assert len(queries) <= 2
    assert set(seen) == {(viewer.pk, owner) for viewer, owner in pairs}
    for viewer, owner in pairs:
        assert seen[(viewer.pk, owner)] == one_by_visible_to(viewer, owner, limit=4), (
            viewer.pk,
            owner,
        )


@pytest.mark.django_db
def test_the_reminders_own_case_coachee_manager_and_a_coach_from_another_line(org):
    def commit(owner, text, due, created_by=None, status=CommitmentStatus.OPEN):
        return Commitment.objects.create(
            owner=owner,
            text=text,
            evidence="Seen",
            due_on=DAY + timedelta(days=due),
            created_by=created_by,
            status=status,
            **closed(status),
        )

    later = commit(org.rep, "Later", 9, created_by=org.manager)
    sooner = commit(org.rep, "Sooner", 2, created_by=org.rep)
    theirs = commit(org.rep, "From Omar", 5, created_by=org.other_manager)
    commit(org.rep, "Done", 1, status=CommitmentStatus.DONE)
    commit(org.rep, "Dropped", 1, status=CommitmentStatus.DROPPED)
    commit(org.peer, "Pavel's", 1, created_by=org.manager)

    seen = open_commitments_seen_by(
        [
            (org.rep, org.rep.pk),  # the coachee
            (org.manager, org.rep.pk),  # the coachee's manager
            (org.head, org.rep.pk),  # higher up the line
            (org.other_manager, org.rep.pk),  # coaching across lines: what they wrote
            (org.peer, org.rep.pk),  # a colleague: nothing
        ]
    )
    assert seen[(org.rep.pk, org.rep.pk)] == [sooner, theirs, later]
    assert seen[(org.manager.pk, org.rep.pk)] == [sooner, theirs, later]
    assert seen[(org.head.pk, org.rep.pk)] == [sooner, theirs, later]
    assert seen[(org.other_manager.pk, org.rep.pk)] == [theirs]
    assert seen[(org.peer.pk, org.rep.pk)] == []

    User.objects.filter(pk=org.manager.pk).update(is_active=False)
    org.manager.refresh_from_db()
    assert open_commitments_seen_by([(org.manager, org.rep.pk)]) == {
        (org.manager.pk, org.rep.pk): []
    }


@pytest.mark.django_db
def test_no_pairs_no_queries():
    with CaptureQueriesContext(connection) as queries:
        assert open_commitments_seen_by([]) == {}
    assert len(queries) == 0
