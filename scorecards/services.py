"""Every change to templates, recorded calls, rounds and scorecards. Keyword-only and
atomic; bad input is a ValidationError with a message a person can act on.

Who may do what is decided in `rules`; a service refuses what the person may not do
with `Forbidden` and its reason (pages show it as any refusal, the API answers 403)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import Forbidden
from people.models import User
from people.selectors import is_in_management_chain

from . import rules
from .models import (
    MAX_SCALE,
    TEXT_LIMIT,
    Anchor,
    Criterion,
    CriterionVersion,
    RaterRole,
    RecordedCall,
    RoundContext,
    RoundRater,
    Score,
    Scorecard,
    ScoringRound,
    Template,
    TemplateVersion,
    WorkKind,
    refresh_awaiting_scores,
)

DEFAULT_SCALE = 4
MAX_CRITERIA = 20
MIN_CALIBRATION_RATERS = 2


# --- Templates ---------------------------------------------------------------------------


@dataclass
class CriterionSpec:
    """One criterion as a template editor describes it. `criterion` names the lineage
    it continues (None: a new criterion)."""

    title: str
    behaviour: str
    scale_max: int = DEFAULT_SCALE
    weight: Decimal | str | int = 1
    anchors: dict[int, str] = field(default_factory=dict)
    criterion: int | None = None


def _require_admin(actor: User) -> None:
    if refusal := rules.why_not_edit_templates(actor):
        raise Forbidden(refusal)


def _clean_specs(specs: list[CriterionSpec], template: Template | None) -> list[CriterionSpec]:
    if not specs:
        raise ValidationError({"criteria": "Give the template at least one criterion."})
    if len(specs) > MAX_CRITERIA:
        raise ValidationError({"criteria": f"Keep a template to {MAX_CRITERIA} criteria."})
    cleaned, titles, lineages = [], set(), set()
    known = set(template.criteria.values_list("pk", flat=True)) if template else set()
    for n, spec in enumerate(specs, start=1):
        title, behaviour = spec.title.strip(), spec.behaviour.strip()
        where = f"Criterion {n}"
        if not title or not behaviour:
            raise ValidationError({"criteria": f"{where}: give a title and the behaviour."})
        if len(title) > 120 or len(behaviour) > TEXT_LIMIT:
            raise ValidationError({"criteria": f"{where}: the title or behaviour is too long."})
        if title.casefold() in titles:
            raise ValidationError({"criteria": f"Two criteria are called “{title}”."})
        titles.add(title.casefold())
        if not isinstance(spec.scale_max, int) or not 2 <= spec.scale_max <= MAX_SCALE:
            raise ValidationError(
                {"criteria": f"{where}: the scale runs from 1 to a top level of 2–{MAX_SCALE}."}
            )
        try:
            weight = Decimal(str(spec.weight))
        except InvalidOperation:
            raise ValidationError({"criteria": f"{where}: the weight is a number."}) from None
        if not Decimal("0") < weight <= Decimal("10"):
            raise ValidationError({"criteria": f"{where}: the weight is between 0 and 10."})
        anchors = {}
        for level, text in (spec.anchors or {}).items():
            if not isinstance(level, int) or not 1 <= level <= spec.scale_max:
                raise ValidationError(
                    {"criteria": f"{where}: anchors are for levels 1–{spec.scale_max}."}
                )
            if text and text.strip():
                anchors[level] = text.strip()[:500]
        if spec.criterion is not None:
            if spec.criterion not in known or spec.criterion in lineages:
                raise ValidationError({"criteria": f"{where}: unknown criterion to continue."})
            lineages.add(spec.criterion)
        cleaned.append(
            CriterionSpec(title, behaviour, spec.scale_max, weight, anchors, spec.criterion)
        )
    return cleaned


def _write_version(
    template: Template, specs: list[CriterionSpec], number: int, actor: User
) -> TemplateVersion:
    version = TemplateVersion.objects.create(template=template, number=number, created_by=actor)
    _write_criteria(version, specs)
    return version


def _write_criteria(version: TemplateVersion, specs: list[CriterionSpec]) -> None:
    anchors = []
    for position, spec in enumerate(specs, start=1):
        lineage = spec.criterion or Criterion.objects.create(template=version.template).pk
        row = CriterionVersion.objects.create(
            version=version,
            criterion_id=lineage,
            position=position,
            title=spec.title,
            behaviour=spec.behaviour,
            scale_max=spec.scale_max,
            weight=spec.weight,
        )
        anchors += [
            Anchor(criterion=row, level=level, description=text)
            for level, text in sorted(spec.anchors.items())
        ]
    Anchor.objects.bulk_create(anchors)


@transaction.atomic
def template_create(
    *, actor: User, name: str, description: str = "", criteria: list[CriterionSpec]
) -> Template:
    _require_admin(actor)
    name = name.strip()
    if not name or len(name) > 120:
        raise ValidationError({"name": "Give the template a name (up to 120 characters)."})
    if Template.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": f"There is already a template called “{name}”."})
    specs = _clean_specs(criteria, None)
    template = Template.objects.create(name=name, description=description.strip())
    _write_version(template, specs, 1, actor)
    return template


def current_version(template: Template) -> TemplateVersion:
    version = template.versions.order_by("-number").first()
    assert version is not None  # a template is made with its first version
    return version


@transaction.atomic
def template_update(
    *,
    actor: User,
    template: Template,
    criteria: list[CriterionSpec] | None = None,
    name: str | None = None,
    description: str | None = None,
) -> TemplateVersion:
    """Change a template's name, description and criteria (None: keep them). A
    version nobody has scored with yet is edited in place; a used one is kept as it
    is and a new version made — only if the criteria really changed — so old
    scorecards keep pointing at what they were scored on. Returns the current
    version."""
    _require_admin(actor)
    template = Template.objects.select_for_update().get(pk=template.pk)
    if template.is_retired:
        raise ValidationError("This template is retired: restore it before editing.")
    specs = None if criteria is None else _clean_specs(criteria, template)
    if name is not None:
        name = name.strip()
        if not name or len(name) > 120:
            raise ValidationError({"name": "Give the template a name (up to 120 characters)."})
        if Template.objects.filter(name__iexact=name).exclude(pk=template.pk).exists():
            raise ValidationError({"name": f"There is already a template called “{name}”."})
        template.name = name
    if description is not None:
        template.description = description.strip()
    template.save()
    version = current_version(template)
    if specs is None or _describe(specs) == _describe_version(version):
        return version
    if version.rounds.exists():
        return _write_version(template, specs, version.number + 1, actor)
    version.criteria.all().delete()
    _write_criteria(version, specs)
    # Criteria dropped before anyone scored with them leave no lineage behind.
    Criterion.objects.filter(template=template, versions__isnull=True).delete()
    return version


def _describe(specs: list[CriterionSpec]) -> list[tuple]:
    return [
        (s.criterion, s.title, s.behaviour, s.scale_max, Decimal(str(s.weight)), s.anchors)
        for s in specs
    ]


def _describe_version(version: TemplateVersion) -> list[tuple]:
    rows = version.criteria.order_by("position").prefetch_related("anchors")
    return [
        (
            c.criterion_id,
            c.title,
            c.behaviour,
            c.scale_max,
            c.weight,
            {a.level: a.description for a in c.anchors.all()},
        )
        for c in rows
    ]


@transaction.atomic
def template_retire(*, actor: User, template: Template, retired: bool = True) -> Template:
    """A retired template is kept (old scorecards point at it) but no longer offered."""
    _require_admin(actor)
    template.retired_at = timezone.now() if retired else None
    template.save(update_fields=["retired_at"])
    return template


# --- Recorded calls ----------------------------------------------------------------------


def _may_act_for(actor: User, person: User) -> bool:
    return actor.pk == person.pk or is_in_management_chain(manager=actor, person=person)


@transaction.atomic
def recorded_call_create(
    *,
    actor: User,
    person: User,
    title: str,
    call_date: date,
    url: str = "",
    timestamps: str = "",
    kind: str = WorkKind.CALL,
) -> RecordedCall:
    if not _may_act_for(actor, person):
        raise ValidationError({"person": "Add calls of your own or of people below you."})
    if not person.is_active:
        raise ValidationError({"person": "This person is no longer here."})
    title = title.strip()
    if not title or len(title) > 200:
        raise ValidationError({"title": "Give the call a title (up to 200 characters)."})
    if kind not in WorkKind.values:
        raise ValidationError({"kind": "A recorded call or a role-play."})
    if kind == WorkKind.CALL and not url.strip():
        raise ValidationError({"url": "Give the link to the recording."})
    today = timezone.localdate()
    if call_date > today or call_date < today - timedelta(days=366):
        raise ValidationError({"call_date": "The call took place within the last year."})
    if len(timestamps) > 2000:
        raise ValidationError({"timestamps": "Keep the moments under 2,000 characters."})
    return RecordedCall.objects.create(
        person=person,
        kind=kind,
        url=url.strip(),
        title=title,
        call_date=call_date,
        timestamps=timestamps.strip(),
        created_by=actor,
    )


# --- Rounds --------------------------------------------------------------------------------


def _offerable(template: Template) -> TemplateVersion:
    if template.is_retired:
        raise ValidationError({"template": f"“{template.name}” is retired; pick another."})
    return current_version(template)


def _open_round(
    *,
    actor: User,
    work: RecordedCall,
    template: Template,
    context: str,
    raters: Sequence[tuple[User, str]],
    title: str = "",
    session_id: int | None = None,
) -> ScoringRound:
    version = _offerable(template)
    people = [person.pk for person, _ in raters]
    if len(set(people)) != len(people):
        raise ValidationError({"raters": "Each person rates once."})
    if any(not person.is_active for person, _ in raters):
        raise ValidationError({"raters": "Someone you picked is no longer here."})
    if context in (RoundContext.SELF, RoundContext.COACH, RoundContext.PEER):
        # The same rater scoring the same call against the same scorecard twice at
        # once is a slip, not a second opinion: carry on in the open round.
        twin = ScoringRound.objects.open().filter(
            work=work, version__template=template, context=context, raters__person__in=people
        )
        if twin.exists():
            raise ValidationError(
                f"This call is already being scored with “{template.name}” this way: "
                "carry on there."
            )
    try:
        with transaction.atomic():
            scoring = ScoringRound.objects.create(
                work=work,
                version=version,
                context=context,
                title=title.strip()[:200],
                created_by=actor,
                session_id=session_id,
            )
    except IntegrityError:
        raise ValidationError(
            "This call is already being scored with this template here."
        ) from None
    RoundRater.objects.bulk_create(
        RoundRater(round=scoring, person=person, role=role) for person, role in raters
    )
    _refresh(scoring)
    return scoring


def _refresh(scoring: ScoringRound) -> None:
    """Whether the round still waits for someone's scores (`scoring_over`), after
    whatever changed it; under the round's lock, or as it is opened."""
    refresh_awaiting_scores(ScoringRound.objects.filter(pk=scoring.pk))


