"""API routes of the scorecards app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api

# path() routes with `<int:pk>` (each viewset's lookup_value_converter), so ids are
# checked by the resolver.
router = SimpleRouter(use_regex_path=False)
router.register("scorecard-templates", api.TemplateViewSet, basename="scorecard-template")
router.register("recorded-calls", api.RecordedCallViewSet, basename="recorded-call")
router.register("scoring-rounds", api.ScoringRoundViewSet, basename="scoring-round")
router.register("scorecards", api.ScorecardViewSet, basename="scorecard")
router.register("skill-trends", api.SkillTrendViewSet, basename="skill-trend")

urlpatterns = router.urls
