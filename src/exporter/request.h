/* ttcp-exporter: a /probe request's parameters, checked into the options
 * of one ttcp -C test, or refused (400: malformed, 403: not allowed). */
#ifndef TTCP_EXPORTER_REQUEST_H
#define TTCP_EXPORTER_REQUEST_H

#include "config/options.h"
#include "remote/allow.h"

#define EXPORTER_TARGETS_MAX 64
#define EXPORTER_TARGET_LEN 253      /* a DNS name's longest text */
#define EXPORTER_STREAMS_MAX 32
#define EXPORTER_DEFAULT_NS (5ll * 1000000000ll) /* no time, no scrape timeout */
/* Kept from the scrape timeout for what a probe does besides its test: TCP
 * about 0.05 s; UDP about 0.6 s (the server drains the trailing markers
 * for 0.5 s before its figures). */
#define EXPORTER_MARGIN_NS 500000000ll
#define EXPORTER_UDP_MARGIN_NS 1000000000ll
/* Without a scrape timeout, how long past its test a probe may wait for
 * the server (connect, frames, figures), as ttcp -C waits for a frame. */
#define EXPORTER_SLACK_NS (10ll * 1000000000ll)
#define EXPORTER_MIN_NS 500000000ll
#define EXPORTER_MAX_NS (60ll * 1000000000ll)
/* latency=1's latency_interval and latency_idle: the bounds of ttcp's
 * --latency-interval and --latency-idle (config/optable.c) */
#define EXPORTER_LATENCY_INTERVAL_MIN_NS 10000000ll
#define EXPORTER_LATENCY_INTERVAL_MAX_NS (10ll * 1000000000ll)
#define EXPORTER_LATENCY_IDLE_MAX_NS (60ll * 1000000000ll)

/* Whom the owner allows: numeric targets inside a prefix, or these names
 * exactly. Neither: every probe is refused. */
struct exporter_policy {
    struct ttcp_allow allow;
    const char *targets[EXPORTER_TARGETS_MAX];
    int target_count;
    const char *key_file; /* --key-file for every probe, or NULL */
};

/* A request's values as they came (NULL: not given). */
struct exporter_query {
    const char *target, *port, *reverse, *udp, *time, *rate, *streams, *analyze, *compression;
    const char *latency, *latency_interval, *latency_idle;
    const char *web;            /* web=1: the server's last browser tests too */
    const char *scrape_timeout; /* X-Prometheus-Scrape-Timeout-Seconds */
};

/* The test to run: the options and the strings they point into. With
 * compression=1 it runs twice, back to back (runs 2): the options as they
 * are (the classic pattern), then with the random pattern. */
struct exporter_plan {
    struct ttcp_options opts;
    int runs;
    int web;              /* web=1: before the test, the server's web_results */
    char target[EXPORTER_TARGET_LEN + 1]; /* as asked: the label, the host to test */
    char host[EXPORTER_TARGET_LEN + 1];   /* one text per host: who is probed now */
    char port[8], time[24], rate[24], streams[8];
    char latency_interval[32], latency_idle[32]; /* "" when not given */
    int64_t limit_ns;     /* the whole probe ends by then: every wait for the server */
    int64_t run_limit_ns; /* and each run by then from its start */
    char *argv[32];
};

/* 0 with plan filled, or the HTTP status (400, 403) with a one-line reason. */
int exporter_plan_make(const struct exporter_policy *pol, const struct exporter_query *q,
                       struct exporter_plan *plan, char *why, size_t why_len);

#endif
