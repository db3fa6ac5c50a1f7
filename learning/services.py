"""Every change in the learning loop: experiments (planned → running → done or
dropped), learnings published to the library, and the playbook modules a team uses.

Keyword-only, atomic; nothing is half-written. What the person may not do at all raises
`core.errors.Forbidden` with the reason from `rules` (a 403 in the API); bad input or a
state that does not allow it raises django's ValidationError with the reason (a 400)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from coaching.models import CoachingSession, Commitment, FocusArea
from core.errors import Forbidden
from peers.models import PeerPair
from people.models import Team, User

from . import rules, selectors
from .models import (
    BODY_LIMIT,
    Audience,
    Experiment,
    ExperimentStatus,
    Learning,
    LearningKind,
    LearningTag,
    PlaybookModule,
)

MAX_TAGS = 20
TAG_LENGTH = 40

# --- Experiments ----------------------------------------------------------------------

EXPERIMENT_LIMITS = {"hypothesis": 300, "test": 2_000, "evidence": 500}
RESULT_LIMIT = 2_000


def _text(value) -> str:
    return (value or "").strip()


def _check_experiment_text(*, hypothesis: str, test: str, evidence: str) -> dict:
    fields = {"hypothesis": _text(hypothesis), "test": _text(test), "evidence": _text(evidence)}
    errors = {}
    if not fields["hypothesis"]:
        errors["hypothesis"] = "Write the hypothesis: what you believe, in a sentence."
    if not fields["test"]:
        errors["test"] = "Say what you will try this week: where, how many times."
    for name, limit in EXPERIMENT_LIMITS.items():
        if name not in errors and len(fields[name]) > limit:
            errors[name] = f"Keep this under {limit} characters."
    if errors:
        raise ValidationError(errors)
    return fields


def _refused(choices) -> dict[str, str]:
    """(field, chosen object, id already linked, what may be chosen, message) → the
    messages for objects that may not be chosen. What is already linked may stay."""
    errors = {}
    for name, chosen, kept_id, offered, message in choices:
        if chosen is None or chosen.pk == kept_id:
            continue
        if not offered().filter(pk=chosen.pk).exists():
            errors[name] = message
    return errors


def _check_links(
    *,
    owner: User,
    focus_area: FocusArea | None,
    session: CoachingSession | None,
    commitment: Commitment | None,
    pair: PeerPair | None,
    kept: Experiment | None = None,
) -> dict:
    """A session the owner took part in, a commitment they may see, a live pair they
    are a current member of, a current focus area that applies to them. What an
    experiment already links to may stay (an ended focus area, a pair left since)."""
    keep = kept or Experiment()
    errors = _refused(
        [
            (
                "focus_area",
                focus_area,
                keep.focus_area_id,
                lambda: selectors.focus_areas_for(person=owner),
                "Pick a current focus area that applies to you.",
            ),
            (
                "session",
                session,
                keep.session_id,
                lambda: selectors.linkable_session(owner=owner),
                "Link a session you took part in.",
            ),
            (
                "commitment",
                commitment,
                keep.commitment_id,
                lambda: selectors.commitments_to_link(owner=owner),
                "Link one of your commitments, or one you wrote down.",
            ),
            (
                "pair",
                pair,
                keep.pair_id,
                lambda: selectors.pairs_to_link(owner=owner),
                "Link a peer pair you are in.",
            ),
        ]
    )
    if errors:
        raise ValidationError(errors)
    return {"focus_area": focus_area, "session": session, "commitment": commitment, "pair": pair}


@transaction.atomic
def experiment_create(
    *,
    owner: User,
    hypothesis: str,
    test: str,
    evidence: str = "",
    focus_area: FocusArea | None = None,
    session: CoachingSession | None = None,
    commitment: Commitment | None = None,
    pair: PeerPair | None = None,
) -> Experiment:
    """A new, planned experiment, owned by whoever writes it down."""
    if refusal := rules.why_not_plan_experiment(owner):
        raise Forbidden(refusal)
    fields = _check_experiment_text(hypothesis=hypothesis, test=test, evidence=evidence)
    links = _check_links(
        owner=owner, focus_area=focus_area, session=session, commitment=commitment, pair=pair
    )
    return Experiment.objects.create(owner=owner, **fields, **links)


def _lock_experiment(experiment: Experiment, actor: User) -> Experiment:
    """The owner's own experiment, locked: 404 for anyone who may not see it, a
    refusal for someone who sees it but does not run it."""
    if not Experiment.objects.visible_to(actor).filter(pk=experiment.pk).exists():
        raise Http404
    locked = Experiment.objects.select_for_update().select_related("owner").get(pk=experiment.pk)
    if refusal := rules.why_not_change_experiment(actor, locked):
        raise Forbidden(refusal)
    return locked


@transaction.atomic
def experiment_update(
    *,
    experiment: Experiment,
    actor: User,
    hypothesis: str,
    test: str,
    evidence: str = "",
    focus_area: FocusArea | None = None,
    session: CoachingSession | None = None,
    commitment: Commitment | None = None,
    pair: PeerPair | None = None,
) -> Experiment:
    experiment = _lock_experiment(experiment, actor)
    fields = _check_experiment_text(hypothesis=hypothesis, test=test, evidence=evidence)
    links = _check_links(
        owner=experiment.owner,
        focus_area=focus_area,
        session=session,
        commitment=commitment,
        pair=pair,
        kept=experiment,
    )
    changes = {**fields, **links}
    for name, value in changes.items():
        setattr(experiment, name, value)
    experiment.save(update_fields=list(changes))
    return experiment


@transaction.atomic
def experiment_start(*, experiment: Experiment, actor: User) -> Experiment:
    experiment = _lock_experiment(experiment, actor)
    if experiment.status != ExperimentStatus.PLANNED:
        state = experiment.get_status_display().lower()
        raise ValidationError(f"Only a planned experiment starts; this one is {state}.")
    experiment.status, experiment.started_at = ExperimentStatus.RUNNING, timezone.now()
    experiment.save(update_fields=["status", "started_at"])
    return experiment


def _check_result(result: str, learning: str) -> tuple[str, str]:
    result, learning = _text(result), _text(learning)
    errors = {}
    if not result:
        errors["result"] = "Write what happened before you finish: the result is the point."
    elif len(result) > RESULT_LIMIT:
        errors["result"] = f"Keep this under {RESULT_LIMIT} characters."
    if len(learning) > RESULT_LIMIT:
        errors["learning"] = f"Keep this under {RESULT_LIMIT} characters."
    if errors:
        raise ValidationError(errors)
    return result, learning


@transaction.atomic
def experiment_finish(
    *, experiment: Experiment, actor: User, result: str, learning: str = ""
) -> Experiment:
    """Record what happened and what was learned, and mark it done. A planned
    experiment may finish straight away (it was tried without pressing start); a
    done one may have its result and learning corrected."""
    experiment = _lock_experiment(experiment, actor)
    if experiment.status == ExperimentStatus.DROPPED:
        raise ValidationError("This experiment was dropped; start a new one instead.")
    result, learning = _check_result(result, learning)
    now = timezone.now()
    experiment.result, experiment.learning = result, learning
    if experiment.status != ExperimentStatus.DONE:
        experiment.status, experiment.finished_at = ExperimentStatus.DONE, now
        experiment.started_at = experiment.started_at or now
    experiment.save(update_fields=["result", "learning", "status", "started_at", "finished_at"])
    return experiment


@transaction.atomic
def experiment_drop(*, experiment: Experiment, actor: User) -> Experiment:
    """Let it go (no reason asked: an experiment that no longer fits is information)."""
    experiment = _lock_experiment(experiment, actor)
    if experiment.status in (ExperimentStatus.DONE, ExperimentStatus.DROPPED):
        raise ValidationError(
            f"This experiment is already {experiment.get_status_display().lower()}."
        )
    experiment.status, experiment.finished_at = ExperimentStatus.DROPPED, timezone.now()
    experiment.save(update_fields=["status", "finished_at"])
    return experiment


# --- The learnings library ------------------------------------------------------------


def parse_tags(value) -> list[str]:
    """ "Discovery, pricing ,, discovery" → ["discovery", "pricing"]: comma-separated
    (or a list), trimmed, inner spaces collapsed, lower case, each once, in order."""
    items = value.split(",") if isinstance(value, str) else list(value or [])
    names: list[str] = []
    for item in items:
        name = " ".join(str(item).split()).lower()
        if name and name not in names:
            names.append(name)
    return names


def _check_tags(value) -> list[str]:
    names = parse_tags(value)
    too_long = [n for n in names if len(n) > TAG_LENGTH]
    if too_long:
        raise ValidationError(
            {"tags": f"Keep each tag to {TAG_LENGTH} characters: “{too_long[0][:50]}…” is longer."}
        )
    if len(names) > MAX_TAGS:
        raise ValidationError(
            {"tags": f"At most {MAX_TAGS} tags: pick the ones people will search for."}
        )
    return names


def _tag_rows(names: list[str]) -> list[LearningTag]:
    """The tags by name, made when new (two or three queries whatever the number)."""
    if not names:
        return []
    LearningTag.objects.bulk_create([LearningTag(name=n) for n in names], ignore_conflicts=True)
    return list(LearningTag.objects.filter(name__in=names))


def _check_learning(
    *,
    author: User,
    kind: str,
    title: str,
    body: str,
    focus_area: FocusArea | None,
    audience: str,
    team: Team | None,
    kept: Learning | None = None,
) -> dict:
    title, body = _text(title), _text(body)
    errors = {}
    if kind not in LearningKind.values:
        errors["kind"] = "Pick a kind: a learning, a case study, a checklist or a template."
    if not title:
        errors["title"] = "Give it a title people will recognise in a list."
    elif len(title) > 200:
        errors["title"] = "Keep the title under 200 characters."
    if not body:
        errors["body"] = "Write what you learned: what you tried, what happened, what to copy."
    elif len(body) > BODY_LIMIT:
        errors["body"] = f"Keep it under {BODY_LIMIT} characters."
    keep = kept or Learning()
    if audience not in Audience.values:
        errors["audience"] = "Choose who sees it: your team or the whole organisation."
    elif audience == Audience.TEAM and team is None:
        errors["team"] = "Pick the team that sees it, or share it with the whole organisation."
    refused = _refused(
        [
            (
                "team",
                team,
                keep.team_id,
                lambda: selectors.my_teams(person=author),
                "Pick a team you are on (or lead).",
            ),
            (
                "focus_area",
                focus_area,
                keep.focus_area_id,
                lambda: selectors.focus_areas_for(person=author),
                "Pick a current focus area that applies to you.",
            ),
        ]
    )
    errors = {**refused, **errors}
    if errors:
        raise ValidationError(errors)
    return {
        "kind": kind,
        "title": title,
        "body": body,
        "focus_area": focus_area,
        "audience": audience,
        "team": team,
    }


def _checked(check, fields: dict, tags) -> tuple[dict, list[str]]:
    """The fields and the tags checked together, so every reason is given at once."""
    errors: dict = {}
    checked, names = {}, []
    try:
        checked = check(**fields)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    try:
        names = _check_tags(tags)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    return checked, names


@transaction.atomic
def learning_publish(
    *,
    author: User,
    kind: str,
    title: str,
    body: str,
    audience: str,
    tags=(),
    focus_area: FocusArea | None = None,
    team: Team | None = None,
    experiment: Experiment | None = None,
    session: CoachingSession | None = None,
) -> Learning:
    """Share something that worked (or did not) with my team or the organisation.
    From one of my finished experiments, or from a session I took part in, or from
    scratch. A team is the audience (team) or where it comes from (organisation)."""
    fields, names = _checked(
        _check_learning,
        dict(
            author=author,
            kind=kind,
            title=title,
            body=body,
            focus_area=focus_area,
            audience=audience,
            team=team,
        ),
        tags,
    )
    if experiment is not None:
        own = Experiment.objects.filter(pk=experiment.pk, owner=author)
        if not own.filter(status=ExperimentStatus.DONE).exists():
            raise ValidationError(
                {"experiment": "Publish from one of your own experiments once it is done."}
            )
    if (
        session is not None
        and not selectors.linkable_session(owner=author).filter(pk=session.pk).exists()
    ):
        raise ValidationError({"session": "Publish from a session you took part in."})
    now = timezone.now()
    learning = Learning.objects.create(
        author=author,
        experiment=experiment,
        session=session,
        published_at=now,
        updated_at=now,
        **fields,
    )
    learning.tags.set(_tag_rows(names))
    return learning


def _lock_learning(learning: Learning, actor: User) -> Learning:
    if not Learning.objects.visible_to(actor).filter(pk=learning.pk).exists():
        raise Http404
    locked = Learning.objects.select_for_update().get(pk=learning.pk)
    if refusal := rules.why_not_change_learning(actor, locked):
        raise Forbidden(refusal)
    return locked


@transaction.atomic
def learning_update(
    *,
    learning: Learning,
    actor: User,
    kind: str,
    title: str,
    body: str,
    audience: str,
    tags=(),
    focus_area: FocusArea | None = None,
    team: Team | None = None,
) -> Learning:
    learning = _lock_learning(learning, actor)
    fields, names = _checked(
        _check_learning,
        dict(
            author=actor,
            kind=kind,
            title=title,
            body=body,
            focus_area=focus_area,
            audience=audience,
            team=team,
            kept=learning,
        ),
        tags,
    )
    for name, value in fields.items():
        setattr(learning, name, value)
    learning.updated_at = timezone.now()
    learning.save(update_fields=[*fields, "updated_at"])
    learning.tags.set(_tag_rows(names))
    return learning


@transaction.atomic
def learning_unpublish(*, learning: Learning, actor: User) -> None:
    """Take it out of the library (gone for everyone; tags nobody uses any more stay
    as names but are counted nowhere)."""
    learning = _lock_learning(learning, actor)
    learning.delete()


# --- Playbooks ------------------------------------------------------------------------


@transaction.atomic
def team_playbooks_set(*, team: Team, actor: User, modules) -> list[PlaybookModule]:
    """The team's lead (or someone above them) picks the active modules the team
    uses. Inactive modules picked earlier stay picked: an admin may switch one back on."""
    if not selectors.teams_led_or_below(user=actor).filter(pk=team.pk).exists():
        raise Http404
    chosen = list(modules)
    inactive = [m for m in chosen if not m.is_active]
    if inactive:
        raise ValidationError(
            {"modules": f"“{inactive[0].name}” is not offered any more: pick an active module."}
        )
    Team.objects.select_for_update().filter(pk=team.pk).first()
    kept = list(team.playbook_modules.filter(is_active=False))
    team.playbook_modules.set([*chosen, *kept])
    return chosen
