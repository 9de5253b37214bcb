/*
 * book.h - what every workbook tco writes shares at its API: the options (creation time, currency,
 * force, the caller's own sheets), whether a spreadsheet application has the target open, and the
 * defined name of an item.  The writers: workbook.h (a scenario), compare.h (options side by side),
 * apps/rank.h (an advice), apps/bridge.h (a budget bridge).
 */
#ifndef TCO_BOOK_H
#define TCO_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "model/model.h"

struct writer;

/** Options for tco_workbook_write(). */
typedef struct tco_workbook_options {
    /** Document `created` time; a fixed value makes output byte-reproducible. */
    time_t created;
    /** Reporting currency code shown in money formats, e.g. "CNY". */
    const char *currency;
    /** Replace the target even when a spreadsheet application's lock file says it is open. */
    bool force;
    /** Sheets of the caller's own, written after the model's by @p more_sheets(writer, more_ctx) with the
     *  kit (workbook_kit.h): a --sensitivity / --monte-carlo run's (apps/risk_sheets.h); NULL for none. */
    void (*more_sheets)(struct writer *w, const void *more_ctx);
    const void *more_ctx;
} tco_workbook_options;

/**
 * If a spreadsheet application has @p path open, name its lock file: Excel's
 * "~$NAME.xlsx" or LibreOffice's ".~lock.NAME.xlsx#" beside it.  Returns true
 * and writes the lock file's path into @p lock (size @p size) when one exists.
 */
bool tco_workbook_locked(const char *path, char *lock, size_t size);

/**
 * The cell reference text that formulas use for item @p index: its defined
 * name for inputs, scalar lines and totals.  Exposed for tests.  Returns the
 * item's name (owned by the model).
 */
const char *tco_workbook_item_name(const tco_model *model, int index);

#endif /* TCO_BOOK_H */
