"""Sign up, log in, log out, and reset a password by e-mail (console e-mail in development)."""
import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_sign_up_logs_the_new_user_in(client, django_user_model):
    response = client.post(reverse("signup"), {"username": "vera", "email": "vera@example.com",
                                               "password1": "a-long-pass-phrase-42", "password2": "a-long-pass-phrase-42"})
    assert response.status_code == 302 and response["Location"] == reverse("campaigns:list")
    assert client.get(reverse("campaigns:list")).context["user"].username == "vera"


def test_sign_up_refuses_a_taken_email_by_its_field(client, gm):
    response = client.post(reverse("signup"), {"username": "other", "email": "GM@example.com",
                                               "password1": "a-long-pass-phrase-42", "password2": "a-long-pass-phrase-42"})
    assert response.status_code == 200
    assert response.context["form"].errors["email"] == ["An account with this e-mail already exists."]


def test_sign_up_returns_to_an_invitation(client):
    response = client.post(reverse("signup") + "?next=/campaigns/join/abc/", {
        "username": "vera", "email": "vera@example.com", "password1": "a-long-pass-phrase-42",
        "password2": "a-long-pass-phrase-42", "next": "/campaigns/join/abc/"})
    assert response["Location"] == "/campaigns/join/abc/"


def test_sign_up_ignores_an_offsite_next(client):
    response = client.post(reverse("signup"), {
        "username": "vera", "email": "vera@example.com", "password1": "a-long-pass-phrase-42",
        "password2": "a-long-pass-phrase-42", "next": "https://evil.example/"})
    assert response["Location"] == reverse("campaigns:list")


def test_log_in_and_log_out(client, gm):
    response = client.post(reverse("login"), {"username": "gm", "password": "gm-password-123"})
    assert response.status_code == 302
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("campaigns:list")).status_code == 302


def test_password_reset_by_email(client, gm):
    client.post(reverse("password_reset"), {"email": "gm@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    client.post(form_page.redirect_chain[-1][0], {"new_password1": "brand-new-pass-77", "new_password2": "brand-new-pass-77"})
    gm.refresh_from_db()
    assert gm.check_password("brand-new-pass-77")
