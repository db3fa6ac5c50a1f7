import pytest

from devdata.demo.feedback import seed_feedback
from devdata.demo.people import seed_people
from feedback.models import Feedback, FeedbackRequest, FeedbackShare, Stream, Win
from feedback.selectors import my_feedback


@pytest.mark.django_db
def test_the_demo_has_both_streams_requests_shares_and_wins_and_runs_once():
    seed_people()
    seed_feedback()
    counts = (Feedback.objects.count(), FeedbackRequest.objects.count(), Win.objects.count())
    assert Feedback.objects.filter(stream=Stream.DEVELOPMENTAL).count() > 20
    assert Feedback.objects.filter(stream=Stream.EVALUATIVE).exists()
    assert Feedback.objects.filter(acknowledged_at__isnull=False).exists()
    assert Feedback.objects.filter(anonymous=True).count() >= 3
    # Each manager reads their anonymous answers: the demo's request is over.
    for request in FeedbackRequest.objects.filter(anonymous=True).select_related("requester"):
        shown = my_feedback(user=request.requester, stream=request.stream).filter(request=request)
        assert shown.count() == 3
    assert FeedbackShare.objects.filter(revoked_at__isnull=True).exists()
    assert {d for d in Feedback.objects.values_list("direction", flat=True)} >= {
        "downward",
        "upward",
        "peer",
    }
    assert "already present" in seed_feedback()
    assert counts == (
        Feedback.objects.count(),
        FeedbackRequest.objects.count(),
        Win.objects.count(),
    )
