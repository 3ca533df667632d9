"""The rules engine core: dice, odds, the engine protocol and replay.  No Django here."""
