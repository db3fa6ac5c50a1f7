import pytest
from django.contrib import admin

from coaching.models import FocusArea


@pytest.mark.django_db
def test_programme_admins_configure_focus_areas_and_prompts(client, org):
    client.force_login(org.admin)
    assert client.get("/admin/coaching/focusarea/").status_code == 200
    assert client.get("/admin/coaching/prompt/").status_code == 200
    response = client.post(
        "/admin/coaching/focusarea/add/",
        {
            "name": "Pricing: hold the number",
            "behaviours": "States the price without apologising",
            "starts_on": "2026-10-01",
            "ends_on": "2026-12-31",
        },
    )
    assert response.status_code == 302
    assert FocusArea.objects.filter(name="Pricing: hold the number").exists()


@pytest.mark.django_db
def test_no_ones_words_are_registered_in_the_admin():
    registered = {m._meta.label for m in admin.site._registry}
    for private in [
        "coaching.CoachingSession",
        "coaching.SharedNotes",
        "coaching.PrivateNote",
        "coaching.NotesRevision",
        "coaching.Commitment",
        "coaching.AgendaItem",
    ]:
        assert private not in registered


@pytest.mark.django_db
def test_the_question_bank_is_seeded_for_every_grow_step():
    from coaching.models import GrowStep, Prompt

    steps = set(Prompt.objects.values_list("step", flat=True))
    assert steps == set(GrowStep.values)
