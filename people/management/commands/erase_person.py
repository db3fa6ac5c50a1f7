from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from people.erasure import person_erase
from people.models import User


class Command(BaseCommand):
    help = (
        "Erase a departed (deactivated) person: their private notes, pair notes and "
        "developmental feedback are deleted, evaluative records kept, the person "
        "anonymised. Shows what would happen (a dry run) unless --execute is given."
    )

    def add_arguments(self, parser):
        parser.add_argument("email", help="The person's email address.")
        parser.add_argument(
            "--execute",
            action="store_true",
            help="Carry the plan out. Without it nothing is changed.",
        )

    def handle(self, *args, email: str, execute: bool, **options):
        person = User.objects.with_email(email.strip()).first()
        if person is None:
            raise CommandError(f"Nobody has the email address {email}.")
        try:
            plan = person_erase(actor=None, person=person, dry_run=not execute, via="command")
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        heading = "Erased" if execute else "Dry run (nothing changed; add --execute)"
        self.stdout.write(f"{heading}: person #{person.pk}")
        width = max([len(row["model"]) for row in plan.rows()] + [5])
        self.stdout.write(f"{'model':<{width}}  deleted  anonymised  kept")
        for row in plan.rows():
            self.stdout.write(
                f"{row['model']:<{width}}  {row['deleted']:>7}  {row['anonymised']:>10}  "
                f"{row['kept']:>4}"
            )
        if execute:
            self.stdout.write(self.style.SUCCESS("Done. An audit event records the counts."))
