"""Experiments in the browser: "My experiments" by state with the prompt menu beside
the form, an experiment's page with edit / start / finish / drop for its owner, the
coachee's page for the people above them, and "Try this experiment" from a
playbook. Outsiders get 404, readers who do not own it 403 on a change; bad input is
a 400 with the reason and nothing saved."""

import pytest
from django.utils import timezone

from coaching.models import Prompt
from learning.models import Experiment, ExperimentStatus, PlaybookModule
from learning.services import experiment_finish, experiment_start
from tests.support.factories import CommitmentFactory, one_on_one
from tests.support.learning_loop import NOT_IN_CHAIN, make_pair, plan


def body(**extra):
    return {
        "hypothesis": "Asking before telling gets buy-in",
        "test": "Open my next three calls with the recommendation",
        "evidence": "",
        **extra,
    }


@pytest.mark.django_db
def test_my_experiments_show_each_state_and_the_prompt_menu_beside_the_form(client, org):
    planned = plan(org.rep, hypothesis="Planned one")
    running = experiment_start(experiment=plan(org.rep, hypothesis="Running one"), actor=org.rep)
    done = experiment_finish(
        experiment=plan(org.rep, hypothesis="Done one"), actor=org.rep, result="Yes"
    )
    client.force_login(org.rep)
    page = client.get("/experiments/").content.decode()
    for heading in ("Trying now", "Planned", "Done"):
        assert heading in page
    assert page.index("Running one") < page.index("Planned one") < page.index("Done one")
    assert f"/library/new/?experiment={done.pk}" in page  # publish what I learned
    assert f'href="/experiments/{planned.pk}/"' in page and f"/experiments/{running.pk}/" in page
    for prompt in Prompt.objects.filter(step="experiment", is_active=True):
        assert prompt.text in page
    assert "What assumptions are you testing?" in page
    assert 'href="/library/"' in client.get("/me/").content.decode()  # the main nav


@pytest.mark.django_db
def test_a_rep_plans_an_experiment_linked_to_their_session(client, org):
    session = one_on_one(org.manager, org.rep)
    client.force_login(org.rep)
    response = client.post("/experiments/", body(session=session.pk))
    experiment = Experiment.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/experiments/{experiment.pk}/"
    assert (experiment.owner, experiment.session, experiment.status) == (
        org.rep,
        session,
        ExperimentStatus.PLANNED,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (body(hypothesis=""), "This field is required."),
        (body(hypothesis="   "), "This field is required."),
        (body(hypothesis="x" * 301), "at most 300 characters"),
        (body(test=""), "This field is required."),
        (body(session="999999"), "Pick one of your sessions from the list."),
        (body(commitment="999999"), "Pick a commitment from the list."),
        (body(pair="999999"), "Pick one of your peer pairs from the list."),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_nothing_saved(client, org, data, message):
    client.force_login(org.rep)
    response = client.post("/experiments/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Experiment.objects.exists()


@pytest.mark.django_db
def test_someone_elses_session_or_pair_is_not_a_choice(client, org):
    theirs = one_on_one(org.other_manager, org.other_rep)
    pair = make_pair(org.peer, org.other_rep)
    client.force_login(org.rep)
    page = client.get("/experiments/").content.decode()
    assert f'value="{theirs.pk}"' not in page
    response = client.post("/experiments/", body(session=theirs.pk, pair=pair.pk))
    assert response.status_code == 400
    assert "Pick one of your sessions" in response.content.decode()
    assert not Experiment.objects.exists()


@pytest.mark.django_db
def test_the_form_offers_open_commitments_of_mine_my_reports_or_written_by_me(client, org):
    """Not every commitment in the tree: for the head of a large organisation that was
    every open one (9,000 options). One further down stays linkable through the API,
    and a link made earlier stays offered on the experiment's page."""
    own = CommitmentFactory(owner=org.head, text="Head: ask before telling")
    report = CommitmentFactory(owner=org.manager, text="Manager: shadow two calls")
    written = CommitmentFactory(owner=org.rep, created_by=org.head, text="Rep: noted by head")
    further = CommitmentFactory(owner=org.rep, text="Rep: their own")
    closed = CommitmentFactory(
        owner=org.manager, text="Manager: done", status="done", closed_at=timezone.now()
    )
    client.force_login(org.head)
    page = client.get("/experiments/").content.decode()
    for offered in (own, report, written):
        assert offered.text in page
    for not_offered in (further, closed):
        assert not_offered.text not in page
    linked = plan(org.head, commitment=further)  # what the API accepts: any they may see
    page = client.get(f"/experiments/{linked.pk}/").content.decode()
    assert further.text in page and closed.text not in page
    assert client.post(f"/experiments/{linked.pk}/", body(commitment=further.pk)).status_code == 302
    response = client.post("/experiments/", body(commitment=closed.pk))
    assert response.status_code == 400 and "Pick a commitment from the list." in response.text


@pytest.mark.django_db
def test_the_owner_starts_finishes_and_publishes_from_the_experiment_page(client, org):
    experiment = plan(org.rep)
    client.force_login(org.rep)
    page = client.get(f"/experiments/{experiment.pk}/").content.decode()
    assert "Start" in page and "Record the result and finish" in page and "Edit the plan" in page
    assert client.post(f"/experiments/{experiment.pk}/start/").status_code == 302
    response = client.post(f"/experiments/{experiment.pk}/finish/", {"result": "", "learning": ""})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.RUNNING
    response = client.post(
        f"/experiments/{experiment.pk}/finish/",
        {"result": "Two of three calls stayed on track", "learning": "Conclusion first"},
    )
    assert response.status_code == 302
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.DONE and experiment.learning == "Conclusion first"
    page = client.get(f"/experiments/{experiment.pk}/").content.decode()
    assert f"/library/new/?experiment={experiment.pk}" in page


@pytest.mark.django_db
def test_starting_twice_or_dropping_a_done_one_is_a_400_on_the_page(client, org):
    running = experiment_start(experiment=plan(org.rep), actor=org.rep)
    client.force_login(org.rep)
    response = client.post(f"/experiments/{running.pk}/start/")
    assert (
        response.status_code == 400
        and "Only a planned experiment starts" in response.content.decode()
    )
    done = experiment_finish(experiment=running, actor=org.rep, result="Yes")
    response = client.post(f"/experiments/{done.pk}/drop/")
    assert response.status_code == 400 and "already done" in response.content.decode()
    assert client.post(f"/experiments/{plan(org.rep).pk}/drop/").status_code == 302


@pytest.mark.django_db
def test_the_owner_edits_the_plan_and_a_bad_edit_is_a_400(client, org):
    experiment = plan(org.rep)
    client.force_login(org.rep)
    response = client.post(f"/experiments/{experiment.pk}/", body(hypothesis="Sharper"))
    assert response.status_code == 302
    response = client.post(f"/experiments/{experiment.pk}/", body(hypothesis=""))
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    experiment.refresh_from_db()
    assert experiment.hypothesis == "Sharper"


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["manager", "head"])
def test_the_chain_reads_the_page_without_buttons_and_a_change_is_403(client, org, who):
    experiment = plan(org.rep)
    client.force_login(getattr(org, who))
    page = client.get(f"/experiments/{experiment.pk}/").content.decode()
    assert "Asking before telling" in page and "Edit the plan" not in page
    assert f"/people/{org.rep.pk}/" in page
    for action in ("start/", "drop/", "finish/", ""):
        assert (
            client.post(f"/experiments/{experiment.pk}/{action}", body(result="x")).status_code
            == 403
        )
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_IN_CHAIN)
def test_outsiders_get_404_everywhere_and_change_nothing(client, org, who):
    experiment = plan(org.rep)
    client.force_login(getattr(org, who))
    assert client.get(f"/experiments/{experiment.pk}/").status_code == 404
    for action in ("start/", "drop/", "finish/", ""):
        assert (
            client.post(f"/experiments/{experiment.pk}/{action}", body(result="x")).status_code
            == 404
        )
    assert "Asking before telling" not in client.get("/experiments/").content.decode()
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED


