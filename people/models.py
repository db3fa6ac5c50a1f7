"""People, reporting lines, teams, roles and the audit trail.

Roles are derived, not stored, except the two that are appointments:
- rep / coachee: anyone with a manager (`reports_to`);
- manager: anyone with direct reports; manager of managers: a manager one of whose
  reports is a manager;
- HR and programme admin: membership of the groups named in `people.roles`.
"""

import functools
import zoneinfo
from collections.abc import Iterable
from datetime import time
from importlib import import_module

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Lower
from django.utils import timezone

from core.queries import any_of

from .roles import GROUP_FOR_ROLE, Role


def validate_time_zone(value: str) -> None:
    if value not in available_time_zones():
        raise ValidationError(
            "“%(value)s” is not an IANA time zone (for example Europe/Berlin).",
            params={"value": value},
            code="invalid_time_zone",
        )


_TIME_ZONES: frozenset[str] | None = None


def available_time_zones() -> frozenset[str]:
    global _TIME_ZONES
    if _TIME_ZONES is None:
        _TIME_ZONES = frozenset(zoneinfo.available_timezones())
    return _TIME_ZONES


# Working hours, a person's own setting: when others may find them free for a session
# (cadence.availability). Days as a bit set, Monday = bit 0.
WORK_DAYS_DEFAULT = 0b0011111  # Monday to Friday
WORK_STARTS_DEFAULT = time(9, 0)
WORK_ENDS_DEFAULT = time(17, 0)


def work_days_of(bits: int) -> list[int]:
    """The weekdays (0 = Monday) in a `work_days` bit set."""
    return [day for day in range(7) if bits >> day & 1]


def work_days_bits(days) -> int:
    return sum(1 << int(day) for day in set(days))


def _user_table() -> str:
    return connection.ops.quote_name(User._meta.db_table)


def _below_sql() -> str:
    table = _user_table()
    step = f"SELECT u.id FROM {table} u JOIN below b ON u.reports_to_id = b.id"
    if connection.vendor == "postgresql":
        # Each level's reports read by index, per person of the level before. The plain
        # join is planned for thousands of people a level, so it hashes the level and
        # scans the whole people table for every level, even under a team lead with
        # nobody below their reps (at 10,000 people, measured by bench/routes.py).
        # OFFSET 0 keeps the planner from turning the lateral read back into that join.
        step = (
            f"SELECT u.id FROM below b CROSS JOIN LATERAL"
            f" (SELECT id FROM {table} WHERE reports_to_id = b.id OFFSET 0) u"
        )
    return (
        f"WITH RECURSIVE below(id) AS ("
        f" SELECT id FROM {table} WHERE reports_to_id = %s UNION {step}"
        f") SELECT id FROM below"
    )


def _up_walk(people: int) -> str:
    """`WITH RECURSIVE up(person_id, manager_id)`: each of `people` bound parameters
    (ids) with everyone above them, one row a level. Each step reads the next manager
    with a scalar subquery, one primary-key lookup a row; UNION ends a loop."""
    table = _user_table()
    marks = ", ".join(["%s"] * people)
    return (
        "WITH RECURSIVE up(person_id, manager_id) AS ("
        f" SELECT id, reports_to_id FROM {table} WHERE id IN ({marks})"
        " UNION SELECT up.person_id,"
        f" (SELECT u.reports_to_id FROM {table} u WHERE u.id = up.manager_id)"
        " FROM up WHERE up.manager_id IS NOT NULL)"
    )


