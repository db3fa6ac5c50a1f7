"""Credentials never appear in the admin site, to anyone, superusers included.

The packages register their models with admin pages that show secrets: DRF lists
every API key in full, allauth shows each authenticator's data (a TOTP secret, the
recovery codes' seed) and each SSO access token. A key is a password: someone who
reads it can act as its owner through the API. So API keys and SSO tokens leave the
admin site (people rotate their own key on their settings page; deactivating someone
deletes theirs), and authenticators stay only as which factors a person has: deleting
one is how a superuser lets someone who lost their phone sign in again, audited as
`mfa.removed` like removing it oneself."""

from allauth.mfa.models import Authenticator
from allauth.socialaccount.models import SocialToken
from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

from .admin_audit import request_ip
from .services_credentials import authenticators_remove

for model in (TokenProxy, SocialToken, Authenticator):
    if admin.site.is_registered(model):
        admin.site.unregister(model)


@admin.register(Authenticator)
class AuthenticatorAdmin(admin.ModelAdmin):
    list_display = ["user", "type", "created_at", "last_used_at"]
    list_filter = ["type"]
    list_select_related = ["user"]
    search_fields = ["user__email", "user__display_name"]
    fields = readonly_fields = ["user", "type", "created_at", "last_used_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def delete_model(self, request, obj):
        self.delete_queryset(request, Authenticator.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        authenticators_remove(actor=request.user, authenticators=queryset, ip=request_ip(request))
