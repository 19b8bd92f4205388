/* The state of one test, owned by ttcp_run() and passed to each phase, and
 * the helpers every phase shares (session.c): events, failure, the timed
 * phase, the clock-driven parts of the loops, sending, TCP statistics.
 * session.c calls only downward (measure/, the platform), never a phase. */
#ifndef TTCP_SESSION_H
#define TTCP_SESSION_H

#include "config/options.h"
#include "engine/buffer.h"
#include "measure/pace.h"
#include "measure/result.h"
#include "ttcp/platform.h"

struct ttcp_udp_stamp;

struct ttcp_session {
    const struct ttcp_options *opts;
    const struct ttcp_observer *obs;
    const struct ttcp_udp_stamp *stamp; /* another tool's UDP header (run.h), or NULL */
    int stamp_ended;     /* its read said END: the UDP receiver stops */
    struct ttcp_result *res;
    struct ttcp_buffer buf;
    tt_socket listener;  /* TCP receiver's listening socket */
    tt_socket sock;      /* the data socket */
    int handed;          /* it came from a server or a client (ttcp_run_on), which may
                          * have armed a receive timeout on it */
    unsigned run_flags;  /* ttcp_run_on's flags (TTCP_RUN_TELL_SENT) */
    struct tt_addr_list peers; /* what the transmitter's host resolved to */
    struct tt_addr dest; /* UDP transmitter's destination */
    int64_t start_ns;    /* when the timed phase began */
    int64_t quiet_until_ns; /* -c UDP: trailing markers of the last test until then */
    struct tt_addr last_sender; /* -c UDP: whose they are */
    /* the clock-driven parts of the loops (-i, --time, -R) */
    int clocked;         /* read the clock after each buffer */
    int64_t now_ns;      /* the last read */
    int64_t end_ns;      /* --time: when to stop sending */
    int64_t rtt_sampled_ns; /* --analyze: the RTT's last reading */
    int64_t latency_sampled_ns; /* --latency: the RTT's last sample */
    struct ttcp_pacer pacer;
    /* --omit: the figures begin at end_ns; what was counted by then */
    struct {
        int64_t end_ns;  /* 0: nothing to omit */
        int passed;
        uint64_t bytes, calls; /* at the last clock read before end_ns */
        struct tt_cpu cpu;     /* read as it passed */
        struct ttcp_udp_stats udp;
    } omit;
    uint64_t bytes_at_tick, calls_at_tick; /* at the last clock read */
    struct ttcp_udp_stats udp_at_tick;      /* the same, while --omit's end is ahead */
    struct ttcp_prng prng; /* --pattern random */
    uint64_t udp_seq;
    int nuttcp_order;    /* nuttcp's datagram count: 0 not seen, 1 little-endian, 2 swapped */
    /* UDP in sink mode: room for a batch of datagrams, one slot each */
    unsigned char *batch;
    size_t batch_stride, batch_len;
    int batch_slots;
    int discard;         /* --discard, while the OS allows it */
    int rearm_quickack;  /* --no-delayed-ack where the OS forgets it after a read */
};

/* Ctrl+C came, or the observer asks the core to stop as after it. */
int ttcp_stopping(const struct ttcp_session *s);
/* Announces a step (socket, connect, ...) to the observer. */
void ttcp_emit(const struct ttcp_session *s, enum ttcp_event_kind kind);
/* The observer takes this datagram (ttcp_observer.claim): not the test's. */
int ttcp_claimed(const struct ttcp_session *s, const struct tt_datagram *d);
/* Records a warning in the result and announces it, once per test. */
void ttcp_warn(struct ttcp_session *s, enum ttcp_warning w);
/* Records a failure with the native error of the call that just failed;
 * returns code so callers can `return ttcp_fail(...)`. */
int ttcp_fail(struct ttcp_session *s, int code, enum ttcp_op op);

/* Whether a test reads the clock after each buffer (intervals, --time,
 * pacing, a server's limits): s->clocked once the timer starts. */
int ttcp_clocked(const struct ttcp_options *o);

/* The timed phase: 1.12's prep_timer() and read_timer(). */
void ttcp_timer_start(struct ttcp_session *s);
void ttcp_timer_stop(struct ttcp_session *s);
/* A moment of the test: the clock and the process's CPU time, read
 * together so that a figure that ends there has its CPU share over the
 * same interval. */
struct ttcp_moment {
    int64_t ns;
    struct tt_cpu cpu;
};
void ttcp_moment_now(const struct ttcp_session *s, struct ttcp_moment *m);
/* The CPU time the test counts: the process's, or its thread's (-S, -C). */
void ttcp_cpu_now(const struct ttcp_session *s, struct tt_cpu *out);
/* Stops the timer at an earlier moment (the receiver's first byte back, the
 * last progress before an idle timeout), so the figures cover only the time
 * data was moving. */
void ttcp_timer_stop_at(struct ttcp_session *s, const struct ttcp_moment *end);

/* After each buffer when s->clocked: reads the clock, closes intervals. */
void ttcp_tick(struct ttcp_session *s);
/* -R: sleeps until a buffer of len bytes may leave (a little early is
 * fine: within the burst, at most 1 ms). */
void ttcp_pace(struct ttcp_session *s, uint64_t len);
/* -R: 1, and the buffer accounted, when one more may leave now too. */
int ttcp_pace_more(struct ttcp_session *s, uint64_t len);
/* -R: the last buffer takes its share of time too: waits until the next
 * would have been due, so the figure is the paced rate, not one buffer more. */
void ttcp_pace_finish(struct ttcp_session *s);
/* Sending goes on: not interrupted nor stopped by the observer, and -n
 * buffers, --time or -c say so. */
int ttcp_keep_sending(const struct ttcp_session *s, uint64_t sent);

/* A server's cap on the test (opts->limit_ns) has passed: warns once and
 * returns 1 (the clock as last read by ttcp_tick). */
int ttcp_over_limit(struct ttcp_session *s);

/* Reads the connection's TCP statistics into the result: at connect for the
 * IOS-style connect line (-v, -I), at the end for --tcp-info. */
void ttcp_capture_tcp_info(struct ttcp_session *s, int at_end);
/* After each read of a TCP stream: --no-delayed-ack again, where the OS
 * forgets it (Linux's TCP_QUICKACK); nothing where it keeps it. */
void ttcp_after_read(struct ttcp_session *s);

/* Sends all of len bytes, adding to *bytes and (when not NULL) one I/O call
 * per send to *calls, as 1.12's numCalls does. */
int ttcp_send_all(struct ttcp_session *s, const unsigned char *p, size_t len,
                  uint64_t *bytes, uint64_t *calls);

#endif
