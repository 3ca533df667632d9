"""Issue 15: `manage.py run_scenario` refuses, in one line, files built to exhaust the machine."""
import pytest
from django.core.management import CommandError, call_command

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


@pytest.mark.parametrize("text, message", [
    (LAUGHS, "the file expands to more than 100,000 values (aliases repeating aliases?)"),
    ("a: " + "[" * 20000 + "]" * 20000 + "\n", "nested far too deeply"),
    ("ruleset: toy\nseed: " + "9" * 5000 + "\n", "line 2, seed: a number with thousands of digits"),
    ("ruleset: toy\n\x1f\n", "not valid YAML"),
])
def test_the_command_refuses_the_file_in_words(tmp_path, capsys, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("run_scenario", str(path))
    assert str(info.value).startswith(f"{path}: ") and message in str(info.value)
    assert capsys.readouterr().out == ""
