"""Importing people from the browser (programme admins; 404 to everyone else): upload
a CSV file, read what it would change once a worker has counted it, then apply or
discard it. A wrong file is refused at once with every problem by line (400, nothing
kept). While a worker runs, the import's status polls itself with htmx."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.paging import page_asked

from . import selectors_imports as selectors
from . import services_imports as services
from .access import role_required
from .forms import PeopleImportForm
from .importing import COLUMNS, PeopleImportError
from .roles import Role

PROBLEMS_SHOWN = 200  # of a refused upload; the rest are counted

# What the upload page offers to start from; docs/people-and-roles.md points at it too.
EXAMPLE_CSV = settings.BASE_DIR / "docs" / "examples" / "people.csv"


def _list_page(request, *, form, problems=(), status=200):
    number, page_error = page_asked(request.GET.get("page"))
    context = {
        "form": form,
        "problems": problems[:PROBLEMS_SHOWN],
        "problems_more": max(len(problems) - PROBLEMS_SHOWN, 0),
        "page": selectors.imports_page(number),
        "page_error": page_error,
        "columns": COLUMNS,
    }
    status = 400 if page_error else status
    return render(request, "people/import_list.html", context, status=status)


@role_required(Role.PROGRAMME_ADMIN)
@require_http_methods(["GET", "POST"])
def import_list(request):
    """The upload form and every import so far; a POST uploads a file."""
    if request.method == "GET":
        return _list_page(request, form=PeopleImportForm())
    form = PeopleImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _list_page(request, form=form, status=400)
    upload = form.cleaned_data["file"]
    try:
        job = services.import_upload(actor=request.user, file_name=upload.name, raw=upload.read())
    except PeopleImportError as exc:
        form.add_error("file", _refusal(exc.errors))
        return _list_page(request, form=form, problems=exc.errors, status=400)
    messages.success(request, f"{job.file_name}: every row is valid. Counting what would change…")
    return redirect("people:people_import_detail", pk=job.pk)


def _refusal(errors: list[str]) -> str:
    if len(errors) == 1:
        return "Nothing was kept: fix this and upload the file again."
    return f"Nothing was kept: fix these {len(errors)} problems and upload the file again."


def _detail_page(request, job, *, error=None, status=200):
    template = "people/_import_status.html" if request.htmx else "people/import_detail.html"
    return render(request, template, {"job": job, "error": error}, status=status)


@role_required(Role.PROGRAMME_ADMIN)
@require_GET
def import_detail(request, pk):
    """One import; asked by htmx, only its status panel (which polls while it runs)."""
    return _detail_page(request, get_object_or_404(selectors.imports(), pk=pk))


def _act(request, pk, service, done):
    job = get_object_or_404(selectors.imports(), pk=pk)
    try:
        job = service(actor=request.user, job=job)
    except PeopleImportError as exc:
        return _detail_page(request, job, error=exc.errors[0], status=400)
    messages.success(request, done.format(name=job.file_name))
    return redirect("people:people_import_detail", pk=job.pk)


@role_required(Role.PROGRAMME_ADMIN)
@require_POST
def import_apply(request, pk):
    return _act(request, pk, services.import_apply, "Importing {name}…")


@role_required(Role.PROGRAMME_ADMIN)
@require_POST
def import_discard(request, pk):
    return _act(request, pk, services.import_discard, "Discarded {name}; nothing was imported.")


@role_required(Role.PROGRAMME_ADMIN)
@require_GET
def import_example(request):
    response = HttpResponse(EXAMPLE_CSV.read_bytes(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="people-example.csv"'
    return response
