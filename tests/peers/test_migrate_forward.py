"""Peer pairs and the learning loop moved out of coaching (peers 0001, learning 0001,
coaching 0024) without copying a row: a database at the migration state before the
move, with a row in every moved table (the many-to-many ones too), migrates to the
latest state and every row is found through the new models; their content types (and
so the permissions the role groups hold) carry the new app labels, the same rows."""

from datetime import date, time

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from coaching.models import CoachingSession
from learning.models import Experiment, Learning, LearningTag, PlaybookModule
from peers.models import (
    AgreementTemplate,
    Habit,
    HabitCheckIn,
    PairMember,
    PairNote,
    PeerPair,
    PeerRequest,
)
from people.roles import GROUP_FOR_ROLE, Role
from tests.support.factories import TeamFactory, UserFactory, one_on_one
from tests.support.migrations import insert, migrate_to, migrate_to_latest

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Every app's leaf before the move; peers and learning did not exist.
BEFORE = [
    ("coaching", "0023_notes_written"),
    ("cadence", "0020_notification_claim_lease"),
    ("peers", None),
    ("learning", None),
]
MOVED = {
    "peers": [
        AgreementTemplate,
        PeerPair,
        PairMember,
        PeerRequest,
        PairNote,
        Habit,
        HabitCheckIn,
    ],
    "learning": [Experiment, LearningTag, Learning, PlaybookModule],
}


def _rows_before_the_move(*, a, b, team, session) -> dict:
    """One row per moved table, written as the tables were (raw SQL: the models have
    moved, the tables have not)."""
    now = timezone.now()
    ids = {}
    ids["agreement"] = insert("coaching_agreementtemplate", text="Be kind.", updated_at=now)
    ids["pair"] = pair = insert(
        "coaching_peerpair",
        rationale="similar",
        rationale_note="",
        focus_area_id=None,
        agreement_text="Be kind.",
        weekday=1,
        local_time=time(10),
        time_zone="Europe/London",
        interval_weeks=2,
        duration_minutes=30,
        created_by_id=a.pk,
        created_at=now,
        started_at=now,
        ended_at=None,
    )
    for person in (a, b):
        ids[f"member_{person.pk}"] = insert(
            "coaching_pairmember",
            pair_id=pair,
            person_id=person.pk,
            accepted_at=now,
            left_at=None,
            left_reason="",
        )
    ids["request"] = insert(
        "coaching_peerrequest",
        person_id=b.pk,
        note="Discovery calls",
        focus_area_id=None,
        created_at=now,
        updated_at=now,
    )
    ids["note"] = insert(
        "coaching_pairnote", pair_id=pair, author_id=a.pk, text="Went well.", created_at=now
    )
    ids["habit"] = habit = insert(
        "coaching_habit",
        pair_id=pair,
        owner_id=a.pk,
        text="Ask one more question",
        created_at=now,
        retired_at=None,
    )
    ids["check_in"] = insert(
        "coaching_habitcheckin",
        habit_id=habit,
        checked_by_id=b.pk,
        session_id=session.pk,
        outcome="kept",
        note="",
        checked_on=date(2026, 1, 5),
        created_at=now,
    )
    ids["experiment"] = experiment = insert(
        "coaching_experiment",
        owner_id=a.pk,
        hypothesis="Conclusion first keeps the room.",
        test="Three calls.",
        evidence="",
        result="",
        learning="",
        status="planned",
        focus_area_id=None,
        session_id=session.pk,
        commitment_id=None,
        pair_id=pair,
        created_at=now,
        started_at=None,
        finished_at=None,
    )
    ids["tag"] = tag = insert("coaching_learningtag", name="discovery")
    ids["learning"] = learning = insert(
        "coaching_learning",
        author_id=a.pk,
        kind="learning",
        title="Lead with the conclusion",
        body="It works.",
        focus_area_id=None,
        audience="team",
        team_id=team.pk,
        experiment_id=experiment,
        session_id=session.pk,
        published_at=now,
        updated_at=now,
    )
    ids["learning_tag"] = insert("coaching_learning_tags", learning_id=learning, learningtag_id=tag)
    ids["module"] = module = insert(
        "coaching_playbookmodule",
        name="Moved module",
        department="core",
        summary="s",
        goals="g",
        prompts="p",
        cadence="c",
        experiments="e",
        position=99,
        is_active=True,
    )
    ids["module_team"] = insert(
        "coaching_playbookmodule_teams", playbookmodule_id=module, team_id=team.pk
    )
    return ids


def test_every_moved_row_is_found_through_the_new_models():
    a = UserFactory()
    b = UserFactory(manager=a)
    team = TeamFactory()
    session = one_on_one(a, b)
    migrate_to(BEFORE)
    try:
        ContentType.objects.clear_cache()
        labels = {
            (ct.model, ct.pk): ct.app_label
            for ct in ContentType.objects.filter(
                model__in=[m._meta.model_name for ms in MOVED.values() for m in ms]
            )
        }
        assert set(labels.values()) <= {"coaching"}  # as they were before the move
        ids = _rows_before_the_move(a=a, b=b, team=team, session=session)
        migrate_to_latest()
    finally:
        migrate_to_latest()  # leave the schema as found whatever happened
        ContentType.objects.clear_cache()

    pair = PeerPair.objects.get(pk=ids["pair"])
    assert pair.created_by == a and pair.status == "active"
    assert sorted(pair.members.values_list("person_id", flat=True)) == sorted([a.pk, b.pk])
    assert AgreementTemplate.objects.filter(pk=ids["agreement"], text="Be kind.").exists()
    assert PeerRequest.objects.get(pk=ids["request"]).person == b
    assert PairNote.objects.get(pk=ids["note"]).pair == pair
    habit = Habit.objects.get(pk=ids["habit"])
    assert habit.pair == pair and habit.owner == a
    check_in = HabitCheckIn.objects.get(pk=ids["check_in"])
    assert check_in.habit == habit and check_in.session == CoachingSession.objects.get(
        pk=session.pk
    )
    experiment = Experiment.objects.get(pk=ids["experiment"])
    assert experiment.pair == pair and experiment.session_id == session.pk
    assert list(pair.experiments.all()) == [experiment]
    learning = Learning.objects.get(pk=ids["learning"])
    assert learning.experiment == experiment and learning.team == team
    assert list(learning.tags.values_list("pk", flat=True)) == [ids["tag"]]
    assert LearningTag.objects.get(pk=ids["tag"]).learnings.get() == learning
    module = PlaybookModule.objects.get(pk=ids["module"])
    assert list(module.teams.all()) == [team]
    assert list(team.playbook_modules.filter(pk=module.pk)) == [module]

    # The same content type rows, under the new labels; the groups keep their grants.
    for app, models in MOVED.items():
        for model in models:
            ct = ContentType.objects.get_for_model(model)
            assert ct.app_label == app
            assert labels[(ct.model, ct.pk)] == "coaching"  # the row it was
    assert not ContentType.objects.filter(
        app_label="coaching", model__in=[m._meta.model_name for ms in MOVED.values() for m in ms]
    ).exists()
    admins = Group.objects.get(name=GROUP_FOR_ROLE[Role.PROGRAMME_ADMIN])
    granted = Permission.objects.filter(group=admins, content_type__app_label__in=MOVED)
    assert {f"{p.content_type.app_label}.{p.codename}" for p in granted} >= {
        "peers.view_peerpair",
        "learning.view_playbookmodule",
    }
