/* What one test measured, and what happened to it: facts (codes and
 * numbers) filled by the engine and turned into words by report/. Time
 * stays in integer nanoseconds until the report. */
#ifndef TTCP_RESULT_H
#define TTCP_RESULT_H

#include <stdint.h>

#include "measure/interval.h"
#include "measure/latency.h"
#include "measure/payload.h"
#include "measure/pmtu.h"
#include "measure/udpstat.h"
#include "ttcp/platform.h"

#define TTCP_CONGESTION_MAX 15 /* --congestion: Linux's TCP_CA_NAME_MAX less its NUL */
#define TTCP_MARK_TOS 1u        /* marks_asked: --tos or --dscp */
#define TTCP_MARK_CONGESTION 2u /* marks_asked: --congestion */
#define TTCP_MARK_FQ_RATE 4u    /* marks_asked: --fq-rate (a sender's) */
#define TTCP_RTT_SAMPLE_NS 10000000ll /* --analyze: the RTT read every 10 ms of data */

/* The operation that failed; report/ names it in 1.12's words ("connect",
 * "bind", "IO", ...). */
enum ttcp_op {
    TTCP_OP_NONE,
    TTCP_OP_MALLOC,
    TTCP_OP_HOSTNAME, /* resolving the transmitter's host */
    TTCP_OP_SOCKET,
    TTCP_OP_SNDBUF,   /* -b on a transmitter */
    TTCP_OP_RCVBUF,   /* -b on a receiver */
    TTCP_OP_NODELAY,  /* -D */
    TTCP_OP_RCVWND,   /* --rcvwnd */
    TTCP_OP_TOS,      /* --tos, --dscp */
    TTCP_OP_MSS,      /* --mss */
    TTCP_OP_CONGESTION, /* --congestion */
    TTCP_OP_FQ_RATE,  /* --fq-rate */
    TTCP_OP_BIND,
    TTCP_OP_LISTEN,
    TTCP_OP_ACCEPT,
    TTCP_OP_CONNECT,
    TTCP_OP_IO,       /* the network, during the test */
    TTCP_OP_READ,     /* stdin */
    TTCP_OP_WRITE,    /* stdout */
    TTCP_OP_RECVFROM, /* a UDP receiver ended before its test began */
    TTCP_OP_MCAST,    /* -t: the multicast hop limit and interface */
    TTCP_OP_JOIN,     /* -r -g: joining the group */
    TTCP_OP_TRACE,    /* --traceroute: a probe */
    TTCP_OP_PMTU,     /* --pmtu: a probe */
    TTCP_OP_DONTFRAG  /* --dont-fragment: setting it, or a datagram larger than the path MTU */
};

/* A failure: the portable code, the native number, and the operation.
 * code 0 = no failure. */
struct ttcp_failure {
    int code;
    int native;
    enum ttcp_op op;
    int path_mtu;  /* TTCP_OP_DONTFRAG, TT_E_MSGSIZE: the path MTU the OS learnt (0: unknown) */
};

/* What a TCP transmitter learnt of its data's delivery after its FIN. */
enum ttcp_delivery {
    TTCP_DELIVERY_UNKNOWN,       /* not a TCP transmitter's wait (UDP, a receiver, Ctrl+C, -c) */
    TTCP_DELIVERY_CONFIRMED,     /* the receiver closed after reading it all, or sent back */
    TTCP_DELIVERY_ACKNOWLEDGED,  /* every byte acknowledged, no close within --idle-timeout
                                  * (TTCP_RUN_SHARED_SOCKET: none waited for) */
    TTCP_DELIVERY_NOT_CONFIRMED  /* a reset, or bytes never acknowledged: data may be lost */
};

/* Things that went differently from a plain test. The engine records them in
 * the result (one bit each) and announces each once as it happens; the report
 * layer has the words, so text and JSON list the same ones however the test
 * ended. */
