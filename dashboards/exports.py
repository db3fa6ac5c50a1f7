"""Every table of the cadence-health pages as CSV: the same selectors as the pages, so
the numbers agree, aggregates only, and suppressed groups say so instead of a number.
Each export writes one audit event (what, which window, how many rows — never words)."""

import csv
from collections.abc import Callable
from dataclasses import dataclass
from datetime import tzinfo

from cadence import selectors_rollout
from feedback.evaluations import safe_cell
from people.models import Team, User
from people.services import audit_record

from . import org, snapshots
from .charts import percent
from .privacy import TOO_FEW

EXPORT_VERB = "dashboards.export"


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list]


@dataclass(frozen=True)
class Ask:
    """Who reads which window in which time zone; the numbers come from the slot's
    snapshot (`snapshots`), so a page and its downloads agree."""

    reader: User
    weeks: int
    tz: tzinfo

    def organisation(self, part: str):
        """One part of the organisation's snapshot (`snapshots.PARTS`)."""
        return snapshots.organisation_parts(part, weeks=self.weeks, tz=self.tz)[part]

    def team(self, team: Team) -> snapshots.TeamSnapshot:
        return snapshots.team(team=team, weeks=self.weeks, tz=self.tz)


def health_tables(health: org.Health) -> dict[str, Table]:
    """The metrics, cancellations and weeks of one scope's health."""
    if health.suppressed:
        note = [[TOO_FEW, health.reps]]
        return {
            name: Table(["note", "people"], note) for name in ("metrics", "cancellations", "weeks")
        }
    return {
        "metrics": Table(
            ["metric", "definition", "this window", "previous window", "change (points)"],
            [
                [m.spec.label, m.spec.explained, percent(m.now), percent(m.before), m.change]
                for m in health.metrics
            ],
        ),
        "cancellations": Table(
            ["reason", "this window", "previous window"],
            [[c.label, c.now, c.before] for c in health.cancellations],
        ),
        "weeks": Table(
            ["week of", "due", "held", "missed", "cancelled", "adherence"],
            [
                [w.week_start.isoformat(), w.due, w.held, w.missed, w.cancelled,
                 percent(w.adherence)]
                for w in health.weeks
            ],  # fmt: skip
        ),
    }


def heatmap_table(heatmap: org.Heatmap) -> Table:
    header = ["manager of managers", "team", "people", "adherence (window)"]
    header += [f"week of {monday.isoformat()}" for monday in heatmap.mondays]
    rows = []
    for group in heatmap.groups:
        head = group.head.display_name if group.head else ""
        for row in group.rows:
            if row.suppressed:
                rows.append([head, row.team.name, TOO_FEW, TOO_FEW] + [""] * len(heatmap.mondays))
            else:
                rows.append(
                    [head, row.team.name, row.reps, percent(row.window.adherence)]
                    + [percent(w.adherence) for w in row.weeks]
                )
    return Table(header, rows)


def attention_table(attention: org.Attention) -> Table:
    rows = [
        ["missed in a row", r.coach.display_name, f"{r.plans} plan(s), longest run {r.longest}",
         ", ".join(r.kinds)]
        for r in attention.runs
    ]  # fmt: skip
    rows += [
        ["coverage dropped", d.coach.display_name, f"{percent(d.before)} → {percent(d.now)}",
         f"{d.reps} direct reports"]
        for d in attention.drops
    ]  # fmt: skip
    rows += [
        ["no call review", q.team.name,
         f"last held {q.last_review:%Y-%m-%d}" if q.last_review else "never held", ""]
        for q in attention.quiet
    ]  # fmt: skip
    return Table(["signal", "who", "what", "detail"], rows)


def rollout_table(overview: selectors_rollout.Overview) -> Table:
    rows = []
    for row in overview.rows:
        progress = row.progress
        if progress is None:
            rows.append([row.team.name, "", "", "", "", "not started"])
            continue
        rows.append(
            [
                row.team.name,
                progress.rollout.starts_on.isoformat(),
                progress.done_count,
                progress.total,
                progress.overdue_count,
                "all in place" if progress.finished else "in progress",
            ]
        )
    return Table(["team", "started on", "done", "of", "overdue", "state"], rows)


def _health_table(name: str) -> Callable[[Ask], Table]:
    return lambda ask: health_tables(ask.organisation("health"))[name]


ORGANISATION_TABLES: dict[str, Callable[[Ask], Table]] = {
    "metrics": _health_table("metrics"),
    "cancellations": _health_table("cancellations"),
    "weeks": _health_table("weeks"),
    "heatmap": lambda ask: heatmap_table(ask.organisation("heatmap")),
    "attention": lambda ask: attention_table(ask.organisation("attention")),
    "rollout": lambda ask: rollout_table(ask.organisation("rollout")),
}
TEAM_TABLES = ("metrics", "cancellations", "weeks")


def team_table(name: str, *, team: Team, ask: Ask) -> Table:
    return health_tables(ask.team(team).health)[name]


def write_csv(out, table: Table) -> None:
    writer = csv.writer(out)
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow([safe_cell(value) for value in row])


def export_record(
    *, ask: Ask, table: str, rows: int, team: Team | None = None, ip: str | None
) -> None:
    audit_record(
        actor=ask.reader,
        verb=EXPORT_VERB,
        target=team,
        data={"table": table, "weeks": ask.weeks, "rows": rows},
        ip=ip,
    )


def filename(table: str, *, ask: Ask, team: Team | None = None) -> str:
    scope = f"team-{team.pk}" if team is not None else "organisation"
    as_of = snapshots.slot_start().astimezone(ask.tz)
    return f"cadence-health-{scope}-{table}-{as_of:%Y-%m-%d-%H%M}.csv"
