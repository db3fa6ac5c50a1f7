"""A fresh install, as its operator meets it: the superuser made with `createsuperuser`
signs in to an organisation nobody runs yet, is offered the programme admin's role
(only while nobody active holds it; 404 to everyone else), and the programme page
lists the first steps, each ticking itself from what is recorded, gone once all are
done, for the same queries either way."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cadence.models import CadencePolicy
from cadence.services import policy_apply
from cadence.services_rollout import rollout_start
from core.errors import Forbidden
from people.models import AuditEvent, User
from people.roles import Role
from people.selectors import roles_of
from people.services_roles import first_programme_admin_claim, role_grant
from people.services_teams import team_create
from scorecards.models import Criterion
from tests.support.factories import FocusAreaFactory, UserFactory

pytestmark = pytest.mark.django_db
CLAIM = "/programme/first-admin/"


@pytest.fixture
def operator():
    return User.objects.create_superuser(
        "ops@example.com", "a long pass phrase", display_name="Olu Ops"
    )


def test_the_superuser_of_a_fresh_install_is_offered_the_programme_and_takes_it(client, operator):
    client.force_login(operator)
    assert client.get("/")["Location"] == CLAIM
    assert "Run the programme" in client.get(CLAIM).content.decode()

    taken = client.post(CLAIM)

    assert taken.status_code == 302 and taken["Location"] == "/programme/"
    assert Role.PROGRAMME_ADMIN in roles_of(operator)
    event = AuditEvent.objects.get(verb="role.granted")
    assert (event.actor, event.target_id, event.data) == (
        operator,
        str(operator.pk),
        {"role": "programme_admin"},
    )
    assert client.get("/")["Location"] == "/programme/"
    assert client.get(CLAIM).status_code == 404


def test_once_someone_runs_the_programme_the_offer_is_gone(client, operator):
    admin = UserFactory(roles=["programme_admin"])
    client.force_login(operator)
    assert client.get(CLAIM).status_code == 404
    assert client.post(CLAIM).status_code == 404
    assert client.get("/")["Location"] == "/me/"
    assert Role.PROGRAMME_ADMIN not in roles_of(operator)

    admin.is_active = False  # the only admin left: the role is free again
    admin.save(update_fields=["is_active"])
    assert client.get(CLAIM).status_code == 200


def test_nobody_but_a_superuser_is_offered_it(client):
    someone = UserFactory()
    client.force_login(someone)
    assert client.get(CLAIM).status_code == 404
    assert client.post(CLAIM).status_code == 404
    assert client.get("/")["Location"] == "/me/"
    assert not AuditEvent.objects.filter(verb="role.granted").exists()
    client.logout()
    assert client.get(CLAIM)["Location"].startswith("/accounts/login/")


def test_two_superusers_claiming_give_one_admin(operator):
    other = User.objects.create_superuser(
        "ops2@example.com", "another pass phrase", display_name="Otto Ops"
    )
    first_programme_admin_claim(actor=operator)
    with pytest.raises(Forbidden, match="Someone already runs the programme"):
        first_programme_admin_claim(actor=other)
    assert Role.PROGRAMME_ADMIN not in roles_of(other)


# --- The first steps on the programme page ------------------------------------------


def programme(client) -> str:
    return client.get("/programme/").content.decode()


def step_line(page: str, title: str) -> str:
    start = page.index(title)
    return page[page.rindex("<li", 0, start) : page.index("</li>", start)]


@pytest.fixture
def admin(client, operator):
    first_programme_admin_claim(actor=operator)
    client.force_login(operator)
    return operator


def do_people(admin):
    UserFactory(manager=UserFactory())


def do_teams(admin):
    team_create(name="Enterprise East", lead=UserFactory())


def do_focus(admin):
    FocusAreaFactory().criteria.set(Criterion.objects.all()[:2])


def do_cadence(admin):
    team = team_create(name="Mid-market", lead=UserFactory())
    policy_apply(policy=CadencePolicy.objects.create(name="Standard"), team=team, actor=admin)


def do_install(admin):
    team = team_create(name="SMB")
    rollout_start(team=team, actor=admin, starts_on=timezone.localdate())


def do_welcome(admin):
    UserFactory(last_login=timezone.now() - timedelta(hours=1))


STEPS = {
    "people": ("Bring in your people and who they report to", do_people),
    "teams": ("Make the teams and name each one&#x27;s lead", do_teams),
    "focus": ("Choose what the programme practises first", do_focus),
    "cadence": ("Give the teams a cadence", do_cadence),
    "install": ("Start a team&#x27;s install plan", do_install),
    "welcome": ("Welcome your people", do_welcome),
}


def test_a_new_programme_lists_every_step_to_do_with_where_to_do_it(client, admin):
    page = programme(client)
    assert "First steps" in page and "0 of 6 done" in page
    for title, _ in STEPS.values():
        assert "To do" in step_line(page, title)
    assert 'href="/programme/imports/"' in step_line(page, STEPS["people"][0])
    assert 'href="/programme/people/?show=new"' in step_line(page, STEPS["welcome"][0])
    assert 'href="/rollout/?show=not_started"' in step_line(page, STEPS["install"][0])


@pytest.mark.parametrize("key", STEPS)
def test_each_step_ticks_itself_from_what_is_recorded(client, admin, key):
    title, do = STEPS[key]
    do(admin)
    page = programme(client)
    assert "Done" in step_line(page, title)
    done_too = {"cadence": {"teams"}}.get(key, set())  # a team keeps a cadence once led
    others = [t for k, (t, _) in STEPS.items() if k != key and k not in done_too]
    assert all("To do" in step_line(page, t) for t in others)


def test_a_focus_area_without_criteria_or_an_ended_one_is_not_the_step(client, admin):
    FocusAreaFactory()
    FocusAreaFactory(
        starts_on=timezone.localdate() - timedelta(days=90),
        ends_on=timezone.localdate() - timedelta(days=1),
    ).criteria.set(Criterion.objects.all()[:2])
    assert "To do" in step_line(programme(client), STEPS["focus"][0])


def test_the_welcome_step_says_it_ticks_once_someone_signs_in_not_when_sent(client, admin):
    line = step_line(programme(client), STEPS["welcome"][0])
    assert "To do" in line and "It ticks once one of them has signed in." in line


def test_the_admins_own_sign_in_does_not_count_as_a_welcome(client, admin):
    admin.last_login = timezone.now()
    admin.save(update_fields=["last_login"])
    assert "To do" in step_line(programme(client), STEPS["welcome"][0])


def test_the_list_goes_away_once_every_step_is_done_for_the_same_queries(client, admin):
    with CaptureQueriesContext(connection) as fresh:
        assert "First steps" in programme(client)
    for _, do in STEPS.values():
        do(admin)
    with CaptureQueriesContext(connection) as done:
        page = programme(client)
    assert "First steps" not in page and "Active people" in page
    assert len(done) == len(fresh)


def test_an_appointed_admin_sees_the_steps_too_and_others_get_404(client, org):
    client.force_login(org.admin)
    assert "First steps" in programme(client)  # org has people, no teams
    role_grant(person=org.hr, role=Role.HR)
    client.force_login(org.hr)
    assert client.get("/programme/").status_code == 404
