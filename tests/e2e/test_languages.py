"""Issue 24, "Quality, checked by tests": the GM's runner and the players' page in German and
Russian (the longest strings) at a phone (390x844) and a tablet (1024x768) neither scroll
sideways nor cut off a button's, a label's or a heading's words.

The language is chosen as a person does, with the header's language button. Each of the five
demo campaigns has an encounter mid-fight (auto-played steps). One server, one browser, one
logged-in page per language and role serve every size and system; every fault of a language
is listed at once.
Screenshots go to test-artifacts/lang-<lang>-<system>-<role>-<w>x<h>.png, to be looked at.
"""
import pytest

from tests.e2e.conftest import screenshot
from tests.encounters.test_leaks import demo_campaign, play, start

pytestmark = [pytest.mark.e2e]

SYSTEMS = ["cepheus", "starwars_d6", "void_d20", "wing_commander", "dropfleet"]
#: steps auto-played before the pages are read: mid-fight (Star Wars D6 on to its firing phase)
STEPS = {"cepheus": 10, "starwars_d6": 40, "void_d20": 12, "wing_commander": 12, "dropfleet": 12}
LANGUAGES = {"de": "Kampagnen", "ru": "Кампании"}  # a word of the header in that language
SIZES = [(390, 844), (1024, 768)]

#: Buttons, labels and headings whose words are cut off: clipped (overflow hidden/clip) or
#: ellipsised, and wider than their box.  A dropdown (<select>) shows one choice and is left out.
CUT_OFF = """() => {
  const out = [];
  const chosen = 'button, label, h1, h2, h3, h4, h5, h6, summary, legend, [role=button], a.button';
  for (const el of document.querySelectorAll(chosen)) {
    if (el.closest('select')) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // not shown, or for screen readers only (.sr-only)
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden') continue;
    const clips = ['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflow)
                  || s.textOverflow === 'ellipsis';
    if (clips && el.scrollWidth > el.clientWidth + 1) {
      const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                   + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      out.push(`${name} "${el.innerText.trim().slice(0, 80)}" (${el.scrollWidth} px of words in ${el.clientWidth} px)`);
    }
  }
  return out;
}"""


def logged_in(browser, url, user, password, language, first_url):
    """A page of a new browser context, logged in, the language chosen with the header's button."""
    context = browser.new_context(base_url=url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url("**/campaigns/")
    page.goto(first_url)
    page.click("header .language-menu summary")
    page.click(f"header .language-menu button[value={language}]")
    page.wait_for_function(f"document.documentElement.lang === '{language}'")
    return context, page


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_runner_and_the_players_page_fit_in_german_and_russian(transactional_db, live_server, browser, gm,
                                                                  player, language):
    urls = {}
    for key in SYSTEMS:
        encounter = start(demo_campaign(key, gm, player), gm)
        play(encounter, gm, STEPS[key])
        urls[key] = encounter.get_absolute_url()
    faults = []
    for role, user, password in [("gm", gm, "gm-password-123"), ("player", player, "player-password-123")]:
        context, page = logged_in(browser, live_server.url, user, password, language, urls[SYSTEMS[0]])
        try:
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                for system in SYSTEMS:
                    page.goto(urls[system])
                    where = f"the {system} {'runner' if role == 'gm' else 'players’ page'} at {width}x{height}"
                    screenshot(page, f"lang-{language}-{system}-{role}-{width}x{height}")
                    if page.evaluate("document.documentElement.lang") != language:
                        faults.append(f"{where}: <html lang> is not {language}")
                    if LANGUAGES[language] not in page.locator("header.topbar").inner_text():
                        faults.append(f"{where}: the header does not say {LANGUAGES[language]!r}")
                    wide, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                    if wide > inner + 1:
                        faults.append(f"{where}: the page is {wide} px wide in a {inner} px window")
                    faults += [f"{where}: words cut off in {cut}" for cut in page.evaluate(CUT_OFF)]
        finally:
            context.close()
    assert not faults, f"In {language}:\n" + "\n".join(faults)
