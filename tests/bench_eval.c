/*
 * bench_eval.c - how fast tco evaluates one loaded model again (issue 14 §4): the engine's
 * evaluation of cluster32 (tco_model_evaluate(), the compiled program of engine/model/program.c) against
 * the floor, a C function below that computes the same lines of cluster32 by hand.
 *
 * Not a test (ctest does not run it): it prints figures.  It loads scenarios/cluster32.ini, then
 * alternately, ROUNDS times, times a batch of evaluations by the engine and the same batch by the
 * floor, each evaluation with other inputs (electricity price, PUE, utilisation, staff cost,
 * discount rate and the D-M card's price move every time, so nothing can be reused from the one
 * before); times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), the median of the rounds.
 * Before timing, it checks that the floor gives every cell the engine gives (every scalar
 * line and total, every year, month and tier cell, texts included, bit for bit) for a set of such
 * inputs, and refuses to print a ratio if one differs: the floor cannot be a fake.  It prints the
 * median time per evaluation of both and, as its last line, ratio=R (engine / floor).
 *
 * Usage: bench_eval [SOURCE_DIR] [--rounds N] [--batch K]   (defaults: ., 41 rounds of 1,000)
 *
 * THE FLOOR.  "C holds no cost arithmetic" (CONVENTIONS.md) holds for engine/; the floor below is
 * the one sanctioned exception: templates/tco.ini's formulas written out as plain C for cluster32's
 * configuration (Year 0 to 3, a depreciation schedule to Year 5, 36 months, the 10 tiers of
 * pricing/cards.ini), the way a programmer would write the model without a formula engine.  Its
 * choices, all in its favour: text inputs and the tier table's texts are read once into flags
 * (facility mode, VAT basis, ..., each tier's class), the card's tier row is found once, numbers
 * are added, compared and rounded with C's own +, <= and ceil() (the engine's LibreOffice rules
 * give the same results here, as the check shows), and it allocates nothing.  It calls the engine
 * for one thing, the IRR root-finder (tco_formula_irr), a numerical routine like libm's pow().
 * It keeps the template's order of operations, so that its doubles are the engine's.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/formula.h"
#include "model/model.h"
#include "model/program.h"
#include "load/load.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "loaded.h"

enum { NP = 4, NS = 11, NM = 36, NT = 10 }; /* Year 0-3, schedule Year 0-10, months, tiers */

/* A scalar line's value: a number, or text ("n.a.: ...") with number 0. */
typedef struct val {
    double v;
    const char *t;
} val;

static val num(double x)
{
    return (val){x, NULL};
}

static val txt(const char *t)
{
    return (val){0, t};
}

/* ---- the floor's inputs: every input of cluster32's model ---------------------------------- */

#define NUMBER_INPUTS(X)                                                                                            \
    X(card_count) X(years) X(utilisation) X(cards_per_host) X(host_price) X(host_import_duty) X(host_base_power_w)   \
    X(host_rack_units) X(fabric_ports_per_host) X(fabric_nic_price) X(fabric_port_gbit_s) X(rental_cards_per_host) X(pue) X(electricity_price) X(electricity_escalation)                 \
    X(hours_per_year) X(colo_price_kw_month) X(ups_sizing_factor) X(ups_power_factor) X(ups_module_kva)              \
    X(ups_cost_per_kva) X(rack_power_kw) X(rack_units) X(rack_cost) X(cooling_cost_per_kw)                           \
    X(facility_buildout_per_kw) X(switch_ports) X(switch_price) X(optic_price) X(optics_per_port) X(cable_price)      \
    X(switch_power_w) X(storage_tb) X(storage_price_per_tb) X(storage_power_w_per_tb) X(mgmt_power_w_per_host)       \
    X(staff_fte_floor) X(staff_fte_per_host) X(staff_fte_per_mw) X(staff_loaded_cost) X(support_rate)                \
    X(card_annual_failure_rate) X(host_annual_failure_rate) X(spare_share) X(swap_hours) X(repair_days) X(host_repair_hours) \
    X(book_life_years) X(book_life_facility_years) X(salvage_rate) X(discount_rate) X(check_tolerance) X(deposit_share) X(deposit_year)           \
    X(delivery_share) X(delivery_year) X(acceptance_share) X(acceptance_year) X(deposit_month) X(delivery_month)      \
    X(acceptance_month) X(resale_share) X(vat_rate_hardware) X(vat_rate_electricity) X(vat_rate_services)             \
    X(vat_rate_construction) X(vat_rate_support) X(vat_rate_staff) X(non_card_share_low) X(non_card_share_high) X(scaling_eff_4) X(scaling_eff_8)                  \
    X(scaling_eff_16) X(scaling_eff_32) X(scaling_eff_64) X(scaling_eff_128) X(scaling_eff_256)                      \
    X(scaling_reference_gbps) X(decode_eff_pcie) X(decode_eff_dedicated) X(decode_eff_single)                        \
    X(decode_eff_single_dc) X(params_b) X(bytes_per_param) X(layers) X(kv_heads) X(head_dim) X(seq_len) X(streams)    \
    X(replicas) X(cards_per_replica_set) X(replica_hosts) X(target_tokens_per_s) X(target_stream_tokens_per_s)       \
    X(train_deadline_days) X(runs_per_year) X(kv_bytes) X(memory_reserve_share) X(train_tokens) X(full_ft_bytes_per_param) X(lora_bytes_per_param)            \
    X(lora_job_params_b) X(lora_batch) X(lora_seq_len) X(lora_base_bytes_per_param) X(lora_activation_mb_per_token)   \
    X(activation_overhead) X(mfu) X(train_step_ms) X(grad_bytes_per_param) X(full_ft_memory_share) X(max_capex) X(max_tco) X(max_host_kw)    \
    X(max_site_kw) X(max_hosts) X(max_cards) X(w_consumer_compute) X(w_consumer_memory) X(w_consumer_bandwidth)       \
    X(w_consumer_interconnect) X(w_consumer_efficiency) X(w_workstation_compute) X(w_workstation_memory)             \
    X(w_workstation_bandwidth) X(w_workstation_interconnect) X(w_workstation_efficiency) X(w_datacentre_compute)     \
    X(w_datacentre_memory) X(w_datacentre_bandwidth) X(w_datacentre_interconnect) X(w_datacentre_efficiency)         \
    X(error_cells)

#define TIER_NUMBER_INPUTS(X)                                                                                       \
    X(tier_memory_gb) X(tier_bandwidth_gbps) X(tier_fp16_tflops) X(tier_int8_tops) X(tier_board_power_w)             \
    X(tier_interconnect_gbps) X(tier_cloud_price_per_hour) X(tier_import_duty) X(tier_price)

#define TIER_TEXT_INPUTS(X) X(tier_class) X(tier_interconnect) X(tier_form_factor) X(tier_ecc)

typedef struct floor_in {
#define FIELD(n) double n;
    NUMBER_INPUTS(FIELD)
#undef FIELD
#define FIELD(n) double n[NT];
    TIER_NUMBER_INPUTS(FIELD)
#undef FIELD
#define FIELD(n) const char *n[NT];
    TIER_TEXT_INPUTS(FIELD)
#undef FIELD
    /* The text inputs, read once (the configuration). */
    bool training, solo, rent, own, colocation, owned, ups_none, ups_2n, ups_n1, rack_enabled, vat_yes, vat_no, mid_year,
        declining_balance, sum_of_years, office, require_ecc, life_share;
    const char *host_slot;
    int card_row; /* 1-based, as MATCH gives it */
    /* Each tier's class and interconnect, read once. */
    bool consumer[NT], workstation[NT], data_centre[NT], pcie[NT], dedicated[NT];
} floor_in;

/* ---- the floor's results: every line of cluster32's model ---------------------------------- */

