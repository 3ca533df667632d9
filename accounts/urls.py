from django.urls import include, path

from . import language, views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("signup/", views.signup, name="signup"),
    path("language/", language.choose, name="language"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
