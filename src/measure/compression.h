/* --compression: the classic pattern's rate against the random pattern's
 * over the same path, and what their ratio says. Pure arithmetic. */
#ifndef TTCP_COMPRESSION_H
#define TTCP_COMPRESSION_H

#include <stdint.h>

/* A ratio above this says the path compresses: two runs of the same
 * incompressible-or-not data differ by a few per cent at most, and a
 * compressor on the classic pattern wins by far more (Cisco's note: 6:1). */
#define TTCP_COMPRESSION_THRESHOLD 1.1
/* An end that spent more than this share of a CPU (per cent of the test's
 * real time) may have set the rate itself: the random pattern costs the
 * sender more per byte than the classic one, so on a path the hosts
 * cannot fill (one host's loopback) the random test is slower with no
 * compressor anywhere. Then a ratio above the threshold says nothing. */
#define TTCP_COMPRESSION_CPU_BOUND 50.0

enum ttcp_compression_finding {
    TTCP_COMPRESSION_UNKNOWN, /* a run did not complete, or moved nothing */
    TTCP_COMPRESSION_NONE,    /* the ratio is at most the threshold */
    TTCP_COMPRESSION_FOUND,   /* above it: the random figure is the link's */
    TTCP_COMPRESSION_HOST_BOUND /* above it, but an end was busy: no finding */
};

/* One run's figure: the bytes its measuring end counted, over its seconds. */
struct ttcp_compression_run {
    int complete;    /* the run ended by itself, with its figures (not failed, not Ctrl+C) */
    uint64_t bytes;
    int64_t real_ns;
    double cpu_percent; /* the busiest end's CPU time over real time, per cent (0: not known) */
};

struct ttcp_compression {
    double classic_bps, random_bps; /* bits per second; 0: not known */
    double ratio;                   /* classic / random; 0: not known */
    double cpu_percent;             /* the busiest end's share of a CPU in either run */
    enum ttcp_compression_finding finding;
};

/* The two runs' rates, their ratio and the finding. */
void ttcp_compression_judge(struct ttcp_compression *c, const struct ttcp_compression_run *classic,
                            const struct ttcp_compression_run *random);

#endif
