/* One complete test: set up, measure, tear down. Prints nothing. */
#ifndef TTCP_RUN_H
#define TTCP_RUN_H

#include "config/options.h"
#include "measure/result.h"

/* Returns 0, or the TT_E_* code also recorded in res->failure. */
int ttcp_run(const struct ttcp_options *opts, const struct ttcp_observer *obs,
             struct ttcp_result *res);

/* One test over a socket set up by someone else: a server's accepted
 * connection or a client's data connection (TCP), or a UDP socket connected
 * to its peer (what it sends goes there). The side is opts->transmit.
 * Takes the socket: it is closed when the test ends, unless flags has
 * TTCP_RUN_KEEP_SOCKET (UDP: the caller drains the peer's last markers;
 * iperf3's server end keeps its TCP data connections open to the end).
 * The TCP and UDP loops end at the observer's stop as at Ctrl+C; a TCP
 * transmitter stopped so waits for no close (the caller may shut the
 * socket down to wake a blocked send or receive: tt_shutdown_both).
 * A UDP receiver with -c (opts->continuous) runs test after test on it, as
 * ttcp_run() does, until Ctrl+C or the observer's stop. */
#define TTCP_RUN_ACCEPTED 1u    /* TCP: announced as "accept from" peer, else "connect" */
#define TTCP_RUN_KEEP_SOCKET 2u
#define TTCP_RUN_SEND_TO_PEER 4u /* UDP: the socket is not connected; send to peer (a group) */
/* A transmitter tells TTCP_EV_SENT once its data has all left (TCP: sent,
 * shut down and acknowledged, before it waits for the receiver's close),
 * for a protocol whose far end closes only when told the test is over
 * (iperf3's TEST_END). No other caller sees the event. */
#define TTCP_RUN_TELL_SENT 8u
/* A receiver tells TTCP_EV_BYTES after each read that counted bytes, for
 * a protocol whose client ends the test once so many have come (iperf3's
 * -n with the server sending). No other caller sees the event. */
#define TTCP_RUN_TELL_BYTES 16u
/* TCP: the socket carries another stream the other way at once (iperf2's
 * --full-duplex, both ways on one connection), run beside this one with
 * the same flag. A transmitter, after its FIN, reads nothing (the bytes
 * that come are the other stream's) and waits, bounded by the idle
 * timeout, until its bytes are acknowledged; its figure ends there. Give
 * TTCP_RUN_KEEP_SOCKET to both: the caller closes the socket after both. */
#define TTCP_RUN_SHARED_SOCKET 32u
int ttcp_run_on(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                struct ttcp_result *res, tt_socket sock, const struct tt_addr *peer,
                unsigned flags);

/* Another tool's UDP datagrams (src/peers/): write puts its header into
 * each data datagram a transmitter in sink mode sends, in place of
 * ttcp's (buf, len bytes; seq 0, 1, ... as sent; now_ns the monotonic
 * clock), and no 1.12 marker is sent: the caller ends the test the tool's
 * way (flags TTCP_RUN_KEEP_SOCKET). */
enum ttcp_stamp_seen { TTCP_STAMP_NONE, TTCP_STAMP_DATA, TTCP_STAMP_END };
struct ttcp_udp_stamp {
    void (*write)(void *ctx, unsigned char *buf, size_t len, uint64_t seq, int64_t now_ns);
    void *ctx;
    /* A receiver in sink mode reads each datagram's header with read, in
     * place of ttcp's (NULL: ttcp's): NONE, no header (counted as bytes
     * alone); DATA, *seq from 0 and *sent_ns (any clock, the same for every
     * datagram); END, the tool's end, counted as DATA, after which the test
     * ends at its arrival (no 1.12 marker is looked for). */
    enum ttcp_stamp_seen (*read)(void *ctx, const unsigned char *buf, size_t len, uint64_t *seq,
                                 int64_t *sent_ns);
    /* Datagrams of the test that came before its socket was (a server's
     * shared port): taken first, in order, as if they had come on it. */
    const struct tt_datagram *prior;
    int prior_count;
};
int ttcp_run_on_stamped(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                        struct ttcp_result *res, tt_socket sock, const struct tt_addr *peer,
                        unsigned flags, const struct ttcp_udp_stamp *stamp);

/* The receive window a new TCP socket gets from the OS (bytes), for the
 * dialog's rcvwndsize bracket; 0 when it cannot be told. */
int ttcp_system_rcvwnd(void);

#endif
