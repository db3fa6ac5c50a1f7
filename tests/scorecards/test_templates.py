"""Templates: programme admins write them; a used version is never edited (a new
version is made and old scorecards keep theirs); lineages run through versions;
retired templates are kept but not offered."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from core.errors import Forbidden
from scorecards import selectors, services
from scorecards.models import CriterionVersion, Scorecard, Template
from scorecards.services import CriterionSpec

from .conftest import DISCOVERY, submit

pytestmark = pytest.mark.django_db


def specs_from(version, changes=None):
    """The version's criteria as specs continuing their lineages, with changes by
    position: {1: {"title": "…"}}."""
    out = []
    for c in version.criteria.order_by("position"):
        spec = CriterionSpec(
            c.title,
            c.behaviour,
            c.scale_max,
            c.weight,
            {a.level: a.description for a in c.anchors.all()},
            criterion=c.criterion_id,
        )
        for name, value in (changes or {}).get(c.position, {}).items():
            setattr(spec, name, value)
        out.append(spec)
    return out


def test_creating_a_template_makes_version_one_with_anchors(template):
    version = services.current_version(template)
    assert version.number == 1
    first = version.criteria.get(position=1)
    assert (first.title, first.scale_max) == ("Open questions", 4)
    assert dict(first.anchors.values_list("level", "description")) == {
        1: "Pitches straight away",
        3: "Three open questions before the demo",
    }


def test_only_programme_admins_write_templates(org):
    with pytest.raises(Forbidden, match="Only programme admins"):
        services.template_create(actor=org.manager, name="Mine", criteria=DISCOVERY)
    assert not Template.objects.exists()


def test_an_unused_version_is_edited_in_place(org, template):
    version = services.current_version(template)
    specs = specs_from(version, {1: {"title": "Open questions first"}})
    again = services.template_update(actor=org.admin, template=template, criteria=specs)
    assert again.pk == version.pk and again.number == 1
    assert again.criteria.get(position=1).title == "Open questions first"


def test_editing_a_used_template_makes_a_new_version_and_old_scorecards_keep_theirs(
    org, template, call
):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    card = submit(org.manager, scoring, [3, 2, 3])
    old = services.current_version(template)
    specs = specs_from(old, {1: {"title": "Open questions first", "scale_max": 5}})
    specs.append(CriterionSpec("Pain quantified", "Gets a number on the cost of the problem."))
    new = services.template_update(actor=org.admin, template=template, criteria=specs)
    assert (old.number, new.number) == (1, 2)
    card.refresh_from_db()
    assert card.version_id == old.pk
    assert list(old.criteria.values_list("title", flat=True)) == [
        "Open questions",
        "Next step",
        "Listening",
    ]
    # The edited criterion continues its lineage; the new one starts one.
    old_first = old.criteria.get(position=1)
    new_first = new.criteria.get(position=1)
    assert new_first.criterion_id == old_first.criterion_id and new_first.scale_max == 5
    assert new.criteria.get(position=4).criterion_id not in set(
        old.criteria.values_list("criterion_id", flat=True)
    )
    # New scoring uses the new version.
    other = services.self_assessment_open(actor=org.rep, work=call, template=template)
    assert other.version_id == new.pk


@pytest.mark.parametrize(
    ("criteria", "message"),
    [
        ([], "at least one criterion"),
        ([CriterionSpec("", "x")], "give a title and the behaviour"),
        ([CriterionSpec("A", "x"), CriterionSpec("a", "y")], "Two criteria are called"),
        ([CriterionSpec("A", "x", scale_max=1)], "the scale runs from 1"),
        ([CriterionSpec("A", "x", scale_max=11)], "the scale runs from 1"),
        ([CriterionSpec("A", "x", weight=0)], "between 0 and 10"),
        ([CriterionSpec("A", "x", weight="heavy")], "the weight is a number"),
        ([CriterionSpec("A", "x", anchors={5: "too high"})], "anchors are for levels 1–4"),
        ([CriterionSpec("A", "x", criterion=999999)], "unknown criterion"),
    ],
)
def test_bad_templates_are_refused_and_nothing_is_saved(org, criteria, message):
    with pytest.raises(ValidationError, match=message):
        services.template_create(actor=org.admin, name="Pricing pushback", criteria=criteria)
    assert not Template.objects.exists() and not CriterionVersion.objects.exists()


def test_a_lineage_from_another_template_cannot_be_continued(org, template):
    other = services.template_create(actor=org.admin, name="Cold call", criteria=DISCOVERY)
    foreign = services.current_version(template).criteria.first().criterion_id
    specs = specs_from(services.current_version(other))
    specs[0].criterion = foreign
    with pytest.raises(ValidationError, match="unknown criterion"):
        services.template_update(actor=org.admin, template=other, criteria=specs)


def test_names_are_unique_whatever_the_case(org, template):
    with pytest.raises(ValidationError, match="already a template"):
        services.template_create(actor=org.admin, name="discovery CALL", criteria=DISCOVERY)


def test_a_retired_template_is_kept_but_not_offered_and_cannot_be_scored(org, template, call):
    services.template_retire(actor=org.admin, template=template)
    assert template not in selectors.offered_templates()
    with pytest.raises(ValidationError, match="retired"):
        services.coach_scoring_open(actor=org.manager, work=call, template=template)
    services.template_retire(actor=org.admin, template=template, retired=False)
    assert template in selectors.offered_templates()


def test_the_database_refuses_a_rating_out_of_range(org, template, call):
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    card = Scorecard.objects.create(
        round=scoring,
        rater=org.manager,
        rater_role="coach",
        subject=org.rep,
        version=scoring.version,
        context=scoring.context,
    )
    with pytest.raises(IntegrityError):
        card.scores.create(criterion=scoring.version.criteria.first(), rating=0)
