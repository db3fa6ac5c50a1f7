"""Every table of the cadence-health pages as CSV: the same selectors as the pages, so
the numbers agree, aggregates only, and suppressed groups say so instead of a number.
Each export writes one audit event (what, which window, how many rows — never words)."""

import csv
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from cadence import selectors_rollout
from feedback.evaluations import safe_cell
from people.models import Team, User
from people.services_audit import audit_record

from . import org, org_feedback, org_peers, org_skills, skill_lift, snapshots
from .charts import percent
from .privacy import TOO_FEW

EXPORT_VERB = "dashboards.export"


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list]
    as_of: datetime | None = None  # the snapshot's slot, for the file's name


@dataclass(frozen=True)
class Ask:
    """Who reads which window in which time zone; the numbers come from the slot's
    snapshot (`snapshots`), so a page and its downloads agree."""

    reader: User
    weeks: int
    tz: tzinfo

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
                [
                    w.week_start.isoformat(),
                    w.due,
                    w.held,
                    w.missed,
                    w.cancelled,
                    percent(w.adherence),
                ]
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


def _organisation_table(part: str, build: Callable[[Any], Table]) -> Callable[[Ask], Table]:
    """A table of one part of the organisation's snapshot (`snapshots.PARTS`), dated
    by the slot the part is of."""

    def table(ask: Ask) -> Table:
        parts = snapshots.organisation_parts(part, weeks=ask.weeks, tz=ask.tz)
        return replace(build(parts[part]), as_of=parts["as_of"])

    return table


def _health_table(name: str) -> Callable[[Ask], Table]:
    return _organisation_table("health", lambda health: health_tables(health)[name])


ORGANISATION_TABLES: dict[str, Callable[[Ask], Table]] = {
    "metrics": _health_table("metrics"),
    "cancellations": _health_table("cancellations"),
    "weeks": _health_table("weeks"),
    "heatmap": _organisation_table("heatmap", heatmap_table),
    "attention": _organisation_table("attention", attention_table),
    "rollout": _organisation_table("rollout", rollout_table),
}
TEAM_TABLES = ("metrics", "cancellations", "weeks")


def team_table(name: str, *, team: Team, ask: Ask) -> Table:
    snapshot = ask.team(team)
    return replace(health_tables(snapshot.health)[name], as_of=snapshot.as_of)


def skills_table(skills: org_skills.OrgSkills, *, as_of: datetime) -> Table:
    """A row per focus area and month; suppressed averages say so."""
    rows = []
    for area in skills.areas:
        audience = ", ".join(t.name for t in area.teams) or "everyone"
        if area.suppressed:
            rows.append([area.area.name, audience, area.people, "", TOO_FEW, "", TOO_FEW, ""])
            continue
        for m in area.months:
            rows.append(
                [area.area.name, audience, area.people, f"{m.month:%Y-%m}", m.people,
                 _mean_cell(m.others, m.people), m.self_people, _mean_cell(m.self, m.self_people)]
            )  # fmt: skip
    header = ["focus area", "for", "people", "month", "people scored",
              "coaches and peers (average)", "people who assessed themselves",
              "self-assessment (average)"]  # fmt: skip
    return Table(header, rows, as_of=as_of)


def skills_lift_table(skills: org_skills.OrgSkills, *, as_of: datetime) -> Table:
    """Does coaching move skill: a row per focus area and group (1:1s held at least 4
    times in 5, or fewer); groups too small to compare say so, both together."""
    rows = []
    for area in skills.areas:
        lift = area.lift
        if lift is None:
            continue
        audience = ", ".join(t.name for t in area.teams) or "everyone"
        groups = ((skill_lift.KEPT_LABEL, lift.kept), (skill_lift.SLIPPED_LABEL, lift.slipped))
        for label, group in groups:
            numbers = [TOO_FEW, "", "", ""]
            if group is not None:
                numbers = [group.people, group.first, group.last, group.change]
            rows.append([area.area.name, audience, lift.compared, label, *numbers])
    header = ["focus area", "for", "people compared", "1:1s", "people",
              "first month scored (average)", "last month scored (average)", "change"]  # fmt: skip
    return Table(header, rows, as_of=as_of)


def peers_table(peers: org_peers.OrgPeers, *, as_of: datetime) -> Table:
    """A row per month, then one for today with the share of the organisation; a
    month or a today with fewer than five people taking part says so."""
    rows = []
    for m in peers.months:
        numbers = [m.in_pairs, "", m.met, m.sessions, m.started, m.ended]
        rows.append([f"{m.month:%Y-%m}", *([TOO_FEW] + [""] * 5 if m.suppressed else numbers)])
    now = [TOO_FEW, ""] if peers.suppressed_now else [peers.in_pairs_now, percent(peers.share_now)]
    rows.append(["today", *now, "", "", "", ""])
    header = ["month", "people in a pair or trio", "share of everyone", "people who met a peer",
              "peer sessions held", "pairs started", "pairs ended"]  # fmt: skip
    return Table(header, rows, as_of=as_of)


def feedback_table(feedback: org_feedback.OrgFeedback, *, as_of: datetime) -> Table:
    """A row per month, then one for the last RECENT_DAYS: how many people asked and
    gave unasked, and their shares of the organisation. A month or a count of fewer
    than five people says so."""
    rows = []
    for m in feedback.months:
        numbers = [m.asked, m.requests, m.givers, m.unasked_givers, m.given, m.down, m.up,
                   m.peer, m.unasked, m.wins, "", ""]  # fmt: skip
        rows.append([f"{m.month:%Y-%m}", *([TOO_FEW] + [""] * 11 if m.suppressed else numbers)])
    asked, gave = feedback.asked_recently, feedback.gave_unasked_recently
    rows.append([f"last {feedback.recent_days} days", _count_cell(asked), "", "", _count_cell(gave),
                 "", "", "", "", "", "", _share_cell(asked), _share_cell(gave)])  # fmt: skip
    header = ["month", "people who asked for feedback", "requests", "people who gave feedback",
              "people who gave unasked", "feedback given", "down", "up", "between peers",
              "given unasked", "wins shared", "share of everyone who asked",
              "share of everyone who gave unasked"]  # fmt: skip
    return Table(header, rows, as_of=as_of)


def _count_cell(share: org_feedback.Share) -> object:
    return TOO_FEW if share.suppressed else share.count


def _share_cell(share: org_feedback.Share) -> str:
    return "" if share.suppressed else percent(share.share)


def _mean_cell(value: float | None, people: int) -> object:
    if value is not None:
        return value
    return TOO_FEW if people else ""


def write_csv(out, table: Table) -> None:
    writer = csv.writer(out)
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow([safe_cell(value) for value in row])


def export_record(
    *,
    reader: User,
    table: str,
    rows: int,
    weeks: int | None = None,
    team: Team | None = None,
    ip: str | None,
) -> None:
    """`weeks`: the window of a cadence-health table (the skills table has none)."""
    data = {"table": table, "rows": rows} | ({"weeks": weeks} if weeks is not None else {})
    audit_record(actor=reader, verb=EXPORT_VERB, target=team, data=data, ip=ip)


def filename(name: str, *, table: Table, ask: Ask, team: Team | None = None) -> str:
    scope = f"team-{team.pk}" if team is not None else "organisation"
    as_of = table.as_of.astimezone(ask.tz)  # set by ORGANISATION_TABLES and team_table
    return f"cadence-health-{scope}-{name}-{as_of:%Y-%m-%d-%H%M}.csv"
