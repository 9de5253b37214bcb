/*
 * run.h - one run of the cost model (run.c): the model of one scenario, loaded, evaluated, priced from
 * the run's vendor quotes and reported in the run's currency, with the quote set and the exchange rates
 * it keeps.  Every command that prices a scenario goes through it: --scenario, --compare, tco advise
 * (one run per host), --sensitivity and --monte-carlo (and their twin model), tco diff.  A run is made
 * in one place (tco_run_open()) and freed in one place (tco_run_free()).
 *
 * The steps, in order: the load (load.h, with the run's --set values, its shared file cache and the
 * section skipped), the evaluation (evaluate.h), the reporting currency (the options' currency, else the
 * files' [finance] currency, else CNY) and the exchange rates of pricing/fx.ini with the run's
 * --set fx.CODE=RATE values when quotes or a currency other than CNY need them, the quotes
 * (tco_model_apply_quotes(), the best valid quote for each quoted input and tier row), then the
 * conversion to the reporting currency (tco_model_set_currency()).
 */
#ifndef TCO_RUN_H
#define TCO_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "load/load.h"
#include "model/model.h"
#include "read/ini.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/quote_csv.h"

/* Rows kept while reading quotes for a run, so memory does not grow with a file's size (caps
 * TCO_QUOTE_LIST_CAP and TCO_QUOTE_LIST_TOTAL in quote_csv.h): for each price the model takes from quotes
 * (each quoted input's item, and each tier row of a per-tier input, under the tier's own name) the
 * first TCO_QUOTE_LIST_CAP rows and every row that is the best valid quote so far (so the final choice
 * sees the winner); for other items, the first TCO_QUOTE_LIST_CAP rows in all (listed as not used).  The
 * rest are only counted.  And the text of the rows listed is at most this many bytes in all (a row's
 * notes may hold up to 32,767 characters): past it, only the best so far is set aside.  Flat memory
 * whatever the rows. */
#define TCO_QUOTE_LIST_BYTES ((size_t)32 << 20)

/** What a run loads and how it prices it.  Every pointer is borrowed: what it points to must stay valid
 *  while tco_run_open() runs and, for a run whose twin is made (tco_run_twin()), until then. */
typedef struct tco_run_options {
    /** The project root holding pricing/, templates/ and scenarios/, and the scenario file. */
    const char *root, *scenario_path;
    /** The --set values for this scenario (not fx.CODE ones) and the load's other options
     *  (load.h): the shared file cache (also used for pricing/fx.ini and the catalog's quote items;
     *  NULL: each file is read for this run alone) and a section another consumer reads ("advise"). */
    tco_load_options load;
    /** --set fx.CODE=RATE values: exchange rates replacing pricing/fx.ini's before quotes are read. */
    const tco_override *fx_sets;
    size_t n_fx_sets;
    /** --quotes files (vendor quote CSV, quote_csv.h), in the order given; none: the catalog's prices. */
    const char *const *quote_files;
    size_t n_quote_files;
    /** The day quotes are judged on (days since 1970-01-01, dates.h tco_date_check()). */
    int32_t as_of;
    /** The reporting currency, three upper-case letters, or NULL for the files' ([finance] currency,
     *  else CNY). */
    const char *currency;
    /** True when the user chose @c currency (--currency CODE): the input `currency` then says "chosen by
     *  --currency CODE", and a code without a rate is a usage error naming --currency. */
    bool currency_given;
    /** --quotes-strict: a quote warning stops the run (the command exits 65, nothing written), so the
     *  warnings of items the quotes did not price say so instead of "the catalog's price stays". */
    bool quotes_strict;
    /** A budget (tco --scenario, tco --compare, and the scenario tco advise --save-scenario writes): it
     *  prices owning the cards, its TCO their capex and opex.  A model whose text input `acquisition` is not
     *  own (rent) is refused after the load, before anything is evaluated or written: TCO_ERR_INI at the
     *  place that gave the value (the scenario file's [scenario] acquisition, or the --set argument), saying
     *  where renting is priced.  Otherwise the input is fixed at own (tco_model_fix_text_input()): the
     *  workbook's cell is grey and takes no other value.  False for tco advise, which sets acquisition to
     *  own or rent for each candidate, and for tco diff.  A template without `acquisition` is not refused. */
    bool budget;
} tco_run_options;