@transaction.atomic
def self_assessment_open(*, actor: User, work: RecordedCall, template: Template) -> ScoringRound:
    """The subject scores their own call, alone."""
    if refusal := rules.why_not_self_assess(actor, work):
        raise Forbidden(refusal)
    return _open_round(
        actor=actor,
        work=work,
        template=template,
        context=RoundContext.SELF,
        raters=[(actor, RaterRole.SUBJECT)],
    )


@transaction.atomic
def coach_scoring_open(*, actor: User, work: RecordedCall, template: Template) -> ScoringRound:
    """A manager (or anyone above the subject) scores a call, and the subject is asked
    to score it too — first: the coach's scores stay hidden until they have."""
    if refusal := rules.why_not_coach_score(actor, work):
        raise Forbidden(refusal)
    return _open_round(
        actor=actor,
        work=work,
        template=template,
        context=RoundContext.COACH,
        raters=[(actor, RaterRole.COACH), (work.person, RaterRole.SUBJECT)],
    )


@transaction.atomic
def peer_scoring_open(
    *, actor: User, work: RecordedCall, template: Template, peers: list[User]
) -> ScoringRound:
    """The subject asks colleagues to score a call of theirs, and scores it too."""
    if refusal := rules.why_not_ask_peers(actor, work):
        raise Forbidden(refusal)
    if not peers:
        raise ValidationError({"raters": "Ask at least one colleague."})
    if any(p.pk == actor.pk for p in peers):
        raise ValidationError({"raters": "You score it as the subject; ask someone else."})
    return _open_round(
        actor=actor,
        work=work,
        template=template,
        context=RoundContext.PEER,
        raters=[(actor, RaterRole.SUBJECT), *((p, RaterRole.PEER) for p in peers)],
    )


