import pytest
from django.contrib import admin

from tests.support import factories


@pytest.mark.django_db
def test_programme_admins_edit_the_word_list_and_no_feedback_is_in_the_admin(client, org):
    client.force_login(org.admin)
    assert client.get("/admin/feedback/interpretiveterm/").status_code == 200
    registered = {m._meta.label for m in admin.site._registry}
    assert (
        not {"feedback.Feedback", "feedback.FeedbackShare", "feedback.FeedbackRequest"} & registered
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "FeedbackFactory",
        "FeedbackShareFactory",
        "ThemeFactory",
        "FeedbackRequestFactory",
        "RequestedResponderFactory",
        "InterpretiveTermFactory",
        "WinFactory",
    ],
)
def test_every_feedback_model_has_a_factory(name):
    assert getattr(factories, name)().pk
