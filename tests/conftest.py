import functools
import os

import pytest
from helpers import run_cli
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
# ECARTE_HYPOTHESIS=long: a deeper fuzzing run (not part of CI).
settings.register_profile("long", deadline=None, max_examples=3000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("ECARTE_HYPOTHESIS")
                      or ("ci" if os.environ.get("CI") else "default"))


# --------------------------------------------------------------------------- fixtures

@pytest.fixture
def cli(capsys):
    """``cli(*args, stdin=None) -> Run(code, out, err)``: ``ecarte-sim ARGS`` in-process
    through the console entry point (helpers.run_cli); stdin (bytes) feeds ``--batch -``.
    Every call checks there is no traceback and the exit code is 0 or 2."""
    return functools.partial(run_cli, capsys)


# --------------------------------------------------------------------------- the quick subset
#
# The whole suite takes about 18 minutes and 2 GB on 2 cores; CI (.ci/run) runs it all. For
# a contributor's loop, ``python -m pytest -m quick`` runs the tests named below — a few
# cheap ones from every test file that has a test outside ``slow`` — in under 3 minutes
# with numba's cache warm. pyproject's addopts says ``-m 'not slow'``; a ``-m`` given on the
# command line comes after addopts and replaces it, so ``-m quick`` selects exactly these
# (none of which is slow). ``-m 'quick or slow'`` and the like combine as usual.
#
# A name is a test function (every parametrization of it), or "*" for every test of the file.
# A test file without an entry contributes its first test that is not slow, so that a new
# file is in the subset at once; give it an entry to choose. tests/test_quick.py checks
# that every name listed exists.