enum ttcp_warning {
    TTCP_WARN_SODEBUG,         /* -d: SO_DEBUG could not be set (ignored) */
    TTCP_WARN_QUICKACK,        /* --no-delayed-ack: the OS cannot do it */
    TTCP_WARN_DISCARD,         /* --discard: the OS cannot, data is copied */
    TTCP_WARN_RESET_AT_END,    /* -t: the receiver reset after our FIN */
    TTCP_WARN_RESET_BEFORE_FIN, /* -t: ... before our FIN: delivery not confirmed */
    TTCP_WARN_NO_CLOSE,        /* -t: the receiver never closed (idle timeout) */
    TTCP_WARN_HALF_CLOSE_REFUSED, /* -r: the transmitter closed both ways */
    TTCP_WARN_END_MARKER_LOST, /* -r -u: ended by the idle timeout */
    TTCP_WARN_TRUNCATED,       /* -r -u: datagrams longer than -l were cut */
    TTCP_WARN_INPUT_TAIL,      /* -t -u: the last bytes of stdin, marker-sized */
    TTCP_WARN_TIME_LIMIT,      /* a server's --max-time ended the test */
    TTCP_WARN_CPU_PIN,         /* --cpu: the OS would not keep the stream on its CPU */
    TTCP_WARN_PORT_UNREACHABLE, /* -t -u: the receiver's host says its port is closed */
    TTCP_WARN_ICMP,            /* -t -u: the network reported earlier datagrams undeliverable */
    TTCP_WARN_TOS,             /* --tos, --dscp: the OS does not let a program mark packets */
    TTCP_WARN_OMIT_LONGER,     /* --omit: the test ended first: nothing was left out */
    TTCP_WARN_FQ_UDP,          /* --fq-rate -u: only the fq qdisc paces UDP */
    TTCP_WARN_UNACKED,         /* -t: bytes never acknowledged when the wait gave up */
    TTCP_WARN_COUNT
};

struct ttcp_result {
    int started;          /* the timed phase began: the figures mean something */
    uint64_t bytes;       /* payload bytes moved (1.12's nbytes) */
    uint64_t calls;       /* network I/O calls issued (1.12's numCalls) */
    int64_t real_ns;      /* timed phase, monotonic clock */
    int64_t start_ns;     /* when it began, monotonic clock (-P: the streams' span) */
    struct tt_cpu cpu_start, cpu_end; /* read with the clock at the start and at
                                       * the end of real_ns: the same interval (a
                                       * UDP idle timeout: cpu_end at the timeout) */
    uintptr_t buffer_address;
    int interrupted;      /* Ctrl+C ended the timed phase */
    int idle_timeout;     /* no progress for --idle-timeout ended it */
    enum ttcp_delivery delivery; /* a TCP transmitter: what the receiver confirmed */
    uint64_t unacked_at_end; /* ... NOT_CONFIRMED at the idle timeout: bytes never acknowledged */
    uint32_t warnings;    /* 1u << enum ttcp_warning, for each that happened */
    uint64_t unsent_tail; /* TTCP_WARN_INPUT_TAIL: the bytes left unsent */
    int icmp_code, icmp_native; /* TTCP_WARN_ICMP: the first such error (TT_E_*, native) */
    uint64_t touch_sum;   /* -T: keeps the byte reads from being optimised out */
    /* --half-close: the other direction, after the timed phase */
    int back_done;        /* the back phase ran (or bytes came back) */
    uint64_t back_bytes;
    int64_t back_ns;
    struct tt_addr peer;  /* the transmitter a TCP receiver accepted */
    int peer_valid;
    struct tt_addr local; /* the data socket's own address and port, once connected */
    int local_valid;
    /* TCP statistics at connect and at the end, when the OS has them;
     * tcp_end_asked: the end statistics were wanted (valid or not) */
    int tcp_connect_valid, tcp_end_valid, tcp_end_asked;
    struct tt_tcp_info tcp_connect, tcp_end;
    /* --analyze (TCP): what the analysis needs besides tcp_end, taken with it */
    int analysis_taken;      /* the facts below were read at the end */
    int64_t limits_span_ns;  /* the time tcp_end's limits count over: the test's (with
                              * --omit, its omitted part too); -P: the streams' added */
    uint64_t rtt_sum_us;     /* the smoothed RTT read every TTCP_RTT_SAMPLE_NS of the */
    uint32_t rtt_samples;    /* data phase and once at its end: their sum and count */
    int path_mtu;            /* the socket's path MTU at the end (0: unknown) */
    /* --latency on a classic TCP transmitter: the connection's smoothed RTT,
     * at the start (the handshake's: idle) and every --latency-interval */
    struct ttcp_latency latency;
    int sndbuf_bytes, rcvbuf_bytes; /* SO_SNDBUF, SO_RCVBUF at the end (0: unknown) */
    /* --tos, --dscp, --congestion: the marks asked for, as the socket read
     * them back (the algorithm also where none was asked: the one in use) */
    unsigned marks_asked; /* TTCP_MARK_* */
    int tos_valid, tos;
    int congestion_valid;
    char congestion[TTCP_CONGESTION_MAX + 1];
    int fq_rate_valid;    /* --fq-rate: the kernel's pacing rate, read back, bits/s */
    uint64_t fq_rate_bps;
    /* --omit: the first omitted_ns of the test were measured and left out of
     * bytes, calls, real_ns, the CPU time and the UDP counts above */
    int omitted;
    int64_t omitted_ns;
    uint64_t omitted_bytes;
    int test_number;      /* -c: 1, 2, ... */
    struct ttcp_intervals intervals; /* -i */
    /* UDP between two ends of this tool: what the sequence header told */
    int udp_stats_valid;
    struct ttcp_udp_stats udp;
    /* --verify */
    int verify_done;
    struct ttcp_verifier verify;
    int mcast_ttl;        /* -t to a group: the hop limit, as the socket reports it */
    struct ttcp_pmtu pmtu; /* --pmtu: the path MTU found before the test (pmtu.found) */
    uint64_t seed;        /* the random pattern's seed, when it was used */
    int seed_used;        /* the transmitter sent the random pattern */
    struct ttcp_failure failure;
};

