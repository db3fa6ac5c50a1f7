"""Shared set-up for the learning loop's tests (experiments, the library, playbooks):
two teams on the `org` fixture, a peer pair, and small helpers that go through the
real services. A module that needs the teams makes its own `teams` fixture from `make_teams`."""

from datetime import time

from django.utils import timezone
from rest_framework.test import APIClient

from learning.services import experiment_create, experiment_finish, learning_publish
from peers.models import PairMember, PeerPair
from people.services_teams import team_create, team_member_add

# The owner and the people above them; everyone else on `org` (HR and the programme
# admin report to the head, but not through the rep's line).
CHAIN = ["rep", "manager", "head"]
NOT_IN_CHAIN = ["peer", "other_manager", "other_rep", "hr", "admin"]


def make_teams(org):
    """Mia's team (lead: the manager; the rep and the peer on it) and Omar's team
    (lead: the other manager; the other rep on it)."""
    mine = team_create(name="Mia's team", lead=org.manager)
    for person in (org.rep, org.peer):
        team_member_add(team=mine, person=person)
    other = team_create(name="Omar's team", lead=org.other_manager)
    team_member_add(team=other, person=org.other_rep)
    return type("Teams", (), {"mine": mine, "other": other})


def make_pair(*people, created_by=None) -> PeerPair:
    """A live pair of `people` (rows made directly: the pairs' own services are not
    what these tests are about)."""
    pair = PeerPair.objects.create(
        rationale="similar",
        agreement_text="Confidentiality, candour, respect.",
        weekday=2,
        local_time=time(10, 0),
        time_zone="Europe/Berlin",
        created_by=created_by or people[0],
        started_at=timezone.now(),
    )
    for person in people:
        PairMember.objects.create(pair=pair, person=person, accepted_at=timezone.now())
    return pair


def plan(owner, **extra):
    extra.setdefault("hypothesis", "Asking before telling gets buy-in")
    extra.setdefault("test", "Open my next three calls with the recommendation")
    return experiment_create(owner=owner, **extra)


def finished(experiment, result="Two of three calls stayed on track"):
    return experiment_finish(experiment=experiment, actor=experiment.owner, result=result)


def publish(author, **extra):
    extra.setdefault("kind", "learning")
    extra.setdefault("title", "Silence after the price")
    extra.setdefault("body", "Three seconds of silence after the number: fewer discounts.")
    extra.setdefault("audience", "organisation")
    return learning_publish(author=author, **extra)


def api(user=None) -> APIClient:
    """An API client, signed in as `user` (or nobody)."""
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client
