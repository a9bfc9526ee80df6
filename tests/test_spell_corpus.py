"""The spell corpus: 166 real cards whose text changes what a spell
costs, whole families, Oracle text as Scryfall words it; each case read as a careful
reader reads it, or refused with its line named (an honest null); none misread."""

import spell_coverage


def test_no_card_of_the_corpus_is_misread():
    per_family, details = spell_coverage.table()
    misread = [(name, why) for name, result, why in details if result == spell_coverage.MISREAD]
    assert misread == []
    cards = sum(sum(c.values()) for c in per_family.values())
    assert cards >= 150 and len(per_family) == 8
    read = sum(c[spell_coverage.READ] for c in per_family.values())
    assert read >= 120  # (the README's table: a reading that slips back shows here)
