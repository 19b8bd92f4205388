/* The server's shared state: the connections still opening (gate.c), the
 * slots of the tests that run (server.c), a controlled test's conversation
 * (control.c). One mutex guards the slots; each slot's control socket has
 * its own for sends from the test's threads. */
#ifndef TTCP_SERVER_INTERNAL_H
#define TTCP_SERVER_INTERNAL_H

#include "proto/message.h"
#include "remote/allow.h"
#include "remote/auth.h"
#include "remote/channel.h"
#include "remote/peer.h"
#include "remote/probe.h"
#include "remote/web.h"
#include "remote/wire.h"
#include "remote/wire_web.h"
#include "server/server.h"

#include <string.h>

#define PENDING_MAX 256   /* connections still opening; beyond, the oldest goes */
#define SLOTS_MAX (2 * 256) /* --max-clients' ceiling, for each of the two kinds */
#define HELLO_NS (5ll * 1000000000ll)    /* magic and hello */
#define CONTROL_NS (10ll * 1000000000ll) /* any other control read */
#define SERVER_MAX_BUFLEN (4u << 20)     /* -l a client may ask for: memory stays bounded */

/* SLOT_PEER: another tool's client (peer.c); SLOT_WEB: a browser's test
 * (web.c); both count with SLOT_CONTROL's. */
enum slot_kind { SLOT_FREE, SLOT_CLASSIC, SLOT_CONTROL, SLOT_PEER, SLOT_WEB, SLOT_KINDS };
#define PEER_LANES_MAX 4 /* other tools' own listening ports */
#define UDP_PRIOR_MAX 16  /* a datagram client's datagrams kept before its test looks */
#define UDP_PRIOR_BYTES (64u << 10)
#define UDP_ENDED_MAX 64  /* datagram clients remembered as over */

/* One data stream of a client's test, by its number on the wire
 * (TTCP_STREAM_ID: 2 i + 0 the client sends, + 1 the server sends). */
struct slot_stream {
    int expect;            /* the test has this stream */
    tt_socket data;        /* TCP: its connection once attached (taken when it runs) */
    int attached;          /* TCP: it came */
    struct tt_addr peer;   /* where it came from (UDP: the token datagram's source) */
    int udp_seen;          /* UDP: the token datagram came */
};

struct slot {
    enum slot_kind kind;
    int done;              /* the thread has ended: join it */
    struct tt_thread *thread;
    struct ttcp_server *server;
    tt_socket control;     /* CONTROL: the client's control connection; CLASSIC: the data */
    struct tt_addr peer;
    /* the data connections, attached by gate.c under the server's lock */
    char token[TTCP_TOKEN_HEX + 1];
    int ids;               /* stream numbers 0..ids-1 (2 x -P) */
    struct slot_stream *stream; /* [ids], made by control.c once the test is agreed */
    int udp;               /* UDP streams: the peer comes from a datagram, data stays unset */
    /* --latency: the client's probe socket, as its hello on the shared UDP
     * port told (slots.c's ttcp_server_attach_probe, under the lock) */
    int probe_expect, probe_seen;
    struct tt_addr probe_from;
    struct tt_mutex *send_lock; /* CONTROL: one frame at a time on the control socket */
    /* PEER: the tool, and the data connections its server end waits for
     * (peer.c: a key on the tool's port, or any from the client on -p's) */
    const struct ttcp_peer *tool;
    unsigned char key[TTCP_PEER_KEY_MAX];
    int on_shared;         /* they come to the shared port */
    int data_want, data_got;
    tt_socket *data_in;    /* [data_want], the waiting service's */
    int udp_wait, udp_got; /* a datagram from the client on the shared UDP port */
    struct tt_addr udp_from; /* ... came from there */
    /* PEER, a client of datagrams alone (peer_udp.c): peer is its address
     * and port, control its connected socket; the datagrams of it the
     * classic receiver took first, kept for its test until it looks */
    int udp_flow;
    int prior_open;
    int prior_count;
    size_t prior_used;
    struct tt_datagram prior[UDP_PRIOR_MAX];
    unsigned char *prior_bytes; /* [UDP_PRIOR_BYTES] */
    /* WEB: the browser's test's keeper, web/'s (remote/web.h) */
    ttcp_web_keeper web_keep;
    void *web_test;
};

