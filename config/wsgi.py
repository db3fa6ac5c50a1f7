import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()

# Everything loaded so far (Django, the apps, their models) lives as long as the
# process: move it out of the garbage collector's sight, so its full passes only walk
# what requests create. A full pass over the ~160,000 objects of a loaded process fell
# in the middle of one /team/ request in five at 10,000 people (the ORM allocates
# enough to trigger one; measured by bench/routes.py); with them frozen, none ran. Also what CPython
# advises before a server forks workers (copy-on-write pages stay shared).
gc.freeze()
