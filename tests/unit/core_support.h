/* Running the core over the fake platform from a command line. */
#ifndef TTCP_CORE_SUPPORT_H
#define TTCP_CORE_SUPPORT_H

#include "config/options.h"
#include "engine/run.h"
#include "report/report.h"
#include "fake_platform.h"
#include "test_support.h"

static struct ttcp_options core_opts;
static struct ttcp_result core_res;
static char core_events[4096]; /* the progress lines, as main would print them */
static int core_ready;         /* TTCP_EV_READY came: the header's moment */

static int core_figures, core_failed; /* FIGURES and FAILED events seen */
static uint64_t core_figure_bytes[8], core_figure_calls[8]; /* each test's, at its FIGURES */
static size_t core_intervals[64];     /* the index of the interval each INTERVAL event was about */
static int core_interval_events;

static void record_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    size_t used = strlen(core_events);
    (void)ctx;
    if (ev->kind == TTCP_EV_READY)
        core_ready = 1;
    else if (ev->kind == TTCP_EV_FIGURES && core_figures < 8) {
        core_figure_bytes[core_figures] = res->bytes;
        core_figure_calls[core_figures++] = res->calls;
    }
    else if (ev->kind == TTCP_EV_FAILED)
        core_failed++;
    else if (ev->kind == TTCP_EV_INTERVAL && core_interval_events < 64)
        core_intervals[core_interval_events++] = (size_t)(ev->interval - res->intervals.list);
    else
        ttcp_report_event(&core_opts, ev, res, core_events + used, sizeof core_events - used);
}

/* Parses line (which must be valid) and runs the core; returns its code. */
static int run_core(const char *line)
{
    static char copy[512];
    struct ttcp_observer obs = {record_event, NULL, NULL, NULL};
    char *argv[64], why[256];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 64);
    if (ttcp_options_parse(&core_opts, argc, argv, 0, why, sizeof why) != 0 ||
        ttcp_options_validate(&core_opts, why, sizeof why) != 0) {
        fprintf(stderr, "bad test command line '%s': %s\n", line, why);
        exit(1);
    }
    ttcp_result_release(&core_res); /* the last run's intervals */
    core_events[0] = '\0';
    core_ready = 0;
    core_figures = 0;
    core_interval_events = 0;
    core_failed = 0;
    return ttcp_run(&core_opts, &obs, &core_res);
}

static int reset(void **state)
{
    (void)state;
    fake_reset();
    return 0;
}

#endif
