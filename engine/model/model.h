/*
 * model.h - the cost model: named inputs and formula line items loaded from a
 * scenario, the pricing catalog and a template; bound, ordered and evaluated.
 *
 * Data flow (DESIGN.md): scenarios/NAME.ini + pricing/ *.ini + templates/T.ini
 * -> items (inputs with provenance, lines with parsed formulas) -> names bound
 * to items -> dependency order (a cycle is an error naming its cells) ->
 * evaluation by the formula engine.  The C code holds no cost arithmetic: every
 * derived number is a template formula.
 *
 * Units follow the template's `unit` key (CNY, CNY/yr, kW, ...); all values are
 * doubles.  The model owns all its strings and trees; free with tco_model_free().
 */
#ifndef TCO_MODEL_H
#define TCO_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "model/formula.h"
#include "read/ini.h"
#include "base/names.h"
#include "read/quote_csv.h"

/** Most per-tier lines on one sheet, and most per-tier inputs: a column each (Excel has 16,384). */
#define TCO_MAX_TIER_COLUMNS 16000
/** Most series in one chart (Excel's limit; a pie's series are its slices). */
#define TCO_MAX_CHART_SERIES 255

/** What an item is. */
typedef enum tco_item_kind {
    /** A named input value (a plain number on the Inputs sheet). */
    TCO_ITEM_INPUT,
    /** A scalar line item: one formula, one value. */
    TCO_ITEM_LINE,
    /** A per-year line item: the same formula in each year column (per = year). */
    TCO_ITEM_YEARLY,
    /** NAME_total of a per-year line: the sum of its year columns. */
    TCO_ITEM_TOTAL,
    /** The built-in name `year`: 1, 2, ... in per-year formulas. */
    TCO_ITEM_YEAR_INDEX,
    /** A per-tier input: one value per row of the tier catalog (template per = tier). */
    TCO_ITEM_TIER_INPUT,
    /** A per-tier line: the same formula in each tier row (template per = tier). */
    TCO_ITEM_TIER_LINE,
    /** The built-in name `tier`: the tier codes (the catalog's section names), one per tier row,
     *  as text; the tier table's first column, for MATCH(card_tier, tier, 0). */
    TCO_ITEM_TIER_CODE,
    /** The built-in name `error_cells`: how many calculation cells hold an error value (#DIV/0!,
     *  #N/A, ...).  tco's own value is 0 (the engine refuses any error); in the workbook it is a
     *  live count over every line and input cell that does not depend on it, so a check such as
     *  IF(error_cells = 0, 1, 0) fails once an edit makes any cell an error. */
    TCO_ITEM_ERROR_COUNT,
    /** A per-month line (template per = month): one value per month of the analysis period
     *  (years x 12, Month 1 the first month of Year 1), held in `years`. */
    TCO_ITEM_MONTHLY,
    /** The built-in name `month`: 1, 2, ... in per-month formulas. */
    TCO_ITEM_MONTH_INDEX
} tco_item_kind;

/** How a value is shown (number format); derived from the unit unless the template says `format`. */
typedef enum tco_format {
    TCO_FMT_NUMBER,  /**< #,##0.00 */
    TCO_FMT_MONEY,   /**< #,##0 with the currency code (units starting "CNY") */
    TCO_FMT_KW,      /**< #,##0.0 (units kW, kVA) */
    TCO_FMT_PERCENT, /**< 0.0% (units share, share/yr) */
    TCO_FMT_COUNT,   /**< #,##0 (whole counts: integer inputs, units such as hosts, racks) */
    TCO_FMT_RATIO,   /**< 0.00 (units ratio) */
    TCO_FMT_YESNO,   /**< 1 shown as "yes", 0 as "no" (template format = yesno) */
    TCO_FMT_NEVER,   /**< #,##0.0 with 0 shown as "never" (template format = never) */
    TCO_FMT_COUNT_OF /**< number of formats; not a format */
} tco_format;

/** How the values of a ranged input are spread ([SECTION] KEY_dist; docs/inputs.md, "Ranges"). */
typedef enum tco_dist {
    /** No range: the input is a point value only (low and high are unset). */
    TCO_DIST_NONE = 0,
    /** Triangular with the point value as its mode (the default when KEY_range gives no KEY_dist). */
    TCO_DIST_TRIANGULAR,
    /** Uniform: every value of the interval equally likely (the point value is not its mode). */
    TCO_DIST_UNIFORM,
    /** PERT (a beta distribution with the point value as its mode, shape 4). */
    TCO_DIST_PERT,
    /** Normal. */
    TCO_DIST_NORMAL,
    /** Lognormal: its logarithm normal; needs LOW > 0. */
    TCO_DIST_LOGNORMAL,
    TCO_DIST_COUNT_OF /**< number of distributions; not one */
} tco_dist;