/* Frees what a result holds (the intervals); it can be filled again. */
void ttcp_result_release(struct ttcp_result *res);

/* The figure's time in seconds, with 1.12's clamp (at least 0.001, so a
 * rate never divides by zero), and the CPU time (user + system) over it. */
double ttcp_real_seconds(const struct ttcp_result *r);
double ttcp_cpu_seconds(const struct ttcp_result *r);

/* Progress the core reports while it runs; cli/ turns them into text. */
enum ttcp_event_kind {
    TTCP_EV_READY,    /* set up (host resolved, buffer in place): the header's moment */
    TTCP_EV_SOCKET,   /* "socket" */
    TTCP_EV_SNDBUF,   /* "sndbuf" */
    TTCP_EV_RCVBUF,   /* "rcvbuf" */
    TTCP_EV_NODELAY,  /* "nodelay" */
    TTCP_EV_CONNECT,  /* "connect" */
    TTCP_EV_ACCEPT,   /* "accept from": res->peer */
    TTCP_EV_WARNING,  /* ev->warning happened (also in res->warnings) */
    TTCP_EV_INTERVAL, /* -i: ev->interval was closed */
    TTCP_EV_FIGURES,  /* a test ended: its result is complete */
    TTCP_EV_FAILED,   /* -c: one test failed (res->failure), the next one follows */
    TTCP_EV_MULTICAST, /* -t: the group's hop limit set (res->mcast_ttl); -r: joined */
    TTCP_EV_PMTU,     /* --pmtu: the path MTU was found (res->pmtu) */
    TTCP_EV_SENT,     /* ttcp_run_on(TTCP_RUN_TELL_SENT) alone: a transmitter's data has all
                       * left (TCP: and been acknowledged); its close is still awaited */
    TTCP_EV_BYTES     /* ttcp_run_on(TTCP_RUN_TELL_BYTES) alone: a receiver counted more
                       * (res->bytes) */
};

struct ttcp_options; /* config/options.h: a floor above; only pointed to */

struct ttcp_event {
    enum ttcp_event_kind kind;
    enum ttcp_warning warning;            /* TTCP_EV_WARNING */
    const struct ttcp_interval *interval; /* TTCP_EV_INTERVAL */
    /* The options of the test that told it (NULL: the observer knows them):
     * one of -P's streams has its own (its number, its port). */
    const struct ttcp_options *opts;
};

/* Progress and results while the core runs; res is the test's result as
 * it stands (connect details, figures), for the printer to format. */
struct ttcp_observer {
    void (*event)(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res);
    void *ctx;
    /* Optional (NULL: never): non-zero when whoever runs the core wants it to
     * stop as after Ctrl+C; looked at where Ctrl+C is (a server ending). */
    int (*stop)(void *ctx);
    /* Optional (NULL: none): a UDP receiver shows it each datagram first; 1
     * when it takes it (a server's control datagram, a sender --allow keeps
     * out), and the test never counts it. */
    int (*claim)(void *ctx, const struct tt_datagram *d);
};

#endif
