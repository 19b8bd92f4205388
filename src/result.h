/* What one test measured. Filled by the core, turned into text by report.c.
 * Time stays in integer nanoseconds until the report. */
#ifndef TTCP_RESULT_H
#define TTCP_RESULT_H

#include <stdint.h>

#include "interval.h"
#include "payload.h"
#include "ttcp/platform.h"
#include "udpstat.h"

/* A failure: the portable code, the native number, and the operation in
 * 1.12's words ("connect", "bind", "IO", ...). code 0 = no failure. */
struct ttcp_failure {
    int code;
    int native;
    const char *op;
};

struct ttcp_result {
    int started;          /* the timed phase began: the figures mean something */
    uint64_t bytes;       /* payload bytes moved (1.12's nbytes) */
    uint64_t calls;       /* network I/O calls issued (1.12's numCalls) */
    int64_t real_ns;      /* timed phase, monotonic clock */
    struct tt_cpu cpu_start, cpu_end;
    uintptr_t buffer_address;
    int interrupted;      /* Ctrl+C ended the timed phase */
    int idle_timeout;     /* no progress for --idle-timeout ended it */
    int truncated;        /* UDP datagrams were longer than -l */
    uint64_t touch_sum;   /* -T: keeps the byte reads from being optimised out */
    /* --half-close: the other direction, after the timed phase */
    uint64_t back_bytes;
    int64_t back_ns;
    /* TCP statistics at connect and at the end, when the OS has them */
    int tcp_connect_valid, tcp_end_valid;
    struct tt_tcp_info tcp_connect, tcp_end;
    int test_number;      /* -c: 1, 2, ... */
    struct ttcp_intervals intervals; /* -i */
    /* UDP between two ends of this tool: what the sequence header told */
    int udp_stats_valid;
    struct ttcp_udp_stats udp;
    /* --verify */
    struct ttcp_verifier verify;
    uint64_t seed;        /* the random pattern's seed, when it was used */
    struct ttcp_failure failure;
};

/* Frees what a result holds (the intervals); it can be filled again. */
void ttcp_result_release(struct ttcp_result *res);

/* Progress the core reports while it runs; main turns them into text. */
enum ttcp_event {
    TTCP_EV_READY,    /* set up (host resolved, buffer in place): the header's moment */
    TTCP_EV_SOCKET,   /* "socket" */
    TTCP_EV_SNDBUF,   /* "sndbuf" */
    TTCP_EV_RCVBUF,   /* "rcvbuf" */
    TTCP_EV_NODELAY,  /* "nodelay" */
    TTCP_EV_CONNECT,  /* "connect" */
    TTCP_EV_ACCEPT,   /* "accept from <detail>" */
    TTCP_EV_WARNING,  /* "warning: <detail>" */
    TTCP_EV_INTERVAL, /* -i: intervals.list[intervals.current] was closed */
    TTCP_EV_FIGURES,  /* a test ended: its result is complete */
    TTCP_EV_FAILED    /* -c: one test failed, the next one follows */
};

/* Progress and results while the core runs; res is the test's result as
 * it stands (connect details, figures), for the printer to format. */
struct ttcp_observer {
    void (*event)(void *ctx, enum ttcp_event ev, const char *detail,
                  const struct ttcp_result *res);
    void *ctx;
};

#endif