/**
 * The range of one numeric input value (a scalar input, or one tier row of a per-tier input), from
 * `KEY_range = LOW, HIGH` beside the value's `KEY = VALUE` (in a scenario, a catalog file or a --set),
 * with the optional `KEY_dist`, `KEY_range_kind` and `KEY_range_source`.  LOW and HIGH are read as a 90%
 * interval: the 5th and 95th percentiles of the input's distribution, or with `KEY_range_kind = bounds` as
 * its minimum and maximum (docs/inputs.md, "Ranges").
 *
 * The loader guarantees, for dist != TCO_DIST_NONE: LOW and HIGH finite, within the input's min/max,
 * whole if the input is, LOW <= point value <= HIGH (LOW = HIGH allowed), LOW > 0 for lognormal; the
 * input is a number input and not structural.  A range belongs to the value it came with: it is taken
 * from the value's own file or from one nearer the user (scenario over catalog, --set over both), so
 * a scenario or --set value drops the catalog's range unless it gives one of its own, and a vendor
 * quote drops every range but a --set one (tco_model_apply_quotes()).
 */
typedef struct tco_range {
    /** The distribution; TCO_DIST_NONE when the value has no range. */
    tco_dist dist;
    /** LOW and HIGH in the units of the item's value: in the reporting currency for a money input of a
     *  model reported in another currency (in_report; tco_model_set_currency() converts them as it
     *  converts the value), so tco_model_set_input(model, name, low) moves the input to LOW. */
    double low, high;
    /** LOW and HIGH as the files or --set give them, in the units --set takes (CNY for a money input):
     *  the numbers a `--set SECTION.KEY=LOW` reproducing the range's end writes.  Equal to low and high
     *  unless in_report. */
    double given_low, given_high;
    /** The range's basis (KEY_range_source as written; heap), NULL when none is given. */
    char *basis;
    /** Where the range was given, for messages: "pricing/site.ini [facility] pue_range" or
     *  "--set facility.pue_range=1.2,1.6" (heap); NULL without a range. */
    char *given;
    /** True when a --set gave the range (quotes do not drop it). */
    bool by_set;
    /** KEY_range_kind = bounds: LOW and HIGH are the minimum and maximum of the distribution (a physical or
     *  stated bound no draw passes; triangular, uniform or pert only); false (p5p95, the default): they
     *  are its 5th and 95th percentiles. */
    bool bounds;
} tco_range;