/* A sender of datagrams alone whose test is over or was refused. */
struct udp_ended {
    struct tt_addr from;
    int64_t until_ns;      /* forgotten then (each datagram of it puts it later) */
};

struct ttcp_server {
    const struct ttcp_options *opts;
    const struct ttcp_server_observer *obs;
    struct ttcp_allow allow;
    struct ttcp_allow third; /* --third-party: where a client's test may go (none: nowhere) */
    struct ttcp_key key;
    int auth;              /* --key-file given */
    tt_socket listener;
    tt_socket lane[PEER_LANES_MAX];           /* other tools' own ports (peer.c) */
    const struct ttcp_peer *lane_tool[PEER_LANES_MAX];
    int lanes;
    struct tt_mutex *lock;
    struct slot slots[SLOTS_MAX];
    void (*run[SLOT_KINDS])(struct slot *sl); /* a slot's thread body, by kind */
    /* tests running, by kind: classic transmitters and ttcp clients each up to
     * --max-clients, so that connections that send a byte and go quiet (each
     * a classic test until its idle timeout) cannot turn ttcp clients away */
    int running[SLOT_KINDS];
    tt_socket udp;         /* the UDP socket systemd handed over, or TT_NO_SOCKET */
    tt_socket inetd;       /* --inetd: the connection on stdin, until the gate takes it */
    struct tt_addr inetd_peer;
    int inetd_port;        /* --inetd: the port inetd took the connection on (the headers') */
    struct tt_handoff *handoff; /* --inetd: where the test's data connections come */
    int started;           /* tests begun (-1 takes no more after the first) */
    int stopping;          /* the server ends: the classic UDP receiver stops too */
    struct udp_ended udp_ended[UDP_ENDED_MAX]; /* peer_udp.c's, under the lock */
    struct ttcp_web_host web_host; /* --web: what web/ is lent (web.c) */
    void *web;             /* --web: web/'s, while it serves */
    int web_closing;       /* --web stops: no new browser's test */
    /* --web: the last browser tests, under the lock: test number seq sits
     * at web_kept[(seq - 1) % TTCP_WEB_KEPT]; web_seq counts them all */
    struct ttcp_web_record web_kept[TTCP_WEB_KEPT];
    uint64_t web_seq;
};

/* slots.c */
void ttcp_server_notice(struct ttcp_server *sv, enum ttcp_notice what, const struct tt_addr *peer);
/* A slot for a new test, under the lock: NULL when --max-clients run. */
struct slot *ttcp_server_claim(struct ttcp_server *sv, enum slot_kind kind);
/* A test has begun (a classic one at once, a client's once agreed on):
 * what -1 counts; a refused conversation does not. */
void ttcp_server_begun(struct ttcp_server *sv);
/* Starts the slot's thread: the body server.c set for its kind. 0, or -1
 * when no thread could be had (the slot freed). */
int ttcp_server_launch(struct ttcp_server *sv, struct slot *sl);
/* Attaches a data connection to the test holding token: 0, or -1. */
int ttcp_server_attach(struct ttcp_server *sv, const char *token, int stream, tt_socket sock,
                       const struct tt_addr *peer);
/* A UDP test's datagram from its client: records the address to connect to
 * (only from the control connection's IP). */
/* A --latency probe hello from a test's client: records where its probes
 * come from, once, for the test holding token, from its client's IP alone. */
void ttcp_server_attach_probe(struct ttcp_server *sv, const char *token,
                              const struct tt_addr *from);
void ttcp_server_attach_udp(struct ttcp_server *sv, const char *token, int stream,
                            const struct tt_addr *from);
/* The two addresses' IPs are the same (ports aside). */
int ttcp_same_ip(const struct tt_addr *a, const struct tt_addr *b);
/* Joins the threads of the tests that have ended; returns how many run. */
int ttcp_server_reap(struct ttcp_server *sv);
/* One frame, or an error, on a client's control socket, whichever of its
 * test's threads sends it (under the slot's send lock). */
int ttcp_slot_send(struct slot *sl, struct ttcp_frame *f);
void ttcp_slot_error(struct slot *sl, const char *reason, const char *message);

/* greet.c: a client's opening, on the gate's thread. 0 when the client may go
 * on (welcome sent; nonce filled with --key-file), -1 when it was refused. */
int ttcp_greet_hello(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer,
                     const struct ttcp_message *hello, char nonce[TTCP_NONCE_HEX + 1]);
