import io
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from people.importing import COLUMNS, PeopleImportError, decode_csv, people_import


class Command(BaseCommand):
    help = (
        f"Create or update people, reporting lines, teams and appointed roles from a "
        f"UTF-8 CSV file with the columns {', '.join(COLUMNS)}. Every row is checked "
        f"first; if any is wrong nothing is imported. Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="CSV file to import.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Check the file and report what would change, writing nothing.",
        )

    def handle(self, *args, path: Path, dry_run: bool, **options):
        try:
            result = people_import(rows_or_file=_read_lines(path), dry_run=dry_run)
        except PeopleImportError as exc:
            for error in exc.errors:
                self.stderr.write(error)
            raise CommandError(f"{path}: {exc}") from None
        self.stdout.write(self.style.SUCCESS(result.summary()))


def _read_lines(path: Path) -> io.StringIO:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None
    try:
        text = decode_csv(raw)
    except PeopleImportError as exc:
        raise CommandError(f"{path}: {exc.errors[0]}") from None
    # newline="" keeps line endings as they are, as the csv module wants.
    return io.StringIO(text, newline="")