# From this many people below someone, the rules of long lists that gather candidate
# ids first would gather most of the organisation: they test each row instead
# (coaching's sessions, scorecards).
LARGE_SCOPE_FROM = 500


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create(self, email, password, **fields):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.full_clean(exclude=["password"])
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **fields):
        fields.setdefault("is_staff", False)
        fields.setdefault("is_superuser", False)
        return self._create(email, password, **fields)

    def create_superuser(self, email, password=None, **fields):
        fields.update(is_staff=True, is_superuser=True)
        return self._create(email, password, **fields)

    def with_email(self, email: str):
        """Whoever has this address, whatever its case, through the unique index on
        LOWER(email): `email__iexact` compares UPPER() and reads every row (growing with
        the organisation; signing in does one)."""
        return self.annotate(email_ci=Lower("email")).filter(email_ci=email.lower())

    def get_by_natural_key(self, email):
        return self.with_email(email).get()

    # The reporting tree, walked with one recursive CTE: a chain of any depth costs
    # one query. UNION (not UNION ALL) stops at a person already seen, so even a
    # cycle slipped in by hand cannot make the walk run forever. The model layer's
    # own reads (each app's `visible_to`) use these; `people.selectors` offers them
    # to everyone else.

    def ids_below(self, person: "User | int") -> RawSQL:
        """The ids of everyone below `person`, as a subquery for `…_id__in=` (no join to
        the people table: cheaper inside a bigger query). On PostgreSQL the walk is read
        through an array: the planner guesses a recursive query returns thousands of rows
        and then scans whole tables; an unnested array it guesses at ten, and it walks the
        indexes — right for everyone but the very top of a large organisation."""
        pk = person.pk if isinstance(person, User) else person
        sql = _below_sql()
        if connection.vendor == "postgresql":
            sql = f"SELECT unnest(ARRAY({sql}))"
        return RawSQL(sql, [pk])  # noqa: S611

    def list_ids_below(self, person: "User | int") -> list[int]:
        """The ids of everyone below `person`, read now, in no particular order: the walk
        alone, without `people_below`'s join back to the people table and its sort by
        name (most of its cost under the head of 10,000 people; bench/routes.py)."""
        pk = person.pk if isinstance(person, User) else person
        with connection.cursor() as cursor:
            cursor.execute(_below_sql(), [pk])
            return [row[0] for row in cursor.fetchall()]

    def below(self, person: "User | int"):
        """Everyone who reports to `person`, directly or indirectly (one query when
        evaluated; composable with further filters)."""
        return self.filter(pk__in=self.ids_below(person))

    def managers_above(self, people: Iterable[int]) -> dict[int, set[int]]:
        """For each of `people` (ids), the ids of everyone above them in the reporting
        line, however many people: one query. The mirror of `people_below`: `m` is in
        `managers_above(people=[p])[p]` exactly when `p` is in `people_below(person=m)`
        (the same UNION walk, so a cycle ends here too). Each step reads the next manager
        with a scalar subquery, one primary-key lookup a row: joined instead, PostgreSQL
        guesses the walk at ten times its size and hashes the whole people table for it
        (measured by bench/routes.py at 10,000 people)."""
        ids = sorted(set(people))
        if not ids:
            return {}
        sql = (
            f"{_up_walk(len(ids))} SELECT person_id, manager_id FROM up"
            " WHERE manager_id IS NOT NULL"
        )
        above: dict[int, set[int]] = {pk: set() for pk in ids}
        with connection.cursor() as cursor:
            cursor.execute(sql, ids)
            for person_id, manager_id in cursor.fetchall():
                above[person_id].add(manager_id)
        return above


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField("email address", max_length=254)
    display_name = models.CharField(max_length=150)
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="IANA time zone, e.g. Europe/Berlin. Sessions are shown in it.",
    )
    work_days = models.PositiveSmallIntegerField(
        default=WORK_DAYS_DEFAULT, help_text="Working days, Monday = 1, Tuesday = 2, … (a bit set)."
    )
    work_starts = models.TimeField(
        default=WORK_STARTS_DEFAULT, help_text="Working hours start, in their time zone."
    )
    work_ends = models.TimeField(
        default=WORK_ENDS_DEFAULT, help_text="Working hours end, in their time zone."
    )
    reports_to = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="direct_reports",
        help_text="Change with the reporting-line service so history is kept.",
    )
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(
        default=False, help_text="May use the admin site (programme admins)."
    )
    date_joined = models.DateTimeField(default=timezone.now)
    # When a worker last handed their welcome email to the mail server: its link works
    # for PASSWORD_RESET_TIMEOUT after that, so "welcome everyone new" skips whoever
    # holds a link that still works (people.welcome).
    welcome_sent_at = models.DateTimeField(null=True, blank=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["display_name"]

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="user_email_unique_ci"),
            models.CheckConstraint(condition=~Q(reports_to=F("pk")), name="user_not_own_manager"),
            models.CheckConstraint(
                condition=Q(work_days__gte=1) & Q(work_days__lte=127), name="user_works_some_day"
            ),
            models.CheckConstraint(
                condition=Q(work_ends__gt=F("work_starts")), name="user_work_ends_after_start"
            ),
        ]
        indexes = [
            # People by name, a page at a time (Programme → People, its API, the people
            # pickers): read in order rather than sorting 10,000 rows for each page.
            models.Index(fields=["display_name", "id"], name="user_by_name"),
        ]

    def __str__(self):
        return self.display_name or self.email

    def clean(self):
        super().clean()
        self.email = self.__class__.objects.normalize_email(self.email).lower()

    def get_full_name(self):
        return self.display_name

    def get_short_name(self):
        return self.display_name.split(" ")[0] if self.display_name else self.email

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)

    @property
    def working_weekdays(self) -> list[int]:
        return work_days_of(self.work_days)