@transaction.atomic
def team_review_scoring_open(
    *,
    actor: User,
    work: RecordedCall,
    template: Template,
    session_id: int,
    manager: User | None,
    participants: list[User],
) -> ScoringRound:
    """Every participant of a team call review scores the presented call; the
    presenter (the call's owner) scores it as the subject, and the manager's
    scorecard is revealed last. Called by coaching, which knows the session."""
    raters = [(work.person, RaterRole.SUBJECT)]
    if manager is not None and manager.pk != work.person_id:
        raters.append((manager, RaterRole.MANAGER))
    seen = {pk for pk in (work.person_id, manager.pk if manager else None) if pk}
    raters += [(p, RaterRole.PARTICIPANT) for p in participants if p.pk not in seen]
    return _open_round(
        actor=actor,
        work=work,
        template=template,
        context=RoundContext.TEAM_REVIEW,
        raters=raters,
        session_id=session_id,
    )


@transaction.atomic
def calibration_open(
    *, actor: User, work: RecordedCall, template: Template, raters: list[User], title: str
) -> ScoringRound:
    """A programme admin or a manager of managers picks one call and invites raters
    (typically all managers); each scores blind until it is closed."""
    if refusal := rules.why_not_calibrate(actor):
        raise Forbidden(refusal)
    if len(raters) < MIN_CALIBRATION_RATERS:
        raise ValidationError({"raters": "Invite at least two raters: agreement needs company."})
    if not title.strip():
        raise ValidationError({"title": "Name the calibration, e.g. “Q3 discovery calibration”."})
    return _open_round(
        actor=actor,
        work=work,
        template=template,
        context=RoundContext.CALIBRATION,
        raters=[(r, RaterRole.CALIBRATOR) for r in raters],
        title=title,
    )


