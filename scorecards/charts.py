"""Small charts drawn on the server as SVG: no script, no CDN, nothing the content
security policy has to allow (presentation attributes, never `style`). Every chart
is an image with a text alternative, and pages put the same numbers in a table
beside it."""

from dataclasses import dataclass
from datetime import date
from html import escape

from django.utils.safestring import SafeString, mark_safe

# Colours that keep AA contrast on white and stay apart for common colour blindness;
# the lines also differ in dash, so colour is never the only cue.
OTHERS_COLOUR = "#1f5f8b"
SELF_COLOUR = "#a34a00"
GRID, INK = "#d5dbe3", "#55606e"
LEVEL_COLOURS = ["#a11d2b", "#d08a2c", "#8fb3cf", "#1f5f8b", "#164766", "#0b2a3f"]


@dataclass(frozen=True)
class Series:
    label: str
    values: list[float | None]  # one per month; None: no scores that month
    colour: str
    dashed: bool = False


def _el(tag: str, text: str | None = None, **attributes) -> str:
    """An SVG element. `stroke_width` is written stroke-width, `class_` class; every
    value and the text are escaped."""
    names = {name: name.rstrip("_").replace("_", "-") for name in attributes}
    attrs = "".join(f' {names[k]}="{escape(str(v))}"' for k, v in attributes.items())
    if text is None:
        return f"<{tag}{attrs}/>"
    return f"<{tag}{attrs}>{text}</{tag}>"


def _svg(parts: list[str], *, width: int, height: int, label: str) -> SafeString:
    head = (
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" class="chart">'
        f"<title>{escape(label)}</title>"
    )
    return mark_safe(head + "".join(parts) + "</svg>")  # noqa: S308 - all escaped in _el


def trend_chart(
    *,
    months: list[date],
    series: list[Series],
    scale_max: int,
    label: str,
    width: int = 320,
    height: int = 140,
) -> SafeString:
    """Lines over months on a 1..scale_max axis, one point per month with a value."""
    left, right, top, bottom = 26, 8, 8, 22
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(months), 1)

    def x(i: int) -> str:
        return f"{left + plot_w * (i + 0.5) / n:.1f}"

    def y(value: float) -> str:
        return f"{top + plot_h * (scale_max - value) / max(scale_max - 1, 1):.1f}"

    parts = []
    for level in range(1, scale_max + 1):
        parts.append(_el("line", x1=left, x2=width - right, y1=y(level), y2=y(level), stroke=GRID))
        parts.append(
            _el("text", str(level), x=left - 6, y=f"{float(y(level)) + 4:.1f}", text_anchor="end",
                font_size=10, fill=INK)
        )  # fmt: skip
    step = max(1, -(-n // 6))  # at most six month labels
    for i, month in enumerate(months):
        if i % step == 0:
            parts.append(
                _el("text", f"{month:%b}", x=x(i), y=height - 6, text_anchor="middle",
                    font_size=10, fill=INK)
            )  # fmt: skip
    for line in series:
        points = [(x(i), y(v), v, months[i]) for i, v in enumerate(line.values) if v is not None]
        if len(points) > 1:
            dash = {"stroke_dasharray": "5 4"} if line.dashed else {}
            path = " ".join(f"{px},{py}" for px, py, _, _ in points)
            parts.append(
                _el("polyline", points=path, fill="none", stroke=line.colour, stroke_width=2,
                    **dash)
            )  # fmt: skip
        for px, py, value, month in points:
            tip = _el("title", escape(f"{line.label}, {month:%B %Y}: {value:g}"))
            parts.append(_el("circle", tip, cx=px, cy=py, r=3, fill=line.colour))
    return _svg(parts, width=width, height=height, label=label)


def distribution_bar(
    *, counts: dict[int, int], scale_max: int, label: str, width: int = 320, height: int = 22
) -> SafeString:
    """One stacked bar: how the ratings spread over the levels, lowest on the left."""
    total = sum(counts.values())
    parts, offset = [], 0.0
    for level in range(1, scale_max + 1):
        count = counts.get(level, 0)
        if not count:
            continue
        part = width * count / total
        colour = LEVEL_COLOURS[min(level - 1, len(LEVEL_COLOURS) - 1)]
        tip = _el("title", escape(f"{level}: {count} of {total}"))
        parts.append(
            _el("rect", tip, x=f"{offset:.1f}", y=0, width=f"{part:.1f}", height=height,
                fill=colour)
        )  # fmt: skip
        offset += part
    return _svg(parts, width=width, height=height, label=label)


def sparkline(
    *,
    values: list[float | None],
    scale_max: int,
    label: str,
    width: int = 120,
    height: int = 32,
    colour: str = OTHERS_COLOUR,
) -> SafeString:
    """A word-sized trend: one value per period (None: nothing that period) on a
    1..scale_max axis, a faint line at each end of the scale, the latest point larger.
    No axis labels: the page puts the numbers in a table beside it."""
    pad = 4
    n = max(len(values), 1)
    plot_w, plot_h = width - 2 * pad, height - 2 * pad

    def x(i: int) -> float:
        return pad + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(value: float) -> float:
        return pad + plot_h * (scale_max - value) / max(scale_max - 1, 1)

    parts = [
        _el("line", x1=pad, x2=width - pad, y1=f"{y(level):.1f}", y2=f"{y(level):.1f}",
            stroke=GRID)
        for level in (1, scale_max)
    ]  # fmt: skip
    points = [(x(i), y(v), v) for i, v in enumerate(values) if v is not None]
    if len(points) > 1:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py, _ in points)
        parts.append(_el("polyline", points=path, fill="none", stroke=colour, stroke_width=1.5))
    for index, (px, py, value) in enumerate(points):
        last = index == len(points) - 1
        parts.append(
            _el("circle", _el("title", escape(f"{value:g}")), cx=f"{px:.1f}", cy=f"{py:.1f}",
                r=3 if last else 1.75, fill=colour)
        )  # fmt: skip
    return _svg(parts, width=width, height=height, label=label)
