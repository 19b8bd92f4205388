/* --latency: round-trip samples taken before the data starts (idle) and
 * while it flows (loaded), their quantiles, the increase under load and the
 * bufferbloat grade. Pure: the samples come from the client's UDP probes
 * (client/probe.c) or, in the classic pair, the data connection's TCP RTT
 * (engine/session.c); the words are report/report_latency.c's. */
#ifndef TTCP_LATENCY_H
#define TTCP_LATENCY_H

#include <stddef.h>
#include <stdint.h>

/* Where the samples came from. */
enum ttcp_latency_source {
    TTCP_LATENCY_NONE = 0,
    TTCP_LATENCY_UDP_ECHO, /* -C: probes the server echoed */
    TTCP_LATENCY_TCP_INFO  /* the classic pair: the kernel's smoothed RTT of the data's
                            * connection; idle is the handshake's */
};

enum ttcp_latency_phase { TTCP_LATENCY_IDLE = 0, TTCP_LATENCY_LOADED = 1 };

/* Grades as the bufferbloat tests people know give them, by the increase
 * of the median RTT under load: under 5 ms A+, 30 A, 60 B, 200 C, 400 D. */
enum ttcp_latency_grade {
    TTCP_GRADE_A_PLUS, TTCP_GRADE_A, TTCP_GRADE_B, TTCP_GRADE_C, TTCP_GRADE_D, TTCP_GRADE_F
};

/* A grade needs an idle round trip and this many loaded ones: a test too
 * short to load the path (-n 10) is not graded on a probe sent at its start. */
#define TTCP_LATENCY_GRADE_LOADED 3

/* Samples kept: 10 a second for over 5 hours; past it they are counted only. */
#define TTCP_LATENCY_SAMPLES_MAX 200000u

struct ttcp_latency_sample {
    int64_t at_ns;  /* when the probe went, from the data's start (idle: negative) */
    int64_t rtt_ns; /* its round trip; -1: no answer (lost, or too late) */
    int phase;      /* enum ttcp_latency_phase */
};

struct ttcp_latency {
    enum ttcp_latency_source source;
    int64_t period_ns;      /* the probes' spacing (--latency-interval) */
    struct ttcp_latency_sample *list;
    uint32_t count, cap;
    uint32_t not_kept;      /* past TTCP_LATENCY_SAMPLES_MAX, or out of memory */
};

struct ttcp_latency_quantiles {
    uint32_t probes, answered; /* sent (or sampled), and with a round trip */
    int valid;                 /* answered > 0: the three below */
    double median_ms, p90_ms, p99_ms;
};

struct ttcp_latency_summary {
    struct ttcp_latency_quantiles idle, loaded;
    int increase_valid;        /* both medians known, TTCP_LATENCY_GRADE_LOADED loaded */
    double increase_ms;        /* loaded median - idle median (never below 0 for the grade) */
    enum ttcp_latency_grade grade;
};

/* One more sample; 0, or -1 when it could not be kept (counted in not_kept). */
int ttcp_latency_push(struct ttcp_latency *l, int64_t at_ns, int64_t rtt_ns, int phase);
void ttcp_latency_free(struct ttcp_latency *l);
enum ttcp_latency_grade ttcp_latency_grade(double increase_ms);
void ttcp_latency_summarise(const struct ttcp_latency *l, struct ttcp_latency_summary *out);

/* One bin of the samples (a period of the JSON's and the plot's series). */
struct ttcp_latency_bin {
    int64_t start_ns, end_ns;  /* from the data's start */
    int phase;
    uint32_t probes, answered;
    double median_ms, max_ms;  /* of the answered (0 when none) */
};
/* The samples in bins of width_ns from the first sample's bin on, idle and
 * loaded apart (a bin holds one phase); calls each(ctx, bin) in order. */
void ttcp_latency_bins(const struct ttcp_latency *l, int64_t width_ns,
                       void (*each)(void *ctx, const struct ttcp_latency_bin *b), void *ctx);
#endif
