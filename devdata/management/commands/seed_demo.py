from django.core.management.base import BaseCommand

from devdata.demo.audit import seed_audit_history
from devdata.demo.cadence import queue_notifications, seed_cadence, seed_forecast_push
from devdata.demo.coaching import seed_coaching
from devdata.demo.feedback import seed_feedback
from devdata.demo.peers import seed_peers
from devdata.demo.people import DEMO_PASSWORD, seed_imports, seed_new_starters, seed_people
from devdata.demo.ratings import seed_ratings
from devdata.demo.rollout import seed_rollouts
from devdata.demo.scorecards import seed_scorecards


class Command(BaseCommand):
    help = (
        "Build (or refresh) the demo organisation, its coaching history, cadence and feedback. "
        "Safe to run again."
    )

    def handle(self, *args, **options):
        people = seed_people()
        self.stdout.write(self.style.SUCCESS(f"Demo organisation ready: {len(people)} people."))
        self.stdout.write(f"Every demo login uses the password: {DEMO_PASSWORD}")
        width = max(len(user.email) for _, user in people)
        for spec, user in people:
            self.stdout.write(f"  {user.email:<{width}}  {DEMO_PASSWORD}  {spec.role}")

        coaching = seed_coaching({spec.key: user for spec, user in people})
        if coaching.created:
            self.stdout.write(self.style.SUCCESS("Coaching history written: twelve weeks."))
        else:
            self.stdout.write("Coaching history already present — left as it is.")
        for line in coaching.lines():
            self.stdout.write(line)

        # On the history: calls every few weeks, scored with the coach, the calibrations.
        for line in seed_scorecards({spec.key: user for spec, user in people}):
            self.stdout.write(line)
        # The coachees' "was this useful?" on the history's held 1:1s and reviews.
        for line in seed_ratings({spec.key: user for spec, user in people}):
            self.stdout.write(line)

        # After the history: plans start where it leaves off, so nothing is doubled.
        cadence = seed_cadence({spec.key: user for spec, user in people})
        if cadence.created:
            self.stdout.write(self.style.SUCCESS("Cadence policy applied to the demo teams."))
        else:
            self.stdout.write("Cadence already in place — left as it is.")
        for line in cadence.lines():
            self.stdout.write(line)
        # Then a lead ends his team's role-play plan for the forecast push: the policy's
        # plan missing, for Team cadence to show.
        self.stdout.write(seed_forecast_push({spec.key: user for spec, user in people}))

        # Peer pairs (their plans start from the engine), experiments, the library; then
        # the pairs' plans continue after their own bookings, and the install plans.
        for line in seed_peers({spec.key: user for spec, user in people}):
            self.stdout.write(line)
        self.stdout.write(seed_feedback())  # before the rollouts, which date its notifications
        for line in seed_rollouts({spec.key: user for spec, user in people}):
            self.stdout.write(line)
        self.stdout.write(seed_imports({spec.key: user for spec, user in people}))
        self.stdout.write(seed_audit_history({spec.key: user for spec, user in people}))
        # After the trail, whose sign-ins set everyone's last sign-in: these have none.
        self.stdout.write(seed_new_starters({spec.key: user for spec, user in people}))
        # The reminders for sessions planned since the cadence's own queueing (a pair's
        # session tomorrow), as beat would have queued them.
        queue_notifications()
