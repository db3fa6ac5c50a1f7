urlpatterns: list = []  # pages arrive in the next commit