#define SCALAR_LINES(X)                                                                                             \
    X(card_row) X(card_price) X(card_board_power_w) X(card_memory_gb) X(card_bandwidth_gbps) X(card_fp16_tflops)      \
    X(card_int8_tops) X(card_class) X(card_interconnect) X(card_form_factor) X(card_ecc) X(card_interconnect_gbps)    \
    X(card_import_duty) X(cloud_price_per_gpu_hour) X(weight_gb) X(kv_per_token_kib) X(kv_cache_gb)                   \
    X(replica_memory_gb) X(inference_memory_gb) X(full_ft_gb) X(lora_gb) X(cluster_memory_gb)                       \
    X(card_usable_memory_gb) X(cards_needed_inference) X(cards_per_replica_min) X(cards_per_replica)                 \
    X(replica_card_memory_gb) X(replica_usable_memory_gb) X(full_hosts)                                             \
    X(replica_capacity) X(check_replica_in_host) X(check_replica_fabric) X(check_replica_memory) X(check_replicas_fit)                       \
    X(check_pcie_data_parallel) X(fits_inference) X(memory_headroom_gb) X(training_memory_gb)                        \
    X(full_ft_card_limit_gb) X(train_memory_per_card_gb) X(cards_needed_full_ft) X(fits_full_ft) X(fits_lora) X(lora_job_base_gb) X(lora_job_gb) X(lora_batch_max)        \
    X(check_lora_job) X(train_flop) X(check_train_compute) X(train_time_ideal_s) X(grad_sync_gb) X(fabric_port_gbps) X(fabric_gbps_per_card) X(sync_gbps) X(step_sync_ms)  \
    X(step_time_ms) X(step_efficiency) X(reference_step_efficiency) X(scaling_efficiency) X(train_efficiency)        \
    X(train_time_s) X(layout_train_days) X(train_gpu_hours) X(train_time_judged) X(check_train_deadline) X(train_runs_capacity)      \
    X(train_runs_per_year) X(check_train_demand) X(check_train_fabric) X(check_consumer_multi_host) X(training_required) X(training_feasible)           \
    X(train_days) X(decode_bound_tps) X(decode_efficiency) X(card_dense_tflops) X(replica_bandwidth_tps)             \
    X(replica_compute_tps) X(layout_tokens_per_s) X(layout_stream_tokens_per_s) X(check_target_tokens_per_s)         \
    X(check_serves_tokens) X(check_target_stream_tokens_per_s) X(serving_required) X(serving_feasible) X(tokens_per_s) X(ram_gb) X(hosts)    \
    X(spare_cards) X(cards_bought) X(card_failures_per_year) X(host_failures_per_year) X(card_failure_down_hours)   \
    X(cards_stopped_by_card_failure) X(cards_stopped_by_host_failure) X(lost_card_hours_per_year) X(availability)   \
    X(rental_hosts) X(rental_sync_gbps) X(rental_train_efficiency) X(rental_train_gpu_hours)                       \
    X(machine_peak_kw) X(psu_w) X(fabric_needed) X(host_links) X(leaf_switches) X(spine_switches) X(switches) X(infra_power_kw)       \
    X(it_peak_kw) X(it_load_kw) X(facility_power_kw) X(site_peak_kw) X(ups_need_kva) X(ups_modules)                  \
    X(ups_installed_kva) X(racks) X(fabric_links) X(optics) X(staff_fte) X(card_capex) X(host_capex)                 \
    X(network_capex) X(storage_capex) X(rack_capex) X(ups_capex) X(cooling_capex) X(facility_capex)                  \
    X(hardware_capex) X(capex_total) X(capex_vat) X(capex_vat_rate) X(capex_vat_cost) X(capitalised_cost)           \
    X(capitalised_cost_it) X(capitalised_cost_facility) X(building_work_cost) X(vat_basis_note)                     \
    X(building_work_carried_share) X(building_work_carried) X(salvage_value_it) X(salvage_value_facility)           \
    X(ddb_rate_facility) X(resale_value) X(capital_recovery_factor_facility) X(salvage_present_value)               \
    X(cost_per_gpu_hour_book_life_annuity)                                                                          \
    X(depreciable_base) X(salvage_value) X(ddb_rate) X(gpu_hours_per_year)                                          \
    X(rental_on_demand) X(rental_basis) X(own_running_cost) X(rental_gpu_hours_per_year) X(capex_paid_year0) X(vat_cost) X(tco) X(tco_other_vat_basis) X(npv_cost) X(discounted_operating_years) \
    X(residual_value) X(depreciation_after_period) X(book_value_end_of_life) X(book_life_note) X(tco_per_card_year)  \
    X(tco_per_gpu_hour) X(capital_recovery_factor) X(capital_charge_per_year) X(cost_per_gpu_hour_with_capital)      \
    X(non_card_share) X(host_share) X(payback_months) X(break_even_months) X(cost_per_million_tokens)                 \
    X(train_run_cost) X(cost_per_million_tokens_with_capital) X(train_run_cost_with_capital) X(option_capex)         \
    X(option_cost) X(option_npv_cost) X(option_cost_per_gpu_hour) X(target_load_tokens_per_s)                        \
    X(cost_per_million_tokens_at_target) X(option_run_cost) X(cost_per_unit) X(discounted_payback_months)            \
    X(irr_own_vs_rent) X(check_capex_sum) X(check_opex_sum) X(check_cash_flow) X(check_npv) X(milestone_share_total) \
    X(check_milestones) X(check_budget) X(check_card_fits_host) X(check_office) X(check_ecc) X(check_max_capex)      \
    X(check_max_tco) X(check_max_host_kw) X(check_max_site_kw) X(check_max_hosts) X(check_max_cards)                 \
    X(constraints_ok) X(check_feasible) X(check_no_errors) X(check_depreciation) X(checks_ok)                        \
    X(check_non_card_share)

/* Per-year lines (Year 0-3) and those of the depreciation schedule (Year 0-5), with a Total and
 * without one (template sum = no). */
#define YEAR_LINES(X)                                                                                               \
    X(electricity) X(colocation) X(staffing) X(support) X(opex) X(capex_paid_share) X(paid_card_capex)               \
    X(paid_host_capex) X(paid_network_capex) X(paid_storage_capex) X(paid_facility_capex) X(capex_paid)              \
    X(capex_paid_operating) X(cash_opex) X(vat_paid) X(vat_recovered) X(resale) X(net_cash_out)                      \
    X(depreciation_in_period) X(opex_vat_charged) X(annual_cost_charged)                                            \
    X(rental_cost) X(rent_saving) X(building_work_carried_forward)
#define YEAR_LINES_NO_TOTAL(X)                                                                                      \
    X(operating_year) X(cumulative_cost) X(cumulative_cloud)
#define SCHEDULE_LINES(X)                                                                                           \
    X(depreciation_straight_line) X(depreciation_sum_of_years) X(depreciation_declining_balance) X(depreciation)
#define SCHEDULE_LINES_NO_TOTAL(X)                                                                                  \
    X(depreciation_year) X(ddb_opening_value) X(ddb_switch) X(ddb_switch_charge) X(book_value)                      \
    X(depreciation_year_facility) X(ddb_facility_opening_value) X(ddb_facility_switch) X(ddb_facility_switch_charge)
#define MONTH_LINES(X)                                                                                              \
    X(budget_capex) X(budget_electricity) X(budget_colocation) X(budget_staffing) X(budget_support) X(budget_vat_paid) \
    X(budget_vat_recovered) X(budget_resale) X(budget_building_carried) X(budget_cash_out)                        \
    X(budget_discounted_cash_out) X(budget_rental) X(budget_rental_discounted) X(budget_rent_saving)                 \
    X(budget_saving_turns_back) X(budget_discounted_saving) X(budget_payback_month)
#define MONTH_LINES_NO_TOTAL(X)                                                                                     \
    X(budget_discount_factor) X(budget_saving_below_zero) X(budget_cumulative_discounted_saving) X(budget_payback_crossing)
#define TIER_LINES(X)                                                                                               \
    X(tier_compute) X(tier_ridge) X(tier_efficiency) X(tier_fp16_equiv) X(tier_efficiency_fp16) X(tier_decode_tps)   \
    X(tier_cards_for_model) X(tier_price_per_gb) X(tier_n_compute) X(tier_n_memory) X(tier_n_bandwidth)              \
    X(tier_n_interconnect) X(tier_n_efficiency) X(tier_score)

typedef struct floor_out {
#define FIELD(n) val n;
    SCALAR_LINES(FIELD)
#undef FIELD
#define FIELD(n) double n[NP], n##_total;
    YEAR_LINES(FIELD)
#undef FIELD
#define FIELD(n) double n[NP];
    YEAR_LINES_NO_TOTAL(FIELD)
#undef FIELD
#define FIELD(n) double n[NS], n##_total;
    SCHEDULE_LINES(FIELD)
#undef FIELD
#define FIELD(n) double n[NS];
    SCHEDULE_LINES_NO_TOTAL(FIELD)
#undef FIELD
#define FIELD(n) double n[NM], n##_total;
    MONTH_LINES(FIELD)
#undef FIELD
#define FIELD(n) double n[NM];
    MONTH_LINES_NO_TOTAL(FIELD)
#undef FIELD
#define FIELD(n) double n[NT];
    TIER_LINES(FIELD)
#undef FIELD
} floor_out;

