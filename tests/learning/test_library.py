"""The learnings library: publishing (from scratch, from a finished experiment, from a
session I took part in) with a kind, tags, a focus area and an audience; editing and
unpublishing my own. Organisation learnings reach everyone signed in; team ones
their current members, the team's lead and the author only — nobody else sees them,
in search results or in tag counts."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils import timezone

from core.errors import Forbidden
from learning.models import Learning, LearningTag
from learning.selectors import LibraryFilters, access_learning, library, library_page, tag_counts
from learning.services import MAX_TAGS, learning_unpublish, learning_update, parse_tags
from people.services_teams import team_member_remove
from tests.support.factories import FocusAreaFactory, UserFactory, one_on_one
from tests.support.learning_loop import finished, make_teams, plan, publish

TEAM_READERS = ["rep", "peer", "manager"]  # the author, a teammate, the lead
NOT_TEAM = ["head", "other_manager", "other_rep", "hr", "admin"]


@pytest.fixture
def teams(org):
    return make_teams(org)


@pytest.fixture
def team_learning(org, teams):
    return publish(
        org.rep,
        title="Discovery checklist for Mia's team",
        audience="team",
        team=teams.mine,
        tags="discovery, team-only",
    )


@pytest.mark.django_db
def test_publishing_from_scratch_with_tags_focus_area_and_audience(org, teams):
    focus = FocusAreaFactory(name="Discovery")
    learning = publish(
        org.rep,
        kind="checklist",
        tags="Discovery,  pricing , discovery,,",
        focus_area=focus,
        audience="organisation",
        team=teams.mine,  # where it comes from
    )
    assert learning.kind == "checklist" and learning.focus_area == focus
    assert sorted(t.name for t in learning.tags.all()) == ["discovery", "pricing"]
    assert learning.team == teams.mine and learning.audience == "organisation"
    again = publish(org.peer, tags=["PRICING", "objections"])
    assert LearningTag.objects.count() == 3  # "pricing" is the same tag
    assert sorted(t.name for t in again.tags.all()) == ["objections", "pricing"]


@pytest.mark.django_db
def test_publishing_what_i_learned_from_my_finished_experiment(org):
    experiment = finished(plan(org.rep))
    learning = publish(org.rep, experiment=experiment)
    assert learning.experiment == experiment
    running = plan(org.rep)
    with pytest.raises(ValidationError, match="once it is done"):
        publish(org.rep, experiment=running)
    with pytest.raises(ValidationError, match="your own experiments"):
        publish(org.manager, experiment=experiment)  # the manager sees it, but it is not theirs
    assert Learning.objects.count() == 1


@pytest.mark.django_db
def test_publishing_from_a_session_i_took_part_in_only(org):
    session = one_on_one(org.manager, org.rep)
    assert publish(org.rep, session=session).session == session
    with pytest.raises(ValidationError, match="session you took part in"):
        publish(org.head, session=session)  # above the rep, but not in the session
    assert Learning.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"title": ""}, "title", "Give it a title"),
        ({"body": "  "}, "body", "Write what you learned"),
        ({"body": "x" * 10_001}, "body", "under 10000 characters"),
        ({"kind": "poem"}, "kind", "Pick a kind"),
        ({"audience": "world"}, "audience", "Choose who sees it"),
        ({"audience": "team"}, "team", "Pick the team that sees it"),
        ({"tags": "ok, " + "x" * 41}, "tags", "Keep each tag to 40 characters"),
        ({"tags": [f"t{i}" for i in range(MAX_TAGS + 1)]}, "tags", "At most 20 tags"),
    ],
)
def test_bad_input_is_refused_with_the_reason_and_nothing_saved(org, fields, field, message):
    with pytest.raises(ValidationError) as refused:
        publish(org.rep, **fields)
    assert message in " ".join(refused.value.message_dict[field])
    assert not Learning.objects.exists() and not LearningTag.objects.exists()


@pytest.mark.django_db
def test_twenty_tags_are_fine_and_every_reason_is_given_at_once(org):
    assert publish(org.rep, tags=[f"t{i}" for i in range(MAX_TAGS)]).tags.count() == MAX_TAGS
    with pytest.raises(ValidationError) as refused:
        publish(org.rep, title="", tags=["y" * 41])
    assert set(refused.value.message_dict) == {"title", "tags"}


@pytest.mark.django_db
def test_a_team_i_am_not_on_is_refused(org, teams):
    with pytest.raises(ValidationError, match="team you are on"):
        publish(org.rep, audience="team", team=teams.other)
    with pytest.raises(ValidationError, match="team you are on"):
        publish(org.head, audience="team", team=teams.mine)  # above the lead is not on it
    assert publish(org.manager, audience="team", team=teams.mine).team == teams.mine  # the lead
    assert Learning.objects.count() == 1


@pytest.mark.django_db
def test_tags_are_trimmed_lowercased_and_each_kept_once():
    assert parse_tags(" Discovery , Cold  calls,,discovery ") == ["discovery", "cold calls"]
    assert parse_tags(["A", " a ", ""]) == ["a"]
    assert parse_tags("") == []


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["rep", "peer", "manager", "head", "other_rep", "hr", "admin"])
def test_organisation_learnings_reach_everyone_signed_in(org, who):
    learning = publish(org.rep)
    assert access_learning(user=getattr(org, who), pk=learning.pk) == learning


@pytest.mark.django_db
@pytest.mark.parametrize("who", TEAM_READERS)
def test_team_learnings_reach_members_the_lead_and_the_author(org, team_learning, who):
    reader = getattr(org, who)
    assert access_learning(user=reader, pk=team_learning.pk) == team_learning
    found = library(user=reader, filters=LibraryFilters(q="checklist"), use_fts=False)
    assert list(found) == [team_learning]
    assert ("team-only", 1) in tag_counts(user=reader)


@pytest.mark.django_db
@pytest.mark.parametrize("who", NOT_TEAM)
def test_everyone_else_never_sees_a_team_learning_nor_its_tags(org, team_learning, who):
    reader = getattr(org, who)
    with pytest.raises(Http404):
        access_learning(user=reader, pk=team_learning.pk)
    for fts in (True, False) if _on_postgres() else (False,):
        assert not library(user=reader, filters=LibraryFilters(q="checklist"), use_fts=fts)
        assert not library(user=reader, filters=LibraryFilters(tag="team-only"), use_fts=fts)
    assert "team-only" not in dict(tag_counts(user=reader))
    assert not library_page(user=reader, filters=LibraryFilters()).object_list


@pytest.mark.django_db
def test_leaving_the_team_ends_access_and_the_author_keeps_it(org, teams, team_learning):
    team_member_remove(team=teams.mine, person=org.peer)
    team_member_remove(team=teams.mine, person=org.rep)
    with pytest.raises(Http404):
        access_learning(user=org.peer, pk=team_learning.pk)
    assert access_learning(user=org.rep, pk=team_learning.pk) == team_learning
    newcomer = UserFactory(manager=org.manager)
    from people.services_teams import team_member_add

    team_member_add(team=teams.mine, person=newcomer)
    assert access_learning(user=newcomer, pk=team_learning.pk) == team_learning


@pytest.mark.django_db
def test_the_author_edits_and_unpublishes_and_nobody_else_does(org, teams):
    learning = publish(org.rep, tags="pricing")
    edited = learning_update(
        learning=learning,
        actor=org.rep,
        kind="case_study",
        title="Pricing pause, a case study",
        body="It held the number twice.",
        audience="team",
        team=teams.mine,
        tags="pricing, case",
    )
    assert edited.kind == "case_study" and edited.updated_at > edited.published_at
    assert sorted(t.name for t in edited.tags.all()) == ["case", "pricing"]
    with pytest.raises(Forbidden, match="Only its author"):
        learning_unpublish(learning=learning, actor=org.manager)  # the lead reads it only
    with pytest.raises(Http404):
        learning_unpublish(learning=learning, actor=org.other_rep)
    learning_unpublish(learning=learning, actor=org.rep)
    assert not Learning.objects.exists()
    assert tag_counts(user=org.rep) == []  # tags nobody uses are counted nowhere


@pytest.mark.django_db
def test_a_focus_area_that_ended_may_stay_on_edit_but_not_be_newly_picked(org):
    focus = FocusAreaFactory()
    learning = publish(org.rep, focus_area=focus)
    focus.ends_on = focus.starts_on
    focus.save()
    with pytest.raises(ValidationError, match="current focus area"):
        publish(org.rep, focus_area=focus)
    kept = learning_update(
        learning=learning,
        actor=org.rep,
        kind="learning",
        title="Still here",
        body="Yes",
        audience="organisation",
        focus_area=focus,
    )
    assert kept.focus_area == focus and timezone.localdate() - focus.ends_on >= timedelta(0)


def _on_postgres() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"
