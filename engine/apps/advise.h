/*
 * advise.h - `tco advise NAME`: from a question (a workload and constraints) to a ranked list of
 * what to buy, each option priced and judged by the cost model itself (docs/advise.md).
 *
 * A question is a scenario file with an [advise] section (scenarios/solo-dev.ini): its [scenario],
 * [workload], [constraints], [facility] ... sections are read by the template as any scenario's
 * are, and [advise] says what to enumerate:
 *
 *   job            serve | train (required): the model's kind (inference | training), which chooses
 *                  the feasibility gate and the unit of work
 *   tiers          all (default) or a list of tier codes of the tier catalog ([model] tiers)
 *   exclude_tiers  tier codes left out (default none)
 *   hosts          all (default) or a list of host ids of the host catalog ([model] refs host:FILE)
 *   facility_modes a list of facility_mode values (owned, colocation); default: the mode the
 *                  question's files give
 *   allow_cloud    yes | no (default no): also rent each tier's GPU-hours (acquisition = rent)
 *   KEY_source     the basis of KEY, as in every file (not read)
 *
 * Enumeration: every host of the list (one run each, tco_run_open(), with scenario.host, scenario.kind,
 * scenario.card, scenario.cards and scenario.acquisition = own given as overrides), every facility
 * mode, every tier whose card fits the host (the template's check_card_fits_host: a pair that fails
 * it is skipped, not a candidate), every card count from 1 to the bound: max_cards, else max_hosts x the host's
 * cards_per_host, the smaller where both are set (the [constraints] inputs; a question with
 * neither is refused).  With allow_cloud, each tier is also rented (acquisition = rent) on the
 * fitting host with the most slots, from 1 to the same bound.  A candidate is the model evaluated
 * after setting card_tier, card_count, facility_mode and acquisition in place: no file is read
 * again, unless the candidate crosses a quote's min_qty (Runs, below).
 *
 * Gating: the template's check_feasible (the serving or training gate and every constraint) decides;
 * a rejected candidate keeps the warning text of every failing check (tco_report_warning_text()).
 * Ranking: feasible options by the template's cost_per_unit, the cheaper option_capex first on a
 * tie, then enumeration order.  C holds no cost figure or rule: every value is a template line.
 *
 * Names the advisor reads or sets (template inputs and lines; a template without one is refused
 * naming it): card_tier, card_count, facility_mode, acquisition (inputs it sets); cards_per_host,
 * max_hosts, max_cards (bounds); check_card_fits_host, check_feasible, cluster_memory_gb,
 * inference_memory_gb, training_memory_gb, option_capex, option_cost, option_npv_cost,
 * cost_per_unit, layout_tokens_per_s, layout_stream_tokens_per_s, decode_efficiency,
 * target_load_tokens_per_s, layout_train_days, train_efficiency, hosts.
 *
 * Runs: every model the advice evaluates is made through the run object (price/run.h, tco_run_open()),
 * as --scenario makes its model: one run per host, with the request's --set values, quote files, as-of
 * date and currency.  Prices from quotes apply to every candidate that uses the quoted tier, host or
 * item.  A quote is judged against the quantity the run's model buys (its min_qty against card_count
 * for a tier, against hosts for a host, ...); after a candidate is evaluated in place, a quote whose
 * min_qty that quantity has crossed since the run was priced (tco_run_quotes_hold()) makes the advisor
 * open a run loaded with that candidate (its tier, card count, host, facility mode and acquisition),
 * kept for the following candidates while its quotes hold.  So every candidate is priced from the
 * quotes valid for what it buys, as `tco --scenario` of that candidate would be.
 *
 * Money is in the run's reporting currency (--currency CODE, else the question's [finance] currency,
 * else CNY: tco_advice.currency); memory in GB (1e9 bytes); throughput in tokens/s; training time in
 * days.
 *
 * Workbook (tco_advise_workbook()): a Rank sheet of the options listed (tco_advise_listed()), the top
 * TCO_ADVISE_LIVE each with its own sheets as in a comparison, their figures live formulas, the others'
 * the values the search computed; every rank a live formula (apps/rank.h, tco_workbook_write_rank()).
 */
