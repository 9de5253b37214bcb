/* free.c - tco_model_free(): a model and everything it owns, the compiled program (program.c) and the
 * conventions (conventions.c) among them.  Apart from model.c because those two files use the model
 * core: the one file that frees all three stands above them, so no two files call each other. */
#include "model/model.h"

#include <stdlib.h>

#include "base/text.h"
#include "model/conventions.h"
#include "model/program.h"
#include "model/ranges.h"

void tco_model_free(tco_model *m)
{
    if (m == NULL)
        return;
    tco_program_free(m->program);
    for (size_t i = 0; i < m->n_quote_warnings; i++)
        free(m->quote_warnings[i]);
    free(m->quote_warnings);
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        free(it->name);
        free(it->label);
        free(it->unit);
        free(it->source);
        free(it->sheet);
        free(it->where);
        free(it->place_text);
        free(it->value_place_text);
        free(it->years);
        free(it->tiers);
        free(it->tier_quotes);
        free(it->base_tiers);
        free(it->text);
        free(it->fixed_why);
        free(it->warning);
        for (int r = 0; it->tier_texts && r < m->n_tiers; r++)
            free(it->tier_texts[r]);
        free(it->tier_texts);
        tco_free_list(it->choices, (int)it->n_choices);
        free(it->quote_item);
        free(it->quote_qty);
        free(it->original);
        for (int r = 0; it->tier_set && r < m->n_tiers; r++)
            free(it->tier_set[r]);
        free(it->tier_set);
        free(it->basis);
        for (int r = 0; it->tier_bases && r < m->n_tiers; r++)
            free(it->tier_bases[r]);
        free(it->tier_bases);
        free(it->tier_files);
        tco_range_clear(&it->range);
        for (int r = 0; it->tier_ranges && r < m->n_tiers; r++)
            tco_range_clear(&it->tier_ranges[r]);
        free(it->tier_ranges);
        free(it->set_key);
    }
    free(m->items);
    for (size_t s = 0; s < m->n_sheets; s++)
        free(m->sheets[s].name);
    free(m->sheets);
    free(m->summary);
    free(m->checks);
    free(m->compare);
    for (size_t k = 0; k < m->n_budget; k++)
        free(m->budget_keys[k]);
    free(m->budget_keys);
    free(m->budget_items);
    for (size_t r = 0; r < m->n_refs; r++) {
        free(m->ref_keys[r]);
        free(m->ref_entries[r]);
    }
    free(m->ref_keys);
    free(m->ref_entries);
    for (size_t k = 0; k < m->n_cash_flow; k++)
        free(m->cash_flow_keys[k]);
    free(m->cash_flow_keys);
    free(m->cash_flow_items);
    for (size_t c = 0; c < m->n_charts; c++) {
        free(m->charts[c].title);
        free(m->charts[c].series);
    }
    free(m->charts);
    tco_conventions_free(m);
    free(m->order);
    for (int r = 0; r < m->n_tiers; r++)
        free(m->tier_names[r]);
    free(m->tier_names);
    free(m->tier_path);
    free(m->kind);
    free(m->scenario_name);
    free(m->scenario_title);
    free(m->title);
    free(m->scenario_path);
    free(m->tier_catalog_path);
    free(m->template_path);
    free(m->template_file);
    tco_name_index_free(&m->names);
    tco_arena_free(&m->trees); /* every item's formula tree */
    free(m);
}
