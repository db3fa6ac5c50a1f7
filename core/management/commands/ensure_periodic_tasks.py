from django.core.management.base import BaseCommand

from core.periodic import ensure_periodic_tasks


class Command(BaseCommand):
    help = "Register the product's periodic tasks; never changes schedules edited in the admin."

    def handle(self, *args, **options):
        created = ensure_periodic_tasks()
        for name in created:
            self.stdout.write(f"registered: {name}")
        if not created:
            self.stdout.write("all periodic tasks already registered")
