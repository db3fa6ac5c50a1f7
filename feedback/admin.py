"""Programme admins edit the interpretive-language word list. Feedback itself is
deliberately NOT registered: no one's words reach the admin site."""

from django.contrib import admin

from .models import InterpretiveTerm


@admin.register(InterpretiveTerm)
class InterpretiveTermAdmin(admin.ModelAdmin):
    list_display = ["phrase", "hint"]
    search_fields = ["phrase"]
