from django.contrib import admin
from django.shortcuts import redirect
from django.urls import include, path


def home(request):
    return redirect("campaigns:list" if request.user.is_authenticated else "login")


urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("campaigns/", include("campaigns.urls")),
    path("", include("encounters.urls")),
]