/* --key-file: the client's auth frame; 0 when it holds the key (auth_ok sent). */
int ttcp_greet_auth(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer,
                    const struct ttcp_message *m, const char *snonce);

/* handoff.c: --inetd's processes, one a connection, meet by the token.
 * The test's own thread opens, collects and closes; gate.c gives. */
int ttcp_handoff_open(struct ttcp_server *sv, const char *token);
/* Attaches the data connections handed over so far. */
void ttcp_handoff_collect(struct ttcp_server *sv);
void ttcp_handoff_close(struct ttcp_server *sv);
/* A data connection to the process holding token's test: 0, or -1. */
int ttcp_handoff_give(const char *token, int stream, tt_socket s);

/* gate.c: the connections still opening. */
struct gate;
struct gate *ttcp_gate_new(struct ttcp_server *sv);
void ttcp_gate_free(struct gate *g);
/* A connection from elsewhere (--inetd's stdin) joins as if accepted. */
void ttcp_gate_admit(struct gate *g, tt_socket s, const struct tt_addr *peer);
/* How many connections are still opening. */
int ttcp_gate_count(const struct gate *g);
/* One round: accepts, reads what came, hands on, expires. */
void ttcp_gate_round(struct gate *g, int timeout_ms);

/* server.c: a TCP listener on the server's address (--bind), port. */
int ttcp_server_listen(struct ttcp_server *sv, uint64_t port, tt_socket *out,
                       struct ttcp_failure *failure);

/* peer.c: other tools' clients (their ports' listeners are server.c's).
 * The gate hands on a tool's client: a slot of its own, or turned away. */
void ttcp_peer_hand(struct ttcp_server *sv, const struct ttcp_peer *tool, tt_socket s,
                    const struct tt_addr *peer);
/* A connection on a tool's port whose first bytes are a waiting test's
 * key: taken off and given to it (0), or -1. */
int ttcp_peer_attach_key(struct ttcp_server *sv, const struct ttcp_peer *tool,
                         const unsigned char *head, tt_socket s, const struct tt_addr *peer);
/* A connection on the shared port from a client whose test waits for
 * its data there: given to it (0), or -1. */
int ttcp_peer_attach_shared(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer);
/* A datagram on the shared UDP port from a client whose test waits for
 * one there: its source is given to the test (0: the classic receiver
 * leaves it), or -1. */
int ttcp_peer_attach_udp(struct ttcp_server *sv, const struct tt_addr *from);
/* peer_udp.c: a datagram on the shared UDP port that is another tool's
 * (its test's, a new client's, a late one of a test over): taken (1), or
 * the classic receiver's (0). On the classic receiver's thread. */
int ttcp_peer_claim_udp(struct ttcp_server *sv, const struct tt_datagram *d);
/* The sender's test is over, or was refused: its datagrams are dropped
 * until it has been quiet for --idle-timeout. */
void ttcp_peer_udp_ended(struct ttcp_server *sv, const struct tt_addr *from);
/* The datagrams kept for the slot's test (the serving's udp_prior). */
int ttcp_peer_udp_prior(struct slot *sl, const struct tt_datagram **prior);
/* SLOT_PEER's thread body: the tool's server end. */
void ttcp_peer_run(struct slot *sl);

/* web.c: -S --web. start: the listener and web/'s server (0; or a code,
 * with why when the reason is not the system's); stop: web/ stopped, its
 * tests' slots reaped, web/ freed. */
int ttcp_server_web_start(struct ttcp_server *sv, struct ttcp_failure *failure, char *why,
                          size_t why_len);
void ttcp_server_web_stop(struct ttcp_server *sv);
/* SLOT_WEB's thread body: the test's keeper, then its figures kept and
 * told. */
void ttcp_web_run(struct slot *sl);
/* A client's web_results request, on its slot's thread: the tests kept,
 * oldest first, then web_results_end. */
void ttcp_web_answer(struct slot *sl);

/* control.c: a controlled test, on its slot's thread, from the client's test
 * request on (greet.c has welcomed it, and checked its key). */
void ttcp_control_run(struct slot *sl);

/* third.c: a client's third_party request (-C this-host host2), on the
 * slot's thread: refused at once, or its test run to host2 through the
 * server's leg function, its intervals and results passed back. */
void ttcp_third_run(struct slot *sl, const struct ttcp_message *request);

#endif