def _locked(scoring: ScoringRound) -> ScoringRound:
    return ScoringRound.objects.select_for_update().get(pk=scoring.pk)


@transaction.atomic
def round_close(*, actor: User, scoring: ScoringRound) -> ScoringRound:
    """Closing reveals a calibration and the manager's scorecard in a team review, and
    ends scoring: drafts stay drafts."""
    scoring = _locked(scoring)
    if refusal := rules.why_not_close(actor, scoring):
        raise Forbidden(refusal)
    if scoring.is_closed:
        raise ValidationError("This scoring is already closed.")
    scoring.closed_at = timezone.now()
    scoring.save(update_fields=["closed_at"])
    _refresh(scoring)
    return scoring


def _rater(scoring: ScoringRound, actor: User) -> RoundRater:
    rater = RoundRater.objects.filter(round=scoring, person=actor).first()
    if rater is None:
        raise Forbidden(rules.NOT_A_RATER)
    return rater


@transaction.atomic
def round_decline(*, actor: User, scoring: ScoringRound) -> RoundRater:
    """Not scoring this one (the subject may skip self-assessment and still see the
    coach's scores)."""
    scoring = _locked(scoring)
    rater = _rater(scoring, actor)
    if scoring.is_closed:
        raise ValidationError("This scoring is closed.")
    if Scorecard.objects.filter(round=scoring, rater=actor, submitted_at__isnull=False).exists():
        raise ValidationError("You already submitted your scores.")
    if rater.declined_at is None:
        rater.declined_at = timezone.now()
        rater.save(update_fields=["declined_at"])
        Scorecard.objects.filter(round=scoring, rater=actor).delete()  # drop a draft
        _refresh(scoring)
    return rater


