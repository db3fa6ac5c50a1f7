"""The starter library a migration seeds: five templates of observable behaviours on
a 1–4 scale with every level anchored, ready to score with; seeding twice adds
nothing, and unseeding keeps what someone scored with or a focus area measures."""

import importlib
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from coaching.models import FocusArea
from scorecards import services
from scorecards.library import seed_starter_library
from scorecards.models import Anchor, Criterion, CriterionVersion, Template, TemplateVersion
from tests.support.factories import RecordedCallFactory

migration = importlib.import_module("scorecards.migrations.0003_starter_library")

STARTERS = {
    "Discovery call",
    "Objection handling",
    "Product demo",
    "Cold-call opener",
    "Project retrospective facilitation",
}


@pytest.fixture(autouse=True)
def no_starter_library(db):
    """These tests are about the library: keep it (the package's fixture clears it),
    and put back what a transactional test elsewhere flushed since migrating (the
    seed skips templates already there)."""
    seed_starter_library(apps)


def _rows():
    return tuple(
        model.objects.count()
        for model in (Template, TemplateVersion, Criterion, CriterionVersion, Anchor)
    )


@pytest.mark.django_db
def test_the_five_starter_templates_exist_after_migrating():
    templates = Template.objects.filter(name__in=STARTERS)
    assert set(templates.values_list("name", flat=True)) == STARTERS
    for template in templates:
        assert template.description.strip() and "\n" not in template.description
        assert template.retired_at is None
        assert list(template.versions.values_list("number", flat=True)) == [1]


@pytest.mark.django_db
def test_each_has_four_or_five_ordered_criteria_weighted_towards_the_one_that_matters_most():
    for template in Template.objects.filter(name__in=STARTERS):
        criteria = list(CriterionVersion.objects.filter(version__template=template))
        assert 4 <= len(criteria) <= 5, template
        assert [c.position for c in criteria] == list(range(1, len(criteria) + 1))
        assert len({c.criterion_id for c in criteria}) == len(criteria)  # a lineage each
        weights = sorted(c.weight for c in criteria)
        assert weights[-1] in (Decimal("1.5"), Decimal("2")), template
        assert weights[-2] < weights[-1], template  # one criterion stands out
        assert weights.count(Decimal("1")) >= len(criteria) - 2, template


@pytest.mark.django_db
def test_every_level_of_every_scale_is_anchored():
    criteria = CriterionVersion.objects.filter(version__template__name__in=STARTERS)
    assert criteria.count() >= 20
    for criterion in criteria.prefetch_related("anchors"):
        assert criterion.scale_max == 4
        levels = [a.level for a in criterion.anchors.all()]
        assert levels == list(range(1, criterion.scale_max + 1)), criterion
        texts = [a.description.strip() for a in criterion.anchors.all()]
        assert all(texts) and len(set(texts)) == len(texts), criterion


@pytest.mark.django_db
def test_behaviours_are_written_out_and_distinct():
    criteria = CriterionVersion.objects.filter(version__template__name__in=STARTERS)
    behaviours = [c.behaviour.strip() for c in criteria]
    assert all(len(b) > 30 for b in behaviours)
    assert len(set(behaviours)) == len(behaviours)
    for template in STARTERS:
        titles = list(criteria.filter(version__template__name=template).values_list("title"))
        assert len(set(titles)) == len(titles)


@pytest.mark.django_db
def test_seeding_again_adds_nothing():
    before = _rows()
    seed_starter_library(apps)
    seed_starter_library(apps)
    assert _rows() == before


@pytest.mark.django_db
def test_a_template_an_admin_already_made_under_a_starter_name_is_left_alone(org):
    migration.unseed(apps, SimpleNamespace(connection=connection))
    assert not Template.objects.exists()
    own = services.template_create(
        actor=org.admin,
        name="discovery CALL",
        criteria=[services.CriterionSpec("Open questions", "Asks open questions first.")],
    )
    seed_starter_library(apps)
    assert Template.objects.filter(name__iexact="discovery call").get() == own
    assert Template.objects.count() == 5


@pytest.mark.django_db
def test_a_starter_template_is_scored_and_edited_like_any_other(org):
    template = Template.objects.get(name="Objection handling")
    call = RecordedCallFactory(person=org.rep)
    scoring = services.coach_scoring_open(actor=org.manager, work=call, template=template)
    scores = [services.ScoreInput(criterion=c.pk, rating=3) for c in scoring.version.criteria.all()]
    card = services.scorecard_save(actor=org.rep, scoring=scoring, scores=scores, submit=True)
    assert card.scores.count() == 5
    # Editing a used starter makes version 2 and keeps the lineages.
    specs = [
        services.CriterionSpec(
            c.title, c.behaviour, c.scale_max, c.weight, {1: "x", 4: "y"}, c.criterion_id
        )
        for c in scoring.version.criteria.all()
    ]
    version = services.template_update(actor=org.admin, template=template, criteria=specs)
    assert version.number == 2
    assert set(version.criteria.values_list("criterion", flat=True)) == set(
        scoring.version.criteria.values_list("criterion", flat=True)
    )


@pytest.mark.django_db
def test_unseeding_keeps_what_someone_scored_with_or_a_focus_area_measures(org):
    scored = Template.objects.get(name="Discovery call")
    call = RecordedCallFactory(person=org.rep)
    services.self_assessment_open(actor=org.rep, work=call, template=scored)
    area = FocusArea.objects.create(
        name="Objections", behaviours="Ask first", starts_on="2026-01-05"
    )
    area.criteria.add(Criterion.objects.filter(template__name="Objection handling").first())

    migration.unseed(apps, SimpleNamespace(connection=connection))

    assert set(Template.objects.values_list("name", flat=True)) == {
        "Discovery call",
        "Objection handling",
    }
    assert not CriterionVersion.objects.exclude(
        version__template__name__in=["Discovery call", "Objection handling"]
    ).exists()
    seed_starter_library(apps)  # and back again
    assert set(Template.objects.values_list("name", flat=True)) == STARTERS
