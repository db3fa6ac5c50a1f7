"""The learning loop in the browser: my experiments (with the prompt menu beside the
form) and each experiment's page; the learnings library with search, filters and tag
counts, publishing (from scratch, from a finished experiment, from a session) and
editing; the playbook modules and a team's picks.

Objects a person may not see are 404; one they see but do not own (a manager reading
a coachee's experiment) is 403 on a change. Refusals come back as 400 on the page
they came from, with the reason, and nothing saved."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from coaching.person_page import person_panel
from core.errors import Forbidden
from core.forms import submit
from core.paging import first_of, page_asked
from people.access import request_roles
from people.roles import Role
from people.selectors import is_in_management_chain

from . import rules, selectors, services
from .forms import (
    ExperimentFinishForm,
    ExperimentForm,
    LearningForm,
    LibraryFilterForm,
    TeamPlaybooksForm,
)
from .models import Audience, Experiment, ExperimentStatus, Learning, LearningKind, PlaybookModule

# --- Experiments ----------------------------------------------------------------------


def _experiment_fields(data: dict) -> dict:
    return {
        name: data.get(name)
        for name in (
            "hypothesis",
            "test",
            "evidence",
            "focus_area",
            "session",
            "commitment",
            "pair",
        )
    }


def _prefill(request) -> dict:
    """A new experiment started from somewhere: a playbook's example ("Try this
    experiment"), a session, a commitment or a pair (only offered choices stick)."""
    initial = {}
    params = request.GET
    if params.get("playbook", "").isdigit() and params.get("example", "").isdigit():
        module = PlaybookModule.objects.filter(pk=int(params["playbook"]), is_active=True).first()
        examples = module.experiment_list if module else []
        index = int(params["example"])
        if index < len(examples):
            initial["test"] = examples[index]
            initial["hypothesis"] = ""
    for name in ("session", "commitment", "pair", "focus_area"):
        if params.get(name, "").isdigit():
            initial[name] = int(params[name])
    return initial


