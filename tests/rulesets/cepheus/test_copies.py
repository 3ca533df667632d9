"""The field-by-field copies of rulesets.cepheus.state copy every field (a field added to a class and
forgotten in its copy would be left at its default, or unset in a compiled build)."""
import dataclasses

from rulesets.cepheus import state as st


def _other_than_default(f: dataclasses.Field):
    """A value of the field's kind that differs from its default (by the default, not by the annotation:
    a build compiled by mypyc keeps no annotation strings)."""
    if f.name == "task":
        return st.Task("overhaul", "bridge", 3)
    if f.name in ("player", "turns"):
        return 3
    if f.default is not dataclasses.MISSING:
        d = f.default
    elif f.default_factory is not dataclasses.MISSING:
        d = f.default_factory()
    else:
        return "x"  # the required fields left: ids, names, kinds (strings)
    if isinstance(d, bool):
        return not d
    if isinstance(d, int):
        return d + 7
    if isinstance(d, str):
        return d + "x"
    if isinstance(d, list):
        return ["x"]
    if isinstance(d, dict):
        return {"x": 1}
    raise AssertionError(f"{f.name}: a field with a default of {type(d).__name__} (add it here)")


def test_every_copy_copies_every_field():
    for cls, copy in ((st.Weapon, st._weapon_copy), (st.Mount, st._mount_copy), (st.Task, st._task_copy),
                      (st.Crew, st._crew_copy), (st.Ship, st._ship_copy)):
        fields = dataclasses.fields(cls)
        original = cls(**{f.name: _other_than_default(f) for f in fields})
        new = copy(original)
        assert new is not original
        assert new == original
        for f in fields:
            assert getattr(new, f.name) is getattr(original, f.name), (cls.__name__, f.name)
