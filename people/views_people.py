"""People (`/programme/people/`), for programme admins: everyone, searched by name or
email, here or deactivated, a page at a time, with their manager and appointments; a
new person; one person's page to change their name and time zone, their manager, their
appointments (HR, programme admin), and to deactivate or reactivate them. All through
`people.services_people`, so each change is audited, the reporting line keeps its
history and a deactivation ends every sign-in at once. Refusals are 400 with the
reason, nothing saved; everyone else gets 404."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import Forbidden
from core.forms import submit
from core.paging import page_asked

from .access import role_required
from .forms_people import (
    AppointmentsForm,
    LeaveForm,
    ManagerForm,
    PeopleSearchForm,
    PersonDetailsForm,
    PersonNewForm,
)
from .roles import Role
from .selectors_people import people_choices, people_page, person_record, welcome_due
from .services_people import (
    appointments_set,
    people_welcome,
    person_create,
    person_deactivate,
    person_details_change,
    person_manager_change,
    person_reactivate,
    person_welcome,
)
from .welcome import link_expired, link_works_until


@require_GET
@role_required(Role.PROGRAMME_ADMIN)
def person_list(request):
    return _list(request, PersonNewForm(user=request.user))


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def people_welcome_view(request):
    try:
        count = people_welcome(actor=request.user)
    except ValidationError as exc:
        return _list(request, PersonNewForm(user=request.user), status=400, refusal=exc.messages)
    noun = "person" if count == 1 else "people"
    messages.success(request, f"A welcome email is on its way to {count} {noun}.")
    return redirect(f"{reverse('people:programme_people')}?show=new")


def _list(request, new_form, *, status=200, refusal=None):
    search = PeopleSearchForm(request.GET)
    valid = search.is_valid()
    q = search.cleaned_data["q"].strip() if valid else ""
    show = search.cleaned_data["show"] if valid else ""
    number, page_error = page_asked(request.GET.get("page"))
    page = people_page(q=q, show=show, page_number=number)
    context = {
        "search": search,
        "q": q,
        "choices": people_choices(show),
        "page": page,
        "page_error": page_error,
        "new_form": new_form,
        "kept": {"q": q, "show": show},
        "refusal": refusal,
        "welcome_due": welcome_due().count() if show == "new" and not q else None,
    }
    failed = status != 200 or page_error or not valid
    return render(request, "people/person_list.html", context, status=400 if failed else 200)


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_new(request):
    form = PersonNewForm(request.POST, user=request.user)
    ok, person = submit(form, lambda data: person_create(actor=request.user, **data))
    if ok:
        told = (
            f"A link to set their password is on its way to {person.email}."
            if form.cleaned_data["welcome"]
            else (
                f"They sign in with {person.email}: by single sign-on, or with a password "
                "they set from “Forgot your password?”."
            )
        )
        messages.success(request, f"{person} is added. {told}")
        return redirect("people:programme_person", pk=person.pk)
    return _list(request, form, status=400)


@require_http_methods(["GET", "POST"])
@role_required(Role.PROGRAMME_ADMIN)
def person_detail(request, pk: int):
    record = person_record(pk=pk)
    if request.method == "GET":
        return _detail(request, record)
    form = PersonDetailsForm(request.POST)
    return _change(
        request,
        record,
        form,
        "details_form",
        lambda data: person_details_change(actor=request.user, person=record.person, **data),
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_manager(request, pk: int):
    record = person_record(pk=pk)
    form = ManagerForm(request.POST, user=request.user)
    return _change(
        request,
        record,
        form,
        "manager_form",
        lambda data: person_manager_change(
            actor=request.user, person=record.person, manager=data["manager"]
        ),
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_appointments(request, pk: int):
    record = person_record(pk=pk)
    form = AppointmentsForm(request.POST)
    return _change(
        request,
        record,
        form,
        "appointments_form",
        lambda data: appointments_set(
            actor=request.user, person=record.person, roles=map(Role, data["roles"])
        ),
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_deactivate_view(request, pk: int):
    record = person_record(pk=pk)
    form = LeaveForm(request.POST)
    return _change(
        request,
        record,
        form,
        "leave_form",
        lambda data: person_deactivate(
            actor=request.user, person=record.person, reason=data["reason"]
        ),
        done=f"{record.person} is deactivated: every sign-in, API token and calendar feed "
        "of theirs is ended, and so are the plans they were in. Their history stays.",
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_welcome_view(request, pk: int):
    record = person_record(pk=pk)
    return _act(
        request,
        record,
        lambda: person_welcome(actor=request.user, person=record.person),
        done=f"A link to set their password is on its way to {record.person.email}.",
    )


@require_POST
@role_required(Role.PROGRAMME_ADMIN)
def person_reactivate_view(request, pk: int):
    record = person_record(pk=pk)
    return _act(
        request,
        record,
        lambda: person_reactivate(actor=request.user, person=record.person),
        done=f"{record.person} can sign in again.",
    )


def _act(request, record, act, *, done):
    """A change without a form (a button): run `act`; say `done`, or show the page again
    with the service's refusal, as a 400."""
    try:
        act()
    except (ValidationError, Forbidden) as exc:
        return _detail(request, record, refusal=" ".join(exc.messages), status=400)
    messages.success(request, done)
    return redirect("people:programme_person", pk=record.person.pk)


def _change(request, record, form, name, change, *, done=None):
    """Submit `form` to `change` (a service call given the cleaned data); on success
    say so and show the page afresh, else show it again with the form's errors, as a
    400."""
    ok, changed = submit(form, change)
    if ok:
        messages.success(request, done or ("Saved." if changed else "Nothing changed."))
        return redirect("people:programme_person", pk=record.person.pk)
    return _detail(request, record, status=400, **{name: form})


def _detail(request, record, *, status=200, refusal=None, **forms):
    person = record.person
    welcome_until = link_works_until(person)
    context = {
        "record": record,
        "person": person,
        "welcome_until": welcome_until,
        "welcome_works": welcome_until is not None and not link_expired(person),
        "is_me": person.pk == request.user.pk,
        "refusal": refusal,
        "details_form": PersonDetailsForm(
            initial={"display_name": person.display_name, "time_zone": person.time_zone}
        ),
        "manager_form": ManagerForm(initial={"manager": person.reports_to_id}, user=request.user),
        "appointments_form": AppointmentsForm(
            initial={"roles": [str(role) for role in record.appointments]}
        ),
        "leave_form": LeaveForm(),
        **forms,
    }
    return render(request, "people/person_detail.html", context, status=status)