def _render_experiments(request, *, form=None, status=200):
    mine = list(selectors.experiments_of(viewer=request.user, owner=request.user))
    return render(
        request,
        "learning/experiment_list.html",
        {
            "groups": selectors.by_state(mine),
            "total": len(mine),
            "published": selectors.learnings_from_experiments(experiments=mine),
            "from_pairs": first_of(selectors.experiments_from_pairs(viewer=request.user), 50),
            "prompts": selectors.experiment_prompts(),
            "form": form or ExperimentForm(owner=request.user, initial=_prefill(request)),
            "tab": "experiments",
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def experiment_list(request):
    """My experiments by state, and a new one beside the prompt menu."""
    if request.method == "GET":
        return _render_experiments(request)
    form = ExperimentForm(request.POST, owner=request.user)
    ok, experiment = submit(
        form,
        lambda data: services.experiment_create(owner=request.user, **_experiment_fields(data)),
    )
    if ok:
        messages.success(request, "Experiment planned. Start it when you try it for real.")
        return redirect("learning:experiment_detail", experiment.pk)
    return _render_experiments(request, form=form, status=400)


def _render_experiment(request, experiment, *, form=None, finish_form=None, error=None, status=200):
    mine = experiment.owner_id == request.user.pk
    may_change = rules.may_change_experiment(request.user, experiment)
    if may_change and form is None:
        form = ExperimentForm(
            owner=request.user,
            kept=experiment,
            initial={
                "hypothesis": experiment.hypothesis,
                "test": experiment.test,
                "evidence": experiment.evidence,
                "focus_area": experiment.focus_area_id,
                "session": experiment.session_id,
                "commitment": experiment.commitment_id,
                "pair": experiment.pair_id,
            },
        )
    if may_change and finish_form is None:
        finish_form = ExperimentFinishForm(
            initial={"result": experiment.result, "learning": experiment.learning}
        )
    learnings = list(
        experiment.learnings.all()
        .filter(pk__in=Learning.objects.visible_to(request.user).values("pk"))
        .order_by("-published_at")
    )
    return render(
        request,
        "learning/experiment_detail.html",
        {
            "experiment": experiment,
            "mine": mine,
            "may_change": may_change,
            "form": form,
            "finish_form": finish_form,
            "error": error,
            "learnings": learnings,
            "above_owner": not mine
            and is_in_management_chain(manager=request.user, person=experiment.owner_id),
            "tab": "experiments",
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def experiment_detail(request, pk):
    """The experiment; its owner edits it here (the others read it)."""
    if request.method == "GET":
        return _render_experiment(request, selectors.access_experiment(user=request.user, pk=pk))
    experiment = selectors.access_own_experiment(user=request.user, pk=pk)
    form = ExperimentForm(request.POST, owner=request.user, kept=experiment)
    ok, _ = submit(
        form,
        lambda data: services.experiment_update(
            experiment=experiment, actor=request.user, **_experiment_fields(data)
        ),
    )
    if ok:
        messages.success(request, "Experiment saved.")
        return redirect("learning:experiment_detail", experiment.pk)
    return _render_experiment(request, experiment, form=form, status=400)


def _change(request, pk, change, done: str):
    experiment = selectors.access_own_experiment(user=request.user, pk=pk)
    try:
        change(experiment)
    except (ValidationError, Forbidden) as exc:
        experiment.refresh_from_db()
        return _render_experiment(request, experiment, error=exc.messages, status=400)
    messages.success(request, done)
    return redirect("learning:experiment_detail", experiment.pk)


@require_POST
def experiment_start(request, pk):
    return _change(
        request,
        pk,
        lambda e: services.experiment_start(experiment=e, actor=request.user),
        "Started. Try it, and write down what happens.",
    )


@require_POST
def experiment_drop(request, pk):
    return _change(
        request,
        pk,
        lambda e: services.experiment_drop(experiment=e, actor=request.user),
        "Dropped. What you noticed on the way still counts.",
    )


@require_POST
def experiment_finish(request, pk):
    experiment = selectors.access_own_experiment(user=request.user, pk=pk)
    form = ExperimentFinishForm(request.POST)
    ok, _ = submit(
        form,
        lambda data: services.experiment_finish(experiment=experiment, actor=request.user, **data),
    )
    if ok:
        messages.success(request, "Done. Worth sharing? Publish what you learned.")
        return redirect("learning:experiment_detail", experiment.pk)
    experiment.refresh_from_db()
    return _render_experiment(request, experiment, finish_form=form, status=400)


# --- The learnings library ------------------------------------------------------------


@require_GET
def library(request):
    """Search and browse what colleagues shared, with tag counts beside."""
    areas, teams = selectors.library_choices(user=request.user)
    form = LibraryFilterForm(request.GET or None, focus_areas=areas, teams=teams)
    status = 400 if form.is_bound and not form.is_valid() else 200
    filters = form.filters()
    number, page_error = page_asked(request.GET.get("page"))
    if page_error:
        status = 400
    page = selectors.library_page(user=request.user, filters=filters, page_number=number)
    return render(
        request,
        "learning/library.html",
        {
            "form": form,
            "filters": filters,
            "page": page,
            "page_error": page_error,
            "tags": selectors.tag_counts(user=request.user),
            "kinds": LearningKind.choices,
            "tab": "library",
        },
        status=status,
    )


def _initial_from_experiment(experiment: Experiment) -> dict:
    parts = [
        ("Hypothesis", experiment.hypothesis),
        ("What I tried", experiment.test),
        ("What would have changed my mind", experiment.evidence),
        ("What happened", experiment.result),
        ("What I learned", experiment.learning),
    ]
    return {
        "kind": LearningKind.LEARNING,
        "title": experiment.hypothesis[:200],
        "body": "\n\n".join(f"{label}: {text}" for label, text in parts if text),
        "focus_area": experiment.focus_area_id,
        "experiment": experiment.pk,
    }


def _initial_from_session(session) -> dict:
    when = timezone.localtime(session.scheduled_start).strftime("%-d %b %Y")
    return {
        "kind": LearningKind.LEARNING,
        "title": f"From the {session.get_kind_display().lower()} on {when}: ",
        "body": "What we looked at:\n\nWhat worked:\n\nWhat I would tell a colleague to try:",
        "focus_area": session.focus_area_id,
        "session": session.pk,
    }


def _learning_fields(data: dict) -> dict:
    return {
        name: data.get(name)
        for name in ("kind", "title", "body", "tags", "focus_area", "audience", "team")
    }


@require_http_methods(["GET", "POST"])
def learning_new(request):
    """Publish a learning: from scratch, from one of my finished experiments
    (`?experiment=`, prefilled from it), or from a session I took part in (`?session=`)."""
    status = 200
    source = None
    if request.method == "POST":
        form = LearningForm(request.POST, author=request.user)
        ok, learning = submit(
            form,
            lambda data: services.learning_publish(
                author=request.user,
                experiment=data.get("experiment"),
                session=data.get("session"),
                **_learning_fields(data),
            ),
        )
        if ok:
            messages.success(request, "Published. Colleagues can find it in the library now.")
            return redirect("learning:learning_detail", learning.pk)
        status = 400
        source = form.cleaned_data.get("experiment") or form.cleaned_data.get("session")
    else:
        teams = list(selectors.my_teams(person=request.user)[:1])
        initial = {
            "kind": LearningKind.LEARNING,
            "audience": Audience.TEAM if teams else Audience.ORGANISATION,
            "team": teams[0].pk if teams else None,
        }
        if request.GET.get("experiment", "").isdigit():
            source = get_object_or_404(
                Experiment,
                pk=int(request.GET["experiment"]),
                owner=request.user,
                status=ExperimentStatus.DONE,
            )
            initial.update(_initial_from_experiment(source))
        elif request.GET.get("session", "").isdigit():
            source = get_object_or_404(
                selectors.linkable_session(owner=request.user), pk=int(request.GET["session"])
            )
            initial.update(_initial_from_session(source))
        form = LearningForm(author=request.user, initial=initial)
    return render(
        request,
        "learning/learning_form.html",
        {"form": form, "source": source, "learning": None, "tab": "publish"},
        status=status,
    )


@require_GET
def learning_detail(request, pk):
    learning = selectors.access_learning(user=request.user, pk=pk)
    experiment = None
    if learning.experiment_id:
        experiment = (
            Experiment.objects.visible_to(request.user).filter(pk=learning.experiment_id).first()
        )
    return render(
        request,
        "learning/learning_detail.html",
        {
            "learning": learning,
            "may_change": rules.may_change_learning(request.user, learning),
            "experiment": experiment,
            "tab": "library",
        },
    )


@require_http_methods(["GET", "POST"])
def learning_edit(request, pk):
    learning = selectors.access_own_learning(user=request.user, pk=pk)
    status = 200
    if request.method == "POST":
        form = LearningForm(request.POST, author=request.user, kept=learning)
        ok, _ = submit(
            form,
            lambda data: services.learning_update(
                learning=learning, actor=request.user, **_learning_fields(data)
            ),
        )
        if ok:
            messages.success(request, "Saved.")
            return redirect("learning:learning_detail", learning.pk)
        status = 400
    else:
        form = LearningForm(
            author=request.user,
            kept=learning,
            initial={
                "kind": learning.kind,
                "title": learning.title,
                "body": learning.body,
                "tags": ", ".join(t.name for t in learning.tags.all()),
                "focus_area": learning.focus_area_id,
                "audience": learning.audience,
                "team": learning.team_id,
            },
        )
    return render(
        request,
        "learning/learning_form.html",
        {"form": form, "source": None, "learning": learning, "tab": "library"},
        status=status,
    )


@require_POST
def learning_unpublish(request, pk):
    learning = selectors.access_own_learning(user=request.user, pk=pk)
    services.learning_unpublish(learning=learning, actor=request.user)
    messages.success(request, f"“{learning.title}” is no longer in the library.")
    return redirect("learning:library")


# --- Playbooks ------------------------------------------------------------------------


@require_GET
def playbook_list(request):
    """The core playbook and the department add-ons: goals, prompts, a suggested
    cadence and example experiments to try."""
    modules = list(selectors.playbook_modules())
    mine = {t.pk for t in selectors.my_teams(person=request.user)}
    for module in modules:
        module.team_names = [t.name for t in module.teams.all()]
        module.used_by_me = any(t.pk in mine for t in module.teams.all())
    return render(
        request,
        "learning/playbook_list.html",
        {
            "core": [m for m in modules if m.department == "core"],
            "addons": [m for m in modules if m.department != "core"],
            "managed_teams": list(selectors.teams_led_or_below(user=request.user)),
            "is_admin": Role.PROGRAMME_ADMIN in request_roles(request),
            "tab": "playbooks",
        },
    )


@require_http_methods(["GET", "POST"])
def team_playbooks(request, pk):
    """A team's lead (or someone above them) picks the modules the team uses."""
    team = selectors.access_team_playbooks(user=request.user, pk=pk)
    status = 200
    if request.method == "POST":
        form = TeamPlaybooksForm(request.POST)
        ok, _ = submit(
            form,
            lambda data: services.team_playbooks_set(
                team=team, actor=request.user, modules=data["modules"]
            ),
        )
        if ok:
            messages.success(request, f"Saved the playbook modules {team.name} uses.")
            return redirect(reverse("learning:team_playbooks", args=[team.pk]))
        status = 400
    else:
        form = TeamPlaybooksForm(initial={"modules": [m.pk for m in team.playbook_modules.all()]})
    return render(
        request,
        "learning/team_playbooks.html",
        {"team": team, "form": form, "tab": "playbooks"},
        status=status,
    )


@person_panel("learning/_person_experiments.html")
def experiments_context(*, viewer, person) -> dict:
    """For a coachee's page (`coaching.views_person.render_person`, through
    `coaching.person_page`): their experiments as the viewer may see them, newest
    first (one query)."""
    return {
        "person_experiments": first_of(selectors.experiments_of(viewer=viewer, owner=person), 50)
    }
