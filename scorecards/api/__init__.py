"""The scorecards API under /api/v1/: the template library, recorded calls, scoring
rounds (with saving, declining and closing), scorecards as the reveal rule shows
them, and skill trends.

Views validate, call one service or selector and respond. The status codes are the
same everywhere:

- not visible to the requester → 404 (never 403: existence is not revealed);
- visible, but not theirs to do (scoring in a round they do not rate, closing a round
  someone else opened, writing templates without being a programme admin) → 403
  with the reason;
- bad input or a refused change → 400 naming the field, nothing saved; unknown fields
  are bad input too."""

from .calls import RecordedCallViewSet
from .cards import ScorecardViewSet
from .rounds import ScoringRoundViewSet
from .templates import TemplateViewSet
from .trends import SkillTrendViewSet

__all__ = [
    "RecordedCallViewSet",
    "ScorecardViewSet",
    "ScoringRoundViewSet",
    "SkillTrendViewSet",
    "TemplateViewSet",
]
