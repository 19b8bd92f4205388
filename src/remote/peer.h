/* Another tool's protocol, as one row of cli/peers.c's table names it
 * (docs/DESIGN.md, "Other tools' protocols"): its client end, that
 * `ttcp -C --<tool>` runs, and its server end, that `ttcp -S` serves.
 * The code is in src/peers/<tool>/; this type is what plugs it in, so
 * that neither client/ nor server/ names a tool. */
#ifndef TTCP_REMOTE_PEER_H
#define TTCP_REMOTE_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "remote/outcome.h"
#include "remote/server_observer.h"
#include "ttcp/platform.h"

/* -C --<tool>: refuses, in a one-line reason, what the protocol cannot
 * carry (an option the tool has no field for): 0, or -1 with why. */
typedef int (*ttcp_peer_check)(const struct ttcp_options *o, char *why, size_t why_len);

/* -C --<tool>: the test against the tool's server, as ttcp_client_run_until()
 * runs ttcp's own: fills out (the client's figures, the server's as its
 * results said), hands each end's facts to obs; 0, or -1 with out->problem. */
typedef int (*ttcp_peer_test)(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                              struct ttcp_client_outcome *out, int64_t deadline);

/* The shared port (-p): are a connection's first bytes (n of them so far)
 * this tool's opening? More: wait for more bytes (up to recognise_len). */
enum ttcp_peer_verdict { TTCP_PEER_NO, TTCP_PEER_YES, TTCP_PEER_MORE };
typedef enum ttcp_peer_verdict (*ttcp_peer_recognise)(const unsigned char *b, size_t n);

/* The shared UDP port (-p): is a datagram this tool's? START: a client's
 * test (one each sender's address and port), served by serve_udp; END: the
 * end of one that comes late (the test over, or refused): dropped; NO: the
 * classic receiver's. */
enum ttcp_peer_udp_verdict { TTCP_PEER_UDP_NO, TTCP_PEER_UDP_START, TTCP_PEER_UDP_END };
typedef enum ttcp_peer_udp_verdict (*ttcp_peer_recognise_udp)(const unsigned char *b, size_t n);

struct ttcp_peer_serving;
/* -S: one client of the tool, on its own slot's thread, from its first
 * connection on (the server has checked --allow and --max-clients); the
 * server closes the connection and frees the slot when it returns. */
typedef void (*ttcp_peer_serve)(struct ttcp_peer_serving *s);
/* -S: the tool's own listening port in these options (*typed: the user
 * typed it, so a port that cannot be had stops the server), 0: none. */
typedef uint64_t (*ttcp_peer_port)(const struct ttcp_options *server, int *typed);

#define TTCP_PEER_KEY_MAX 64 /* a test's key on its data connections, in bytes */

struct ttcp_peer {
    const char *name;      /* "iperf3": its option (--iperf3), its name in lines and JSON */
    int far_end;           /* enum ttcp_far_end: the -C option that picks it */
    ttcp_peer_check check; /* NULL: every option the client takes carries over */
    ttcp_peer_test test;   /* NULL: this build has no client end for it */
    /* the server end (serve NULL: ttcp -S does not serve this tool) */
    ttcp_peer_serve serve;
    ttcp_peer_port port;   /* NULL: it comes to the shared port only */
    size_t key_len;        /* its port: a connection that opens with a running test's key
                            * is that test's data (take_data); 0: every one is a client */
    ttcp_peer_recognise recognise; /* NULL: it never opens on the shared port */
    size_t recognise_len;  /* the most bytes recognise needs */
    /* its clients that come to the shared UDP port with datagrams alone (NULL: none):
     * serve_udp runs each, s->control its socket (remote/peer.h's serving) */
    ttcp_peer_recognise_udp recognise_udp;
    ttcp_peer_serve serve_udp;
    /* A client turned away before its test (--max-clients run, or a key the
     * tool cannot carry): told so in the tool's own words where it has
     * them, on a connection that sends at once. NULL: just closed. */
    void (*refuse)(tt_socket s, int busy);
};

/* What the server hands a tool's server end for one client: the
 * connection, the limits, the observer, and the server's services (the
 * tool's data connections arrive where the server listens). */
struct ttcp_peer_serving {
    const struct ttcp_peer *peer;
    tt_socket control;     /* serve_udp: a UDP socket on the shared port, connected to the
                            * client's address and port (client), the server closes it;
                            * serve: the client's first connection, its bytes unread; a serve
                            * that hands it to a run that closes it (a TCP receiver's
                            * ttcp_run_on) sets it to TT_NO_SOCKET, else the server
                            * closes it when serve returns */
    struct tt_addr client; /* where it came from: the only address test data goes to */
    const struct ttcp_options *server; /* the server's options: --max-time, --max-rate,
                                        * --max-streams, -l's bound, --key-file */
    const struct ttcp_server_observer *obs;
    void *slot;            /* the server's, for the services below */
    /* The client's test is agreed: -1 counts it. */
    void (*begun)(struct ttcp_peer_serving *s);
    /* n data connections from the client's address on the tool's port
     * that open with key (peer->key_len bytes, taken off), until deadline
     * (tt_now_ns()): 0 with socks[0..n-1] in the order they came, or -1
     * (none left open). */
    int (*take_data)(struct ttcp_peer_serving *s, const unsigned char *key, int n,
                     int64_t deadline, tt_socket *socks);
    /* Arms the take_data that follows (the same key, n and socks) before
     * the client is told to connect: a connection that comes at once is
     * the test's, not taken for a new client of the tool. */
    void (*expect_data)(struct ttcp_peer_serving *s, const unsigned char *key, int n,
                        tt_socket *socks);
    /* n data connections the client opens to port: the shared port's (-p)
     * are told from others by the client's address; another port gets a
     * listener for this test on the address the client reached. 0 with
     * socks[0..n-1], or -1 with *code (TT_E_*: bind, a deadline passed). */
    int (*accept_data)(struct ttcp_peer_serving *s, uint64_t port, int n, int64_t deadline,
                       tt_socket *socks, int *code);
    /* A UDP socket for the client's datagrams to port, bound to the
     * address the client reached. On the shared port (-p, where the
     * classic UDP receiver listens) the first datagram from the client's
     * address is taken off that receiver (and lost) and the socket is
     * connected to where it came from (*from); on another port it stays
     * unconnected (*from: the client's address, its port unknown). 0 with
     * *sock, or -1 with *code (TT_E_*: bind, the deadline passed). */
    int (*udp_data)(struct ttcp_peer_serving *s, uint64_t port, int64_t deadline,
                    tt_socket *sock, struct tt_addr *from, int *code);
    /* serve_udp: the client's datagrams that the shared port's receiver
     * took before control was connected (the first, that recognise_udp
     * said START to, and any that followed it there), in order; no more are
     * kept after this call. Valid until serve_udp returns; returns how many. */
    int (*udp_prior)(struct ttcp_peer_serving *s, const struct tt_datagram **prior);
};

#endif