#ifndef TCO_ADVISE_H
#define TCO_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <stdint.h>

#include "base/error.h"
#include "model/model.h"
#include "base/strbuf.h"
#include "render/workbook.h"
#include "load/load.h"
#include "price/run.h"

/** Most candidates one question may ask for (tiers x hosts x modes x card counts, and the rented ones):
 *  at about 0.1 ms each, about ten seconds. */
#define TCO_ADVISE_MAX_CANDIDATES 100000

/** Options the terminal table lists. */
#define TCO_ADVISE_TOP 10

/** Most options the workbook lists (one prefix letter each, A to Z): the top TCO_ADVISE_TOP and the
 *  other tiers' best, as many of those as fit. */
#define TCO_ADVISE_LISTED_MAX 26

/** Listed options the workbook writes live, with their sheets (A, B, C: the top ones); the others are
 *  rows of the values the search computed (docs/advise.md, Workbook; docs/performance.md, issue 25). */
#define TCO_ADVISE_LIVE 3

/** What to advise on: the question and the run's --set values. */
typedef struct tco_advise_request {
    /** Project root holding pricing/, templates/ and scenarios/. */
    const char *root;
    /** Path of the question file (e.g. ROOT/scenarios/solo-dev.ini) and its name ("solo-dev"). */
    const char *path, *name;
    /** --set values: [advise] keys (advise.KEY=V) change the question's enumeration, every other
     *  section is passed to the model as for --scenario; scenario.card, scenario.host, scenario.cards,
     *  scenario.kind and scenario.acquisition are the advisor's and are refused. */
    const tco_override *sets;
    size_t n_sets;
    /** The catalog, template and rate files, read once for every model the advice loads (one per host,
     *  and each listed option's for the workbook); NULL: each load reads them. */
    tco_ini_cache *files;
    /** --quotes files (vendor quote CSV, read/quote_csv.h), in the order given; NULL and 0: every
     *  candidate is priced from the catalog.  --set fx.CODE=RATE values among @c sets replace
     *  pricing/fx.ini's rates (price/run.h). */
    const char *const *quote_files;
    size_t n_quote_files;
    /** The day quotes are judged on (days since 1970-01-01, read/dates.h). */
    int32_t as_of;
    /** --currency CODE (three upper-case letters), or NULL: the question's [finance] currency, else CNY. */
    const char *currency;
    /** --quotes-strict: a quote warning refuses the advice (exit 65, nothing written), as it refuses a
     *  scenario's run; each run's warnings then end "under --quotes-strict that is an error" (run.h). */
    bool quotes_strict;
    /** --force: --save-scenario replaces a file already at its path (without, it is refused: a scenario
     *  file may hold a user's edits). */
    bool force;
} tco_advise_request;

/** One quote row read for the advice, and how many candidates were priced from it. */
typedef struct tco_advise_quote {
    /** The row as read (quote_id, vendor, item, file, line, ...): borrowed from the first run's quote set
     *  (tco_advice.runs[0]), which lives as long as the advice. */
    const tco_quote *row;
    /** Candidates whose model took a price from this row (a tier row, the host, or another item). */
    size_t candidates;
    /** With no candidate: why not, in words ("expired 2026-10-31", "no candidate buys W-B", ...);
     *  heap; NULL when used. */
    char *reason;
} tco_advise_quote;

/** One failing check of a rejected option. */
typedef struct tco_advise_reason {
    /** The check line's name, e.g. "check_office" (borrowed from the advice's first model). */
    const char *check;
    /** Its warning with the option's values, e.g. "data-centre card in an office: ..." (heap). */
    char *text;
} tco_advise_reason;

/** An option's cost per unit under uncertainty (`tco advise --monte-carlo N`, advise_risk.h): the same
 *  draws of every ranged input applied to each of the top options (common random numbers). */
