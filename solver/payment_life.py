"""Life in a payment's model (solver.cpsat.PaymentModel): life is paid only while the total
covers it (CR 118.3, 119.4), damage is an effect and may be lethal, the spell's Phyrexian
life after every mana ability (601.2g-h), life paid before damage where the order of a
layer allows."""

from __future__ import annotations

from manaplan.solver.runtime import linear_sum


def add_life_rule(pm) -> None:
    """CR 118.3: life can be paid only while the life total covers it; damage from
    mana abilities (pain lands) is an effect, not a cost, and may be lethal. The
    spell's Phyrexian life is paid after every mana ability (601.2g-h), so after all
    their damage. Abilities' life is paid as they are activated: where some pay life
    and others deal damage, the life is paid as early as the layers allow
    (:func:`add_life_before_damage`)."""
    life = pm.problem.player.life
    ability_life = [t for ts in pm.life_at.values() for t in ts]
    damage = [t for ts in pm.damage_at.values() for t in ts]
    pm.life_total = linear_sum(ability_life + pm.spell_life)
    pm.damage_total = linear_sum(damage + pm.damage_later)  # (all life lost: the objective, lethal)
    damage_now = linear_sum(damage)  # (what a payment of life must leave room for)
    if ability_life and not damage:  # life never goes up while paying: the last payment decides
        add_checkpoint(pm, linear_sum(ability_life), linear_sum(ability_life))
    elif ability_life:
        pm.model.add(linear_sum(ability_life) <= life)
    if pm.spell_life:
        add_checkpoint(pm, linear_sum(pm.spell_life), pm.life_total + damage_now)
    if ability_life and damage:
        add_life_before_damage(pm)


def add_checkpoint(pm, paid_here, lost_by_then) -> None:
    """If ``paid_here`` is more than 0, everything lost up to and including that
    payment is at most the life total (CR 118.3: each payment needs the life)."""
    pays = pm.model.new_bool_var("pays_life")
    pm.model.add(paid_here == 0).only_enforce_if(~pays)
    pm.model.add(lost_by_then + pm.carried.life_lost <= pm.problem.player.life).only_enforce_if(pays)


def add_life_before_damage(pm) -> None:
    """The order of a layer's activations: those that don't sacrifice, then those
    that do (a permanent is tapped before it is sacrificed); within each, those that
    only pay life, then those that pay life and deal damage (smallest damage
    first), then the rest, then those that only deal damage. A layer's last payment
    of life is then checked against the life paid so far and the damage dealt before
    it. Damage that can wait is free to sit in a later layer (``movable``), so this
    is exact. In the relaxed tail, whose order is not fixed, only what every order
    meets is required (life paid there and before, damage dealt before the tail);
    the strict rule is kept to tell whether a solution is a real plan."""
    life_so_far: list
    damage_before_layer: list
    life_so_far, damage_before_layer = [], []
    for l in range(pm.layers + 1):
        damage_this_layer: list = []
        for half in (False, True):
            paid_here = pm.life_at.get((l, half), [])
            life_so_far = life_so_far + paid_here
            both = pm.damage_at.get((l, half, True), [])
            if paid_here:
                strict = damage_before_layer + damage_this_layer + both
                if both:  # the last payment is one that also deals damage: its own comes after
                    least = min(a.damage for a in pm.acts if a.damage and a.pays_life and a.sacrifice == half
                                and l in pm.layers_of(a))
                    used = pm.model.new_bool_var(f"life_and_damage_L{l}_{int(half)}")
                    pm.model.add(used <= linear_sum(both))
                    strict = strict + [-least * used]
                if pm.relaxed and l == pm.layers:
                    add_checkpoint(pm, linear_sum(paid_here), linear_sum(life_so_far + damage_before_layer))
                    pm.tail_life_checks.append((linear_sum(paid_here), linear_sum(life_so_far + strict)))
                else:
                    add_checkpoint(pm, linear_sum(paid_here), linear_sum(life_so_far + strict))
            damage_this_layer += both + pm.damage_at.get((l, half, False), [])
        damage_before_layer = damage_before_layer + damage_this_layer