/* 0 + a[0] + ... + a[n-1]: a Total, and CUMSUM up to a year (n = year + 1). */
static double sum_to(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static double max_of(const double *a, int n)
{
    double m = a[0];
    for (int i = 1; i < n; i++)
        m = fmax(m, a[i]);
    return m;
}

static double min_of(const double *a, int n)
{
    double m = a[0];
    for (int i = 1; i < n; i++)
        m = fmin(m, a[i]);
    return m;
}

/* ROUNDDOWN(x, 0) and ROUNDUP(x, 0) of the non-negative quantities of this model. */
#define RDOWN(x) trunc(x)
#define RUP(x) ceil(x)
#define B(x) ((x) ? 1.0 : 0.0)

/* templates/tco.ini for cluster32's configuration, in the model's dependency order. */
static void floor_eval(const floor_in *in, floor_out *o)
{
    const int r = in->card_row - 1;
    o->card_row = num(in->card_row);
    const double card_price = in->tier_price[r], card_board_power_w = in->tier_board_power_w[r];
    const double card_memory_gb = in->tier_memory_gb[r], card_bandwidth_gbps = in->tier_bandwidth_gbps[r];
    const double card_fp16_tflops = in->tier_fp16_tflops[r], card_int8_tops = in->tier_int8_tops[r];
    const double card_interconnect_gbps = in->tier_interconnect_gbps[r], card_import_duty = in->tier_import_duty[r];
    const double cloud_price_per_gpu_hour = in->tier_cloud_price_per_hour[r];
    const bool card_pcie = in->pcie[r], card_dedicated = in->dedicated[r], card_dc = in->data_centre[r];
    o->card_price = num(card_price), o->card_board_power_w = num(card_board_power_w),
        o->card_memory_gb = num(card_memory_gb), o->card_bandwidth_gbps = num(card_bandwidth_gbps),
        o->card_fp16_tflops = num(card_fp16_tflops), o->card_int8_tops = num(card_int8_tops);
    o->card_class = txt(in->tier_class[r]);
    o->card_interconnect = txt(in->tier_interconnect[r]);
    o->card_form_factor = txt(in->tier_form_factor[r]);
    o->card_ecc = txt(in->tier_ecc[r]);
    o->card_interconnect_gbps = num(card_interconnect_gbps), o->card_import_duty = num(card_import_duty),
        o->cloud_price_per_gpu_hour = num(cloud_price_per_gpu_hour);

    const double card_count = in->card_count, cards_per_host = in->cards_per_host, years = in->years;
    /* Sizing */
    const double weight_gb = in->params_b * in->bytes_per_param;
    o->weight_gb = num(weight_gb);
    o->kv_per_token_kib = num(2 * in->layers * in->kv_heads * in->head_dim * in->kv_bytes / 1024);
    const double kv_cache_gb = 2 * in->layers * in->kv_heads * in->head_dim * in->seq_len * in->streams * in->kv_bytes /
                               1000000000;
    o->kv_cache_gb = num(kv_cache_gb);
    const double replica_memory_gb = weight_gb + kv_cache_gb;
    o->replica_memory_gb = num(replica_memory_gb);
    const double inference_memory_gb = in->replicas * replica_memory_gb;
    o->inference_memory_gb = num(inference_memory_gb);
    const double full_ft_gb = in->params_b * in->full_ft_bytes_per_param;
    o->full_ft_gb = num(full_ft_gb);
    const double lora_gb = in->params_b * in->lora_bytes_per_param;
    o->lora_gb = num(lora_gb);
    const double cluster_memory_gb = card_count * card_memory_gb;
    o->cluster_memory_gb = num(cluster_memory_gb);
    const double card_usable_memory_gb = card_memory_gb * (1 - in->memory_reserve_share);
    o->card_usable_memory_gb = num(card_usable_memory_gb);
    o->cards_needed_inference = num(RUP(inference_memory_gb / card_usable_memory_gb));
    const double cards_per_replica_min = RUP(replica_memory_gb / card_usable_memory_gb);
    o->cards_per_replica_min = num(cards_per_replica_min);
    const double cards_per_replica = in->cards_per_replica_set > 0 ? in->cards_per_replica_set
                                     : cards_per_replica_min <= 1 ? fmin(1, card_count / in->replicas)
                                                                  : cards_per_replica_min;
    o->cards_per_replica = num(cards_per_replica);
    const double replica_card_memory_gb = cards_per_replica * card_memory_gb;
    o->replica_card_memory_gb = num(replica_card_memory_gb);
    const double replica_usable_memory_gb = cards_per_replica * card_usable_memory_gb;
    o->replica_usable_memory_gb = num(replica_usable_memory_gb);
    const double full_hosts = RDOWN(card_count / cards_per_host);
    o->full_hosts = num(full_hosts);
    const double replica_capacity =
        cards_per_replica <= cards_per_host
            ? full_hosts * RDOWN(cards_per_host / cards_per_replica) +
                  RDOWN((card_count - full_hosts * cards_per_host) / cards_per_replica)
            : RDOWN(card_count / cards_per_replica);
    o->replica_capacity = num(replica_capacity);
    const double check_replica_in_host = B(cards_per_replica <= cards_per_host * in->replica_hosts);
    const double per_host = fmin(card_count, cards_per_host);
    const double hosts = RUP(card_count / cards_per_host);
    const double check_replica_fabric =
        B(hosts <= 1 || cards_per_replica <= cards_per_host || check_replica_in_host == 0 || in->rent ||
          in->fabric_ports_per_host > 0);
    o->check_replica_fabric = num(check_replica_fabric);
    const double check_replica_memory = B(replica_memory_gb <= replica_usable_memory_gb);
    const double check_replicas_fit = B(in->replicas <= replica_capacity);
    const double check_pcie_data_parallel = card_pcie && cards_per_replica > fmax(1, cards_per_replica_min) ? 0 : 1;
    o->check_replica_in_host = num(check_replica_in_host), o->check_replica_memory = num(check_replica_memory),
        o->check_replicas_fit = num(check_replicas_fit), o->check_pcie_data_parallel = num(check_pcie_data_parallel);
    const double fits_inference =
        fmin(fmin(fmin(fmin(check_replica_in_host, check_replica_fabric), check_replica_memory), check_replicas_fit),
             check_pcie_data_parallel);
    o->fits_inference = num(fits_inference);
    o->memory_headroom_gb = num(cluster_memory_gb * (1 - in->memory_reserve_share) - inference_memory_gb);
    const double training_memory_gb = full_ft_gb * (1 + in->activation_overhead);
    o->training_memory_gb = num(training_memory_gb);
    const double full_ft_card_limit_gb = card_memory_gb * in->full_ft_memory_share;
    o->full_ft_card_limit_gb = num(full_ft_card_limit_gb);
    const double train_memory_per_card_gb = training_memory_gb / card_count;
    o->train_memory_per_card_gb = num(train_memory_per_card_gb);
    o->cards_needed_full_ft = num(RUP(training_memory_gb / full_ft_card_limit_gb));
    const double fits_full_ft = B(train_memory_per_card_gb <= full_ft_card_limit_gb);
    o->fits_full_ft = num(fits_full_ft);
    o->fits_lora = num(B(lora_gb <= cluster_memory_gb));
    const double lora_job_base_gb = in->lora_job_params_b * in->lora_base_bytes_per_param;
    o->lora_job_base_gb = num(lora_job_base_gb);
    const double lora_job_gb = lora_job_base_gb + in->lora_batch * in->lora_seq_len * in->lora_activation_mb_per_token / 1000;
    o->lora_job_gb = num(lora_job_gb);
    o->lora_batch_max = num(card_memory_gb > lora_job_base_gb
                                ? RDOWN((card_memory_gb - lora_job_base_gb) /
                                        (in->lora_seq_len * in->lora_activation_mb_per_token / 1000))
                                : 0);
    const double check_lora_job = B(in->lora_job_params_b == 0 || lora_job_gb <= card_memory_gb);
    o->check_lora_job = num(check_lora_job);
    /* Training */
    const double train_flop = 6 * in->params_b * 1000000000 * in->train_tokens;
    o->train_flop = num(train_flop);
    const bool has_fp16 = card_fp16_tflops > 0; /* no FP16/BF16 figure: no training time (text) */
    const double check_train_compute = B(has_fp16);
    o->check_train_compute = num(check_train_compute);
    const val no_fp16 = txt("n.a.: no FP16 or BF16 compute to train with");
    const double train_time_ideal_s = has_fp16 ? train_flop / (card_count * card_fp16_tflops * 1000000000000 * in->mfu) : 0;
    o->train_time_ideal_s = has_fp16 ? num(train_time_ideal_s) : no_fp16;
    const double grad_sync_gb = in->params_b * in->grad_bytes_per_param;
    o->grad_sync_gb = num(grad_sync_gb);
    const double fabric_port_gbps = in->fabric_port_gbit_s * 2 / 8;
    o->fabric_port_gbps = num(fabric_port_gbps);
    const double fabric_gbps_per_card =
        fabric_port_gbps *
        (in->rent || in->fabric_ports_per_host == 0 ? 1 : fmin(1, in->fabric_ports_per_host / per_host));
    o->fabric_gbps_per_card = num(fabric_gbps_per_card);
    /* Renting the same cards: the provider's machines of rental_cards_per_host cards, one port a card. */
    const double rental_hosts = RUP(card_count / in->rental_cards_per_host);
    o->rental_hosts = num(rental_hosts);
    const double rental_sync_gbps =
        rental_hosts > 1 ? fmin(card_interconnect_gbps, fabric_port_gbps) : card_interconnect_gbps;
    o->rental_sync_gbps = num(rental_sync_gbps);
    const double sync_gbps = in->rent      ? rental_sync_gbps
                             : hosts > 1   ? fmin(card_interconnect_gbps, fabric_gbps_per_card)
                                           : card_interconnect_gbps;
    o->sync_gbps = num(sync_gbps);
    const double step_sync_ms = card_count > 1 ? grad_sync_gb / sync_gbps * 1000 : 0;
    o->step_sync_ms = num(step_sync_ms);
    const double step_time_ms = in->train_step_ms + step_sync_ms;
    o->step_time_ms = num(step_time_ms);
    const double step_efficiency = in->train_step_ms / step_time_ms;
    o->step_efficiency = num(step_efficiency);
    const double reference_step_efficiency =
        in->train_step_ms / (in->train_step_ms + grad_sync_gb / in->scaling_reference_gbps * 1000);
    o->reference_step_efficiency = num(reference_step_efficiency);
    const double scaling_efficiency = card_count <= 4     ? in->scaling_eff_4
                                      : card_count <= 8   ? in->scaling_eff_8
                                      : card_count <= 16  ? in->scaling_eff_16
                                      : card_count <= 32  ? in->scaling_eff_32
                                      : card_count <= 64  ? in->scaling_eff_64
                                      : card_count <= 128 ? in->scaling_eff_128
                                                          : in->scaling_eff_256;
    o->scaling_efficiency = num(scaling_efficiency);
    const double train_efficiency =
        card_count > 1 ? fmin(1, scaling_efficiency * step_efficiency / reference_step_efficiency) : 1;
    o->train_efficiency = num(train_efficiency);
    const double rental_train_efficiency =
        card_count > 1 ? fmin(1, scaling_efficiency * (in->train_step_ms / (in->train_step_ms + grad_sync_gb / rental_sync_gbps * 1000)) /
                                     reference_step_efficiency)
                       : 1;
    o->rental_train_efficiency = num(rental_train_efficiency);
    /* Reliability (issue 22 section 7), the template's Sizing lines after ram_gb. */
    const double spare_cards = in->rent ? 0 : round(card_count * in->spare_share);
    const double card_failures_per_year = card_count * in->card_annual_failure_rate;
    const double host_failures_per_year = hosts * in->host_annual_failure_rate;
    const double card_failure_down_hours = spare_cards >= 1 ? in->swap_hours : in->repair_days * 24;
    const double stopped_card = B(in->training) == 1 ? card_count : fmin(card_count, fmax(1, cards_per_replica));
    const double stopped_host =
        B(in->training) == 1 ? card_count : fmin(card_count, fmax(cards_per_host, cards_per_replica));
    const double lost_card_hours_per_year = card_failures_per_year * card_failure_down_hours * stopped_card +
                                            host_failures_per_year * in->host_repair_hours * stopped_host;
    const double availability = in->rent ? 1 : 1 / (1 + lost_card_hours_per_year / (card_count * 8760));
    o->spare_cards = num(spare_cards), o->cards_bought = num(card_count + spare_cards);
    o->card_failures_per_year = num(card_failures_per_year), o->host_failures_per_year = num(host_failures_per_year);
    o->card_failure_down_hours = num(card_failure_down_hours);
    o->cards_stopped_by_card_failure = num(stopped_card), o->cards_stopped_by_host_failure = num(stopped_host);
    o->lost_card_hours_per_year = num(lost_card_hours_per_year), o->availability = num(availability);
    const double train_time_s = has_fp16 ? train_time_ideal_s / train_efficiency / availability : 0;
    o->train_time_s = has_fp16 ? num(train_time_s) : no_fp16;
    const double layout_train_days = train_time_s / 86400;
    o->layout_train_days = has_fp16 ? num(layout_train_days) : no_fp16;
    const double train_gpu_hours =
        has_fp16 ? train_flop / (card_fp16_tflops * 1000000000000 * in->mfu * train_efficiency) / 3600 : 0;
    o->train_gpu_hours = has_fp16 ? num(train_gpu_hours) : no_fp16;
    const double rental_train_gpu_hours =
        has_fp16 ? train_flop / (card_fp16_tflops * 1000000000000 * in->mfu * rental_train_efficiency) / 3600 : 0;
    o->rental_train_gpu_hours = has_fp16 ? num(rental_train_gpu_hours) : no_fp16;
    const double training_required = B(in->training);
    o->train_time_judged = num(B(training_required == 1 && has_fp16));
    const double check_train_deadline =
        has_fp16 ? B(in->train_deadline_days == 0 || layout_train_days <= in->train_deadline_days) : 0;
    o->check_train_deadline = num(check_train_deadline);
    const double train_runs_capacity = has_fp16 ? in->hours_per_year * in->utilisation * 3600 / train_time_s : 0;
    o->train_runs_capacity = has_fp16 ? num(train_runs_capacity) : txt("n.a.: no training time");
    const val train_runs_per_year = in->runs_per_year > 0 ? num(in->runs_per_year) : o->train_runs_capacity;
    o->train_runs_per_year = train_runs_per_year;
    const double check_train_demand =
        in->runs_per_year == 0 || in->rent ? 1 : has_fp16 ? B(in->runs_per_year <= train_runs_capacity) : 0;
    o->check_train_demand = num(check_train_demand);
    o->training_required = num(training_required);
    const double check_train_fabric = B(hosts <= 1 || in->rent || in->fabric_ports_per_host > 0);
    o->check_train_fabric = num(check_train_fabric);
    const double check_consumer_multi_host = in->consumer[r] && hosts > 1 ? 0 : 1;
    o->check_consumer_multi_host = num(check_consumer_multi_host);
    const double training_feasible =
        fmin(fmin(fmin(fmin(fmin(check_train_compute, fits_full_ft), check_train_deadline), check_train_demand),
                  check_train_fabric), check_consumer_multi_host);
    o->training_feasible = num(training_feasible);
    o->train_days = training_feasible == 1 ? num(layout_train_days) : txt("n.a.: training is not feasible (see the checks)");
    /* Serving */
    o->decode_bound_tps = num(cards_per_replica * card_bandwidth_gbps / weight_gb);
    const double decode_efficiency = cards_per_replica > 1 ? (card_dedicated ? in->decode_eff_dedicated : in->decode_eff_pcie)
                                     : card_dc             ? in->decode_eff_single_dc
                                                           : in->decode_eff_single;
    o->decode_efficiency = num(decode_efficiency);
    const double card_dense_tflops = card_fp16_tflops > 0 ? card_fp16_tflops : card_int8_tops;
    o->card_dense_tflops = num(card_dense_tflops);
    const double replica_bandwidth_tps =
        in->streams * cards_per_replica * card_bandwidth_gbps / (weight_gb + kv_cache_gb);
    o->replica_bandwidth_tps = num(replica_bandwidth_tps);
    const double replica_compute_tps =
        cards_per_replica * card_dense_tflops * 1000000000000 / (2 * in->params_b * 1000000000);
    o->replica_compute_tps = num(replica_compute_tps);
    const double layout_tokens_per_s = in->replicas * fmin(replica_bandwidth_tps, replica_compute_tps) * decode_efficiency;
    o->layout_tokens_per_s = num(layout_tokens_per_s);
    const double layout_stream_tokens_per_s = layout_tokens_per_s / (in->replicas * in->streams);
    o->layout_stream_tokens_per_s = num(layout_stream_tokens_per_s);
    const double check_target_tokens_per_s = B(layout_tokens_per_s >= in->target_tokens_per_s);
    const double check_target_stream_tokens_per_s = B(layout_stream_tokens_per_s >= in->target_stream_tokens_per_s);
    o->check_target_tokens_per_s = num(check_target_tokens_per_s),
        o->check_target_stream_tokens_per_s = num(check_target_stream_tokens_per_s);
    o->serving_required = num(in->training ? 0 : 1);
    const double check_serves_tokens = B(layout_tokens_per_s > 0);
    o->check_serves_tokens = num(check_serves_tokens);
    const double serving_feasible = fmin(fmin(fmin(fits_inference, check_serves_tokens), check_target_tokens_per_s),
                                         check_target_stream_tokens_per_s);
    o->serving_feasible = num(serving_feasible);
    const val tokens_per_s =
        serving_feasible == 1 ? num(layout_tokens_per_s) : txt("n.a.: serving is not feasible (see the checks)");
    o->tokens_per_s = tokens_per_s;
    /* Power and facility */
    o->ram_gb = num(4 * per_host * card_memory_gb);
    o->hosts = num(hosts);
    const double machine_peak_kw = (per_host * card_board_power_w + in->host_base_power_w) / 1000;
    o->machine_peak_kw = num(machine_peak_kw);
    o->psu_w = num(1.5 * machine_peak_kw * 1000);
    const double fabric_needed = B(hosts > 1 && (training_required == 1 || cards_per_replica > cards_per_host));
    o->fabric_needed = num(fabric_needed);
    const double host_links = fabric_needed == 1 ? full_hosts * fmin(in->fabric_ports_per_host, cards_per_host) +
                                                       fmin(in->fabric_ports_per_host, card_count - full_hosts * cards_per_host)
                                                 : 0;
    o->host_links = num(host_links);
    const double leaf_switches = host_links == 0              ? 0
                                 : host_links <= in->switch_ports ? 1
                                                                  : RUP(host_links / (in->switch_ports / 2));
    o->leaf_switches = num(leaf_switches);
    const double spine_switches = leaf_switches > 1 ? RUP(leaf_switches / 2) : 0;
    o->spine_switches = num(spine_switches);
    const double switches = leaf_switches + spine_switches;
    o->switches = num(switches);
    const double infra_power_kw =
        (switches * in->switch_power_w + in->storage_tb * in->storage_power_w_per_tb + hosts * in->mgmt_power_w_per_host) /
        1000;
    o->infra_power_kw = num(infra_power_kw);
    const double it_peak_kw = (card_count * card_board_power_w + hosts * in->host_base_power_w) / 1000 + infra_power_kw;
    o->it_peak_kw = num(it_peak_kw);
    const double it_load_kw =
        (card_count * card_board_power_w * in->utilisation + hosts * in->host_base_power_w) / 1000 + infra_power_kw;
    o->it_load_kw = num(it_load_kw);
    const double facility_power_kw = it_load_kw * in->pue;
    o->facility_power_kw = num(facility_power_kw);
    const double site_peak_kw = it_peak_kw * in->pue;
    o->site_peak_kw = num(site_peak_kw);
    const double ups_need_kva =
        in->ups_none || in->colocation ? 0 : it_peak_kw / in->ups_power_factor * in->ups_sizing_factor;
    o->ups_need_kva = num(ups_need_kva);
    const double ups_modules =
        ups_need_kva == 0 ? 0 : (in->ups_2n ? 2 : 1) * RUP(ups_need_kva / in->ups_module_kva) + (in->ups_n1 ? 1 : 0);
    o->ups_modules = num(ups_modules);
    const double ups_installed_kva = ups_modules * in->ups_module_kva;
    o->ups_installed_kva = num(ups_installed_kva);
    const double racks = in->rack_enabled && in->owned
                             ? RUP(hosts / fmax(1, fmin(RDOWN(in->rack_power_kw / machine_peak_kw),
                                                        RDOWN(in->rack_units / in->host_rack_units))))
                             : 0;
    o->racks = num(racks);
    const double fabric_links = host_links + (leaf_switches > 1 ? leaf_switches * in->switch_ports / 2 : 0);
    o->fabric_links = num(fabric_links);
    const double optics = fabric_links * in->optics_per_port;
    o->optics = num(optics);
    const double staff_fte =
        fmax(in->staff_fte_floor, hosts * in->staff_fte_per_host + it_peak_kw / 1000 * in->staff_fte_per_mw);
    o->staff_fte = num(staff_fte);
    /* Capex */
    const double card_capex = (card_count + spare_cards) * card_price * (1 + card_import_duty);
    const double host_capex = hosts * in->host_price * (1 + in->host_import_duty);
    const double network_capex = host_links * in->fabric_nic_price + switches * in->switch_price +
                                 optics * in->optic_price + fabric_links * in->cable_price;
    const double storage_capex = in->storage_tb * in->storage_price_per_tb;
    const double rack_capex = racks * in->rack_cost;
    const double ups_capex = ups_installed_kva * in->ups_cost_per_kva;
    const double cooling_capex = in->colocation ? 0 : it_peak_kw * in->cooling_cost_per_kw;
    const double facility_capex = in->colocation ? 0 : it_peak_kw * in->facility_buildout_per_kw;
    const double hardware_capex = card_capex + host_capex + network_capex + storage_capex;
    const double capex_total = hardware_capex + rack_capex + ups_capex + cooling_capex + facility_capex;
    o->card_capex = num(card_capex), o->host_capex = num(host_capex), o->network_capex = num(network_capex),
        o->storage_capex = num(storage_capex), o->rack_capex = num(rack_capex), o->ups_capex = num(ups_capex),
        o->cooling_capex = num(cooling_capex), o->facility_capex = num(facility_capex),
        o->hardware_capex = num(hardware_capex), o->capex_total = num(capex_total);
    const double capex_vat = (capex_total - facility_capex) * in->vat_rate_hardware + facility_capex * in->vat_rate_construction;
    const double capex_vat_rate = capex_total > 0 ? capex_vat / capex_total : in->vat_rate_hardware;
    const double capex_vat_cost = in->vat_no ? capex_vat : 0;
    const double capitalised_cost = capex_total + capex_vat_cost;
    const double capitalised_cost_it = hardware_capex * (1 + (in->vat_no ? in->vat_rate_hardware : 0));
    const double capitalised_cost_facility = capitalised_cost - capitalised_cost_it;
    const double building_work_cost = facility_capex * (1 + (in->vat_no ? in->vat_rate_construction : 0));
    o->capex_vat = num(capex_vat), o->capex_vat_rate = num(capex_vat_rate), o->capex_vat_cost = num(capex_vat_cost),
        o->capitalised_cost = num(capitalised_cost), o->capitalised_cost_it = num(capitalised_cost_it),
        o->capitalised_cost_facility = num(capitalised_cost_facility), o->building_work_cost = num(building_work_cost);
    const double flife = in->book_life_facility_years;
    const double building_work_carried_share = in->life_share ? fmax(0, 1 - years / flife) : 0;
    const double building_work_carried = building_work_cost * building_work_carried_share;
    o->building_work_carried_share = num(building_work_carried_share);
    o->building_work_carried = num(building_work_carried);
    /* Opex and cash flow, Year 0 (the purchase) to Year 3 */
    for (int y = 0; y < NP; y++) {
        const double operating_year = B(y >= 1);
        o->operating_year[y] = operating_year;
        o->electricity[y] = operating_year * facility_power_kw * in->hours_per_year * in->electricity_price *
                            pow(1 + in->electricity_escalation, y - 1);
        o->colocation[y] = operating_year * (in->colocation ? it_peak_kw * in->colo_price_kw_month * 12 : 0);
        o->staffing[y] = operating_year * staff_fte * in->staff_loaded_cost;
        o->support[y] = operating_year * hardware_capex * in->support_rate;
        o->opex[y] = o->electricity[y] + o->colocation[y] + o->staffing[y] + o->support[y];
        const double share = (y == in->deposit_year ? in->deposit_share : 0) +
                             (y == in->delivery_year ? in->delivery_share : 0) +
                             (y == in->acceptance_year ? in->acceptance_share : 0);
        o->capex_paid_share[y] = share;
        o->paid_card_capex[y] = card_capex * share;
        o->paid_host_capex[y] = host_capex * share;
        o->paid_network_capex[y] = network_capex * share;
        o->paid_storage_capex[y] = storage_capex * share;
        o->paid_facility_capex[y] = (rack_capex + ups_capex + cooling_capex + facility_capex) * share;
        o->capex_paid[y] = o->paid_card_capex[y] + o->paid_host_capex[y] + o->paid_network_capex[y] +
                           o->paid_storage_capex[y] + o->paid_facility_capex[y];
        o->capex_paid_operating[y] = operating_year * o->capex_paid[y];
        o->cash_opex[y] = o->opex[y];
        o->vat_paid[y] = o->capex_paid[y] * capex_vat_rate + o->electricity[y] * in->vat_rate_electricity +
                         o->colocation[y] * in->vat_rate_services + o->support[y] * in->vat_rate_support +
                         o->staffing[y] * in->vat_rate_staff;
        o->vat_recovered[y] = in->vat_yes ? o->vat_paid[y] : 0;
        o->resale[y] = y == years ? capex_total * in->resale_share : 0;
        o->building_work_carried_forward[y] = y == years ? building_work_carried : 0;
        o->net_cash_out[y] = o->capex_paid[y] + o->cash_opex[y] + o->vat_paid[y] - o->vat_recovered[y] - o->resale[y] -
                             o->building_work_carried_forward[y];
        o->cumulative_cost[y] = sum_to(o->net_cash_out, y + 1);
    }
    /* Depreciation, Year 0 to Year 5 (the book life) */
    const double depreciable_base = capitalised_cost * (1 - in->salvage_rate);
    o->depreciable_base = num(depreciable_base);
    const double salvage_value = capitalised_cost * in->salvage_rate;
    o->salvage_value = num(salvage_value);
    const double salvage_it = capitalised_cost_it * in->salvage_rate;
    const double salvage_fac = capitalised_cost_facility * in->salvage_rate;
    o->salvage_value_it = num(salvage_it), o->salvage_value_facility = num(salvage_fac);
    const double ddb_rate = 2 / in->book_life_years, life = in->book_life_years;
    const double ddb_rate_f = 2 / flife;
    o->ddb_rate = num(ddb_rate), o->ddb_rate_facility = num(ddb_rate_f);
    const double rs = in->salvage_rate;
    for (int y = 0; y < NS; y++) {
        const double dy = B(y >= 1 && y <= life), df = B(y >= 1 && y <= flife);
        o->depreciation_year[y] = dy;
        o->depreciation_year_facility[y] = df;
        o->depreciation_straight_line[y] =
            dy * capitalised_cost_it * (1 - rs) / life + df * capitalised_cost_facility * (1 - rs) / flife;
        o->depreciation_sum_of_years[y] =
            dy * capitalised_cost_it * (1 - rs) * (life - y + 1) / (life * (life + 1) / 2) +
            df * capitalised_cost_facility * (1 - rs) * (flife - y + 1) / (flife * (flife + 1) / 2);
        const double opening = fmax(salvage_it, capitalised_cost_it * (y <= 1 ? 1 : pow(1 - ddb_rate, y - 1)));
        o->ddb_opening_value[y] = opening;
        o->ddb_switch[y] =
            B(dy == 1 && opening - salvage_it >= ddb_rate * opening * (life - y + 1) * (1 - 0.000000000001));
        o->ddb_switch_charge[y] =
            o->ddb_switch[y] == 1 && sum_to(o->ddb_switch, y + 1) == 1 ? (opening - salvage_it) / (life - y + 1) : 0;
        const double fopen = fmax(salvage_fac, capitalised_cost_facility * (y <= 1 ? 1 : pow(1 - ddb_rate_f, y - 1)));
        o->ddb_facility_opening_value[y] = fopen;
        o->ddb_facility_switch[y] =
            B(df == 1 && fopen - salvage_fac >= ddb_rate_f * fopen * (flife - y + 1) * (1 - 0.000000000001));
        o->ddb_facility_switch_charge[y] = o->ddb_facility_switch[y] == 1 && sum_to(o->ddb_facility_switch, y + 1) == 1
                                               ? (fopen - salvage_fac) / (flife - y + 1)
                                               : 0;
        o->depreciation_declining_balance[y] =
            (o->ddb_switch[y] == 1 ? sum_to(o->ddb_switch_charge, y + 1)
                                   : dy * fmin(ddb_rate * opening, opening - salvage_it)) +
            (o->ddb_facility_switch[y] == 1 ? sum_to(o->ddb_facility_switch_charge, y + 1)
                                            : df * fmin(ddb_rate_f * fopen, fopen - salvage_fac));
        o->depreciation[y] = in->declining_balance ? o->depreciation_declining_balance[y]
                             : in->sum_of_years    ? o->depreciation_sum_of_years[y]
                                                   : o->depreciation_straight_line[y];
        o->book_value[y] = capitalised_cost - sum_to(o->depreciation, y + 1);
    }
    const double gpu_hours_per_year = card_count * in->hours_per_year * in->utilisation * availability;
    o->gpu_hours_per_year = num(gpu_hours_per_year);
    const double rental_on_demand = B(training_required == 1 || in->solo);
    o->rental_on_demand = num(rental_on_demand);
    o->rental_basis = txt(rental_on_demand == 1 ? "on demand, used hours" : "reserved, all hours");
    const double rental_gpu_hours_per_year =
        training_required == 1
            ? (in->runs_per_year > 0 && has_fp16 ? in->runs_per_year * rental_train_gpu_hours
                                                 : card_count * in->hours_per_year * in->utilisation)
            : rental_on_demand == 1 ? card_count * in->hours_per_year * in->utilisation : card_count * in->hours_per_year;
    o->rental_gpu_hours_per_year = num(rental_gpu_hours_per_year);
    const double services = 1 + (in->vat_yes ? 0 : in->vat_rate_services);
    for (int y = 0; y < NP; y++) {
        const double opy = o->operating_year[y];
        o->depreciation_in_period[y] = o->depreciation[y];
        o->opex_vat_charged[y] = in->vat_no ? o->electricity[y] * in->vat_rate_electricity +
                                                  o->colocation[y] * in->vat_rate_services +
                                                  o->support[y] * in->vat_rate_support + o->staffing[y] * in->vat_rate_staff
                                            : 0;
        o->annual_cost_charged[y] = o->depreciation_in_period[y] + o->opex[y] + o->opex_vat_charged[y];
        o->rental_cost[y] = opy * rental_gpu_hours_per_year * cloud_price_per_gpu_hour * services;
        o->cumulative_cloud[y] = sum_to(o->rental_cost, y + 1);
        o->rent_saving[y] = o->rental_cost[y] - o->net_cash_out[y];
    }
#define TOTAL(n) o->n##_total = sum_to(o->n, NP);
    YEAR_LINES(TOTAL)
#undef TOTAL
#define TOTAL(n) o->n##_total = sum_to(o->n, NS);
    SCHEDULE_LINES(TOTAL)
#undef TOTAL
    /* TCO, NPV and the unit costs */
    const double capex_paid_year0 = o->capex_paid_total - o->capex_paid_operating_total;
    o->capex_paid_year0 = num(capex_paid_year0);
    /* The budget by month: Month 1 is the first month of Year 1.  The running totals of the months are
     * carried from month to month, as hand-written C keeps them (the same additions in the same order as
     * summing from Month 1, so the same doubles). */
    double acc_saving = 0, acc_below = 0, acc_disc = 0, acc_cross = 0;
    for (int mo = 0; mo < NM; mo++) {
        const int y = mo / 12 + 1, month = mo + 1;
        o->budget_capex[mo] =
            (month == 1 ? capex_paid_year0 : 0) +
            capex_total *
                ((in->deposit_year >= 1 && month == 12 * (in->deposit_year - 1) + in->deposit_month ? in->deposit_share : 0) +
                 (in->delivery_year >= 1 && month == 12 * (in->delivery_year - 1) + in->delivery_month ? in->delivery_share
                                                                                                      : 0) +
                 (in->acceptance_year >= 1 && month == 12 * (in->acceptance_year - 1) + in->acceptance_month
                      ? in->acceptance_share
                      : 0));
        o->budget_electricity[mo] = o->electricity[y] / 12;
        o->budget_colocation[mo] = o->colocation[y] / 12;
        o->budget_staffing[mo] = o->staffing[y] / 12;
        o->budget_support[mo] = o->support[y] / 12;
        o->budget_vat_paid[mo] = o->budget_capex[mo] * capex_vat_rate +
                                 o->budget_electricity[mo] * in->vat_rate_electricity +
                                 o->budget_colocation[mo] * in->vat_rate_services +
                                 o->budget_support[mo] * in->vat_rate_support + o->budget_staffing[mo] * in->vat_rate_staff;
        o->budget_vat_recovered[mo] = in->vat_yes ? o->budget_vat_paid[mo] : 0;
        o->budget_resale[mo] = month == 12 * RUP(month / 12.0) ? o->resale[y] : 0;
        o->budget_building_carried[mo] = month == 12 * years ? building_work_carried : 0;
        o->budget_cash_out[mo] = o->budget_capex[mo] + o->budget_electricity[mo] + o->budget_colocation[mo] +
                                 o->budget_staffing[mo] + o->budget_support[mo] + o->budget_vat_paid[mo] -
                                 o->budget_vat_recovered[mo] - o->budget_resale[mo] - o->budget_building_carried[mo];
        /* the discounting on the Budget's months: each month's cash at the end of its month */
        o->budget_discount_factor[mo] = 1 / pow(1 + in->discount_rate, (in->mid_year ? month - 0.5 : month) / 12.0);
        o->budget_discounted_cash_out[mo] = o->budget_cash_out[mo] * o->budget_discount_factor[mo];
        o->budget_rental[mo] = o->rental_cost[y] / 12;
        o->budget_rental_discounted[mo] = o->budget_rental[mo] * o->budget_discount_factor[mo];
        o->budget_rent_saving[mo] = o->budget_rental[mo] - o->budget_cash_out[mo];
        const double running_saving = (acc_saving += o->budget_rent_saving[mo]);
        o->budget_saving_below_zero[mo] = B(running_saving < 0);
        acc_below += o->budget_saving_below_zero[mo];
        o->budget_saving_turns_back[mo] = B((running_saving > 0 && acc_below == 0) ||
                                            (running_saving < 0 && month - acc_below > 0));
        o->budget_discounted_saving[mo] = o->budget_rent_saving[mo] * o->budget_discount_factor[mo];
        o->budget_cumulative_discounted_saving[mo] = (acc_disc += o->budget_discounted_saving[mo]);
        o->budget_payback_crossing[mo] = B(o->budget_cumulative_discounted_saving[mo] >= 0 &&
                                           o->budget_cumulative_discounted_saving[mo] - o->budget_discounted_saving[mo] < 0);
        acc_cross += o->budget_payback_crossing[mo];
        o->budget_payback_month[mo] = o->budget_payback_crossing[mo] == 1 && acc_cross == 1 ? month : 0;
    }
#define TOTAL(n) o->n##_total = sum_to(o->n, NM);
    MONTH_LINES(TOTAL)
#undef TOTAL
    const double vat_cost = o->vat_paid_total - o->vat_recovered_total;
    o->vat_cost = num(vat_cost);
    const double tco = capex_total + o->opex_total + vat_cost - o->resale_total - building_work_carried;
    o->tco = num(tco);
    o->vat_basis_note = txt(in->vat_yes ? "excl. VAT (recovered)" : "incl. VAT (not recoverable)");
    o->tco_other_vat_basis =
        num(in->vat_yes ? tco + o->vat_paid_total - facility_capex * in->vat_rate_construction * building_work_carried_share
                        : tco - vat_cost + facility_capex * in->vat_rate_construction * building_work_carried_share);
    const double npv_cost = o->budget_discounted_cash_out_total;
    o->npv_cost = num(npv_cost);
    const double discounted_operating_years = sum_to(o->budget_discount_factor, NM) / 12;
    o->discounted_operating_years = num(discounted_operating_years);
    o->residual_value = num(capitalised_cost - o->depreciation_in_period_total);
    o->resale_value = num(capex_total * in->resale_share);
    o->depreciation_after_period = num(o->depreciation_total - o->depreciation_in_period_total);
    const double book_value_end_of_life = capitalised_cost - o->depreciation_total;
    o->book_value_end_of_life = num(book_value_end_of_life);
    o->book_life_note = txt(fmax(life, flife) > years ? "runs past the period" : "ends within the period");
    o->tco_per_card_year = num(tco / (card_count * years));
    const val tco_per_gpu_hour = gpu_hours_per_year > 0 ? num(tco / (gpu_hours_per_year * years)) : txt("n.a.: no GPU-hours used");
    o->tco_per_gpu_hour = tco_per_gpu_hour;
    const double rate = in->discount_rate;
    const double capital_recovery_factor =
        rate > 0 ? rate * pow(1 + rate, life) / (pow(1 + rate, life) - 1) : 1 / life;
    o->capital_recovery_factor = num(capital_recovery_factor);
    const double crf_f = rate > 0 ? rate * pow(1 + rate, flife) / (pow(1 + rate, flife) - 1) : 1 / flife;
    o->capital_recovery_factor_facility = num(crf_f);
    o->salvage_present_value = num(salvage_it / pow(1 + rate, life) + salvage_fac / pow(1 + rate, flife));
    const double capital_charge_per_year = (capitalised_cost_it - salvage_it / pow(1 + rate, life)) * capital_recovery_factor +
                                           (capitalised_cost_facility - salvage_fac / pow(1 + rate, flife)) * crf_f;
    o->capital_charge_per_year = num(capital_charge_per_year);
    const val cost_per_gpu_hour_with_capital =
        gpu_hours_per_year > 0 ? num(npv_cost / (gpu_hours_per_year * discounted_operating_years))
                               : txt("n.a.: no GPU-hours used");
    o->cost_per_gpu_hour_with_capital = cost_per_gpu_hour_with_capital;
    o->cost_per_gpu_hour_book_life_annuity =
        gpu_hours_per_year > 0
            ? num((capital_charge_per_year + (o->opex_total + o->opex_vat_charged_total) / years) / gpu_hours_per_year)
            : txt("n.a.: no GPU-hours used");
    const val non_card_share = card_capex > 0
                                   ? num((network_capex + storage_capex + rack_capex + ups_capex + cooling_capex +
                                          facility_capex + o->colocation_total + o->staffing_total) /
                                         card_capex)
                                   : txt("n.a.: no card capex (cards already owned)");
    o->non_card_share = non_card_share;
    o->host_share = card_capex > 0 ? num(host_capex / card_capex) : txt("n.a.: no card capex (cards already owned)");
    const double own_running_cost = tco - capitalised_cost;
    o->own_running_cost = num(own_running_cost);
    const val payback_months =
        o->rental_cost_total > own_running_cost
            ? num(capitalised_cost / ((o->rental_cost_total - own_running_cost) / (12 * years)))
            : txt("never: renting costs less than running the cards");
    o->payback_months = payback_months;
    o->break_even_months = payback_months.t == NULL
                               ? (payback_months.v > 12 * years     ? txt("beyond the period (TCO sheet: months of saving that repay the capex)")
                                  : payback_months.v > 12 * life ? txt("beyond the book life (TCO sheet: months of saving that repay the capex)")
                                                                 : payback_months)
                               : payback_months;
    const double hours = in->hours_per_year, util = in->utilisation;
    o->cost_per_million_tokens =
        tokens_per_s.t == NULL
            ? (tokens_per_s.v * hours * util * availability > 0
                   ? num(tco / (tokens_per_s.v * 3600 * hours * util * availability * years / 1000000))
                                                 : txt("n.a.: no tokens served"))
            : txt("n.a.: serving is not feasible");
    const val not_feasible = txt("n.a.: training is not feasible (see the checks)"), no_runs = txt("n.a.: no runs a year (no hours used)");
    const bool runs = train_runs_per_year.t == NULL && train_runs_per_year.v > 0;
    o->train_run_cost = o->train_days.t != NULL ? not_feasible : runs ? num(tco / (train_runs_per_year.v * years)) : no_runs;
    o->cost_per_million_tokens_with_capital =
        tokens_per_s.t == NULL
            ? (tokens_per_s.v * hours * util * availability > 0
                   ? num(npv_cost / (tokens_per_s.v * 3600 * hours * util * availability / 1000000 * discounted_operating_years))
                   : txt("n.a.: no tokens served"))
            : txt("n.a.: serving is not feasible");
    o->train_run_cost_with_capital =
        o->train_days.t != NULL ? not_feasible
        : runs                  ? num(npv_cost / (train_runs_per_year.v * discounted_operating_years))
                                : no_runs;
    const double option_capex = in->rent ? 0 : capitalised_cost;
    o->option_capex = num(option_capex);
    const double option_cost = in->rent ? o->rental_cost_total : tco;
    o->option_cost = num(option_cost);
    o->option_npv_cost = num(in->rent ? o->budget_rental_discounted_total : npv_cost);
    const val option_cost_per_gpu_hour =
        gpu_hours_per_year > 0 ? num(option_cost / (gpu_hours_per_year * years)) : txt("n.a.: no GPU-hours used");
    o->option_cost_per_gpu_hour = option_cost_per_gpu_hour;
    const double target = fmax(in->target_tokens_per_s, in->target_stream_tokens_per_s * in->replicas * in->streams);
    const double target_load_tokens_per_s = target > 0 ? target : layout_tokens_per_s;
    o->target_load_tokens_per_s = num(target_load_tokens_per_s);
    const val at_target =
        serving_feasible == 1
            ? (target_load_tokens_per_s * hours * util * availability > 0
                   ? num(option_cost / (target_load_tokens_per_s * 3600 * hours * util * availability * years / 1000000))
                   : txt("n.a.: no tokens served"))
            : txt("n.a.: serving is not feasible");
    o->cost_per_million_tokens_at_target = at_target;
    const val option_run_cost = training_feasible != 1 ? not_feasible
                                : runs                 ? num(option_cost / (train_runs_per_year.v * years))
                                                       : no_runs;
    o->option_run_cost = option_run_cost;
    o->cost_per_unit = training_required == 1 ? option_run_cost : at_target;
    o->discounted_payback_months = sum_to(o->budget_payback_month, NM) > 0 ? num(sum_to(o->budget_payback_month, NM))
                                   : min_of(o->budget_cumulative_discounted_saving, NM) >= 0 ? num(0)
                                                                                             : txt("never within the period");
    double irr = 0;
    const char *why;
    o->irr_own_vs_rent = min_of(o->budget_rent_saving, NM) < 0 && sum_to(o->budget_rent_saving, NM) > 0 &&
                                 sum_to(o->budget_saving_turns_back, NM) == 0 &&
                                 tco_formula_irr(o->budget_rent_saving, NM, &irr, &why) == TCO_OK
                             ? num(pow(1 + irr, 12) - 1)
                             : txt("n.a.: owning does not repay renting within the period, or its savings change sign "
                                   "more than once");
    /* Checks */
    const double tol = in->check_tolerance;
    const double check_capex_sum = B(fabs(card_capex + host_capex + network_capex + storage_capex + rack_capex +
                                          ups_capex + cooling_capex + facility_capex - capex_total) <= tol);
    const double check_opex_sum = B(fabs(o->electricity_total + o->colocation_total + o->staffing_total +
                                         o->support_total - o->opex_total) <= tol);
    const double check_cash_flow = B(fabs(sum_to(o->net_cash_out, NP) - tco) <= tol);
    const double check_npv = B(npv_cost <= tco + o->resale_total + building_work_carried + tol);
    const double milestone_share_total = in->deposit_share + in->delivery_share + in->acceptance_share;
    const double check_milestones = B(fabs(milestone_share_total - 1) <= 0.000000001);
    o->check_capex_sum = num(check_capex_sum), o->check_opex_sum = num(check_opex_sum),
        o->check_cash_flow = num(check_cash_flow), o->check_npv = num(check_npv),
        o->milestone_share_total = num(milestone_share_total), o->check_milestones = num(check_milestones);
    const double check_budget = B(fabs(o->budget_cash_out_total - o->net_cash_out_total) <= tol);
    const double check_card_fits_host = B(in->rent || strcasecmp(in->tier_form_factor[r], in->host_slot) == 0);
    const double check_office = in->own && in->office && card_dc ? 0 : 1;
    const double check_ecc = in->require_ecc && strcasecmp(in->tier_ecc[r], "no") == 0 ? 0 : 1;
    const double check_max_capex = B(in->max_capex == 0 || option_capex <= in->max_capex);
    const double check_max_tco = B(in->max_tco == 0 || option_cost <= in->max_tco);
    const double check_max_host_kw = B(in->max_host_kw == 0 || in->rent || machine_peak_kw <= in->max_host_kw);
    const double check_max_site_kw = B(in->max_site_kw == 0 || in->rent || site_peak_kw <= in->max_site_kw);
    const double check_max_hosts = B(in->max_hosts == 0 || in->rent || hosts <= in->max_hosts);
    const double check_max_cards = B(in->max_cards == 0 || card_count <= in->max_cards);
    const double constraints_ok =
        fmin(fmin(fmin(fmin(fmin(fmin(fmin(fmin(fmin(check_card_fits_host, check_office), check_ecc), check_max_capex),
                                      check_max_tco),
                                 check_max_host_kw),
                            check_max_site_kw),
                       check_max_hosts),
                  check_max_cards),
             check_lora_job);
    const double check_feasible = fmin(training_required == 1 ? training_feasible : serving_feasible, constraints_ok);
    const double check_no_errors = B(in->error_cells == 0);
    const double check_depreciation = B(fabs(book_value_end_of_life - salvage_value) <= tol);
    o->check_budget = num(check_budget), o->check_card_fits_host = num(check_card_fits_host),
        o->check_office = num(check_office), o->check_ecc = num(check_ecc), o->check_max_capex = num(check_max_capex),
        o->check_max_tco = num(check_max_tco), o->check_max_host_kw = num(check_max_host_kw),
        o->check_max_site_kw = num(check_max_site_kw), o->check_max_hosts = num(check_max_hosts),
        o->check_max_cards = num(check_max_cards), o->constraints_ok = num(constraints_ok),
        o->check_feasible = num(check_feasible), o->check_no_errors = num(check_no_errors),
        o->check_depreciation = num(check_depreciation);
    o->checks_ok = num(fmin(fmin(fmin(fmin(fmin(fmin(fmin(fmin(check_capex_sum, check_opex_sum), check_cash_flow), check_npv),
                                               check_milestones),
                                          check_budget),
                                     check_depreciation),
                                check_feasible),
                           check_no_errors));
    o->check_non_card_share =
        num(non_card_share.t == NULL
                ? B(non_card_share.v >= in->non_card_share_low && non_card_share.v <= in->non_card_share_high)
                : 0);
    /* The tier table */
    for (int t = 0; t < NT; t++) {
        o->tier_compute[t] = in->tier_fp16_tflops[t] > 0 ? in->tier_fp16_tflops[t] : in->tier_int8_tops[t];
        o->tier_ridge[t] = o->tier_compute[t] * 1000 / in->tier_bandwidth_gbps[t];
        o->tier_efficiency[t] = o->tier_compute[t] / in->tier_board_power_w[t];
        o->tier_fp16_equiv[t] = in->tier_fp16_tflops[t] > 0 ? in->tier_fp16_tflops[t] : in->tier_int8_tops[t] / 2;
        o->tier_efficiency_fp16[t] = o->tier_fp16_equiv[t] / in->tier_board_power_w[t];
        o->tier_decode_tps[t] = in->tier_bandwidth_gbps[t] / weight_gb;
        o->tier_cards_for_model[t] = RUP(inference_memory_gb / (in->tier_memory_gb[t] * (1 - in->memory_reserve_share)));
        o->tier_price_per_gb[t] = in->tier_price[t] / in->tier_memory_gb[t];
    }
    const double max_fp16 = max_of(o->tier_fp16_equiv, NT), max_memory = max_of(in->tier_memory_gb, NT);
    const double max_bandwidth = max_of(in->tier_bandwidth_gbps, NT);
    const double max_interconnect = max_of(in->tier_interconnect_gbps, NT);
    const double max_efficiency = max_of(o->tier_efficiency_fp16, NT);
    for (int t = 0; t < NT; t++) {
        const double c = o->tier_fp16_equiv[t] / max_fp16, m = in->tier_memory_gb[t] / max_memory;
        const double b = in->tier_bandwidth_gbps[t] / max_bandwidth, i = in->tier_interconnect_gbps[t] / max_interconnect;
        const double e = o->tier_efficiency_fp16[t] / max_efficiency;
        o->tier_n_compute[t] = c;
        o->tier_n_memory[t] = m;
        o->tier_n_bandwidth[t] = b;
        o->tier_n_interconnect[t] = i;
        o->tier_n_efficiency[t] = e;
        o->tier_score[t] = in->consumer[t] ? in->w_consumer_compute * c + in->w_consumer_memory * m +
                                                 in->w_consumer_bandwidth * b + in->w_consumer_interconnect * i +
                                                 in->w_consumer_efficiency * e
                           : in->workstation[t] ? in->w_workstation_compute * c + in->w_workstation_memory * m +
                                                      in->w_workstation_bandwidth * b + in->w_workstation_interconnect * i +
                                                      in->w_workstation_efficiency * e
                                                : in->w_datacentre_compute * c + in->w_datacentre_memory * m +
                                                      in->w_datacentre_bandwidth * b + in->w_datacentre_interconnect * i +
                                                      in->w_datacentre_efficiency * e;
    }
}

/* ---- reading the model into the floor's inputs, and comparing the results ----------------- */

static int item(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    if (i < 0) {
        fprintf(stderr, "bench_eval: cluster32's model has no item '%s': the floor is for another template\n", name);
        exit(1);
    }
    return i;
}

static const char *text_input(const tco_model *m, const char *name)
{
    const tco_item *it = &m->items[item(m, name)];
    if (it->text == NULL) {
        fprintf(stderr, "bench_eval: '%s' is not a text input\n", name);
        exit(1);
    }
    return it->text;
}

static bool is(const tco_model *m, const char *name, const char *value)
{
    return strcasecmp(text_input(m, name), value) == 0;
}

static void read_inputs(const tco_model *m, floor_in *in)
{
    memset(in, 0, sizeof *in);
#define READ(n) in->n = m->items[item(m, #n)].value;
    NUMBER_INPUTS(READ)
#undef READ
#define READ(n) memcpy(in->n, m->items[item(m, #n)].tiers, sizeof in->n);
    TIER_NUMBER_INPUTS(READ)
#undef READ
#define READ(n)                                                                                                     \
    for (int t = 0; t < NT; t++)                                                                                   \
        in->n[t] = m->items[item(m, #n)].tier_texts[t];
    TIER_TEXT_INPUTS(READ)
#undef READ
    in->training = is(m, "scenario_kind", "training");
    in->solo = is(m, "scenario_kind", "solo");
    in->rent = is(m, "acquisition", "rent");
    in->own = is(m, "acquisition", "own");
    in->colocation = is(m, "facility_mode", "colocation");
    in->owned = is(m, "facility_mode", "owned");
    in->ups_none = is(m, "ups_redundancy", "none");
    in->ups_2n = is(m, "ups_redundancy", "2N");
    in->ups_n1 = is(m, "ups_redundancy", "N+1");
    in->rack_enabled = is(m, "rack_enabled", "yes");
    in->vat_yes = is(m, "vat_deductible", "yes");
    in->vat_no = is(m, "vat_deductible", "no");
    in->mid_year = is(m, "discount_timing", "mid");
    in->declining_balance = is(m, "depreciation_method", "declining_balance");
    in->sum_of_years = is(m, "depreciation_method", "sum_of_years");
    in->office = is(m, "office", "yes");
    in->require_ecc = is(m, "require_ecc", "yes");
    in->life_share = is(m, "building_work_charge", "life_share");
    in->host_slot = text_input(m, "host_slot");
    for (int t = 0; t < NT; t++) {
        if (strcasecmp(m->tier_names[t], text_input(m, "card_tier")) == 0)
            in->card_row = t + 1;
        in->consumer[t] = strcasecmp(in->tier_class[t], "consumer") == 0;
        in->workstation[t] = strcasecmp(in->tier_class[t], "workstation") == 0;
        in->data_centre[t] = strcasecmp(in->tier_class[t], "data-centre") == 0;
        in->pcie[t] = strcasecmp(in->tier_interconnect[t], "PCIe") == 0;
        in->dedicated[t] = strcasecmp(in->tier_interconnect[t], "dedicated") == 0;
    }
}

static size_t compared, differ;

static void same(const char *name, int cell, double engine, const char *engine_text, double floor_v, const char *floor_t)
{
    compared++;
    bool ok = false;
    if (engine_text != NULL && floor_t != NULL)
        ok = strcmp(engine_text, floor_t) == 0;
    else if (engine_text == NULL && floor_t == NULL)
        ok = memcmp(&engine, &floor_v, sizeof engine) == 0;
    if (!ok && differ++ < 10)
        fprintf(stderr, "bench_eval: %s[%d]: engine %.17g%s%s, floor %.17g%s%s\n", name, cell, engine,
                engine_text ? " " : "", engine_text ? engine_text : "", floor_v, floor_t ? " " : "", floor_t ? floor_t : "");
}

static void check_row(const tco_model *m, const char *name, const double *v, int n)
{
    const tco_item *it = &m->items[item(m, name)];
    int len = tco_item_dim(it) == 2 ? m->n_tiers : tco_item_periods(m, it);
    if (len != n) {
        fprintf(stderr, "bench_eval: %s has %d cells in the model, %d in the floor\n", name, len, n);
        exit(1);
    }
    for (int k = 0; k < n; k++)
        same(name, k, tco_item_dim(it) == 2 ? it->tiers[k] : it->years[k], NULL, v[k], NULL);
}

static void check_scalar(const tco_model *m, const char *name, double v)
{
    const tco_item *it = &m->items[item(m, name)];
    same(name, -1, it->value, it->text, v, NULL);
}

/* Every line of the model equal to the floor's; and every line of the model is one of them. */
static void check_all(const tco_model *m, const floor_out *o)
{
    size_t lines = 0;
#define CHECK(n) same(#n, -1, m->items[item(m, #n)].value, m->items[item(m, #n)].text, o->n.v, o->n.t), lines++;
    SCALAR_LINES(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NP), check_scalar(m, #n "_total", o->n##_total), lines += 2;
    YEAR_LINES(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NP), lines++;
    YEAR_LINES_NO_TOTAL(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NS), check_scalar(m, #n "_total", o->n##_total), lines += 2;
    SCHEDULE_LINES(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NS), lines++;
    SCHEDULE_LINES_NO_TOTAL(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NM), check_scalar(m, #n "_total", o->n##_total), lines += 2;
    MONTH_LINES(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NM), lines++;
    MONTH_LINES_NO_TOTAL(CHECK)
#undef CHECK
#define CHECK(n) check_row(m, #n, o->n, NT), lines++;
    TIER_LINES(CHECK)
#undef CHECK
    size_t model_lines = 0;
    for (size_t i = 0; i < m->n_items; i++)
        model_lines += m->items[i].formula != NULL || m->items[i].kind == TCO_ITEM_TOTAL;
    if (lines != model_lines) {
        fprintf(stderr, "bench_eval: the floor computes %zu lines, the model has %zu\n", lines, model_lines);
        exit(1);
    }
}

/* ---- the what-ifs: the same inputs for both ------------------------------------------------- */

typedef struct draw_ix {
    int price, pue, utilisation, staff, discount, card_price, row;
} draw_ix;

typedef struct draw {
    double price, pue, utilisation, staff, discount, card_price;
} draw;

static draw draw_of(long k)
{
    return (draw){0.5 + (double)(k % 997) * 0.0005, 1.1 + (double)(k % 13) * 0.04, 0.55 + (double)(k % 41) * 0.01,
                  300000 + (double)(k % 101) * 1000, 0.03 + (double)(k % 17) * 0.005, 80000 + (double)(k % 89) * 250};
}

static void engine_set(tco_model *m, const draw_ix *ix, draw d)
{
    tco_diag diag = {0};
    if (tco_model_assign_input(m, ix->price, d.price, &diag) != TCO_OK ||
        tco_model_assign_input(m, ix->pue, d.pue, &diag) != TCO_OK ||
        tco_model_assign_input(m, ix->utilisation, d.utilisation, &diag) != TCO_OK ||
        tco_model_assign_input(m, ix->staff, d.staff, &diag) != TCO_OK ||
        tco_model_assign_input(m, ix->discount, d.discount, &diag) != TCO_OK ||
        tco_model_assign_tier_input(m, ix->card_price, ix->row, d.card_price, &diag) != TCO_OK) {
        fprintf(stderr, "bench_eval: %s\n", diag.message);
        exit(1);
    }
}

static void floor_set(floor_in *in, int row, draw d)
{
    in->electricity_price = d.price;
    in->pue = d.pue;
    in->utilisation = d.utilisation;
    in->staff_loaded_cost = d.staff;
    in->discount_rate = d.discount;
    in->tier_price[row] = d.card_price;
}

/* Called through a volatile pointer, so that the compiler cannot merge evaluations of the loop. */
static void (*volatile floor_fn)(const floor_in *, floor_out *) = floor_eval;

/* This thread's CPU time, in seconds: a batch is not charged for the time other jobs of a shared
 * machine run instead of it. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    const char *root = ".";
    int rounds = 41, batch = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc)
            batch = atoi(argv[++i]);
        else if (argv[i][0] != '-')
            root = argv[i];
        else {
            fprintf(stderr, "usage: bench_eval [SOURCE_DIR] [--rounds N] [--batch K]\n");
            return 64;
        }
    }
    if (rounds < 1 || batch < 1) {
        fprintf(stderr, "bench_eval: --rounds and --batch take a positive number\n");
        return 64;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/scenarios/cluster32.ini", root);
    tco_model *m = NULL;
    tco_diag diag = {0};
    if (load_evaluated(root, path, NULL, &m, &diag) != TCO_OK) {
        fprintf(stderr, "bench_eval: %s\n", diag.message);
        return 1;
    }
    if (m->n_periods != NP || m->n_schedule_periods != NS || m->n_months != NM || m->n_tiers != NT ||
        m->first_year != 0) {
        fprintf(stderr, "bench_eval: cluster32 is not the configuration the floor is written for\n");
        return 1;
    }
    draw_ix ix = {item(m, "electricity_price"), item(m, "pue"), item(m, "utilisation"), item(m, "staff_loaded_cost"),
                  item(m, "discount_rate"), item(m, "tier_price"), -1};
    floor_in in;
    read_inputs(m, &in);
    ix.row = in.card_row - 1;
    static floor_out out;
    /* The floor against the engine: the model as loaded, then draws. */
    for (long k = -1; k < 200; k++) {
        if (k >= 0) {
            engine_set(m, &ix, draw_of(k * 7919));
            floor_set(&in, ix.row, draw_of(k * 7919));
        }
        if (tco_model_evaluate(m, &diag) != TCO_OK) {
            fprintf(stderr, "bench_eval: %s\n", diag.message);
            return 1;
        }
        floor_eval(&in, &out);
        check_all(m, &out);
    }
    if (differ) {
        fprintf(stderr, "bench_eval: %zu of %zu cells differ: the floor does not compute cluster32's model; no ratio\n",
                differ, compared);
        return 1;
    }
    size_t cells = 0;
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        cells += it->kind == TCO_ITEM_LINE || it->kind == TCO_ITEM_TOTAL ? 1
                 : it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY ? (size_t)tco_item_periods(m, it)
                 : it->kind == TCO_ITEM_TIER_LINE ? (size_t)m->n_tiers : 0;
    }
    printf("bench_eval: cluster32, %zu line cells; the floor equals the engine in all %zu cells of 201 evaluations\n",
           cells, compared);
    printf("engine: the compiled program, %zu instructions\n", tco_program_length(m->program));
    printf("%d rounds of %d evaluations each, engine and floor alternately, inputs changed every evaluation; "
           "CPU time of this thread\n", rounds,
           batch);
    double *te = malloc((size_t)rounds * sizeof *te), *tf = malloc((size_t)rounds * sizeof *tf);
    if (te == NULL || tf == NULL)
        return 1;
    double sink = 0;
    long k = 0;
    for (int r = 0; r <= rounds; r++) { /* round 0 warms up */
        long k0 = k;
        double t0 = now();
        for (int i = 0; i < batch; i++, k++) {
            engine_set(m, &ix, draw_of(k));
            if (tco_model_evaluate(m, &diag) != TCO_OK) {
                fprintf(stderr, "bench_eval: %s\n", diag.message);
                return 1;
            }
            sink += m->items[ix.price].value;
        }
        double t1 = now();
        for (int i = 0; i < batch; i++, k0++) {
            floor_set(&in, ix.row, draw_of(k0));
            floor_fn(&in, &out);
            sink += out.tco.v;
        }
        double t2 = now();
        if (r > 0) {
            te[r - 1] = (t1 - t0) / batch;
            tf[r - 1] = (t2 - t1) / batch;
        }
    }
    double me = median(te, rounds), mf = median(tf, rounds);
    printf("engine  median %8.3f us per evaluation (%9.0f evaluations/s)\n", me * 1e6, 1 / me);
    printf("floor   median %8.3f us per evaluation (%9.0f evaluations/s)\n", mf * 1e6, 1 / mf);
    printf("(checksum %.6g)\n", sink);
    printf("ratio=%.2f\n", me / mf);
    free(te);
    free(tf);
    tco_model_free(m);
    return 0;
}