typedef struct tco_advise_option_risk {
    /** True for an option among those drawn (the top TCO_ADVISE_TOP feasible ones). */
    bool drawn;
    /** cost_per_unit's 10th, 50th and 90th percentiles over the draws in which the option passes every
     *  check (tco_advice.unit); NaN when it passes in none. */
    double p10, p50, p90;
    /** The share of draws in which it is the cheapest of the options drawn (the advisor's order: the lowest
     *  cost_per_unit of those feasible in that draw, then the cheaper capex, then the better rank), 0 to 1. */
    double p_best;
    /** The share of draws in which it passes every check (check_feasible = 1), 0 to 1. */
    double feasible;
} tco_advise_option_risk;

/** One candidate: a tier, a card count, a host, a facility mode, owned or rented. */
typedef struct tco_advise_option {
    /** Index into tco_advice.tiers, .hosts and .modes (mode -1: the question's own mode). */
    int tier, host, mode;
    /** Rented (acquisition = rent): the host only shapes the layout; no capex, facility or office. */
    bool rent;
    /** Accelerator cards. */
    int cards;
    /** check_feasible = 1. */
    bool feasible;
    /** 1-based rank among the feasible options; 0 for a rejected one. */
    int rank;
    /** Card memory bought (cluster_memory_gb) and the job's need (inference_memory_gb when serving,
     *  training_memory_gb when training), GB. */
    double memory_gb, need_gb;
    /** option_capex, option_cost (the TCO, or the rental), option_npv_cost: in tco_advice.currency. */
    double capex, cost, npv_cost;
    /** cost_per_unit (tco_advice.currency per Mtok or per run, tco_advice.unit); NaN where the template
     *  gives a reason instead. */
    double cost_per_unit;
    /** The layout's throughput (layout_tokens_per_s, per stream layout_stream_tokens_per_s; NaN when the
     *  layout holds no replica, replica_capacity 0) and decode_efficiency; the layout's training time
     *  (layout_train_days, days) and train_efficiency. */
    double tokens_per_s, stream_tokens_per_s, decode_efficiency, train_days, train_efficiency;
    /** Hosts bought (the hosts line). */
    double hosts_bought;
    /** Whether the advice trains (tco_advice.train): the tie-break after capex is then the fewer
     *  train_days, else the more tokens_per_s (the faster option). */
    bool train;
    /** Position in the enumeration (0-based): the last tie-break of the ranking. */
    size_t seq;
    /** Every failing check's reason (none when feasible); heap. */
    tco_advise_reason *reasons;
    size_t n_reasons;
    /** With --monte-carlo, for the top options (risk.drawn); zeroed otherwise. */
    tco_advise_option_risk risk;
} tco_advise_option;

/** The answer to a question. */
typedef struct tco_advice {
    /** The question's name and title (heap). */
    char *name, *title;
    /** True for job = train (kind training: cost per training run), false for serve (CNY/Mtok). */
    bool train;
    /** Years of the analysis period; the target load (target_load_tokens_per_s of the first model). */
    int years;
    double target_tokens_per_s;
    /** The share of the hours the cards work (the input utilisation of the first model): the tokens a
     *  serving option is charged for are the target load x this, not its layout's throughput x this. */
    double utilisation;
    /** Training: the runs a year the buyer needs (runs_per_year of the first model; 0: none given, a run
     *  then costs its share of the cards busy at utilisation; NaN when the template has no such input). */
    double runs_per_year;
    /** Tier codes, host ids and facility modes enumerated (heap strings). */
    char **tiers, **hosts, **modes;
    int n_tiers, n_hosts, n_modes;
    /** Tier-host pairs skipped because the card does not fit the host (check_card_fits_host = 0). */
    int skipped_pairs;
    /** Every candidate: the feasible ones in rank order, then the rejected ones in enumeration order. */
    tco_advise_option *options;
    size_t n_options, n_feasible;
    /** The runs, one per host (price/run.h; owned), and their models (models[h] is runs[h]->model, kept
     *  for the check names and labels). */
    tco_run **runs;
    tco_model **models;
    int n_models;
    /** The reporting currency of every money figure ("CNY", "USD", ...) and the unit of cost_per_unit
     *  ("CNY/Mtok" serving, "CNY/run" training, in that currency). */
    char currency[4], unit[16];
    /** With quote files: every quote row the runs kept (those of the first host's run), in file order;
     *  how many runs were opened in all (one per host, and one more each time a candidate crossed a
     *  quote's min_qty, see Runs above). */
    tco_advise_quote *quotes;
    size_t n_quotes, runs_opened;
    /** With quote files: the quote warnings for the candidates (price/pricing.h tco_quotes_note_unpriced():
     *  an item some candidate buys whose rows priced none, and one whose rows without a rate were not
     *  compared), owned, n_quote_warnings of them (n_quote_unpriced not priced); with the first run's
     *  file warnings, what tco advise prints and lists under JSON "warnings" (render/report.h). */
    char **quote_warnings;
    size_t n_quote_warnings, n_quote_unpriced;
    /** With --monte-carlo (tco_advise_risk(), advise_risk.h): the draws, their seed, the ranged inputs
     *  drawn (distinct over the options drawn), how many options were drawn and the share of draws in
     *  which none of them passed every check; risk_draws 0 without. */
    size_t risk_draws, risk_inputs, risk_options;
    uint64_t risk_seed;
    double risk_none_feasible;
    /** With --save-scenario (tco_advise_save_scenario(), advise_save.h): the file written (heap), the rank
     *  saved, and the saved scenario's own figures as `tco --scenario FILE` gives them: its TCO (the
     *  option's cost over the period), and for serving its cost per million tokens served at the layout's
     *  throughput x utilisation (NaN for training); saved_path NULL without.  saved_command (heap): the
     *  command that prices the file as the advice did (its --quotes, --as-of, --currency and fx --set). */
    char *saved_path, *saved_command;
    int saved_rank;
    double saved_tco, saved_served_unit;
} tco_advice;

