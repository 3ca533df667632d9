from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from . import throttle
from .forms import LoginForm, SignUpForm


def _safe_next(request):
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(nxt, {request.get_host()}, request.is_secure()):
        return nxt
    return ""


def signup(request):
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "campaigns:list")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_safe_next(request) or "campaigns:list")
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset view, throttled per address and per client (accounts/throttle.py)."""

    def form_valid(self, form):
        try:
            refused, status = throttle.reset_refused(form.cleaned_data["email"],
                                                     self.request.META.get("REMOTE_ADDR", "")), 429
        except throttle.Unavailable:
            refused, status = throttle.UNAVAILABLE, 503
        if refused:
            form.add_error("email", refused)
            return self.render_to_response(self.get_context_data(form=form), status=status)
        return super().form_valid(form)


class LoginView(auth_views.LoginView):
    """Django's login view with :class:`LoginForm`; a paused sign-in answers 429 (Too Many Requests)."""

    form_class = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("__all__", "paused"):
            response.status_code = 429
        return response
