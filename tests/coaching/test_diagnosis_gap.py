"""The diagnosis lands on the first "no", in order — for every one of the sixteen
ways four yes/no answers can fall — and the service works the gap out itself.
Refusals (someone not below you, a missing answer, notes too long) save nothing."""

from itertools import product

import pytest
from django.core.exceptions import ValidationError

from coaching.models import Diagnosis, GapType
from coaching.services_diagnosis import NEXT_STEP, QUESTIONS, asked, diagnosis_record, first_gap

ORDER = [GapType.SKILL, GapType.WILL, GapType.KNOWLEDGE, GapType.SYSTEM]


def expected(answers: tuple[bool, ...]) -> str:
    for answer, gap in zip(answers, ORDER, strict=True):
        if not answer:
            return gap
    return GapType.NONE


def as_kwargs(answers):
    return dict(zip([q.field for q in QUESTIONS], answers, strict=True))


@pytest.mark.django_db
@pytest.mark.parametrize("answers", list(product([True, False], repeat=4)))
def test_it_lands_on_the_first_no_in_order(org, answers):
    diagnosis = diagnosis_record(author=org.manager, coachee=org.rep, **as_kwargs(answers))
    diagnosis.refresh_from_db()
    assert diagnosis.gap == expected(answers)
    # Asked: up to and including the first no; stored as given up to there.
    shown = asked(diagnosis)
    reached = answers.index(False) + 1 if False in answers else 4
    assert [answer for _, answer in shown] == list(answers[:reached])
    # Nothing after the first gap is established: stored as null (not asked).
    assert [getattr(diagnosis, q.field) for q in QUESTIONS[reached:]] == [None] * (4 - reached)


def test_the_first_gap_needs_only_the_answers_up_to_the_first_no():
    assert first_gap({"knows_how": True, "believes": False}) == (GapType.WILL, [])
    assert first_gap({"knows_how": False}) == (GapType.SKILL, [])
    assert first_gap({"knows_how": True, "has_framework": False}) == (None, ["believes"])
    assert first_gap({}) == (None, [q.field for q in QUESTIONS])
    assert first_gap(as_kwargs([True] * 4)) == (GapType.NONE, [])


def test_every_gap_has_its_next_step_in_the_programmes_words():
    assert NEXT_STEP[GapType.SKILL].startswith("Train on GROW and call review")
    assert NEXT_STEP[GapType.WILL].startswith("Show the lift")
    assert NEXT_STEP[GapType.KNOWLEDGE].startswith("Adopt a scorecard")
    assert NEXT_STEP[GapType.SYSTEM] == "Protect the cadence and turn on recordings."
    assert NEXT_STEP[GapType.NONE] == "No gap: reinforce and let peers lead."


@pytest.mark.django_db
def test_answers_after_the_first_no_may_be_left_out(org):
    diagnosis = diagnosis_record(
        author=org.manager,
        coachee=org.rep,
        knows_how=True,
        believes=True,
        has_framework=False,
        has_system=None,
        notes="  No scorecard for renewals.  ",
    )
    assert diagnosis.gap == GapType.KNOWLEDGE and diagnosis.has_system is None
    assert diagnosis.notes == "No scorecard for renewals."
    assert diagnosis.created_at is not None and diagnosis.author == org.manager


@pytest.mark.django_db
def test_a_diagnosis_is_kept_with_its_date_and_a_new_one_does_not_replace_it(org):
    first = diagnosis_record(author=org.manager, coachee=org.rep, **as_kwargs([False] * 4))
    second = diagnosis_record(author=org.manager, coachee=org.rep, **as_kwargs([True] * 4))
    assert list(Diagnosis.objects.filter(coachee=org.rep)) == [second, first]  # newest first


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "coachee"),
    [("manager", "manager"), ("manager", "other_rep"), ("rep", "manager"), ("peer", "rep")],
)
def test_only_someone_above_the_coachee_may_diagnose(org, who, coachee):
    with pytest.raises(ValidationError) as refused:
        diagnosis_record(
            author=getattr(org, who), coachee=getattr(org, coachee), **as_kwargs([True] * 4)
        )
    assert "below you" in str(refused.value)
    assert not Diagnosis.objects.exists()


@pytest.mark.django_db
def test_the_skip_level_may_diagnose_too(org):
    diagnosis = diagnosis_record(author=org.head, coachee=org.rep, **as_kwargs([True] * 4))
    assert diagnosis.gap == GapType.NONE


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("answers", "field"),
    [
        ([None, None, None, None], "knows_how"),
        ([True, None, False, None], "believes"),
        ([True, True, True, None], "has_system"),
    ],
)
def test_a_missing_answer_before_the_first_no_is_refused(org, answers, field):
    with pytest.raises(ValidationError) as refused:
        diagnosis_record(author=org.manager, coachee=org.rep, **as_kwargs(answers))
    assert field in refused.value.message_dict
    assert "Answer this question" in refused.value.message_dict[field][0]
    assert not Diagnosis.objects.exists()


@pytest.mark.django_db
def test_notes_over_two_thousand_characters_are_refused(org):
    with pytest.raises(ValidationError) as refused:
        diagnosis_record(
            author=org.manager, coachee=org.rep, notes="x" * 2_001, **as_kwargs([False] * 4)
        )
    assert "2,000 characters" in refused.value.message_dict["notes"][0]
    assert not Diagnosis.objects.exists()
    diagnosis_record(
        author=org.manager, coachee=org.rep, notes="x" * 2_000, **as_kwargs([False] * 4)
    )
    assert Diagnosis.objects.count() == 1
