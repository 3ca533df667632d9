"""Which language a person reads the app in, and the switcher that changes it.

The order, first that says: the language chosen on their account; the language they chose on
this browser before logging in (Django's language cookie); their browser's own languages
(Accept-Language); English.  Django's LocaleMiddleware reads the cookie and the browser; this
middleware, after authentication, puts the account's choice first.

A campaign may have a language (``Campaign.language``): on a page inside it (its campaign
pages, its encounters' and simulations' pages) a member who has chosen nothing themselves (no
account choice, no cookie) reads it in the campaign's language rather than their browser's.
The view's URL names the campaign (or the encounter, or the simulation); one query reads its
language, only for a member, so a page refused to an outsider says nothing of the campaign.

The rule systems' words are messages rendered when read (rulesets.core.messages): the app
installs Django's ``pgettext``/``npgettext`` as their translator when it starts, so a message
renders in the language active for the request that reads it.
"""
from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .models import Profile, language_of

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


class AccountLanguageMiddleware:
    """Activates the language on the account of the person logged in, when they chose one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        chosen = _account_language(request)
        if chosen in LANGUAGE_CODES:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        code = campaign_language(request, view_kwargs)
        if code in LANGUAGE_CODES:
            translation.activate(code)
            request.LANGUAGE_CODE = code  # the live stream renders each page in its request's language
        return None


def _has_chosen(request) -> bool:
    """Whether this person chose a language themselves: on their account, or on this browser."""
    return (_account_language(request) in LANGUAGE_CODES
            or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in LANGUAGE_CODES)


def _campaign_filter(request, kwargs) -> dict | None:
    """How to find the campaign the page's URL is inside, or None for a page in no campaign."""
    match = getattr(request, "resolver_match", None)
    namespace = match.namespace if match else ""
    if namespace == "campaigns" and "pk" in kwargs:
        return {"pk": kwargs["pk"]}
    if namespace != "encounters":
        return None
    if "campaign_pk" in kwargs:
        return {"pk": kwargs["campaign_pk"]}
    if "pk" in kwargs:
        if match.url_name.startswith("simulation") and match.url_name != "simulation_from_encounter":
            return {"simulations__pk": kwargs["pk"]}
        return {"encounters__pk": kwargs["pk"]}
    return None


CACHE_ATTR = "_campaign_language"


def campaign_language(request, kwargs) -> str:
    """The language of the campaign this page is inside, for a member who chose none ("" else).

    At most one query a request (kept on the request); none for a visitor, for a person who
    chose a language, or for a page in no campaign."""
    if hasattr(request, CACHE_ATTR):
        return getattr(request, CACHE_ATTR)
    code = ""
    user = getattr(request, "user", None)
    if getattr(user, "is_authenticated", False) and not _has_chosen(request):
        where = _campaign_filter(request, kwargs)
        if where is not None:
            from campaigns.models import Campaign
            code = (Campaign.objects.filter(memberships__user=user, **where)
                    .values_list("language", flat=True).first()) or ""
    setattr(request, CACHE_ATTR, code)
    return code


SESSION_KEY = "account_language"


def _account_language(request) -> str:
    """The account's language, read once a session (a log-out flushes it with the session)."""
    user = getattr(request, "user", None)
    if not getattr(user, "is_authenticated", False):
        return ""
    session = request.session
    if SESSION_KEY not in session:
        session[SESSION_KEY] = language_of(user)
    return session[SESSION_KEY]


@require_POST
def choose(request):
    """The header's switcher: remember the language on the account (when logged in) and on the
    browser (the cookie, for the log-in page and visitors), and go back where they were."""
    code = request.POST.get("language", "")
    back = request.POST.get("next") or request.META.get("HTTP_REFERER") or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    response = HttpResponseRedirect(back)
    if code not in LANGUAGE_CODES:
        return response
    if request.user.is_authenticated:
        Profile.objects.update_or_create(user=request.user, defaults={"language": code})
        request.session[SESSION_KEY] = code
    translation.activate(code)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600,
                        samesite="Lax", secure=request.is_secure())
    return response


def languages(request):
    """Template context: the languages on offer and the one in use (the header's switcher)."""
    current = translation.get_language() or settings.LANGUAGE_CODE
    return {"LANGUAGE_CHOICES": [(code, name, code == current) for code, name in settings.LANGUAGES],
            "CURRENT_LANGUAGE": current}