@pytest.mark.django_db
def test_a_pair_partner_reads_it_on_their_experiments_page(client, org):
    pair = make_pair(org.rep, org.other_rep)
    experiment = plan(org.rep, pair=pair)
    client.force_login(org.other_rep)
    page = client.get("/experiments/").content.decode()
    assert "From my peer pairs" in page and f"/experiments/{experiment.pk}/" in page
    assert client.get(f"/experiments/{experiment.pk}/").status_code == 200
    assert client.post(f"/experiments/{experiment.pk}/start/").status_code == 403


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in(client, org):
    experiment = plan(org.rep)
    for path in ("/experiments/", f"/experiments/{experiment.pk}/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(f"/experiments/{experiment.pk}/start/")
    assert response.status_code == 302
    experiment.refresh_from_db()
    assert experiment.status == ExperimentStatus.PLANNED


@pytest.mark.django_db
def test_managers_see_their_peoples_experiments_on_the_coachees_page(client, org):
    plan(org.rep, hypothesis="Pause after the price")
    plan(org.peer, hypothesis="Not Rita's")
    for who in ("manager", "head"):
        client.force_login(getattr(org, who))
        page = client.get(f"/people/{org.rep.pk}/").content.decode()
        assert "Experiments" in page and "Pause after the price" in page
        assert "Not Rita&#x27;s" not in page and "Not Rita's" not in page
    client.force_login(org.other_manager)
    assert client.get(f"/people/{org.rep.pk}/").status_code == 404


@pytest.mark.django_db
def test_try_this_experiment_prefills_the_form_from_a_playbook(client, org):
    module = PlaybookModule.objects.get(name="Sales: calls and deals")
    client.force_login(org.rep)
    page = client.get(f"/experiments/?playbook={module.pk}&example=1").content.decode()
    assert module.experiment_list[1] in page  # in the test field
    page = client.get(f"/experiments/?playbook={module.pk}&example=99").content.decode()
    assert page.count(module.experiment_list[1]) == 0
    assert client.get("/experiments/?playbook=abc&example=-1").status_code == 200


@pytest.mark.django_db
def test_beyond_fifty_experiments_the_coachees_page_shows_the_newest_fifty_and_says_so(client, org):
    for i in range(51):
        plan(org.rep, hypothesis=f"Experiment number {i:02d}")
    client.force_login(org.manager)
    page = client.get(f"/people/{org.rep.pk}/").content.decode()
    panel = page.split('id="experiments-heading"', 1)[1].split("</section>", 1)[0]
    assert '<span class="count">50+</span>' in panel and "The 50 newest." in panel
    assert "Experiment number 50" in panel and "Experiment number 00" not in panel
