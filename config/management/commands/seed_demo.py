from django.core.management.base import BaseCommand

from people.demo import DEMO_PASSWORD, seed_people


class Command(BaseCommand):
    help = "Build (or refresh) the demo organisation. Safe to run again."

    def handle(self, *args, **options):
        people = seed_people()
        self.stdout.write(self.style.SUCCESS(f"Demo organisation ready: {len(people)} people."))
        self.stdout.write(f"Every demo login uses the password: {DEMO_PASSWORD}")
        width = max(len(user.email) for _, user in people)
        for spec, user in people:
            self.stdout.write(f"  {user.email:<{width}}  {DEMO_PASSWORD}  {spec.role}")
