"""Lists of rounds are newest first, in the selector, the page and the API, and hold
exactly the rounds the rule lets each person see."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorecards import services
from scorecards.models import ScoringRound
from scorecards.selectors import rounds_for
from tests.support.factories import RecordedCallFactory
from tests.support.scorecards_api import client_for


@pytest.mark.django_db
def test_rounds_are_listed_newest_first_everywhere(client, org, template):
    opened = []
    for days_ago in (3, 30, 10):  # opened in an order that is not their age
        call = RecordedCallFactory(person=org.rep, title=f"Call {days_ago} days ago")
        scoring = services.self_assessment_open(actor=org.rep, work=call, template=template)
        ScoringRound.objects.filter(pk=scoring.pk).update(
            created_at=timezone.now() - timedelta(days=days_ago)
        )
        opened.append(scoring.pk)
    newest_first = [opened[0], opened[2], opened[1]]
    assert [r.pk for r in rounds_for(user=org.rep)] == newest_first
    api = client_for(org.rep).get("/api/v1/scoring-rounds/").json()["results"]
    assert [row["id"] for row in api] == newest_first
    client.force_login(org.rep)
    page = client.get("/scorecards/").content.decode()
    recent = page[page.index("Recent scoring") :]
    positions = [recent.index(f"/scorecards/rounds/{pk}/") for pk in newest_first]
    assert positions == sorted(positions)


PEOPLE = ("head", "manager", "other_manager", "rep", "peer", "other_rep", "hr", "admin")


@pytest.mark.django_db
@pytest.mark.parametrize("large_scope_from", [1, 500])
def test_the_rule_gathers_exactly_the_rounds_each_person_may_see(
    org, template, monkeypatch, large_scope_from
):
    """ScoringRound.visible_to gathers ids from four indexes, and lists from
    LARGE_SCOPE_FROM people below check each round instead (visible_for_lists); both
    must equal the rule read round by round: opened it, invited to it, or —
    calibrations aside — about my call or the call of someone below me."""
    import people.selectors
    from scorecards.models import RaterRole, RoundContext, RoundRater

    monkeypatch.setattr(people.selectors, "LARGE_SCOPE_FROM", large_scope_from)

    people = [getattr(org, who) for who in PEOPLE]
    version = template.versions.get()
    for n, subject in enumerate(people):
        call = RecordedCallFactory(person=subject, title=f"Call {n}")
        for m, context in enumerate(RoundContext.values):
            opener = people[(n + m) % len(people)]
            scoring = ScoringRound.objects.create(
                work=call, version=version, context=context, created_by=opener
            )
            rater = people[(n + 2 * m + 1) % len(people)]
            RoundRater.objects.create(round=scoring, person=rater, role=RaterRole.PEER)
    below = {
        org.head.pk: {p.pk for p in people if p != org.head},
        org.manager.pk: {org.rep.pk, org.peer.pk},
        org.other_manager.pk: {org.other_rep.pk},
    }
    rounds = ScoringRound.objects.select_related("work").prefetch_related("raters")
    for person in people:
        expected = {
            r.pk
            for r in rounds
            if r.created_by_id == person.pk
            or person.pk in {rater.person_id for rater in r.raters.all()}
            or (
                r.context != RoundContext.CALIBRATION
                and (
                    r.work.person_id == person.pk or r.work.person_id in below.get(person.pk, set())
                )
            )
        }
        seen = set(ScoringRound.objects.visible_to(person).values_list("pk", flat=True))
        assert seen == expected, person
        listed = ScoringRound.objects.visible_for_lists(person).values_list("pk", flat=True)
        assert set(listed) == expected, person
        assert set(rounds_for(user=person).values_list("pk", flat=True)) == expected


@pytest.mark.django_db
def test_a_large_scopes_rounds_read_whose_call_through_the_join(org, monkeypatch):
    """From LARGE_SCOPE_FROM people below, whose call a round is about is read from the
    call joined to each round: as an EXISTS over the calls, PostgreSQL hashed every
    call below the head (133,000 at 10,000 people) before the first row of a page."""
    import people.selectors

    monkeypatch.setattr(people.selectors, "LARGE_SCOPE_FROM", 1)
    sql = str(ScoringRound.objects.visible_for_lists(org.head).query)
    assert 'JOIN "scorecards_recordedcall"' in sql
    assert 'FROM "scorecards_recordedcall"' not in sql


@pytest.mark.django_db
@pytest.mark.parametrize("large_scope_from", [1, 500])
def test_lists_of_calls_hold_exactly_the_calls_each_person_may_see(
    org, template, monkeypatch, large_scope_from
):
    """calls_for_lists (from LARGE_SCOPE_FROM people below: each call checked, with
    only the rounds opened or scored) equals calls_visible_to, and both the rule read
    call by call: mine, of someone below me, or of a round I may see; calls_of(subject)
    is the same rule narrowed to one person's calls."""
    import people.selectors
    from scorecards.models import RaterRole, RecordedCall, RoundContext, RoundRater
    from scorecards.selectors import calls_for_lists, calls_of, calls_visible_to

    monkeypatch.setattr(people.selectors, "LARGE_SCOPE_FROM", large_scope_from)
    people = [getattr(org, who) for who in PEOPLE]
    version = template.versions.get()
    for n, subject in enumerate(people):
        RecordedCallFactory(person=subject, title=f"Unscored call {n}")
        call = RecordedCallFactory(person=subject, title=f"Scored call {n}")
        context = RoundContext.values[n % len(RoundContext.values)]
        scoring = ScoringRound.objects.create(
            work=call, version=version, context=context, created_by=people[(n + 3) % len(people)]
        )
        RoundRater.objects.create(
            round=scoring, person=people[(n + 5) % len(people)], role=RaterRole.PEER
        )
    below = {
        org.head.pk: {p.pk for p in people if p != org.head},
        org.manager.pk: {org.rep.pk, org.peer.pk},
        org.other_manager.pk: {org.other_rep.pk},
    }
    rounds = list(ScoringRound.objects.prefetch_related("raters").select_related("work"))
    calls_by_person: dict[int, set[int]] = {}
    for pk, owner in RecordedCall.objects.values_list("pk", "person_id"):
        calls_by_person.setdefault(owner, set()).add(pk)
    sizes = set()
    for person in people:
        mine_or_below = {person.pk} | below.get(person.pk, set())
        in_rounds = {
            r.work_id
            for r in rounds
            if r.created_by_id == person.pk
            or person.pk in {rater.person_id for rater in r.raters.all()}
            or (r.context != RoundContext.CALIBRATION and r.work.person_id in mine_or_below)
        }
        expected = {
            c.pk for c in RecordedCall.objects.all() if c.person_id in mine_or_below
        } | in_rounds
        assert set(calls_visible_to(person).values_list("pk", flat=True)) == expected, person
        assert set(calls_for_lists(person).values_list("pk", flat=True)) == expected, person
        # calls_of reads one's own and a direct report's calls without the rule: the
        # same calls, whoever's they are.
        for subject in people:
            theirs = {pk for pk in expected if pk in calls_by_person[subject.pk]}
            found = set(calls_of(subject, viewer=person).values_list("pk", flat=True))
            assert found == theirs, (person, subject)
        sizes.add(len(expected))
    assert len(sizes) > 2  # the world tells people apart


