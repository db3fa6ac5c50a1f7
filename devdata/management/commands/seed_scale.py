from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone

from devdata import scale


class Command(BaseCommand):
    help = (
        "Fill an empty database with an organisation at scale and years of coaching history, "
        "for benchmarks (deterministic for a seed, a number of people and a day)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--people", type=int, default=10_000, help="people, leavers included")
        parser.add_argument("--years", type=int, default=2, help="years of history")
        parser.add_argument("--seed", type=int, default=scale.DEFAULT_SEED)
        parser.add_argument(
            "--today",
            type=date.fromisoformat,
            default=None,
            help="the day the history runs up to (YYYY-MM-DD, UTC); default: today",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)
        parser.add_argument(
            "--no-verify",
            action="store_true",
            help="skip the foreign-key check after a load without triggers (PostgreSQL)",
        )

    def handle(self, *args, **options):
        if options["years"] < 1:
            raise CommandError("--years must be at least 1.")
        today = options["today"] or timezone.now().date()
        started = timezone.now()
        self.stdout.write(
            f"Seeding {options['people']:,} people, {options['years']} years of history up to "
            f"{today:%a %d %b %Y}, seed {options['seed']} (started {started:%H:%M:%S} UTC)."
        )
        try:
            result = scale.seed(
                people_count=options["people"],
                years=options["years"],
                seed=options["seed"],
                today=today,
                using=options["database"],
                progress=self._progress,
                verify=not options["no_verify"],
            )
        except scale.Refused as refused:
            raise CommandError(str(refused)) from None
        except ValueError as wrong:
            raise CommandError(str(wrong)) from None
        self._summary(result)

    def _progress(self, line: str) -> None:
        self.stdout.write(f"  {line}")
        self.stdout.flush()

    def _summary(self, result: scale.Result) -> None:
        out = self.stdout.write
        out("")
        out("| phase | rows | seconds |")
        out("| --- | ---: | ---: |")
        for phase in result.phases:
            out(f"| {phase.name} | {sum(phase.rows.values()):,} | {phase.seconds:.1f} |")
        out(f"| total | {sum(result.counts.values()):,} | {result.seconds:.1f} |")
        out("")
        out("| table | rows |")
        out("| --- | ---: |")
        for label, count in sorted(result.counts.items(), key=lambda kv: -kv[1]):
            out(f"| {label} | {count:,} |")
        out("")
        if result.size:
            out(f"Database size: {result.size}.")
        if result.triggers_off:
            out(
                "Loaded with foreign-key triggers off; "
                f"{result.foreign_keys_checked} foreign keys checked afterwards."
            )
        out(self.style.SUCCESS(f"Done in {result.seconds:.1f} s. Sign in as:"))
        width = max(len(what) for what, _ in result.logins)
        for what, email in result.logins:
            out(f"  {what:<{width}}  {email}")
