"""API pieces about people that every app's API uses: a person (or people) by id
in a request body, and the permission "everyone reads, programme admins write"."""

from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.relations import MANY_RELATION_KWARGS

from core.api import MAX_ID

from .access import request_roles
from .models import User
from .roles import Role


class PersonField(serializers.PrimaryKeyRelatedField):
    """An active person, by id. An unknown or deactivated id is a clear 400. With
    `many=True`, a list of ids read in one query (`PeopleField`)."""

    default_error_messages = {
        "does_not_exist": "No active person with id {pk_value}.",
        "incorrect_type": "Give a person's id (a number), not {data_type}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", User.objects.filter(is_active=True))
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        # As `PeopleField` reads each id: 1.5 and true would otherwise be person 1.
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)

    @classmethod
    def many_init(cls, *args, **kwargs):
        list_kwargs = {"child_relation": cls(*args, **kwargs)}
        for key in kwargs:
            if key in MANY_RELATION_KWARGS:
                list_kwargs[key] = kwargs[key]
        return PeopleField(**list_kwargs)


class PeopleField(serializers.ManyRelatedField):
    """People by id, all read in one query (DRF reads a list of related ids one query
    per id). Each id is checked as `PersonField` checks one, in the order given."""

    def to_internal_value(self, data):
        if isinstance(data, str) or not hasattr(data, "__iter__"):
            self.fail("not_a_list", input_type=type(data).__name__)
        if not self.allow_empty and len(data) == 0:
            self.fail("empty")
        child = self.child_relation
        ids = []
        for item in data:
            if isinstance(item, bool) or not isinstance(item, int | str):
                child.fail("incorrect_type", data_type=type(item).__name__)
            try:
                ids.append(int(item))
            except (TypeError, ValueError):
                child.fail("incorrect_type", data_type=type(item).__name__)
        found = child.get_queryset().in_bulk([pk for pk in ids if 0 < pk <= MAX_ID])
        for pk in ids:
            if pk not in found:
                child.fail("does_not_exist", pk_value=pk)
        return [found[pk] for pk in ids]


# Programme configuration (focus areas, prompts, the interpretive word list, scorecard
# templates): everyone signed in reads, programme admins write. Others get 403 on
# writes: what they tried to change is not hidden from them, only not theirs. (A
# comment, not a docstring: drf-spectacular would show it.)
class ReadOrProgrammeAdmin(BasePermission):
    message = "Only programme admins can change this."

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        return request.method in SAFE_METHODS or Role.PROGRAMME_ADMIN in request_roles(request)
