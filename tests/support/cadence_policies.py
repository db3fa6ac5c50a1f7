"""A cadence policy and two teams to apply it to (East and West), and the Team
cadence page's rows: shared by the tests that follow a policy through changes of people."""

from datetime import time

from cadence.models import CadencePolicy, PolicyItem
from tests.support.factories import TeamFactory, TeamMembershipFactory

PAGE = "/programme/cadence/"


def make_policy(name="Sales team standard"):
    p = CadencePolicy.objects.create(name=name, description="What every sales team runs.")
    PolicyItem.objects.create(policy=p, kind="one_on_one", weekday=1, local_time=time(10, 0))
    PolicyItem.objects.create(
        policy=p, kind="team_call_review", weekday=3, local_time=time(15, 0), duration_minutes=45
    )
    return p


def east_and_west(org):
    """East (Mia; Rita, Pavel) and West (Omar; Olga)."""
    east = TeamFactory(name="East", lead=org.manager)
    TeamMembershipFactory(team=east, person=org.rep)
    TeamMembershipFactory(team=east, person=org.peer)
    west = TeamFactory(name="West", lead=org.other_manager)
    TeamMembershipFactory(team=west, person=org.other_rep)
    return east, west


def row(body, name):
    start = body.index(f'<th scope="row">{name}')
    return body[start : body.index("</tr>", start)]