class ReportingLine(models.Model):
    """Who managed whom, when. The open line (ended_at is null) mirrors
    `User.reports_to`; closed lines are history a new manager can follow."""

    report = models.ForeignKey(User, on_delete=models.CASCADE, related_name="reporting_history")
    manager = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["report", "-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["report"],
                condition=Q(ended_at__isnull=True),
                name="reporting_line_one_open_per_person",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")),
                name="reporting_line_ends_after_start",
            ),
            models.CheckConstraint(
                condition=~Q(report=F("manager")), name="reporting_line_not_self"
            ),
        ]
        indexes = [
            # "Who reported to this manager, and when" (coaching history for a manager).
            models.Index(fields=["manager", "started_at"], name="reportingline_by_manager"),
        ]

    def __str__(self):
        return f"{self.report} → {self.manager}"


class TeamQuerySet(models.QuerySet):
    def with_name(self, name: str):
        """The team of this name, whatever its case, through the unique index on
        LOWER(name) (see `UserManager.with_email`)."""
        return self.annotate(name_ci=Lower("name")).filter(name_ci=name.lower())


class Team(models.Model):
    name = models.CharField(max_length=120)
    lead = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="led_teams"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = TeamQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="team_name_unique_ci")]

    def __str__(self):
        return self.name


class TeamMembershipQuerySet(models.QuerySet):
    def current(self):
        return self.filter(left_at__isnull=True)


