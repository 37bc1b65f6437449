"""The practice table: a game of five up between a person and the computer, its records and
the coach (issue in progress; the module map is written as the modules land)."""
