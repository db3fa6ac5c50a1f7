"""The feedback firewall through the API: who receives which stream, what evaluation
can reach, audited evaluative reads, and the recipient's private side (reflection,
themes, shares)."""

import json

import pytest
from rest_framework.test import APIClient

from feedback.models import Stream
from feedback.services import feedback_acknowledge, feedback_give, feedback_share
from people.models import AuditEvent

# Planted in every developmental field, and in the recipient's private reflection and
# themes: none of it may reach anyone the recipient did not choose.
DEV = "DEVMARKER"
PRIVATE = "PRIVATEMARKER"
EVAL = "EVALMARKER"


@pytest.fixture
def api():
    def signed_in(user=None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def items(org):
    """A developmental and an evaluative item to the rep, both from a peer — so the
    manager, head and HR are readers here, never authors."""
    dev = feedback_give(
        author=org.peer,
        recipient=org.rep,
        stream=Stream.DEVELOPMENTAL,
        observation=f"{DEV} observation: you interrupted the customer twice",
        impact=f"{DEV} impact",
        suggestion=f"{DEV} suggestion",
    )
    ev = feedback_give(
        author=org.peer,
        recipient=org.rep,
        stream=Stream.EVALUATIVE,
        observation=f"{EVAL} met the call targets",
    )
    for item in (dev, ev):
        feedback_acknowledge(
            feedback=item, actor=org.rep, reflection=f"{PRIVATE} reflection", themes=[PRIVATE]
        )
    return dev, ev


def ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def every_body(client, dev, ev):
    """Every response a reader can get about the rep's feedback."""
    paths = [
        "/api/v1/feedback/",
        "/api/v1/feedback/?stream=developmental",
        "/api/v1/feedback/?stream=evaluative",
        "/api/v1/feedback/?received=1",
        "/api/v1/feedback/?given=1",
        f"/api/v1/feedback/{dev.pk}/",
        f"/api/v1/feedback/{ev.pk}/",
        "/api/v1/feedback-requests/",
        "/api/v1/feedback-inbox/",
        "/api/v1/wins/",
    ]
    return {path: client.get(path).content.decode() for path in paths}


# --- The firewall --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head", "hr", "admin", "other_manager", "other_rep"])
def test_no_one_but_recipient_and_author_ever_receives_developmental_text(api, org, items, who):
    dev, ev = items
    bodies = every_body(api(getattr(org, who)), dev, ev)
    for path, body in bodies.items():
        assert DEV not in body, path
        assert PRIVATE not in body, path  # the reflection and themes are the rep's alone
    assert set(json.loads(bodies[f"/api/v1/feedback/{dev.pk}/"])) == {"detail"}  # a 404


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head", "hr"])
def test_the_management_chain_and_hr_read_the_evaluative_stream(api, org, items, who):
    dev, ev = items
    client = api(getattr(org, who))
    assert ids(client.get("/api/v1/feedback/")) == [ev.pk]
    body = client.get(f"/api/v1/feedback/{ev.pk}/").json()
    assert EVAL in body["observation"]
    # The recipient's side stays the recipient's.
    assert (body["reflection"], body["themes"], body["shared_with"]) == (None, None, None)
    assert body["acknowledged_at"] is not None


@pytest.mark.django_db
def test_programme_admins_see_no_feedback_at_all(api, org, items):
    client = api(org.admin)
    assert ids(client.get("/api/v1/feedback/")) == []
    for item in items:
        assert client.get(f"/api/v1/feedback/{item.pk}/").status_code == 404


@pytest.mark.django_db
def test_the_recipient_sees_both_and_their_own_reflection_themes_and_shares(api, org, items):
    dev, ev = items
    feedback_share(feedback=dev, actor=org.rep, person=org.manager)
    client = api(org.rep)
    assert ids(client.get("/api/v1/feedback/")) == [ev.pk, dev.pk]
    body = client.get(f"/api/v1/feedback/{dev.pk}/").json()
    assert body["reflection"] == f"{PRIVATE} reflection"
    assert body["themes"] == [PRIVATE]
    assert body["shared_with"] == [{"id": org.manager.pk, "display_name": "Mia Manager"}]
    assert body["author"] == {"id": org.peer.pk, "display_name": "Pavel Peer"}
    assert body["recipient"] == {"id": org.rep.pk, "display_name": "Rita Rep"}
    assert (body["stream"], body["direction"], body["anonymous"]) == (
        "developmental",
        "peer",
        False,
    )


@pytest.mark.django_db
def test_the_author_sees_what_they_wrote_but_not_the_recipients_reflection(api, org, items):
    dev, ev = items
    client = api(org.peer)
    assert ids(client.get("/api/v1/feedback/?given=1")) == [ev.pk, dev.pk]
    assert ids(client.get("/api/v1/feedback/?received=1")) == []
    for path, body in every_body(client, dev, ev).items():
        assert PRIVATE not in body, path
    body = client.get(f"/api/v1/feedback/{dev.pk}/").json()
    assert DEV in body["observation"] and body["reflection"] is None


# --- Permission matrix ---------------------------------------------------------------

MATRIX = [
    # who, sees developmental, sees evaluative
    ("rep", True, True),  # recipient
    ("peer", True, True),  # author of both
    ("manager", False, True),  # the recipient's manager
    ("head", False, True),  # skip-level
    ("other_manager", False, False),
    ("other_rep", False, False),
    ("hr", False, True),
    ("admin", False, False),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "sees_dev", "sees_eval"), MATRIX)