/**
 * Answer @p req into @p out (zeroed first; free with tco_advice_free() whatever the result).
 * Errors: TCO_ERR_NOINPUT (the question, template or a catalog file unreadable), TCO_ERR_INI (an
 * [advise] key unknown or malformed, "FILE [advise] KEY: ..."; no bound on the card count; more than
 * TCO_ADVISE_MAX_CANDIDATES), TCO_ERR_USAGE (a --set of a key the advisor sets; --set fx.CODE without
 * quotes or a currency), TCO_ERR_UNKNOWN_NAME (the template lacks a name the advisor reads), the run's
 * errors (tco_run_open(): the load, the evaluation, the quote files, the currency), TCO_ERR_NOMEM.
 */
tco_error tco_advise(const tco_advise_request *req, tco_advice *out, tco_diag *diag);

/**
 * Print @p a for people: the question, the top TCO_ADVISE_TOP options (what each gets and costs),
 * the winner against the runner-up in one line, the rejections counted by check, for each
 * tier without an option in the top list its best option (rank) or, with none feasible, its
 * closest rejected one with every reason, with quote files the rows read and each row no candidate
 * was priced from with its reason, and "Workbook: PATH" when @p workbook is not NULL.
 */
void tco_advise_print_table(const tco_advice *a, const char *workbook, FILE *out);

/**
 * Print @p a as one JSON object (docs/advise.md):
 *   {"question", "title", "job": "serve"|"train", "currency": "CNY" (a->currency), "years", "unit",
 *    "target_tokens_per_s" (serve), "runs_per_year" (train), "candidates": N evaluated, "feasible": N, "skipped_pairs",
 *    "explanation": the one line of tco_advise_explain(), "workbook": @p workbook or null,
 *    "rejections": [{"check", "label", "count"}],
 *    "options": [{"rank" (null when rejected), "tier", "cards", "host" ("cloud" when rented),
 *                 "facility", "acquisition": "own"|"rent", "feasible", "reasons": [text, ...],
 *                 "checks": [name, ...], "memory_gb", "need_gb", "capex", "tco", "npv_cost",
 *                 "cost_per_unit" (null with no number), "unit", "tokens_per_s" and
 *                 "stream_tokens_per_s" (serve) or "train_days" (train)}, ...],
 *    and with quote files "quotes": {"rows" kept, "used" (rows that priced a candidate), "runs" opened,
 *                 "list": [{"quote_id", "vendor", "item", "file", "line", "candidates", "reason" (null
 *                 when used)}, ...]}}
 * feasible options first in rank order, then the rejected ones.
 */
