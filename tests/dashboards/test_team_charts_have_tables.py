"""The dashboards' charts are SVG drawn on the server: each an image with a name
(role="img", aria-label and a <title>), each with its numbers in a table on the same
page, and nothing the content security policy would have to allow — no inline
style, no inline script, nothing from another origin."""

import re

import pytest

from tests.support.dashboards_team import page, world  # noqa: F401 - `world` is a fixture

pytestmark = pytest.mark.django_db
SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)


def check_charts(html: str, tables: int) -> list[str]:
    charts = SVG.findall(html)
    for chart in charts:
        head = chart.split(">", 1)[0]
        assert 'role="img"' in head and 'aria-label="' in head, head
        assert "<title>" in chart
    assert html.count("<table") >= tables
    assert not re.search(r"\sstyle=", html), "inline style"
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert "http://" not in html.replace("http://testserver", "")
    assert not re.search(r'(src|href)="https?://', html), "another origin"
    return charts


def test_my_team_charts_are_named_and_have_tables(client, world):  # noqa: F811
    client.force_login(world.org.manager)
    html = page(client, "/team/")
    charts = check_charts(html, tables=3)
    # Rita's sparkline (Pavel has no scores) and the week-by-week adherence line.
    assert len(charts) == 2
    assert "The numbers behind the skill trends" in html
    assert "The numbers, week by week" in html
    label = "Rita Rep, Ask first: others&#x27; monthly average, last 6 months, latest 3 of 4"
    assert f'aria-label="{label}"' in html


def test_the_managers_review_charts_are_named_and_have_tables(client, world):  # noqa: F811
    client.force_login(world.org.head)
    html = page(client, "/team/")
    charts = check_charts(html, tables=2)
    assert len(charts) == 2  # Mia's and Omar's weeks (Hana led nothing: no line)
    assert "The numbers behind “week by week”" in html
    assert "Mia Manager: adherence week by week since the week of 26 Jan" in html


def test_my_coaching_chart_is_named_and_has_a_table(client, world):  # noqa: F811
    client.force_login(world.org.rep)
    html = page(client, "/me/")
    charts = check_charts(html, tables=2)
    assert len(charts) == 1
    assert "Ask first: monthly averages on a scale of 1 to 4" in html