def test_the_permission_matrix_for_list_and_detail(api, org, items, who, sees_dev, sees_eval):
    dev, ev = items
    client = api(getattr(org, who))
    listed = set(ids(client.get("/api/v1/feedback/")))
    assert (dev.pk in listed, ev.pk in listed) == (sees_dev, sees_eval)
    assert client.get(f"/api/v1/feedback/{dev.pk}/").status_code == (200 if sees_dev else 404)
    assert client.get(f"/api/v1/feedback/{ev.pk}/").status_code == (200 if sees_eval else 404)


@pytest.mark.django_db
def test_anonymous_callers_get_401_everywhere(api, org, items):
    dev, _ = items
    client = api()
    assert client.get("/api/v1/feedback/").status_code == 401
    assert client.get(f"/api/v1/feedback/{dev.pk}/").status_code == 401
    assert client.post("/api/v1/feedback/", {}, format="json").status_code == 401
    assert client.post(f"/api/v1/feedback/{dev.pk}/acknowledge/", {}).status_code == 401
    assert client.patch(f"/api/v1/feedback/{dev.pk}/", {"stream": "x"}).status_code == 401


@pytest.mark.django_db
def test_an_id_that_is_not_a_number_is_a_plain_404(api, org):
    assert api(org.rep).get("/api/v1/feedback/abc/").status_code == 404
    assert api(org.rep).get(f"/api/v1/feedback/{10**30}/").status_code == 404


@pytest.mark.django_db
def test_a_deactivated_account_sees_nothing(api, org, items):
    dev, _ = items
    client = api(org.rep)
    org.rep.is_active = False
    org.rep.save(update_fields=["is_active"])
    assert client.get(f"/api/v1/feedback/{dev.pk}/").status_code == 401


# --- Audit ---------------------------------------------------------------------------


def reads():
    return list(
        AuditEvent.objects.filter(verb="feedback.evaluative_read")
        .order_by("id")
        .values_list("actor_id", "target_id")
    )


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head", "hr"])
def test_an_evaluative_read_by_someone_else_is_audited_without_its_words(api, org, items, who):
    _, ev = items
    reader = getattr(org, who)
    api(reader).get(f"/api/v1/feedback/{ev.pk}/", REMOTE_ADDR="10.0.0.7")
    assert reads() == [(reader.pk, str(ev.pk))]
    event = AuditEvent.objects.get(verb="feedback.evaluative_read")
    assert event.ip == "10.0.0.7"
    assert EVAL not in json.dumps(event.data) + event.target_repr


@pytest.mark.django_db
def test_listing_evaluative_feedback_is_audited_once_per_item_shown(api, org, items):
    _, ev = items
    api(org.hr).get("/api/v1/feedback/")
    assert reads() == [(org.hr.pk, str(ev.pk))]
    api(org.hr).get("/api/v1/feedback/?stream=developmental")  # nothing shown: no event
    assert len(reads()) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "peer"])
def test_the_recipient_and_the_author_read_without_an_audit_event(api, org, items, who):
    _, ev = items
    client = api(getattr(org, who))
    client.get("/api/v1/feedback/")
    client.get(f"/api/v1/feedback/{ev.pk}/")
    assert reads() == []


@pytest.mark.django_db
def test_developmental_reads_are_not_evaluative_reads(api, org, items):
    dev, _ = items
    feedback_share(feedback=dev, actor=org.rep, person=org.manager)
    api(org.manager).get("/api/v1/feedback/?stream=developmental")
    api(org.manager).get(f"/api/v1/feedback/{dev.pk}/")
    assert reads() == []
