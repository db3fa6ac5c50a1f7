"""API routes of the cadence app, mounted under /api/v1/."""

from rest_framework.routers import SimpleRouter

from . import (
    api_closures,
    api_plans,
    api_policies,
    api_rollout,
)

router = SimpleRouter(use_regex_path=False)
api_rollout.register(router)
api_plans.register(router)
router.register("cadence-policies", api_policies.CadencePolicyViewSet, basename="cadence-policy")
router.register("team-cadence", api_policies.TeamCadenceViewSet, basename="team-cadence")
router.register("closed-days", api_closures.ClosureViewSet, basename="closed-day")

urlpatterns = router.urls
