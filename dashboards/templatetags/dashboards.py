from django import template

from .. import charts

register = template.Library()

# Adherence bands of the heatmap, lowest first: (lower bound, label). Colour is never
# the only cue — every cell prints its number too.
HEAT_BANDS = ((0.95, "95% or more"), (0.85, "85–94%"), (0.7, "70–84%"), (0.5, "50–69%"),
              (0.0, "under 50%"))  # fmt: skip


@register.filter
def percent(value) -> str:
    return charts.percent(value)


@register.filter
def points(change: int) -> str:
    """A change in percentage points, without its sign (the words say up or down)."""
    size = abs(change)
    return f"{size} point" if size == 1 else f"{size} points"


@register.filter
def heat(value) -> str:
    """The heatmap band of an adherence (a CSS class): heat-5 best … heat-1 worst,
    heat-none when nothing was due."""
    if value is None:
        return "heat-none"
    for n, (bound, _) in enumerate(HEAT_BANDS):
        if value >= bound:
            return f"heat-{len(HEAT_BANDS) - n}"
    return "heat-1"


@register.simple_tag
def heat_legend() -> list[tuple[str, str]]:
    return [(f"heat-{len(HEAT_BANDS) - n}", label) for n, (_, label) in enumerate(HEAT_BANDS)]


@register.filter
def week_chart(health, label: str):
    return charts.week_bars(weeks=health.weeks, label=label)