/** One input or line item. */
typedef struct tco_item {
    tco_item_kind kind;
    /** Name (lower-case, a valid Excel defined name). */
    char *name;
    /** Human label. */
    char *label;
    /** Unit text, e.g. "CNY/yr". */
    char *unit;
    /** Where the value or formula comes from: file [section] key, plus the basis text. */
    char *source;
    /** Sheet name (lines only; NULL for inputs). */
    char *sheet;
    /** Number format. */
    tco_format format;
    /** Parsed formula (lines and per-year lines; NULL otherwise). */
    tco_node *formula;
    /** Diagnostic place of the formula: "templates/tco.ini [line.x] formula". */
    char *where;
    /** The same place as data (file, section "line.x", key "formula"), for tco_diag_at(); its strings
     *  are held by place_text (heap, tco_place_keep()).  All NULL for an item without a formula. */
    tco_place place;
    char *place_text;
    /** Where a single-valued input's value was given, as data: the file, section and key that held it,
     *  or the --set argument ("--set scenario.years=200", section and key what it set); its strings
     *  are held by value_place_text (heap, tco_place_keep()).  All NULL for a line, a per-tier input
     *  and an input the loader did not read from a file. */
    tco_place value_place;
    char *value_place_text;
    /** For TCO_ITEM_TOTAL: the per-year item it sums; for TCO_ITEM_YEARLY: its total (-1 with
     *  sum = no); else -1. */
    int partner;
    /** Scalar value (inputs, lines, totals) after evaluation. */
    double value;
    /** Per-year values, n_periods of them, Year first_year first (TCO_ITEM_YEARLY); per-month
     *  values, n_months of them (TCO_ITEM_MONTHLY). */
    double *years;
    /** Per-tier values, n_tiers of them (TCO_ITEM_TIER_INPUT and TCO_ITEM_TIER_LINE). */
    double *tiers;
    /** Text inputs (template type = text): the scalar text, or one text per tier; NULL for numbers. */
    char *text;
    char **tier_texts;
    /** Allowed texts of a text input (template values = A, B, ...); NULL when any text is allowed. */
    char **choices;
    size_t n_choices;
    /** Input bounds (inclusive; NaN = none) and whether it must be whole. */
    double min, max;
    /** The least value above 0 a rate, throughput or capacity input takes (template key least; NaN = none):
     *  0 ("none", "no compute") or a value from least up, never a tiny positive one (1e-300 TFLOPS made a
     *  formula overflow).  Only on an input whose min is 0 and whose unit is not money. */
    double least;
    bool integer;
    /** Input that fixes the workbook's shape (e.g. years = number of year columns):
     *  shown as a fixed value, not as an editable input (template key structural = yes); also a text
     *  input a command fixed at its value (tco_model_fix_text_input(): a budget's acquisition). */
    bool structural;
    /** Why a command fixed this text input (tco_model_fix_text_input()), the workbook's message for a value
     *  typed over it (heap); NULL for an input the template fixes or nothing does. */
    char *fixed_why;
    /** A scalar input read from a section of [model] shared (site and finance: electricity price,
     *  discount rate, VAT, staff cost) or the reporting rate fx_report: in a comparison whose options all
     *  hold the same value, one cell on the Shared inputs sheet that every option's formulas use. */
    bool site_wide;
    /** A per-year line (or its Total) on the schedule sheet ([model] schedule = SHEET:INPUT), whose
     *  time line runs past Year N to the end of the book life: tco_item_periods() columns. */
    bool on_schedule;
    /** Line shown as a total: bold with a rule above (template key total = yes). */
    bool emphasis;
    /** Priced by vendor quotes (template quote = ITEM): the catalog item id, e.g. "D-M" or
     *  "switch", and the input or line giving the quantity bought (quote_qty); NULL otherwise. */
    char *quote_item, *quote_qty;
    /** For an input set with --set: the value it had before, as text (shown beside it); else NULL. */
    char *original;
    /** Per-tier inputs: for each tier row a --set gave (e.g. card.price=80000 for the D-M row), that
     *  argument (heap), else NULL; the array is NULL when no --set gave a row.  Quotes never replace
     *  such a row (tco_model_apply_quotes), as they never replace a --set scalar input. */
    char **tier_set;
    /** The catalog's value before a quote replaced it (quote_item inputs), and whether one did. */
    double catalog_value;
    bool quoted;
    /** Per-year line without a Total column or NAME_total (template key sum = no), e.g. a
     *  running total or a discount factor, whose sum over the years means nothing. */
    bool no_total;
    /** Evaluation state for the dependency walk (internal). */
    int mark;
    /** Lines only (template key warning): what tco prints as a warning when the line is 0, e.g. a
     *  failed feasibility check; {NAME} stands for the value of scalar item NAME as the terminal
     *  shows it.  NULL when the line has none. */
    char *warning;
    /** Index of the line or input that must be non-zero for the warning to apply (template key
     *  warning_if = NAME, e.g. a line saying serving is this scenario's job); -1 for always. */
    int warning_if;
    /** A line whose value is text by design (template type = text, e.g. the chosen card's class
     *  looked up from the tier table): JSON and CSV give its text as the value, not as a reason. */
    bool text_line;
    /** A text input whose allowed values are the tier codes (template values_from = tier): the
     *  workbook's drop-down lists the tier table's first column. */
    bool choices_are_tiers;
    /** The quote that priced this input (tco_model_apply_quotes()), as an index into the model's
     *  quotes->quotes: for a scalar input, valid when `quoted`; for a per-tier input, one per tier row,
     *  -1 for a row no quote priced (NULL when none did).  The workbook writes such a price as a live
     *  formula over that quote's row of the Quotes sheet and its fx_ rate. */
    size_t quote_index;
    long *tier_quotes;
    /** A money input (unit starting "CNY") of a model reported in another currency
     *  (tco_model_set_currency()): its value in CNY as the files, --set or a quote gave it, and one
     *  per tier row (base_tiers, per-tier inputs); value (tiers) is that over the fx_report input, and
     *  the workbook writes the cell as the live formula =BASE/fx_report.  False otherwise.  base_min
     *  and base_max are min and max in CNY (min and max are them over fx_report; NaN = none), so that
     *  tco_model_set_report_rate() converts the bounds again with the values.  Move such an input by
     *  its CNY value with tco_model_set_given_input(): tco_model_set_input() sets the value in the
     *  reporting currency and leaves base_value (what the workbook and the JSON's `given` show) as it
     *  was. */
    bool in_report;
    double base_value;
    double *base_tiers;
    double base_min, base_max;
    /** The basis the files give for this value (KEY_source as written, e.g. "seed §4.3 and §5.4:
     *  0.7 CNY/kWh"; heap), NULL when none does.  For a value given by --set, only a basis given by
     *  --set too (the file's basis describes the file's value).  Read by tco_status_of_input(). */
    char *basis;
    /** Per-tier inputs: each row's basis, as `basis` (heap, NULL for a row without); the array is NULL
     *  when no row has one.  Read by tco_status_of_tier_row(). */
    char **tier_bases;
    /** Per-tier inputs: the file each row's value was read from, for messages (borrowed: NULL, the
     *  model's tier_catalog_path or scenario_path); the array is NULL when none was read from a file.
     *  A --set row is named by tier_set. */
    const char **tier_files;
    /** Scalar number inputs: the value's range (dist TCO_DIST_NONE without one); see tco_range. */
    tco_range range;
    /** Per-tier number inputs: one range per tier row (n_tiers; dist TCO_DIST_NONE for a row without);
     *  NULL when no row has one. */
    tco_range *tier_ranges;
    /** Inputs: what --set names the value by: for a scalar input the template's `from` (e.g.
     *  "facility.pue", "host.price", "scenario.utilisation"), for a per-tier input the catalog key of
     *  its rows (e.g. "price": `--set ROW.price`, or `--set card.price` for the row the scenario's card
     *  names); heap, NULL for items that are not inputs or inputs tco adds (fx_ rates).  See
     *  tco_model_ranged_inputs(). */
    char *set_key;
    /** Inputs: true once the value (a row, for a per-tier input) was changed after loading and pricing (a
     *  setter of evaluate.h, a tco diff step, a sensitivity swing or Monte Carlo draw, an advisor's card
     *  count): it then no longer need be the one its file, --set or quote gave, so an evaluation error does
     *  not cite that place for it (blame_input(), evaluate.c). */
    bool moved;
} tco_item;

