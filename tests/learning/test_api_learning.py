"""Experiments and learnings through the API: who lists and reads what (404 for
everyone else, 401 for nobody signed in), the owner's changes (403 with the reason
for readers who do not own it), and bad input as a 400 naming the field with
nothing saved."""

import pytest

from learning.models import Experiment, ExperimentStatus, Learning, LearningTag
from learning.services import MAX_TAGS, experiment_start
from tests.support.factories import FocusAreaFactory, one_on_one
from tests.support.learning_loop import (
    CHAIN,
    NOT_IN_CHAIN,
    api,
    finished,
    make_pair,
    make_teams,
    plan,
    publish,
)

EXPERIMENTS = "/api/v1/experiments/"
LEARNINGS = "/api/v1/learnings/"


@pytest.fixture
def teams(org):
    return make_teams(org)


def new(**extra):
    return {
        "hypothesis": "Pausing after the price holds the number",
        "test": "Three seconds of silence on my next three pricing calls",
        **extra,
    }


# --- Experiments ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_owner_plans_starts_and_finishes_an_experiment(org):
    session = one_on_one(org.manager, org.rep)
    focus = FocusAreaFactory()
    client = api(org.rep)
    response = client.post(EXPERIMENTS, new(session=session.pk, focus_area=focus.pk), format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["status"] == "planned" and created["session"] == session.pk
    assert created["owner"]["id"] == org.rep.pk and created["focus_area"]["id"] == focus.pk
    url = f"{EXPERIMENTS}{created['id']}/"
    assert client.post(f"{url}start/").json()["status"] == "running"
    response = client.post(f"{url}finish/", {"learning": "Silence works"}, format="json")
    assert response.status_code == 400 and "result" in response.json()
    response = client.post(
        f"{url}finish/", {"result": "Held twice", "learning": "Yes"}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "done"
    response = client.patch(url, {"evidence": "If they walk"}, format="json")
    assert response.status_code == 200 and response.json()["evidence"] == "If they walk"
    assert client.post(f"{url}drop/").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field"),
    [
        (new(hypothesis=""), "hypothesis"),
        (new(hypothesis="x" * 301), "hypothesis"),
        (new(test=""), "test"),
        (new(session=999999), "session"),
        (new(commitment=999999), "commitment"),
        (new(pair=999999), "pair"),
        (new(focus_area="abc"), "focus_area"),
        (new(colour="blue"), "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_nothing_saved(org, data, field):
    response = api(org.rep).post(EXPERIMENTS, data, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not Experiment.objects.exists()


@pytest.mark.django_db
def test_someone_elses_session_or_pair_is_the_same_400_as_an_unknown_id(org):
    theirs = one_on_one(org.other_manager, org.other_rep)
    pair = make_pair(org.peer, org.other_rep)
    response = api(org.rep).post(EXPERIMENTS, new(session=theirs.pk, pair=pair.pk), format="json")
    assert response.status_code == 400
    assert response.json() == {
        "session": ["Link a session you took part in."],
        "pair": ["Link a peer pair you are in."],
    }
    assert not Experiment.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", CHAIN)
def test_the_owner_and_their_chain_list_and_read_it(org, who):
    experiment = plan(org.rep)
    client = api(getattr(org, who))
    listed = client.get(EXPERIMENTS, {"owner": org.rep.pk}).json()["results"]
    assert [row["id"] for row in listed] == [experiment.pk]
    assert (
        client.get(f"{EXPERIMENTS}{experiment.pk}/").json()["hypothesis"] == experiment.hypothesis
    )


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_IN_CHAIN)
def test_everyone_else_gets_404_and_an_empty_list(org, who):
    experiment = plan(org.rep)
    client = api(getattr(org, who))
    assert client.get(EXPERIMENTS).json()["results"] == []
    url = f"{EXPERIMENTS}{experiment.pk}/"
    assert client.get(url).status_code == 404
    assert client.patch(url, {"hypothesis": "x"}, format="json").status_code == 404
    for action in ("start", "finish", "drop"):
        assert client.post(f"{url}{action}/", {"result": "x"}, format="json").status_code == 404
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED


@pytest.mark.django_db
def test_readers_who_do_not_own_it_get_403_with_the_reason(org):
    pair = make_pair(org.rep, org.other_rep)
    experiment = plan(org.rep, pair=pair)
    for reader in (org.manager, org.other_rep):  # the chain, a pair partner
        client = api(reader)
        assert client.get(f"{EXPERIMENTS}{experiment.pk}/").status_code == 200
        response = client.post(f"{EXPERIMENTS}{experiment.pk}/start/")
        assert (
            response.status_code == 403 and "Only the person running" in response.json()["detail"]
        )
        patch = client.patch(f"{EXPERIMENTS}{experiment.pk}/", {"test": "x"}, format="json")
        assert patch.status_code == 403
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED


@pytest.mark.django_db
def test_the_list_filters_by_status_and_refuses_a_bad_filter(org):
    planned = plan(org.rep)
    running = experiment_start(experiment=plan(org.rep), actor=org.rep)
    client = api(org.rep)
    assert [r["id"] for r in client.get(EXPERIMENTS, {"status": "running"}).json()["results"]] == [
        running.pk
    ]
    assert planned.pk in [r["id"] for r in client.get(EXPERIMENTS).json()["results"]]
    assert client.get(EXPERIMENTS, {"status": "nope"}).status_code == 400
    assert client.get(EXPERIMENTS, {"owner": "abc"}).status_code == 400


@pytest.mark.django_db
def test_nobody_signed_in_gets_401(org):
    experiment = plan(org.rep)
    learning = publish(org.rep)
    for url in (
        EXPERIMENTS,
        f"{EXPERIMENTS}{experiment.pk}/",
        LEARNINGS,
        f"{LEARNINGS}{learning.pk}/",
    ):
        assert api().get(url).status_code == 401
    assert api().post(EXPERIMENTS, new(), format="json").status_code == 401


# --- Learnings ------------------------------------------------------------------------


def learning(**extra):
    return {
        "kind": "checklist",
        "title": "Pricing call checklist",
        "body": "Say the number. Stop talking.",
        "tags": ["Pricing", "silence"],
        "audience": "organisation",
        **extra,
    }


@pytest.mark.django_db
def test_publishing_editing_and_unpublishing_through_the_api(org, teams):
    client = api(org.rep)
    response = client.post(LEARNINGS, learning(audience="team", team=teams.mine.pk), format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["tags"] == ["pricing", "silence"] and created["team"]["name"] == "Mia's team"
    url = f"{LEARNINGS}{created['id']}/"
    response = client.patch(url, {"audience": "organisation", "tags": ["pricing"]}, format="json")
    assert response.status_code == 200 and response.json()["tags"] == ["pricing"]
    assert response.json()["team"]["id"] == teams.mine.pk  # where it comes from
    assert api(org.manager).delete(url).status_code == 403
    assert client.delete(url).status_code == 204
    assert not Learning.objects.exists()


@pytest.mark.django_db
def test_publishing_from_my_finished_experiment_only(org):
    done = finished(plan(org.rep))
    running = plan(org.rep)
    client = api(org.rep)
    assert client.post(LEARNINGS, learning(experiment=done.pk), format="json").status_code == 201
    response = client.post(LEARNINGS, learning(experiment=running.pk), format="json")
    assert response.status_code == 400 and "experiment" in response.json()
    response = api(org.manager).post(LEARNINGS, learning(experiment=done.pk), format="json")
    assert response.status_code == 400
    assert Learning.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (learning(title=""), "title", "may not be blank"),
        (learning(kind="poem"), "kind", "not a valid choice"),
        (learning(audience="team"), "team", "Pick the team that sees it"),
        (learning(team=999999), "team", "Pick a team you are on (or lead)."),
        (learning(tags=["x" * 41]), "tags", "Keep each tag to 40 characters"),
        (learning(tags=[f"t{i}" for i in range(MAX_TAGS + 1)]), "tags", "At most 20 tags"),
        (learning(session=999999), "session", "session you took part in"),
        (learning(colour="blue"), "colour", "Unknown field."),
    ],
)
def test_bad_learnings_are_a_400_with_the_reason_and_nothing_saved(org, data, field, message):
    response = api(org.rep).post(LEARNINGS, data, format="json")
    assert response.status_code == 400
    assert message in " ".join(response.json()[field])
    assert not Learning.objects.exists() and not LearningTag.objects.exists()


@pytest.mark.django_db
def test_a_team_i_am_not_on_is_refused(org, teams):
    response = api(org.rep).post(
        LEARNINGS, learning(audience="team", team=teams.other.pk), format="json"
    )
    assert response.status_code == 400 and response.json()["team"] == [
        "Pick a team you are on (or lead)."
    ]
    assert not Learning.objects.exists()


@pytest.mark.django_db
def test_the_library_searches_and_filters_through_the_api(org, teams):
    focus = FocusAreaFactory()
    publish(org.rep, title="Open questions first", body="Ask before showing.", tags="discovery")
    publish(org.peer, title="Pricing checklist", kind="checklist", tags="pricing", focus_area=focus)
    publish(org.other_rep, title="Recap template", kind="template", team=teams.other)

    def titles(**params):
        response = api(org.rep).get(LEARNINGS, params)
        assert response.status_code == 200, response.json()
        return [row["title"] for row in response.json()["results"]]

    assert titles() == ["Recap template", "Pricing checklist", "Open questions first"]
    assert titles(q="questions") == ["Open questions first"]
    assert titles(tag="Pricing") == ["Pricing checklist"]
    assert titles(kind="template") == ["Recap template"]
    assert titles(focus_area=focus.pk) == ["Pricing checklist"]
    assert titles(team=teams.other.pk) == ["Recap template"]
    assert api(org.rep).get(LEARNINGS, {"kind": "poem"}).status_code == 400
    assert api(org.rep).get(LEARNINGS, {"team": "abc"}).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["head", "other_manager", "other_rep", "hr", "admin"])
def test_a_team_learning_is_404_and_never_listed_for_anyone_off_the_team(org, teams, who):
    item = publish(
        org.rep, title="Renewal notes", audience="team", team=teams.mine, tags="renewals"
    )
    client = api(getattr(org, who))
    assert client.get(f"{LEARNINGS}{item.pk}/").status_code == 404
    assert client.patch(f"{LEARNINGS}{item.pk}/", {"title": "x"}, format="json").status_code == 404
    assert client.delete(f"{LEARNINGS}{item.pk}/").status_code == 404
    for params in ({}, {"q": "renewal"}, {"tag": "renewals"}, {"team": teams.mine.pk}):
        assert client.get(LEARNINGS, params).json()["results"] == []
    assert Learning.objects.filter(pk=item.pk, title="Renewal notes").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "peer", "manager"])
