"""What the dashboards keep in the shared cache (HR's snapshots and page bodies, the
managers below, who is below someone, drawn rows) holds no one's password hash: a
snapshot of the install plans once carried every team lead's whole user row."""

import pickle

import pytest

from people.models import User
from tests.support.dashboards_hr import build

pytestmark = pytest.mark.django_db

AS_HR = ["/hr/", "/hr/skills/", "/hr/feedback/", "/hr/peers/", "/rollout/"]
AS_HEAD = ["/team/", "/team/skills/", "/api/v1/dashboards/managers/"]


def test_nothing_kept_holds_a_password_hash(client, org, kept):
    world = build(org)
    client.force_login(org.hr)
    for path in [*AS_HR, f"/hr/teams/{world.team_a.pk}/"]:
        assert client.get(path).status_code == 200, path
    client.force_login(org.head)
    for path in AS_HEAD:
        assert client.get(path).status_code == 200, path

    everything = b"".join(pickle.dumps(value) for value in kept)
    assert b"rollout" in everything and b"CoachRow" in everything  # the snapshots were kept
    hashes = [p.encode() for p in User.objects.values_list("password", flat=True) if p]
    assert hashes and not [h for h in hashes if h in everything]