/** A calculation sheet named by the template's [model] sheets key. */
typedef struct tco_sheet {
    char *name;
    /** True if the sheet's lines are per-year (year columns plus Total). */
    bool yearly;
    /** True if the sheet's lines are per-tier (one row per tier, one column per line). */
    bool tiered;
    /** True if the sheet's lines are per-month (month columns, fiscal-year subtotals, Total). */
    bool monthly;
    /** True for the schedule sheet: per-year lines over n_schedule_periods columns (tco_model). */
    bool schedule;
} tco_sheet;

/** Kinds of chart ([chart.NAME] type). */
typedef enum tco_chart_type {
    TCO_CHART_COLUMN_STACKED, /**< per-year lines stacked by year */
    TCO_CHART_LINE,           /**< per-year lines as lines over the years */
    TCO_CHART_PIE             /**< scalar items as slices */
} tco_chart_type;

/** A chart of the workbook's Charts sheet, fed by the live cells. */
typedef struct tco_chart {
    tco_chart_type type;
    char *title;
    /** Items shown: per-year lines for column and line charts, scalar items for a pie. */
    int *series;
    size_t n_series;
} tco_chart;

/** The loaded model. */
typedef struct tco_model {
    /** Scenario name (file name without .ini) and title. */
    char *scenario_name, *scenario_title;
    /** Template title ([model] title). */
    char *title;
    /** Paths shown in messages and on the workbook. */
    char *scenario_path, *template_path;
    /** The same as the Summary's subtitle names them: relative to the project root when under it
     *  ("scenarios/cluster32.ini" however the root was given), else as given; pointers into the two
     *  paths above, not owned. */
    const char *scenario_shown, *template_shown;
    /** The tier catalog's path as the loader named it (heap), once a tier row was read from it: what the
     *  items' tier_files point at. */
    char *tier_catalog_path;
    /** All items: inputs first, then lines in template order, then totals. */
    tco_item *items;
    size_t n_items;
    /** Calculation sheets in order. */
    tco_sheet *sheets;
    size_t n_sheets;
    /** Items shown on Summary, in order (indexes into items): [model] summary, then
     *  summary_KIND for the scenario's kind. */
    int *summary;
    size_t n_summary;
    /** Charts ([chart.NAME] sections, in template order). */
    tco_chart *charts;
    size_t n_charts;
    /** Lines shown on a Compare sheet ([model] compare), indexes into items. */
    int *compare;
    size_t n_compare;
    /** The checks block on Summary ([model] checks: the master check first), indexes into items. */
    int *checks;
    size_t n_checks;
    /** The JSON cash_flow object ([model] cash_flow = KEY:LINE, ...): each KEY (e.g. "net") and the
     *  per-year line whose periods it gives (indexes into items); none when the template names none. */
    char **cash_flow_keys;
    int *cash_flow_items;
    size_t n_cash_flow;
    /** Roles for the JSON summary: capex total, opex per year, TCO, TCO per card-year (indexes, -1 if absent). */
    int role_capex, role_opex, role_tco, role_per_card_year;
    /** Roles for sensitivity and Monte Carlo runs (risk.h): the net present cost ([model] npv) and the
     *  headline unit cost ([model] unit_cost_KIND for the scenario's kind, else unit_cost: cost per
     *  GPU-hour, per million tokens, per training run); -1 when the template names none. */
    int role_npv, role_unit_cost;
    /** Years of the analysis period (the `years` input; 0 when the template has no per-year lines). */
    int n_years;
    /** The time line's first year: 0 when the template starts it at the purchase ([model]
     *  first_year = 0, Year 0 to Year N), else 1 (Year 1 to Year N, the default). */
    int first_year;
    /** Year columns of every per-year line: n_years + 1 - first_year (0 without per-year lines). */
    int n_periods;
    /** Year columns of the schedule sheet ([model] schedule = SHEET:INPUT[, INPUT...], e.g.
     *  Depreciation:book_life_years, book_life_facility_years; tco_sheet.schedule): Year first_year to
     *  Year max(N, INPUT, ...), so a depreciation schedule reaches the end of the longest book life.
     *  n_periods without one. */
    int n_schedule_periods;
    /** Tier rows ([model] tiers = FILE: every section of pricing/FILE.ini, in file order). */
    char **tier_names;
    int n_tiers;
    /** Catalog file of the tiers as shown, e.g. "pricing/cards.ini"; NULL without tiers. */
    char *tier_path;
    /** The scenario's kind ([scenario] kind, e.g. "inference"), or NULL. */
    char *kind;
    /** Quotes applied by tco_model_apply_quotes() (borrowed, NULL without) and their as-of date. */
    const tco_quote_set *quotes;
    int32_t as_of;
    /** What the quotes tried to price and did not (tco_model_apply_quotes()): one text per item whose
     *  quote rows are all expired, not yet valid, under their minimum quantity, not a catalog item or in a
     *  currency without a rate, e.g. "no quote prices D-M: a.csv:2 expired: valid until 2026-12-31, as of
     *  2027-02-15; the catalog's price stays" (n_quote_unpriced of them), and one per item a quote prices
     *  while rows of it without a rate could not be compared; owned, NULL without.  The command prints
     *  them as warnings, JSON lists them under "warnings" (check "quotes"), and --quotes-strict refuses
     *  the run for any. */
    char **quote_warnings;
    size_t n_quote_warnings, n_quote_unpriced;
    /** Evaluation order (indexes into items; every line after what it uses). */
    int *order;
    size_t n_order;
    /** Name index (internal, kept by the loader as items are appended): item name -> index. */
    tco_name_index names;
    /** The items' formula trees (tco_formula_parse_in()), given back whole by tco_model_free(). */
    tco_arena trees;
    /** Allocated length of items (internal): it grows by doubling, not by one item per append. */
    size_t cap_items;
    /** Reporting currency (tco_model_set_currency()): "" for the catalog's own, CNY; see tco_model_currency(). */
    char currency[4];
    /** The catalog entries the scenario names through the template's refs, e.g. key "card" and
     *  entry "D-M" (tco_model_ref_entry()); n_refs of each. */
    char **ref_keys, **ref_entries;
    size_t n_refs;
    /** Months of the per-month lines: n_years x 12 (0 without per-month lines). */
    int n_months;
    /** The calendar month of Month 1 ([model] budget_start names a text input YYYY-MM) and the
     *  first month of the fiscal year ([model] fiscal_year_start names an input 1..12; 1 without). */
    int start_year, start_month, fiscal_start_month;
    /** The JSON budget object ([model] budget = KEY:LINE, ... of per-month lines, and
     *  [model] budget_total = NAME, its "total"); none when the template names none. */
    char **budget_keys;
    int *budget_items;
    size_t n_budget;
    int budget_total;
    /** Capex lines and the prices each rests on ([model] capex_prices; conventions.h), for the
     *  Summary's capex by price status; none when the template names none. */
    struct tco_capex_basis *capex_basis;
    size_t n_capex_basis;
    /** Rows of the Conventions sheet ([convention.NAME] sections in template order; conventions.h). */
    struct tco_convention *conventions;
    size_t n_conventions;
    /** The model compiled for evaluation (program.h; internal): made by the second
     *  tco_model_evaluate() with the same texts (the first walks the formula trees, which costs less
     *  than compiling for a model evaluated once: a plain run, each option of a comparison, each card
     *  tier the advisor finds does not fit a host), made again when the model's structure or a text
     *  input changes, freed with the model. */
    struct tco_program *program;
    /** Text inputs set so far (tco_model_set_text_input(), tco_model_assign_text_input(); internal,
     *  for the above). */
    unsigned long text_sets;
    /** text_sets + 1 at the last evaluation that walked the trees for want of a program, 0 before any
     *  (internal: the next evaluation with text_sets unchanged compiles). */
    unsigned long walked_at;
    /** The template as the scenario names it, relative to the project root ("templates/tco.ini"; heap),
     *  and tco_fingerprint() of its bytes (tco_ini.fingerprint): the JSON summary's template identity,
     *  so that a later run can tell the template changed. */
    char *template_file;
    uint64_t template_fingerprint;
} tco_model;