def score_everyone_every_way(org, template) -> list:
    """Each person's call scored in every context by three of the others in turn,
    with every rater role, open and closed rounds, declines, drafts and submitted
    scorecards; returns the people."""
    from scorecards.models import (
        RaterRole,
        RoundContext,
        RoundRater,
        Scorecard,
        refresh_awaiting_scores,
    )

    people_ = [getattr(org, who) for who in PEOPLE]
    version = template.versions.get()
    roles = [RaterRole.PEER, RaterRole.MANAGER, RaterRole.COACH]
    for n, subject in enumerate(people_):
        call = RecordedCallFactory(person=subject, title=f"Call {n}")
        for m, context in enumerate(RoundContext.values):
            scoring = ScoringRound.objects.create(
                work=call,
                version=version,
                context=context,
                created_by=people_[(n + m) % len(people_)],
                closed_at=timezone.now() if (n + m) % 3 == 0 else None,
            )
            for k in range(3):
                rater = people_[(n + 2 * m + k + 1) % len(people_)]
                role = roles[(n + m + k) % len(roles)]
                RoundRater.objects.create(
                    round=scoring,
                    person=rater,
                    role=role,
                    declined_at=timezone.now() if (n + k) % 5 == 0 else None,
                )
                if (n + m + k) % 4:
                    Scorecard.objects.create(
                        round=scoring,
                        rater=rater,
                        rater_role=role,
                        subject=subject,
                        version=version,
                        context=context,
                        submitted_at=timezone.now() if (n + m + k) % 4 != 1 else None,
                    )
    # Written past the services: what they would have kept of each round.
    refresh_awaiting_scores(ScoringRound.objects.all())
    return people_


