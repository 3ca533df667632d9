from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from . import guard


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=True, label=_("E-mail"), help_text=_("For password resets."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail already exists."))
        return email


class LoginForm(AuthenticationForm):
    """Django's login form, refusing before any password is checked:

    * a username longer than any account's (django-axes would try to store it in a
      255-character column): the form's usual "enter a correct username and password";
    * a username whose sign-ins from new places are paused (accounts/guard.py).
    """

    error_messages = {
        **AuthenticationForm.error_messages,
        "paused": _("Too many wrong passwords were tried for this account from many places, so signing in to it "
                    "from a new place is paused for up to %(minutes)s minutes. You can still sign in from a device "
                    "you have used before, or reset your password."),
    }

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is not None and len(username) > User._meta.get_field("username").max_length:
            raise self.get_invalid_login_error()
        if username and self.cleaned_data.get("password") is not None:
            address = self.request.META.get("REMOTE_ADDR") if self.request is not None else None
            if guard.paused(username, address):
                raise forms.ValidationError(
                    self.error_messages["paused"], code="paused",
                    params={"minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)})
        return super().clean()
