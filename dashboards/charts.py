"""Dashboard charts, drawn on the server as SVG like the scorecards' (no script, nothing
for the content security policy to allow). Each is an image with a text alternative;
the pages put the same numbers in a table beside it."""

from django.utils.safestring import SafeString

from cadence.health import WeekNumbers
from scorecards.charts import GRID, INK, OTHERS_COLOUR
from scorecards.charts import _el as el
from scorecards.charts import _svg as svg


def whole_percent(value: float) -> int:
    """A rate as a whole percentage, halves rounded up (5 of 8 is 63%, as people
    expect; Python's round() would say 62)."""
    return int(value * 100 + 0.5)


def percent(value: float | None) -> str:
    return "—" if value is None else f"{whole_percent(value)}%"


def week_bars(
    *, weeks: list[WeekNumbers], label: str, width: int = 360, height: int = 150
) -> SafeString:
    """Adherence per week as bars on a 0–100% axis; a week with nothing due has no bar
    and a dash on the axis. Drawn small (360 wide) so its labels stay legible when a
    phone scales it down."""
    left, right, top, bottom = 34, 4, 8, 22
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(weeks), 1)
    slot = plot_w / n
    parts = []
    for share in (0, 0.5, 1):
        y = top + plot_h * (1 - share)
        parts.append(el("line", x1=left, x2=width - right, y1=f"{y:.1f}", y2=f"{y:.1f}",
                        stroke=GRID))  # fmt: skip
        parts.append(el("text", f"{round(share * 100)}%", x=left - 4, y=f"{y + 4:.1f}",
                        text_anchor="end", font_size=10, fill=INK))  # fmt: skip
    step = max(1, -(-n // 5))  # at most five week labels
    for i, week in enumerate(weeks):
        centre = left + slot * (i + 0.5)
        tip = (
            f"Week of {week.week_start:%-d %b}: nothing due"
            if week.adherence is None
            else f"Week of {week.week_start:%-d %b}: {percent(week.adherence)} "
            f"({week.held} of {week.due} held)"
        )
        if week.adherence is None:
            parts.append(
                el(
                    "line",
                    el("title", tip),
                    x1=f"{centre - 4:.1f}",
                    x2=f"{centre + 4:.1f}",
                    y1=top + plot_h - 2,
                    y2=top + plot_h - 2,
                    stroke=INK,
                    stroke_width=2,
                )
            )
        else:
            bar_h = max(plot_h * week.adherence, 1)
            parts.append(
                el(
                    "rect",
                    el("title", tip),
                    x=f"{centre - slot * 0.35:.1f}",
                    y=f"{top + plot_h - bar_h:.1f}",
                    width=f"{slot * 0.7:.1f}",
                    height=f"{bar_h:.1f}",
                    fill=OTHERS_COLOUR,
                )
            )
        if i % step == 0:
            parts.append(
                el(
                    "text",
                    f"{week.week_start:%-d %b}",
                    x=f"{centre:.1f}",
                    y=height - 6,
                    text_anchor="middle",
                    font_size=10,
                    fill=INK,
                )
            )
    return svg(parts, width=width, height=height, label=label)


def month_bars(
    *,
    months: list,
    values: list[int | None],
    label: str,
    what: str,
    width: int = 360,
    height: int = 150,
) -> SafeString:
    """A count per month as bars from zero; a month without a value to show (too few
    people) has no bar and a dash on the axis."""
    left, right, top, bottom = 34, 4, 8, 22
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(months), 1)
    slot = plot_w / n
    top_value = max([v for v in values if v is not None] + [1])
    parts = []
    for share in (0, 1):  # whole people only: no line halfway
        y = top + plot_h * (1 - share)
        parts.append(
            el("line", x1=left, x2=width - right, y1=f"{y:.1f}", y2=f"{y:.1f}", stroke=GRID)
        )
        parts.append(
            el(
                "text",
                f"{top_value * share}",
                x=left - 4,
                y=f"{y + 4:.1f}",
                text_anchor="end",
                font_size=10,
                fill=INK,
            )
        )
    for i, (month, value) in enumerate(zip(months, values, strict=True)):
        centre = left + slot * (i + 0.5)
        if value is None:
            tip = f"{month:%B %Y}: too few to show"
            parts.append(
                el(
                    "line",
                    el("title", tip),
                    x1=f"{centre - 4:.1f}",
                    x2=f"{centre + 4:.1f}",
                    y1=top + plot_h - 2,
                    y2=top + plot_h - 2,
                    stroke=INK,
                    stroke_width=2,
                )
            )
        else:
            bar_h = max(plot_h * value / top_value, 1)
            parts.append(
                el(
                    "rect",
                    el("title", f"{month:%B %Y}: {value} {what}"),
                    x=f"{centre - slot * 0.35:.1f}",
                    y=f"{top + plot_h - bar_h:.1f}",
                    width=f"{slot * 0.7:.1f}",
                    height=f"{bar_h:.1f}",
                    fill=OTHERS_COLOUR,
                )
            )
        parts.append(
            el(
                "text",
                f"{month:%b}",
                x=f"{centre:.1f}",
                y=height - 6,
                text_anchor="middle",
                font_size=10,
                fill=INK,
            )
        )
    return svg(parts, width=width, height=height, label=label)  # fmt: skip