void tco_advise_print_json(const tco_advice *a, const char *workbook, FILE *out);

/**
 * The one-line explanation of the winner against the runner-up into @p out, e.g. "1x W-A
 * (tower-consumer, owned) is 9.6% cheaper per million tokens than 1x C90 (tower-consumer, owned):
 * ..."; the percentage is (runner-up - winner) / runner-up of their cost_per_unit.  With one feasible
 * option it says so, with none that none is.
 */
void tco_advise_explain(const tco_advice *a, tco_strbuf *out);

/**
 * The options the workbook lists, into @p out (room for TCO_ADVISE_LISTED_MAX; pointers into @p a): the
 * top TCO_ADVISE_TOP feasible ones in rank order, then for each tier without one among them its best
 * feasible option or, with none, its closest rejected one (fewest reasons, then the lowest cost), as the
 * table's "other tiers" lines; at most TCO_ADVISE_LISTED_MAX.  Returns how many.
 */
size_t tco_advise_listed(const tco_advice *a, const tco_advise_option **out);

/**
 * Write the advice's workbook to @p path: a Rank sheet of the options tco_advise_listed() gives, then
 * each option's sheets as in a comparison (the first three shown, the others hidden), every one a fresh
 * run of the question (tco_run_open(): the request's --set values, quotes and currency) with the
 * option's scenario.kind, card, cards, acquisition, host and facility.mode as overrides (@p req as given
 * to tco_advise()), its quotes judged at what the option buys; each option's sheets then have their
 * Quotes sheet, as a scenario's workbook has.  The figures are
 * the template lines layout_tokens_per_s, layout_stream_tokens_per_s (serve) or layout_train_days
 * (train), cluster_memory_gb, inference_memory_gb or training_memory_gb, option_capex, option_cost,
 * option_npv_cost and cost_per_unit, gated by check_feasible; ranked by cost_per_unit, ties to the lower
 * option_capex, then to the faster (the fewer layout_train_days, or the more layout_tokens_per_s), then to
 * the earlier candidate, as tco_advise() ranks.
 * Errors: the run's (tco_run_open()), tco_workbook_write_rank()'s, TCO_ERR_USAGE with no
 * candidate, TCO_ERR_NOMEM.  On error no file is left at @p path.
 */
tco_error tco_advise_workbook(const tco_advise_request *req, const tco_advice *a, const char *path,
                              const tco_workbook_options *opts, tco_diag *d);

/**
 * A run of option @p o of @p a alone (heap; tco_run_free()): the question of @p req loaded afresh with the
 * request's --set values (but [advise]'s), quotes and currency, and the option's scenario.kind, card,
 * cards, acquisition, host and facility.mode as overrides, so that its Inputs sheet names each as the --set
 * that chose it; priced from the request's quotes at what the option buys.  The workbook's option sheets,
 * the Monte Carlo of the top options (advise_risk.h) and the saved scenario's check (advise_save.h) use it.
 * Errors: tco_run_open()'s, TCO_ERR_NOMEM.
 */
tco_error tco_advise_option_run(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o,
                                tco_run **out, tco_diag *d);

/** "2x D-M in dc4, owned" or "4x D-M rented (cloud)", appended to @p out. */
void tco_advise_option_label(const tco_advice *a, const tco_advise_option *o, tco_strbuf *out);

/** The facility mode option @p o runs in: its mode of [advise] facility_modes, else the question's own. */
const char *tco_advise_option_mode(const tco_advice *a, const tco_advise_option *o);

/** Free what @p a holds (safe on a zeroed struct) and zero it. */
void tco_advice_free(tco_advice *a);

/** The reporting currency of advice @p a (ISO 4217, "CNY" unless --currency or the question says another). */
const char *tco_advise_currency(const tco_advice *a);

/** The unit of advice @p a's cost per unit: "CUR/Mtok" (serve) or "CUR/run" (train), CUR its currency. */
const char *tco_advise_unit(const tco_advice *a);

#endif /* TCO_ADVISE_H */
