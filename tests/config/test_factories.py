"""Every model of the project's apps has a factory in tests/support/factories/, and
every factory makes a row the database accepts: a new model without one, or a
constraint a factory's defaults break, fails here rather than in the first test that
reaches for it."""

from pathlib import Path

import factory
import pytest
from django.apps import apps
from django.conf import settings

from tests.support import factories

VENV = Path(settings.BASE_DIR) / ".venv"


def _project_models():
    """Concrete models of the apps in this repository (not Django's, not third parties')."""
    for app in apps.get_app_configs():
        path = Path(app.path)
        if not path.is_relative_to(settings.BASE_DIR) or path.is_relative_to(VENV):
            continue
        for model in app.get_models():
            if not model._meta.proxy:
                yield model


FACTORIES = sorted(
    (
        item
        for item in (getattr(factories, name) for name in factories.__all__)
        if isinstance(item, type) and issubclass(item, factory.django.DjangoModelFactory)
    ),
    key=lambda item: item.__name__,
)


def test_every_model_of_the_project_has_a_factory():
    made = {item._meta.model for item in FACTORIES}
    missing = sorted(m._meta.label for m in _project_models() if m not in made)
    assert not missing, f"models without a factory in tests/support/factories/: {missing}"


def test_the_walk_finds_the_apps_models():
    labels = {m._meta.label for m in _project_models()}
    assert {"people.User", "coaching.CoachingSession", "cadence.CadencePlan"} <= labels
    assert not any(label.startswith(("auth.", "django_celery_beat.")) for label in labels)


@pytest.mark.django_db
@pytest.mark.parametrize("model_factory", FACTORIES, ids=lambda item: item.__name__)
def test_each_factory_saves_a_row(model_factory):
    row = model_factory()
    row.refresh_from_db()
    assert model_factory._meta.model.objects.filter(pk=row.pk).exists()
