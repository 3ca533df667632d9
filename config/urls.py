from django.contrib import admin
from django.shortcuts import redirect
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog


def home(request):
    return redirect("campaigns:list" if request.user.is_authenticated else "login")


urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    # the words the page's scripts say (static/js: gettext), from locale/*/LC_MESSAGES/djangojs.mo
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("campaigns/", include("campaigns.urls")),
    path("", include("encounters.urls")),
]