# --- Scorecards ------------------------------------------------------------------------------


@dataclass
class ScoreInput:
    criterion: int  # a CriterionVersion id of the round's version
    rating: int | None
    evidence_at: str = ""
    evidence: str = ""


@transaction.atomic
def scorecard_save(
    *,
    actor: User,
    scoring: ScoringRound,
    scores: list[ScoreInput],
    keep: str = "",
    try_next: str = "",
    submit: bool = False,
) -> Scorecard:
    """Save the actor's scorecard in a round as a draft, or submit it. Every rating
    must be on its criterion's scale and every criterion of the round's template
    version rated before submitting; submitted scorecards are final."""
    scoring = _locked(scoring)
    rater = _rater(scoring, actor)
    if scoring.is_closed:
        raise ValidationError("This scoring is closed.")
    if rater.declined_at is not None:
        raise ValidationError("You declined to score this call.")
    criteria = {c.pk: c for c in scoring.version.criteria.all()}
    seen = set()
    for item in scores:
        criterion = criteria.get(item.criterion)
        if criterion is None:
            raise ValidationError({"scores": "A score is for a criterion of another template."})
        if item.criterion in seen:
            raise ValidationError({"scores": f"“{criterion.title}” is scored twice."})
        seen.add(item.criterion)
        if item.rating is not None and not (
            isinstance(item.rating, int) and 1 <= item.rating <= criterion.scale_max
        ):
            raise ValidationError(
                {"scores": f"“{criterion.title}” is rated from 1 to {criterion.scale_max}."}
            )
        if len(item.evidence_at) > 12 or len(item.evidence) > 500:
            raise ValidationError(
                {"scores": f"“{criterion.title}”: keep the moment short and the note under 500."}
            )
    rated = {i.criterion for i in scores if i.rating is not None}
    if submit and rated != set(criteria):
        missing = [c.title for pk, c in criteria.items() if pk not in rated]
        raise ValidationError(
            {"scores": f"Rate every criterion before submitting: {', '.join(missing)}."}
        )
    if len(keep) > TEXT_LIMIT or len(try_next) > TEXT_LIMIT:
        raise ValidationError("Keep the summary under 2,000 characters each.")
    card, _ = Scorecard.objects.get_or_create(
        round=scoring,
        rater=actor,
        defaults={
            "rater_role": rater.role,
            "subject_id": scoring.work.person_id,
            "version": scoring.version,
            "context": scoring.context,
        },
    )
    if card.submitted_at is not None:
        raise ValidationError("You already submitted your scores; they are final.")
    card.keep, card.try_next = keep.strip(), try_next.strip()
    if submit:
        card.submitted_at = timezone.now()
    card.save()
    card.scores.all().delete()
    Score.objects.bulk_create(
        Score(
            scorecard=card,
            criterion_id=i.criterion,
            rating=i.rating,
            evidence_at=i.evidence_at.strip(),
            evidence=i.evidence.strip(),
        )
        for i in scores
        if i.rating is not None
    )
    if submit:
        _refresh(scoring)
    return card
