"""Pure rule functions of (state, dice): dice, cards, combat, odds, artillery, fire, wrecks (R1, R4, R6-R9)."""