class TeamMembership(models.Model):
    """Membership with history: leaving sets left_at, so past sessions still know
    which team they belonged to."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)

    objects = TeamMembershipQuerySet.as_manager()

    class Meta:
        ordering = ["team", "person"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "person"],
                condition=Q(left_at__isnull=True),
                name="team_membership_one_open",
            ),
            models.CheckConstraint(
                condition=Q(left_at__isnull=True) | Q(left_at__gte=F("joined_at")),
                name="team_membership_leaves_after_join",
            ),
        ]
        indexes = [
            # "Current teams of this person" (navigation, home pages).
            models.Index(
                fields=["person"],
                condition=Q(left_at__isnull=True),
                name="membership_current_by_person",
            ),
        ]

    def __str__(self):
        return f"{self.person} in {self.team}"


class AuditEvent(models.Model):
    """An append-only record of something worth answering for later: sign-ins, role
    and reporting-line changes, imports, exports, evaluative reads. Never holds
    private words: `data` carries ids and counts only."""

    actor = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verb = models.CharField(max_length=64)
    target_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_id = models.CharField(max_length=64, blank=True)
    target_repr = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            # The Audit log page and API, newest first, a page at a time from a position
            # (people.selectors_audit.audit_page): `ORDER BY at DESC, id DESC LIMIT 51`.
            models.Index(fields=["-at", "-id"], name="audit_recent"),
            # Audit log filtered by verb, newest first (admin, trust report).
            models.Index(fields=["verb", "-at"], name="audit_by_verb_recent"),
            # "What did this person do" (admin filter, data export).
            models.Index(fields=["actor", "-at"], name="audit_by_actor_recent"),
            # "What happened to this person or object" (data export, erasure, admin
            # search by target id).
            models.Index(fields=["target_type", "target_id"], name="audit_by_target"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.verb} {self.target_repr}"


class SignInSession(AbstractBaseSession):
    """A sign-in session (the database session store), with whose it is.

    Django's own table keys sessions by a random id and keeps the user inside the
    signed, encoded data, so finding one person's sessions means decoding every live
    one. `user_id` is written by `people.sessions.SessionStore` on every save — also
    when the key is cycled at sign-in or on a password change — so deactivating or
    erasing someone deletes their sessions with one indexed query. A plain id, not a
    foreign key: a session outliving its user must never make a save fail."""

    user_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)

    class Meta(AbstractBaseSession.Meta):
        db_table = "people_sign_in_session"

    @classmethod
    def get_session_store_class(cls):
        # The configured engine's store, found as Django's middleware finds it
        # (SESSION_ENGINE = "people.sessions"): the engine imports this model.
        return import_module(settings.SESSION_ENGINE).SessionStore


class ImportStatus(models.TextChoices):
    CHECKING = "checking", "Checking"
    READY = "ready", "Ready to import"
    INVALID = "invalid", "Has problems"
    APPLYING = "applying", "Importing"
    APPLIED = "applied", "Imported"
    FAILED = "failed", "Failed"
    DISCARDED = "discarded", "Discarded"


class PeopleImport(models.Model):
    """A CSV file of people uploaded in the browser or the API, checked and then applied
    by a Celery worker (`people.import_jobs`): a whole organisation does not fit in a
    web request. The file's text is kept only while it may still be applied; the
    counts stay as the record of what was done."""

    RUNNING = (ImportStatus.CHECKING, ImportStatus.APPLYING)

    file_name = models.CharField(max_length=255)
    status = models.CharField(
        max_length=16, choices=ImportStatus.choices, default=ImportStatus.CHECKING
    )
    csv_text = models.TextField(blank=True, help_text="Emptied once the import is over.")
    row_count = models.PositiveIntegerField(default=0)
    # What the check found would change, then what the import did: ImportResult.counts().
    checked_counts = models.JSONField(null=True, blank=True)
    applied_counts = models.JSONField(null=True, blank=True)
    problems = models.TextField(blank=True, help_text="One problem per line, by file line.")
    problem_count = models.PositiveIntegerField(default=0)
    uploaded_by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    uploaded_at = models.DateTimeField(default=timezone.now)
    applied_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # When the status last changed: the beat task hands back an import whose worker
    # died mid-way only once it has been running for a while.
    status_changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        indexes = [
            # The import list on the programme pages and the API, newest first.
            models.Index(fields=["-uploaded_at", "-id"], name="import_recent"),
            # The beat task's "imports still running" (few rows, most imports are over).
            models.Index(
                fields=["status_changed_at"],
                condition=Q(status__in=["checking", "applying"]),
                name="import_running_by_age",
            ),
        ]

    def __str__(self):
        return f"{self.file_name} ({self.get_status_display().lower()})"

    @property
    def is_running(self) -> bool:
        return self.status in self.RUNNING

    @property
    def counts(self) -> dict | None:
        return self.applied_counts or self.checked_counts

    def problem_lines(self) -> list[str]:
        return self.problems.splitlines()


class ReportingVersion(models.Model):
    """One row whose `value` a database trigger replaces with a new random one whenever
    a statement may have changed who is below whom: anyone's manager, whether they are
    active, their name (lists below someone are in name order), or a person added or
    removed (migration 0007). The application never writes it except after writing
    people with the triggers off (`reporting_changed`). What is worked out from the
    reporting lines can be kept under the value and stays exact (`people.below`).
    Random, not a counter: a rolled-back change, a restored backup or a recreated
    database never brings back a value something was kept under."""

    value = models.CharField(max_length=36)

    def __str__(self):
        return self.value


# The reporting tree and roles as conditions and reads the models' own querysets use;
# people.selectors offers them to the rest.
def is_below(field: str, *, person: User | int) -> Q:
    """`field` (a person's id) is someone below `person`. On PostgreSQL a condition
    an index answers by itself, so in an OR with other indexed conditions the rows
    come from one BitmapOr of the indexes; `field__in=ids_below(…)` is a semi-join,
    and such an OR reads the whole table (a rep's commitments; bench/routes.py)."""
    pk = person.pk if isinstance(person, User) else person
    return any_of(field, RawSQL(_below_sql(), [pk]))  # noqa: S611


@functools.cache
def _roles_sql(vendor: str) -> str:
    """Every signed-in request asks for its person's roles, so the statement is fixed
    text rather than a query built and compiled each time (bench/routes.py).
    The only text interpolated is our own quoted table names; the person and the
    group names are parameters, in `GROUP_FOR_ROLE`'s order."""
    q = connection.ops.quote_name
    users = q(User._meta.db_table)
    memberships = q(User.groups.through._meta.db_table)
    groups = q(User.groups.field.related_model._meta.db_table)
    in_group = (
        f"EXISTS(SELECT 1 FROM {memberships} m JOIN {groups} g ON g.id = m.group_id"
        f" WHERE m.user_id = me.id AND g.name = %s)"
    )
    return (
        f"SELECT me.reports_to_id,"  # noqa: S608 - our own names, values are parameters
        f" EXISTS(SELECT 1 FROM {users} r WHERE r.is_active AND r.reports_to_id = me.id),"
        f" EXISTS(SELECT 1 FROM {users} r WHERE r.is_active AND r.reports_to_id = me.id"
        f" AND EXISTS(SELECT 1 FROM {users} rr"
        f" WHERE rr.is_active AND rr.reports_to_id = r.id)),"
        f" {', '.join([in_group] * len(GROUP_FOR_ROLE))}"
        f" FROM {users} me WHERE me.id = %s"
    )


def roles_of(user: User) -> frozenset[Role]:
    """All roles the person holds right now (one query): a rep has a manager, a
    manager has active reports, a manager of managers has an active report who has
    active reports; HR and programme admins are appointed by group."""
    if not user.is_authenticated:
        return frozenset()
    with connection.cursor() as cursor:
        cursor.execute(_roles_sql(connection.vendor), [*GROUP_FOR_ROLE.values(), user.pk])
        row = cursor.fetchone()
    if row is None:
        return frozenset()
    reports_to_id, has_reports, has_manager_reports, *in_groups = row
    roles = {role for role, member in zip(GROUP_FOR_ROLE, in_groups, strict=True) if member}
    if reports_to_id:
        roles.add(Role.REP)
    if has_reports:
        roles.add(Role.MANAGER)
    if has_manager_reports:
        roles.add(Role.MANAGER_OF_MANAGERS)
    return frozenset(roles)