def test_members_the_lead_and_the_author_read_a_team_learning(org, teams, who):
    item = publish(org.rep, title="Renewal notes", audience="team", team=teams.mine)
    client = api(getattr(org, who))
    assert client.get(f"{LEARNINGS}{item.pk}/").json()["title"] == "Renewal notes"
    assert [r["id"] for r in client.get(LEARNINGS, {"q": "renewal"}).json()["results"]] == [item.pk]


# An id no bigint column holds: a filter with one is a 400, not a database error (a
# 500 on SQLite, which cannot even bind it). Found by the API fuzzing test.
TOO_LARGE = 2**70


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, name",
    [
        ("/api/v1/sessions/", "person"),
        ("/api/v1/agenda-items/", "session"),
        ("/api/v1/commitments/", "owner"),
        ("/api/v1/diagnoses/", "coachee"),
        ("/api/v1/goals/", "owner"),
        (EXPERIMENTS, "owner"),
        (LEARNINGS, "focus_area"),
        (LEARNINGS, "team"),
        ("/api/v1/peer-pairs/candidates/", "focus_area"),
    ],
)
def test_an_id_filter_beyond_any_id_is_a_400_naming_it(org, url, name):
    response = api(org.manager).get(url, {name: TOO_LARGE})
    assert response.status_code == 400, response.content
    assert name in response.json()