@pytest.mark.django_db
@pytest.mark.parametrize("large_scope_from", [1, 500])
def test_the_api_list_holds_exactly_the_scorecards_the_reveal_rule_shows(
    org, template, monkeypatch, large_scope_from
):
    """Scorecard.visible_for_lists (candidates gathered first; or the rule alone from
    LARGE_SCOPE_FROM people below) equals visible_to for everyone, drafts, declines,
    calibrations and manager scorecards included."""
    import people.selectors
    from scorecards.models import Scorecard

    monkeypatch.setattr(people.selectors, "LARGE_SCOPE_FROM", large_scope_from)
    people_ = score_everyone_every_way(org, template)
    sizes = set()
    for person in people_:
        rule = set(Scorecard.objects.visible_to(person).values_list("pk", flat=True))
        listed = Scorecard.objects.visible_for_lists(person).values_list("pk", flat=True)
        assert set(listed) == rule, person
        sizes.add(len(rule))
    # The world tells people apart: nobody sees everything, and not all see the same.
    assert len(sizes) > 2 and max(sizes) < Scorecard.objects.count()


@pytest.mark.django_db
def test_trends_count_exactly_the_submitted_scorecards_the_reveal_rule_shows(org, template):
    """Scorecard.counted_in_trends — which skips the rule when every subject is below
    the reader, and its walk down when the reader is the one subject — equals the
    rule narrowed to submitted scorecards about the subjects, calibrations aside, for
    every reader and every one, two or all of the subjects; and gives nothing to
    someone who has left."""
    from scorecards.models import RoundContext, Scorecard

    people_ = score_everyone_every_way(org, template)
    groups = [[p] for p in people_] + [[org.rep, org.peer], [org.rep, org.other_rep], people_]
    shortcuts = 0
    for reader in people_:
        for subjects in groups:
            rule = (
                Scorecard.objects.visible_to(reader)
                .filter(subject__in=subjects, submitted_at__isnull=False)
                .exclude(context=RoundContext.CALIBRATION)
            )
            counted = Scorecard.objects.counted_in_trends(reader, subjects)
            assert set(counted.values_list("pk", flat=True)) == set(
                rule.values_list("pk", flat=True)
            ), (reader, subjects)
            walks_down = "RECURSIVE" in str(counted.query).upper()
            if subjects == [reader]:  # one's own trend: no walk down the reporting line
                assert not walks_down, reader
            else:
                shortcuts += not walks_down
    # The shortcut was taken (the head and the managers over their people) and the
    # world is not empty for it.
    assert shortcuts >= 8
    assert Scorecard.objects.counted_in_trends(org.manager, [org.rep, org.peer]).exists()
    org.head.is_active = False
    org.head.save()
    assert not Scorecard.objects.counted_in_trends(org.head, [org.rep]).exists()
