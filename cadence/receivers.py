from . import services


def follow_team_membership(sender, membership, **kwargs):
    services.follow_membership(membership=membership)
