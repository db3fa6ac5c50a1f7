"""The library in the browser: searching and filtering with tag counts beside,
publishing from scratch, from a finished experiment (prefilled from it) or from a
session, a learning's page, editing and unpublishing one's own. Team learnings are
404 to everyone off the team; bad input is a 400 with the reason, nothing saved."""

import pytest

from learning.models import Learning, LearningTag
from learning.services import MAX_TAGS
from tests.support.factories import one_on_one
from tests.support.learning_loop import finished, make_teams, plan, publish

TEAM_READERS = ["rep", "peer", "manager"]
NOT_TEAM = ["head", "other_manager", "other_rep", "hr", "admin"]


@pytest.fixture
def teams(org):
    return make_teams(org)


def body(**extra):
    return {
        "kind": "learning",
        "title": "Silence after the price",
        "body": "Three seconds of silence after the number.",
        "tags": "pricing, silence",
        "audience": "organisation",
        "team": "",
        **extra,
    }


@pytest.fixture
def team_learning(org, teams):
    return publish(
        org.rep,
        title="Our renewal playbook notes",
        body="Ask the champion who else decides.",
        audience="team",
        team=teams.mine,
        tags="renewals",
    )


@pytest.mark.django_db
def test_the_library_lists_searches_and_counts_tags(client, org, teams):
    publish(org.peer, title="Open questions first", body="Ask before showing.", tags="discovery")
    publish(org.rep, title="Pricing checklist", kind="checklist", tags="pricing, discovery")
    client.force_login(org.other_rep)
    page = client.get("/library/").content.decode()
    assert "Open questions first" in page and "Pricing checklist" in page
    assert 'href="/library/?tag=discovery"' in page and "Tags" in page
    assert page.index(">discovery<") < page.index(">pricing<")  # most used first
    for tab in ("/experiments/", "/playbooks/", "/library/new/"):
        assert f'href="{tab}"' in page
    found = client.get("/library/", {"q": "pricing"}).content.decode()
    assert "Pricing checklist" in found and "Open questions first" not in found
    tagged = client.get("/library/", {"tag": "Discovery", "kind": "checklist"}).content.decode()
    assert "Pricing checklist" in tagged and "Open questions first" not in tagged


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", [{"team": "abc"}, {"focus_area": "0"}, {"kind": "poem"}, {"q": "x" * 201}]
)
def test_bad_filters_are_a_400_with_the_reason(client, org, query):
    client.force_login(org.rep)
    response = client.get("/library/", query)
    assert response.status_code == 400 and 'class="error"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", TEAM_READERS)
