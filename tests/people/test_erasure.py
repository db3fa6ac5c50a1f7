"""Erasing a departed person: the dry run changes nothing and lists what would
happen; carrying it out deletes exactly what it listed (their private notes, pair
notes, habits and developmental feedback given and received), anonymises the person
and keeps the evaluative record and the history the dashboards count; active people
are refused; only programme admins and superusers reach it."""

import datetime as dt
import json
from io import StringIO

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone

from cadence import health
from coaching.models import CoachingSession, PrivateNote
from core.errors import Forbidden
from feedback.models import Feedback
from peers.models import PairNote
from people.erasure import VERB, person_erase
from people.models import AuditEvent, ImportStatus, PeopleImport, User
from people.services_credentials import api_token_rotate
from tests.support.people_privacy import NOT_THEIRS, THEIRS, build_world

pytestmark = pytest.mark.django_db


def deactivate(person):
    # The deactivation service is another change's; the flag is all erasure needs.
    User.objects.filter(pk=person.pk).update(is_active=False)
    person.refresh_from_db()
    return person


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models(include_auto_created=True)
        if not model._meta.proxy
    }


def all_rows_text() -> str:
    """Every text column of every row of the project's apps, to look for words."""
    chunks = []
    for label in ("people", "coaching", "peers", "learning", "feedback", "scorecards", "cadence"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            chunks.append(json.dumps(list(model._default_manager.values()), default=str))
    return "\n".join(chunks)


@pytest.fixture
def world(org):
    world = build_world(org)
    api_token_rotate(person=org.rep)
    deactivate(org.rep)
    return world


def test_the_dry_run_changes_nothing_and_lists_what_would_happen(world):
    before = row_counts()
    plan = person_erase(actor=world.org.admin, person=world.org.rep, dry_run=True)
    assert row_counts() == before
    assert not plan.executed
    assert plan.deleted["coaching.PrivateNote"] == 1
    # Given one, received one directly and one as the answer to their request.
    assert plan.deleted["feedback.Feedback"] == 3
    assert plan.deleted["peers.PairNote"] == 1
    assert plan.deleted["authtoken.Token"] == 1
    assert plan.anonymised["people.User"] == 1
    assert plan.anonymised["feedback.Feedback"] == 1  # the reflection on evaluative feedback
    assert plan.kept["coaching.SessionParticipant"] == 1
    rows = {row["model"]: row for row in plan.rows()}
    assert rows["coaching.PrivateNote"] == {
        "model": "coaching.PrivateNote",
        "deleted": 1,
        "anonymised": 0,
        "kept": 0,
    }
    world.org.rep.refresh_from_db()
    assert world.org.rep.display_name == "Rita Rep"


def test_carrying_it_out_deletes_exactly_what_the_dry_run_listed(world):
    rep = world.org.rep
    dry = person_erase(actor=world.org.admin, person=rep, dry_run=True)
    before = row_counts()
    done = person_erase(actor=world.org.admin, person=rep, dry_run=False)
    after = row_counts()
    assert done.executed and done.deleted == dry.deleted and done.anonymised == dry.anonymised
    gone = {
        label: before[label] - after[label] for label in before if before[label] != after[label]
    }
    assert gone == {**dry.deleted, "people.AuditEvent": -1}  # the erasure's own event

    text = all_rows_text()
    for what in ("own_private", "dev_received", "dev_given", "reflection", "rating", "habit"):
        assert THEIRS[what] not in text, what
    assert f"{THEIRS['pair_note']} (Rita Rep)" not in text
    assert f"{THEIRS['pair_note']} (Pavel Peer)" in text  # the partner's words stay theirs
    # The rest of the record stays: shared notes, the evaluative item, the coach's note.
    for what in ("shared", "eval_received", "commitment", "goal", "agenda"):
        assert THEIRS[what] in text, what
    assert NOT_THEIRS["coach_private"] in text
    assert PairNote.objects.filter(pair=world.pair).count() == 1
    assert PrivateNote.objects.filter(author=world.org.manager).exists()


def test_the_person_is_anonymised_and_cannot_sign_in(world, client):
    rep = world.org.rep
    person_erase(actor=world.org.admin, person=rep, dry_run=False)
    rep.refresh_from_db()
    assert rep.display_name == f"Former colleague #{rep.pk}"
    assert rep.email == f"erased-{rep.pk}@erased.invalid"
    assert not rep.has_usable_password() and not rep.is_staff and not rep.groups.exists()
    assert (
        client.post("/accounts/login/", {"login": "rep@example.com", "password": "x"}).status_code
        == 400
    )
    events = AuditEvent.objects.filter(target_id=str(rep.pk), target_type__model="user")
    assert "Rita Rep" not in {e.target_repr for e in events}


def test_the_dashboards_count_the_same_history_before_and_after(world):
    now = timezone.now()
    since, until = now - dt.timedelta(weeks=8), now

    def numbers():
        scope = health.Scope.organisation()
        return (
            health.health(scope, since=since, until=until, now=now),
            health.weekly_adherence(scope, weeks=8, until=until, now=now, tz=dt.UTC),
            CoachingSession.objects.filter(status="held").count(),
            Feedback.evaluative.count(),
        )

    before = numbers()
    person_erase(actor=world.org.admin, person=world.org.rep, dry_run=False)
    assert numbers() == before


def test_the_audit_event_has_counts_and_no_words(world):
    person_erase(actor=world.org.admin, person=world.org.rep, dry_run=False)
    event = AuditEvent.objects.get(verb=VERB)
    assert event.actor == world.org.admin and event.target_id == str(world.org.rep.pk)
    assert event.data["deleted"]["coaching.PrivateNote"] == 1 and event.data["via"] == "admin"
    stored = json.dumps(event.data) + event.target_repr
    assert not [w for w in {**THEIRS, **NOT_THEIRS}.values() if w in stored]
    assert "Rita Rep" not in stored


def test_an_active_person_is_refused_with_a_clear_message(org):
    build_world(org)
    before = row_counts()
    for dry_run in (True, False):
        with pytest.raises(ValidationError, match="still active"):
            person_erase(actor=org.admin, person=org.rep, dry_run=dry_run)
    assert row_counts() == before


@pytest.mark.django_db
def test_only_a_programme_admin_or_a_superuser_may_erase_or_see_the_plan(world):
    org = world.org
    before = row_counts()
    for actor in (org.manager, org.hr, org.peer):
        for dry_run in (True, False):
            with pytest.raises(Forbidden):
                person_erase(actor=actor, person=org.rep, dry_run=dry_run)
    assert row_counts() == before
    assert person_erase(actor=org.admin, person=org.rep, dry_run=True).deleted


# --- The management command ---------------------------------------------------------------


def test_the_command_is_a_dry_run_unless_told_to_execute(world):
    before = row_counts()
    out = StringIO()
    call_command("erase_person", "REP@example.com", stdout=out)
    assert "Dry run" in out.getvalue() and "coaching.PrivateNote" in out.getvalue()
    assert row_counts() == before
    call_command("erase_person", "rep@example.com", "--execute", stdout=out)
    assert "Erased" in out.getvalue()
    assert AuditEvent.objects.get(verb=VERB).data["via"] == "command"
    assert not PrivateNote.objects.filter(author=world.org.rep).exists()


def test_the_command_refuses_active_and_unknown_people(org):
    with pytest.raises(CommandError, match="still active"):
        call_command("erase_person", "rep@example.com", "--execute", stdout=StringIO())
    with pytest.raises(CommandError, match="Nobody has"):
        call_command("erase_person", "nobody@example.com", stdout=StringIO())


# --- The admin action ---------------------------------------------------------------------

CHANGELIST = "/admin/people/user/"


def action(client, *people, confirm=False):
    data = {"action": "erase_people", "_selected_action": [p.pk for p in people]}
    if confirm:
        data["post"] = "yes"
    return client.post(CHANGELIST, data)


def test_the_admin_confirms_with_the_dry_run_then_erases(client, world):
    rep = world.org.rep
    client.force_login(world.org.admin)
    before = row_counts()
    page = action(client, rep, world.org.peer)
    assert page.status_code == 200
    body = page.content.decode()
    assert "coaching.PrivateNote" in body and "Yes, erase 1 person" in body
    assert f"{world.org.peer} is still active" in body
    assert not [w for w in {**THEIRS, **NOT_THEIRS}.values() if w in body]
    assert row_counts() == before
    response = action(client, rep, confirm=True)
    assert response.status_code == 302
    rep.refresh_from_db()
    assert rep.display_name.startswith("Former colleague #")
    assert AuditEvent.objects.get(verb=VERB).actor == world.org.admin


def test_a_superuser_may_erase_too(client, world):
    root = User.objects.create_superuser("root@example.com", "pw", display_name="Root")
    client.force_login(root)
    assert action(client, world.org.rep, confirm=True).status_code == 302
    assert AuditEvent.objects.filter(verb=VERB, actor=root).exists()


def test_staff_who_are_not_programme_admins_get_404(client, world):
    from django.contrib.auth.models import Permission

    clerk = User.objects.create_user("clerk@example.com", "pw", display_name="Clerk")
    clerk.is_staff = True
    clerk.save()
    clerk.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    client.force_login(clerk)
    assert action(client, world.org.rep).status_code == 404
    assert action(client, world.org.rep, confirm=True).status_code == 404
    assert not AuditEvent.objects.filter(verb=VERB).exists()


@pytest.mark.parametrize("who", ["rep", "manager", "hr", "head"])
def test_people_without_the_admin_site_never_reach_it(client, world, who):
    client.force_login(getattr(world.org, who))
    response = action(client, world.org.rep, confirm=True)
    if who == "rep":  # the departed rep is signed out: sent to sign in, as from any page
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == 404  # the admin site is invisible to them
    world.org.rep.refresh_from_db()
    assert world.org.rep.display_name == "Rita Rep"


def test_anonymous_visitors_are_sent_to_sign_in(client, world):
    response = action(client, world.org.rep, confirm=True)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_people_imports_naming_them_lose_their_text_and_a_ready_one_is_discarded(world):
    rep, admin = world.org.rep, world.org.admin
    row = f"{rep.email},{rep.display_name},,,,\n"
    header = "email,name,manager_email,team,time_zone,role\n"
    ready = PeopleImport.objects.create(
        file_name="ready.csv", status=ImportStatus.READY, csv_text=header + row, row_count=1
    )
    failed = PeopleImport.objects.create(
        file_name="failed.csv",
        status=ImportStatus.FAILED,
        problems=f"line 2: manager {rep.email} is deactivated",
        problem_count=1,
        applied_counts=None,
        uploaded_by=rep,
    )
    # Another person whose address ends like theirs: not them.
    other_row = f"other.{rep.email},Other,,,,\n"
    other = PeopleImport.objects.create(
        file_name="other.csv", status=ImportStatus.READY, csv_text=header + other_row
    )

    plan = person_erase(actor=admin, person=rep, dry_run=False)

    assert plan.anonymised["people.PeopleImport"] == 2
    assert plan.kept["people.PeopleImport"] == 1  # the one they uploaded
    ready.refresh_from_db()
    failed.refresh_from_db()
    other.refresh_from_db()
    assert (ready.status, ready.csv_text) == (ImportStatus.DISCARDED, "")
    assert (failed.status, failed.problems, failed.problem_count) == (ImportStatus.FAILED, "", 1)
    assert (other.status, other.csv_text) == (ImportStatus.READY, header + other_row)
    text = all_rows_text()
    assert f"\\n{rep.email}," not in text  # their row (newlines as JSON writes them)
    assert f"manager {rep.email} " not in text
