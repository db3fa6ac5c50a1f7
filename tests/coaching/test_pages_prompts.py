"""The question bank in the app (`/programme/questions/`): programme admins see the
prompts by GROW step in the order sessions show them, add one (last of its step unless
placed), change one, retire one and bring it back — through `services_prompts`,
audited, as the API now saves them too. Bad input is a 400 with the reason and saves
nothing; everyone else gets 404 (the authorization matrix)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coaching.models import Prompt
from coaching.selectors import prompts_for
from people.models import AuditEvent
from tests.support.factories import PromptFactory

pytestmark = pytest.mark.django_db
LIST = "/programme/questions/"
JSON = {"HTTP_ACCEPT": "application/json"}


def shown(kind: str, step: str) -> list[str]:
    """The questions a session of `kind` shows beside `step`."""
    return [p.text for p in prompts_for(kind).get(step, [])]


@pytest.fixture
def admin(org, client_for):
    return client_for(org.admin)


def test_the_bank_lists_each_steps_questions_in_order(admin):
    Prompt.objects.all().delete()  # the seeded bank aside
    PromptFactory(step="reality", text="Where did it go sideways?", position=2)
    PromptFactory(step="reality", text="Where were you happy with it?", position=1)
    PromptFactory(step="goal", text="What do you most want to get better at?", kind="one_on_one")
    retired = PromptFactory(step="will", text="Old question", is_active=False)
    body = admin.get(LIST).content.decode()
    assert body.index("Goal") < body.index("Reality") < body.index("Options") < body.index("Will")
    assert body.index("Where were you happy") < body.index("Where did it go sideways")
    assert "1:1 only" in body and "every kind of session" in body
    assert f"/programme/questions/{retired.pk}/restore/" in body


def test_the_bank_costs_the_same_for_few_or_many(admin):
    with CaptureQueriesContext(connection) as few:
        admin.get(LIST)
    for n in range(20):
        PromptFactory(step="options", text=f"Option question {n}")
    with CaptureQueriesContext(connection) as many:
        admin.get(LIST)
    assert len(few) == len(many)


def test_a_new_question_goes_last_of_its_step_and_sessions_show_it(admin, org):
    last = Prompt.objects.filter(step="options").order_by("-position").first()
    response = admin.post(
        "/programme/questions/new/",
        {
            "step": "options",
            "kind": "one_on_one",
            "text": "  What would a small experiment look like?  ",
        },
    )
    assert response.status_code == 302 and response["Location"] == LIST
    added = Prompt.objects.get(text="What would a small experiment look like?")
    assert added.position == (last.position + 1 if last else 1)
    assert added.text in shown("one_on_one", "options")
    assert added.text not in shown("role_play", "options")
    event = AuditEvent.objects.get(verb="prompt.created")
    assert (event.actor, event.target_id) == (org.admin, str(added.pk))


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"text": "   "}, "text", "This field is required."),
        ({"text": "x" * 301}, "text", "at most 300 characters"),
        ({"step": "dream"}, "step", "Pick the step it helps with."),
        ({"kind": "party"}, "kind", "Pick a kind of session, or none for every kind."),
        ({"position": "-1"}, "position", "greater than or equal to 0"),
        ({"position": "1000"}, "position", "less than or equal to 999"),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_saves_nothing(admin, change, field, message):
    before = Prompt.objects.count()
    response = admin.post("/programme/questions/new/", {"step": "goal", "text": "Why?", **change})
    assert response.status_code == 400
    assert message in response.context["form"].errors[field][0]
    assert Prompt.objects.count() == before
    assert not AuditEvent.objects.filter(verb__startswith="prompt.").exists()


def test_changing_one_keeps_its_place_unless_given(admin):
    prompt = PromptFactory(step="will", text="Which one will you try?", position=4)
    page = admin.get(f"/programme/questions/{prompt.pk}/").content.decode()
    assert "Which one will you try?" in page
    response = admin.post(
        f"/programme/questions/{prompt.pk}/",
        {"step": "will", "kind": "", "text": "Which one will you try on your next two calls?"},
    )
    assert response.status_code == 302
    prompt.refresh_from_db()
    assert (prompt.text, prompt.position) == ("Which one will you try on your next two calls?", 4)
    assert AuditEvent.objects.filter(verb="prompt.changed", target_id=str(prompt.pk)).exists()


def test_retiring_hides_it_from_sessions_and_bringing_it_back_shows_it(admin):
    prompt = PromptFactory(step="goal", text="What matters most this quarter?")
    assert admin.post(f"/programme/questions/{prompt.pk}/retire/").status_code == 302
    assert prompt.text not in shown("one_on_one", "goal")
    again = admin.post(f"/programme/questions/{prompt.pk}/retire/")
    assert again.status_code == 400 and "retired already" in again.content.decode()
    assert admin.post(f"/programme/questions/{prompt.pk}/restore/").status_code == 302
    assert prompt.text in shown("one_on_one", "goal")
    verbs = AuditEvent.objects.filter(target_id=str(prompt.pk)).order_by("pk")
    assert [e.verb for e in verbs] == ["prompt.retired", "prompt.restored"]


def test_an_unknown_question_is_a_404(admin):
    assert admin.get("/programme/questions/999999/").status_code == 404
    assert admin.post("/programme/questions/999999/retire/").status_code == 404


def test_the_api_saves_through_the_same_service(admin):
    created = admin.post(
        "/api/v1/prompts/", {"step": "reality", "text": "What did you notice?"},
        content_type="application/json", **JSON,
    )  # fmt: skip
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    retired = admin.patch(
        f"/api/v1/prompts/{pk}/", {"is_active": False}, content_type="application/json", **JSON
    )
    assert retired.status_code == 200 and retired.json()["is_active"] is False
    blank = admin.patch(
        f"/api/v1/prompts/{pk}/", {"text": "  "}, content_type="application/json", **JSON
    )
    assert blank.status_code == 400
    verbs = AuditEvent.objects.filter(target_id=str(pk)).order_by("pk")
    assert [e.verb for e in verbs] == ["prompt.created", "prompt.changed", "prompt.retired"]


def test_the_programme_page_links_to_it(admin):
    assert f'href="{LIST}"' in admin.get("/programme/").content.decode()