/** A run: its model, evaluated and priced, and what the model keeps beside it. */
typedef struct tco_run {
    /** The options as given (a copy; what they point to is the caller's, see tco_run_options). */
    tco_run_options opts;
    /** The model, owned. */
    tco_model *model;
    /** The quote rows read (the workbook's Quotes sheet; the model's quoted inputs name them), owned. */
    tco_quote_set quotes;
    /** The exchange rates, when quotes or the currency needed them (else zeroed), owned. */
    tco_fx fx;
    /** The reporting currency and the files' own (the input `currency`, else CNY), upper case. */
    char currency[4], files_currency[4];
    /** With quote files: each input quotes may price (an item with a quote key; for a per-tier input,
     *  every tier row), as an index into the model's items, and the quantity the quotes were judged
     *  against (the value of its quote_qty when the run was priced); n_priced of each, owned. */
    size_t *priced;
    double *priced_qty;
    size_t n_priced;
} tco_run;

/**
 * Make the run @p opts describe into *@p out (heap; free with tco_run_free()): load the scenario,
 * evaluate it, load the exchange rates when quotes, --set fx.CODE or a reporting currency other than CNY
 * need them, price it from the quote files, and report it in the reporting currency; the model is
 * evaluated at the end.  Errors: the load's and the evaluation's (load.h, evaluate.h); TCO_ERR_INI
 * (a budget whose acquisition is rent, tco_run_options.budget; the files' currency not three letters, or
 * without a rate in pricing/fx.ini; pricing/fx.ini's reporting currency not CNY; a quote file's error,
 * quote_csv.h); TCO_ERR_USAGE (a --set fx.CODE rate of another currency than the reporting one without
 * quotes, or a --currency without a rate: the message ends with "Try 'tco --help'."); TCO_ERR_NOINPUT (a
 * file missing); TCO_ERR_EVAL; TCO_ERR_NOMEM.
 * A quote file's own warnings (an unknown column) are kept in run->quotes.file_warnings and the items the
 * quotes did not price in the model's quote_warnings, for the command to print and list in its JSON
 * (render/report.h tco_report_quote_warnings()); when the run fails, the file warnings read before the
 * failure are printed on standard error ("tco: warning: ...") with nothing else to say them.  On error
 * *@p out is NULL and nothing is left to free.
 */
tco_error tco_run_open(const tco_run_options *opts, tco_run **out, tco_diag *diag);

/**
 * A second run made exactly as @p run (the same options: files, --set values, quotes and currency),
 * into *@p out, for a second thread that evaluates on its own model (the Monte Carlo twin).  Errors as
 * tco_run_open().
 */
tco_error tco_run_twin(const tco_run *run, tco_run **out, tco_diag *diag);

/**
 * Whether the prices @p run took from its quotes still hold for what its model buys now, after inputs
 * were set in place and the model re-evaluated (tco advise changes card_count, card_tier and
 * facility_mode on one run's model): true when, for every price quotes may set (run->priced), no quote
 * row of its item (for a per-tier input, of any tier) has a min_qty that the quantity bought now and the
 * quantity the run was priced at (run->priced_qty) fall on different sides of, so the same rows are
 * valid and the same quote would be chosen.  Always true for a run without quote rows.  A false answer
 * means: open a run loaded with what the model buys now (its quotes then judged at those quantities).
 */
bool tco_run_quotes_hold(const tco_run *run);

/** Free @p run, its model, quote set and rates (NULL is ignored). */
void tco_run_free(tco_run *run);

#endif /* TCO_RUN_H */