def test_team_members_the_lead_and_the_author_find_a_team_learning(client, org, team_learning, who):
    client.force_login(getattr(org, who))
    assert (
        "Our renewal playbook notes" in client.get("/library/", {"q": "champion"}).content.decode()
    )
    assert client.get(f"/library/{team_learning.pk}/").status_code == 200
    assert ">renewals<" in client.get("/library/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_TEAM)
def test_everyone_else_gets_404_and_never_sees_it_or_its_tags(client, org, team_learning, who):
    client.force_login(getattr(org, who))
    assert client.get(f"/library/{team_learning.pk}/").status_code == 404
    assert client.get(f"/library/{team_learning.pk}/edit/").status_code == 404
    assert client.post(f"/library/{team_learning.pk}/edit/", body()).status_code == 404
    assert client.post(f"/library/{team_learning.pk}/unpublish/").status_code == 404
    for query in ({}, {"q": "champion"}, {"tag": "renewals"}, {"team": team_learning.team_id}):
        page = client.get("/library/", query).content.decode()
        assert "Our renewal playbook notes" not in page and ">renewals<" not in page
    assert Learning.objects.filter(pk=team_learning.pk, title="Our renewal playbook notes").exists()


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, org):
    learning = publish(org.rep)
    for path in ("/library/", "/library/new/", f"/library/{learning.pk}/", "/playbooks/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.post(f"/library/{learning.pk}/unpublish/")
    assert Learning.objects.filter(pk=learning.pk).exists()


@pytest.mark.django_db
def test_a_rep_publishes_to_their_team_with_tags(client, org, teams):
    client.force_login(org.rep)
    form = client.get("/library/new/").content.decode()
    assert "Mia&#x27;s team" in form and "Omar" not in form  # only my teams are offered
    response = client.post("/library/new/", body(audience="team", team=teams.mine.pk))
    learning = Learning.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/library/{learning.pk}/"
    assert (learning.author, learning.audience, learning.team) == (org.rep, "team", teams.mine)
    assert sorted(t.name for t in learning.tags.all()) == ["pricing", "silence"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (body(title=""), "This field is required."),
        (body(body=""), "This field is required."),
        (body(kind="poem"), "Select a valid choice."),
        (body(audience="team"), "Pick the team that sees it"),
        (body(audience="team", team="999999"), "Pick a team you are on (or lead)."),
        (body(tags="ok, " + "x" * 41), "Keep each tag to 40 characters"),
        (body(tags=",".join(f"t{i}" for i in range(MAX_TAGS + 1))), "At most 20 tags"),
        (body(experiment="999999"), "Publish from one of your own finished experiments."),
        (body(session="999999"), "Publish from a session you took part in."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, data, message):
    client.force_login(org.rep)
    response = client.post("/library/new/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Learning.objects.exists() and not LearningTag.objects.exists()


@pytest.mark.django_db
def test_a_team_i_am_not_on_is_refused(client, org, teams):
    client.force_login(org.rep)
    response = client.post("/library/new/", body(audience="team", team=teams.other.pk))
    assert response.status_code == 400 and "Pick a team you are on" in response.content.decode()
    assert not Learning.objects.exists()


@pytest.mark.django_db
def test_publish_what_i_learned_is_prefilled_from_my_finished_experiment(client, org, teams):
    experiment = finished(plan(org.rep, hypothesis="Silence sells"))
    client.force_login(org.rep)
    form = client.get(f"/library/new/?experiment={experiment.pk}").content.decode()
    assert "Filled in from your experiment" in form
    assert 'value="Silence sells"' in form and "Two of three calls stayed on track" in form
    response = client.post(
        "/library/new/",
        body(title="Silence sells", experiment=experiment.pk, audience="organisation"),
    )
    assert response.status_code == 302
    assert Learning.objects.get().experiment == experiment
    page = client.get(f"/experiments/{experiment.pk}/").content.decode()
    assert "Published to the library" in page


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "peer"])
def test_nobody_publishes_from_someone_elses_or_an_unfinished_experiment(client, org, who):
    experiment = finished(plan(org.rep))
    running = plan(org.rep)
    client.force_login(org.rep)
    assert client.get(f"/library/new/?experiment={running.pk}").status_code == 404
    client.force_login(getattr(org, who))
    assert client.get(f"/library/new/?experiment={experiment.pk}").status_code == 404
    response = client.post("/library/new/", body(experiment=experiment.pk))
    assert response.status_code == 400
    assert not Learning.objects.exists()


@pytest.mark.django_db
def test_publishing_from_a_session_i_took_part_in(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.rep)
    form = client.get(f"/library/new/?session={session.pk}").content.decode()
    assert "From a session you took part in" in form and "From the 1:1 on" in form
    response = client.post("/library/new/", body(session=session.pk))
    assert response.status_code == 302 and Learning.objects.get().session == session
    client.force_login(org.head)  # above the rep, not in the session
    assert client.get(f"/library/new/?session={session.pk}").status_code == 404


@pytest.mark.django_db
def test_the_author_edits_and_unpublishes_and_readers_get_403(client, org, teams):
    learning = publish(org.rep, tags="pricing")
    client.force_login(org.manager)
    assert client.get(f"/library/{learning.pk}/").status_code == 200
    assert client.get(f"/library/{learning.pk}/edit/").status_code == 403
    assert client.post(f"/library/{learning.pk}/unpublish/").status_code == 403
    client.force_login(org.rep)
    page = client.get(f"/library/{learning.pk}/").content.decode()
    assert "Edit" in page and "Unpublish" in page
    assert 'value="pricing"' in client.get(f"/library/{learning.pk}/edit/").content.decode()
    response = client.post(f"/library/{learning.pk}/edit/", body(title="", tags="x"))
    assert response.status_code == 400
    response = client.post(f"/library/{learning.pk}/edit/", body(title="Pause", tags="pause"))
    assert response.status_code == 302
    learning.refresh_from_db()
    assert learning.title == "Pause" and [t.name for t in learning.tags.all()] == ["pause"]
    response = client.post(f"/library/{learning.pk}/unpublish/")
    assert response.status_code == 302 and response["Location"] == "/library/"
    assert not Learning.objects.exists()


@pytest.mark.django_db
def test_the_library_is_in_the_main_nav(client, org):
    client.force_login(org.hr)
    page = client.get("/library/").content.decode()
    assert 'href="/library/" aria-current="page">Library' in page


@pytest.mark.django_db
def test_the_library_pages_by_twenty_and_keeps_the_search_from_page_to_page(client, org):
    for i in range(21):
        publish(org.rep, title=f"Pricing learning {i:02d}", tags=["pricing"])
    client.force_login(org.peer)
    first = client.get("/library/?tag=pricing").content.decode()
    assert "Page 1 of 2" in first
    assert 'href="?tag=pricing&amp;page=2">Next</a>' in first
    second = client.get("/library/?tag=pricing&page=2").content.decode()
    assert "Page 2 of 2" in second and 'href="?tag=pricing&amp;page=1">Previous</a>' in second


@pytest.mark.django_db
def test_a_bad_page_number_in_the_library_is_a_400_saying_so(client, org):
    publish(org.rep, title="Still shown")
    client.force_login(org.peer)
    response = client.get("/library/?page=-1")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Give a page number: a whole number from 1." in page and "Still shown" in page


@pytest.mark.parametrize("path", ["/library/", "/experiments/", "/playbooks/", "/library/new/"])
def test_the_learning_tabs_sit_under_the_title_as_in_every_section(client_for, org, path):
    page = client_for(org.rep).get(path).content.decode()
    assert page.index("<h1") < page.index('<nav aria-label="Learning" class="tabs">')
