"""The seed's tables stored as data, row for row (void-d20-combat.ru.txt)."""
from rulesets.void_d20 import tables


def test_the_death_table_covers_every_face_of_the_d20_once():
    """Таблица смерти в космосе (d20): eight rows, 1 to 20 without gaps (VD-22..VD-29)."""
    faces = [tables.death_row(f).key for f in range(1, 21)]
    assert faces == (["dead"] + ["bleeding"] * 2 + ["unconscious"] * 3 + ["wounded"] * 4 + ["shock"] * 4
                     + ["scratched"] * 3 + ["miracle"] * 2 + ["vision"])
    assert [r.number for r in tables.DEATH_TABLE] == [f"VD-{n}" for n in range(22, 30)]


def test_the_catastrophe_table_has_twelve_rows():
    """Таблица катастроф корабля (d12): one row per face (VD-52..VD-63)."""
    assert [c.face for c in tables.CATASTROPHES] == list(range(1, 13))
    assert [c.number for c in tables.CATASTROPHES] == [f"VD-{n}" for n in range(52, 64)]
    assert tables.catastrophe_row(3).key == "reactor"


def test_the_cover_and_range_tables():
    """Укрытия и щиты (+2, +4, no attack) and Дистанции (far, medium, close, docked)."""
    assert [tables.COVER[k].dr_bonus for k in tables.COVER_ORDER] == [0, 2, 4, None]
    assert tables.BAND_ORDER == ("docked", "close", "medium", "far")
    assert tables.band_further("far") is None and tables.band_closer("docked") == "docked"
    assert [tables.BANDS[b].number for b in ("far", "medium", "close", "docked")] == ["VD-42", "VD-43", "VD-44", "VD-45"]
