/* A scripted platform for the core's unit tests: every tt_* function of
 * include/ttcp/platform.h, driven by the scripts below instead of an OS.
 * Tests set `fake` up with fake_reset() and a few fields, run the core,
 * then look at what it recorded. Single-threaded; one test at a time. */
#ifndef TTCP_FAKE_PLATFORM_H
#define TTCP_FAKE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "ttcp/platform.h"

#define FAKE_MAX_STEPS 256
#define FAKE_MAX_BYTES (1 << 20)

/* One scripted result of a recv/recvfrom or send/sendto call. */
struct fake_step {
    int64_t result; /* bytes (recv: delivered; send: accepted, capped at len), 0 = EOF, <0 = TT_E_* */
    int interrupt;  /* raise the interrupt flag as this step happens */
    int sender;     /* recvfrom: which peer sent it (0 = the default one) */
};

struct fake_script {
    struct fake_step step[FAKE_MAX_STEPS];
    int count, next;
};

struct fake_platform {
    /* scripts; when one runs out: recv -> EOF (recvfrom -> TT_E_AGAIN), send -> all accepted */
    struct fake_script rx, tx;
    int64_t clock_ns, clock_tick_ns; /* tt_now_ns() advances by tick per call */
    /* tt_cpu_times(): a CPU quota of quota_ppm millionths of a core (0:
     * none) and, with throttle_given, throttled time throttle_per_mille of
     * the clock */
    int throttle_given;
    int64_t throttle_per_mille, quota_ppm;
    int64_t eof_delay_ns; /* added to the clock when recv reports EOF */
    int peer_never_closes; /* tt_wait_readable times out, forever */
    int quickack_sticky;   /* tt_quickack_sticky() */
    int max_accepts;       /* >0: the accept after that many is a Ctrl+C */
    int accepts;
    int interrupted;
    int resolve_rc, connect_rc, bind_rc, accept_rc;
    /* tt_resolve's addresses, in order, by family ("64": V6 then V4; empty:
     * one, of the family asked); connect_refused_family: a connect to an
     * address of that family is refused (0: none); what tt_connect saw */
    const char *resolve_families;
    int connect_refused_family;
    int connect_families[8], connects, sockets_opened;
    /* stdin content, delivered in pieces of at most stdin_piece bytes */
    const unsigned char *stdin_data;
    size_t stdin_len, stdin_pos, stdin_piece;
    /* what the core did */
    unsigned char sent[FAKE_MAX_BYTES];
    size_t sent_len;
    size_t datagram_len[FAKE_MAX_STEPS]; /* each sendto's length */
    int datagrams;
    unsigned char out[FAKE_MAX_BYTES]; /* stdout */
    size_t out_len;
    size_t out_writes[FAKE_MAX_STEPS];
    int out_write_count;
    int shutdown_calls, close_calls, sleep_calls, quickack_calls, discard_calls;
    int rcvbuf_set; /* the last SO_RCVBUF set, 0 = none */
    int rcvlowat_set; /* the last SO_RCVLOWAT set, 0 = none */
    int64_t timer_at_shutdown; /* clock when tt_shutdown_send ran */
    int last_error;
    /* threads: each runs at once, to its end, on the caller's (see tt_thread_start) */
    int threads_started;
    int cpus;        /* tt_thread_pin() takes CPUs 0..cpus-1 */
    int pinned_cpu;  /* the last it was asked for */
    /* multicast */
    int mcast_ttl;   /* what tt_mcast_sender() set, tt_mcast_ttl() reads back */
    /* traceroute: the destination is hop trace_hops; hop trace_silent (-1: all) never answers */
    int trace_hops, trace_silent, probes;
    int trace_names; /* tt_addr_name() finds "hopN.example" for 192.0.2.N */
    /* path MTU: the way out's MTU (0: 1500), the path's (0: the way out's);
     * pmtu_tells: the OS learns the path's from a "too big" */
    int pmtu_top, pmtu_path, pmtu_tells, mtu_probes;
};

extern struct fake_platform fake;

void fake_reset(void);
/* Appends a step to a script. */
void fake_push(struct fake_script *s, int64_t result);
/* A datagram from one of several senders (recvfrom's address). */
void fake_push_from(struct fake_script *s, int64_t result, int sender);
void fake_push_interrupt(struct fake_script *s, int64_t result);

#endif
