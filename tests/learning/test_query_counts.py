"""The learning loop's lists cost a fixed number of queries, whatever the number of
rows: my experiments, the library (with tags, search and filters), the playbooks,
a coachee's page with their experiments, and the API lists."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.services import commitment_create
from learning.models import PlaybookModule
from learning.services import experiment_drop, experiment_start
from people.services_teams import team_create, team_member_add
from tests.support.factories import FocusAreaFactory, UserFactory, one_on_one
from tests.support.learning_loop import finished, make_pair, plan, publish


def count(client, path, data=None):
    client.get(path, data)  # warm: sessions, content types
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, data)
    assert response.status_code == 200, (path, response.status_code)
    return len(queries)


def person_with_experiments(n: int):
    """A rep with `n` experiments in every state, linked to sessions, commitments,
    a pair and focus areas; a pair partner's experiments shared with them; on a team
    with `n` learnings with tags."""
    manager = UserFactory()
    rep = UserFactory(manager=manager)
    partner = UserFactory()
    pair = make_pair(rep, partner)
    team = team_create(name=f"Team of {rep.pk}", lead=manager)
    team_member_add(team=team, person=rep)
    focus = FocusAreaFactory()
    for i in range(n):
        session = one_on_one(manager, rep)
        commitment = commitment_create(
            session=session,
            actor=manager,
            text=f"Commitment {i}",
            evidence="Calls",
            due_on=session.scheduled_start.date(),
        )
        experiment = plan(
            rep,
            hypothesis=f"Hypothesis {i} about questions",
            session=session,
            commitment=commitment,
            pair=pair,
            focus_area=focus,
        )
        if i % 4 == 1:
            experiment_start(experiment=experiment, actor=rep)
        elif i % 4 == 2:
            publish(rep, title=f"From {i}", experiment=finished(experiment))
        elif i % 4 == 3:
            experiment_drop(experiment=experiment, actor=rep)
        plan(partner, hypothesis=f"Partner's {i}", pair=pair)
        publish(
            rep,
            title=f"Team learning {i} about questions",
            kind="checklist",
            audience="team" if i % 2 else "organisation",
            team=team,
            focus_area=focus,
            tags=[f"tag{i}", "questions", f"more{i % 3}"],
        )
    return rep, manager, team, focus


# Every request: the session, the user. Pages also: the roles (for the nav) and the
# header's unread count.
EXPECTED = {
    # my experiments; which have a learning; my pair partners'; the prompt menu; the
    # form's choices: focus areas, sessions + their participants, commitments, pairs +
    # their members
    "/experiments/": 2 + 2 + 10,
    # the filters' focus areas and teams; count, rows, the rows' tags; tag counts
    "/library/": 2 + 2 + 6,
    # modules + the teams using them; my teams; the teams I pick for
    "/playbooks/": 2 + 2 + 4,
    "/api/v1/experiments/": 2 + 2,  # count, rows
    "/api/v1/learnings/": 2 + 3,  # count, rows, tags
}


@pytest.mark.django_db
@pytest.mark.parametrize("path", list(EXPECTED))
def test_my_lists_do_not_grow_with_the_number_of_rows(client, path):
    few, _, _, _ = person_with_experiments(2)
    many, _, _, _ = person_with_experiments(25)
    client.force_login(few)
    small = count(client, path)
    client.force_login(many)
    large = count(client, path)
    assert small == large == EXPECTED[path], (path, small, large)


@pytest.mark.django_db
@pytest.mark.parametrize("fts", [False, pytest.param(True, marks=pytest.mark.postgres)])
@pytest.mark.parametrize("path", ["/library/", "/api/v1/learnings/"])
def test_the_library_with_search_tags_and_filters_stays_flat(client, monkeypatch, path, fts):
    from learning import selectors as selectors_learning

    monkeypatch.setattr(selectors_learning, "full_text_search_available", lambda: fts)
    few, _, team_few, focus_few = person_with_experiments(2)
    many, _, team_many, focus_many = person_with_experiments(30)
    counts = []
    for user, team, focus in ((few, team_few, focus_few), (many, team_many, focus_many)):
        client.force_login(user)
        filters = {
            "q": "questions",
            "tag": "questions",
            "kind": "checklist",
            "focus_area": focus.pk,
            "team": team.pk,
        }
        # A page past the end shows the last page; the API answers it with a 404.
        second = {"page": 2} if path == "/library/" else {"tag": "questions"}
        counts.append((count(client, path, filters), count(client, path, second)))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db
def test_a_coachees_page_with_their_experiments_stays_flat(client):
    rep_few, manager_few, _, _ = person_with_experiments(2)
    rep_many, manager_many, _, _ = person_with_experiments(20)
    client.force_login(manager_few)
    small = count(client, f"/people/{rep_few.pk}/")
    client.force_login(manager_many)
    assert count(client, f"/people/{rep_many.pk}/") == small


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/playbooks/", "/api/v1/playbook-modules/", "/api/v1/team-playbooks/"]
)
def test_playbooks_stay_flat_with_more_modules_and_teams(client, org, path):
    core = PlaybookModule.objects.get(department="core")
    team_create(name="Mia's team", lead=org.manager).playbook_modules.add(core)
    client.force_login(org.head)
    small = count(client, path)
    for i in range(12):
        lead = UserFactory(manager=org.manager)
        team = team_create(name=f"Squad {i}", lead=lead)
        team.playbook_modules.add(core)
        module = PlaybookModule.objects.create(
            name=f"Add-on {i}",
            department="sales",
            summary="More",
            goals="A\nB",
            prompts="C",
            cadence="Weekly",
            experiments="D\nE",
            position=10 + i,
        )
        module.teams.add(team)
    assert count(client, path) == small