/** The year column (0-based) per-month column @p month (0-based) falls in: Month 1 is the first month
 *  of Year 1 (column 1 on a time line from Year 0). */
int tco_model_year_of_month(const tco_model *model, int month);

/** Index of the item named @p name (case-insensitive), or -1. */
int tco_model_find(const tco_model *model, const char *name);

/**
 * Which items the @p n items @p targets (indexes into model->items; one out of range is ignored) need:
 * *@p needed (model->n_items bytes) gets 1 for each target and every input and line its formulas name,
 * directly or through other lines (a total needs its per-year line), 0 for the rest.  For work on a
 * few figures alone: a program for Monte Carlo draws (program.h), the hidden option sheets of an
 * advice workbook.
 */
void tco_model_needed(const tco_model *model, const int *targets, size_t n, unsigned char *needed);

/**
 * True if @p a and @p b hold the same items (name, kind, partner, formula, text or number) in the same
 * dependency order, over the same tiers, years, months and schedule: two models loaded from one
 * template and catalog that differ in their inputs' values and texts alone (the advisor's model of
 * each host).  A program compiled from one then runs the other where their texts agree (program.h,
 * tco_program_fits()).
 */
bool tco_model_same_shape(const tco_model *a, const tco_model *b);

/**
 * Append an item named @p name (stored lower-cased) of @p kind to @p model and its
 * name index, zeroed but for kind, name, partner -1 and min/max NaN.  Returns the
 * item (valid until the next append), or NULL on allocation failure.  For the
 * loader and for pricing.c's fx inputs.
 */
tco_item *tco_model_add_item(tco_model *model, tco_item_kind kind, const char *name);
/** Room for @p n items in all, so that tco_model_add_item() need not copy the items as they grow (a
 *  hint: it grows past it).  False when out of memory (the model unchanged). */
bool tco_model_reserve_items(tco_model *model, size_t n);

/**
 * Copy @p src into *@p dst with its strings (file, section, key, column name, arg, part) in one heap
 * block, *@p text, which the caller frees (the model frees an item's): for a place kept beyond the
 * strings it was made from.  Returns false on allocation failure (*@p dst zeroed, *@p text NULL).
 */
bool tco_place_keep(tco_place *dst, char **text, const tco_place *src);

/** True if @p unit is a money unit of the catalog: "CNY" alone or followed by '/' ("CNY/yr"). */
bool tco_unit_is_money(const char *unit);

/** Free the model (NULL allowed). */
void tco_model_free(tco_model *model);

#endif /* TCO_MODEL_H */
