"""Special entities (multi-character cards, assists, minions, clones, summons, vehicles:
``special``, their starting rows: ``special_setup``) and the timed states every entity can carry
(frozen, invisible, buffs: ``timed_states``)."""