QUICK: dict[str, tuple[str, ...]] = {
    "test_api.py": ("test_public_names_resolve", "test_the_namespace_is_the_public_api",
                    "test_settings_build_like_the_command_line",
                    "test_bad_settings_name_the_token", "test_play_reads_as_the_command_prints_it",
                    "test_a_bad_score_names_the_token", "test_strategy_calls_what_the_command_calls",
                    "test_strategy_refuses_bad_arguments"),
    "test_architecture.py": ("*",),
    "test_cards.py": ("*",),
    "test_claims.py": ("test_verdict_rules", "test_every_claim_of_the_issue_is_there_with_its_readings",
                       "test_trump_split_odds_reproduce_fosters_counts",
                       "test_checkpoints_double_up_to_the_cap",
                       "test_bad_input_is_one_line_and_exit_code_2",
                       "test_game_value_is_one_when_a_mark_wins",
                       "test_every_quote_is_in_the_seed_text"),
    "test_class_sampling.py": (
        "test_index_scheme_is_in_range_and_disjoint_from_the_plain_deals_and_the_scores",
        "test_a_class_without_deals_is_an_error_not_a_gap",
        "test_too_many_class_samples_is_a_usage_error"),
    "test_cli.py": ("test_version", "test_every_command_has_help", "test_solve_seed_example",
                    "test_classify_text", "test_classify_json", "test_deal_json_shape_and_cards",
                    "test_play_text_names_the_laws", "test_game_json_and_text",
                    "test_usage_errors_are_one_line", "test_trump_named_singular_is_the_plural",
                    "test_infer_says_in_words_how_many_cards_he_threw",
                    "test_solve_nasty_trump", "test_e2e_console_script_solves_the_example"),
    "test_cluster.py": ("test_without_dask_the_flags_say_how_to_install",
                        "test_help_of_every_long_command_shows_the_run_options"),
    "test_deal.py": ("test_deal_is_a_partition_of_the_pack", "test_deals_match_the_reference",
                     "test_hands_only_kernel_is_a_prefix_of_the_full_deal"),
    "test_equilibrium.py": ("test_bad_solve_settings_are_refused",
                            "test_values_by_score_is_the_plain_recursion_when_the_deal_does_not_depend_on_it"),
    "test_experiments.py": ("test_bad_first_decision_names_the_token",
                            "test_arm_code_decoding_matches_the_kernel_marks",
                            "test_unranking_is_the_lexicographic_order_of_dealer_hands"),
    "test_foster.py": ("test_bad_input_is_refused_naming_the_token",
                       "test_five_top_trumps_win_whatever_is_led",
                       "test_five_small_plain_cards_fail"),
    "test_golden_seed002.py": ("*",),
    "test_hostile.py": ("test_missing_and_extra_arguments", "test_threads_out_of_range"),
    "test_inference.py": ("test_unseen_hands_are_every_hand_of_the_other_26_cards",
                          "test_infer_json_contract_and_bad_input"),
    "test_inferred_worlds.py": ("test_bad_opponent_model_is_one_line_and_exit_2",
                                "test_the_true_history_always_fits"),
    "test_install.py": ("test_only_ecarte_sim_is_importable_from_outside_the_checkout",),
    "test_memory.py": (),       # every test is slow
    "test_notebooks.py": ("test_every_notebook_is_listed", "test_every_notebook_is_tested"),
    "test_pimc.py": ("test_reveal_is_law_43", "test_worlds_are_uniform"),
    "test_piquet_cli.py": ("test_help", "test_deal_json_contract", "test_deal_bad_input"),
    "test_piquet_kernels.py": ("test_deal_is_a_partition_and_uniform", "test_hand_keys_by_hand",
                               "test_heuristic_card_rules"),
    "test_piquet_narrative.py": ("test_the_words_of_each_kind_of_score", "test_pretty_cards"),
    "test_piquet_players.py": ("test_shown_cards_are_what_the_winner_declares",),
    "test_piquet_reference.py": ("*",),
    "test_piquet_solver.py": ("test_check_position", "test_plain_python_ints_and_clubs",
                              "test_ten_up_last_trick"),
    "test_provenance.py": ("*",),       # the report writers of claims, scores, piquet
    "test_readable.py": ("test_features_count_the_representative_hands_cards",),
    "test_reasons.py": ("test_the_issue_hand_reads_right", "test_every_rule_has_a_name_that_reads_right",
                        "test_reason_objects_are_json", "test_a_hand_meeting_each_rule_is_told_why"),
    "test_reference.py": ("*",),
    "test_reference_whole.py": ("test_pinned_deals", "test_points_and_marks_add_up",
                                "test_bad_inputs"),
    "test_regle.py": ("test_classify_needs_five_cards", "test_table"),
    "test_report_plots.py": ("test_every_verdict_word_is_explained",
                             "test_cell_text_contrasts_with_its_cell"),
    "test_rng.py": ("*",),
    "test_runs.py": ("test_store_saves_each_task_and_resume_recomputes_nothing",
                     "test_resume_refuses_another_run", "test_a_damaged_task_file_is_named_in_one_line",
                     "test_cli_refuses_a_foreign_run_dir"),
    "test_scores.py": ("test_replay_orders_the_marks", "test_the_elder_always_scores_one",
                       "test_rejects_truncated_or_bad_distributions"),
    "test_simulate.py": ("test_blocks_cover_the_range", "test_counts_equal_one_solve_per_deal"),
    "test_solver.py": ("test_is_point_and_checks", "test_generated_search_is_current",
                       "test_distinct_cards_keep_one_card_of_each_run"),
    "test_states.py": ("test_bad_pairs_are_refused", "test_representative_maps_back_to_its_index"),
    "test_stats.py": ("*",),
    "test_strategy.py": ("test_strategy_rejects_bad_scores_and_clashing_options",
                         "test_advise_bad_input_is_one_line_and_exit_2",
                         "test_advise_a_hand_of_four_cards_is_refused"),
    "test_tables.py": ("test_tables_pack_and_unpack",),
    "test_tricks.py": ("*",),
    "test_whole.py": ("test_strength_examples_from_the_docstring", "test_weakest_order",
                      "test_counts_add_up", "test_dealer_maxims"),
    "test_quick.py": ("*",),
}


@pytest.hookimpl(tryfirst=True)     # before pytest's own hook deselects by -m
def pytest_collection_modifyitems(config, items):
    """Mark the tests of :data:`QUICK` ``quick`` (never a slow one); in a file it does not
    list, the first test that is not slow."""
    first: dict[str, str] = {}
    for item in items:
        if item.get_closest_marker("slow") is not None:
            continue
        name = getattr(item, "originalname", item.name)
        names = QUICK.get(item.path.name)
        if names is None:
            names = (first.setdefault(item.path.name, name),)
        if "*" in names or name in names:
            item.add_marker(pytest.mark.quick)
