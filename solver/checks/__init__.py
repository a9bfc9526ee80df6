"""Independent judges of the solver's answers: the validator replays a plan as a judge
would at the table, and the reference search plays every payment out exhaustively.

They share no code with the CP-SAT models or the grouping of the board on purpose: only
the rules objects of ``manaplan.model``.
"""
