"""API routes of the scorecards app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import api_calls, api_rounds, api_scorecards, api_templates, api_trends

# path() routes with `<int:pk>` (each viewset's lookup_value_converter), so ids are
# checked by the resolver.
router = SimpleRouter(use_regex_path=False)
router.register("scorecard-templates", api_templates.TemplateViewSet, basename="scorecard-template")
router.register("recorded-calls", api_calls.RecordedCallViewSet, basename="recorded-call")
router.register("scoring-rounds", api_rounds.ScoringRoundViewSet, basename="scoring-round")
router.register("scorecards", api_scorecards.ScorecardViewSet, basename="scorecard")
router.register("skill-trends", api_trends.SkillTrendViewSet, basename="skill-trend")

urlpatterns = router.urls
