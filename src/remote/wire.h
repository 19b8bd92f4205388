/* The conversation's messages as facts (docs/PROTOCOL.md, section 3): a
 * client's options into a `test` request and back into a server's options
 * under its limits; a result and an interval into frames and back. Pure:
 * no I/O, no text for people beyond a refusal's reason. */
#ifndef TTCP_REMOTE_WIRE_H
#define TTCP_REMOTE_WIRE_H

#include "config/options.h"
#include "measure/hops.h"
#include "measure/result.h"
#include "proto/message.h"
#include "remote/outcome.h"

#define TTCP_PROTO_VERSION 1
#define TTCP_TOKEN_HEX 32 /* a data connection's token: 16 random bytes in hex */
#define TTCP_SERVER_MAX_SOCKBUF (16u << 20) /* -b a client may ask a server for */
#define TTCP_LIMIT_GRACE_NS (2ll * 1000000000ll) /* --max-time: the receiving end's grace */
/* A stream's number on the wire: 2 i + d for the i-th stream (0-based) of
 * -P's that goes d = 0: client to server, 1: server to client. */
#define TTCP_STREAM_IDS (2 * TTCP_STREAMS_MAX)
#define TTCP_STREAM_ID(i, d) (2 * (i) + (d))
/* The buffers of one test's streams on a server, together: beyond, refused. */
#define TTCP_SERVER_TEST_MEMORY (64ull << 20)

/* What a server grants a test: its options (the side still to choose per
 * stream with transmit), and the direction asked for. */
struct ttcp_grant {
    struct ttcp_options opts;     /* opts.streams: each way */
    enum ttcp_direction direction;
    char group[64];               /* -C -r -m: the group the server sends to ("": none) */
    int ttl;                      /* ... with this hop limit */
    int traceroute;               /* -C --traceroute: trace back to the client first */
    int latency;                  /* -C --latency: echo the client's probes (remote/probe.h) */
    int64_t latency_idle_ns;      /* ... for so long before the data, and while it runs */
    char congestion[TTCP_CONGESTION_MAX + 1]; /* opts.congestion points here */
    char target[256];             /* third_party: the host to test to ("": a test of its own) */
    uint64_t target_port;         /* ... at this port */
};

/* The client's `test` request; with a target (-C host1 host2) a
 * `third_party` request: the same fields, and the target's. */
void ttcp_wire_test(struct ttcp_frame *f, const struct ttcp_options *client);
/* What the server's options carry into every test it runs, whatever the
 * client speaks: the output's shape (-f, -v, --json, --timestamps,
 * --title), the family, alignment and the idle timeout; o is cleared first. */
void ttcp_wire_server_base(const struct ttcp_options *server, struct ttcp_options *o);
/* A server reads a `test` request: the client's options within the range
 * of each field, then the server's limits (--max-time caps the test,
 * --max-rate its rate), then the one validation every run gets. 0, or -1
 * with a reason the client is sent. */
int ttcp_wire_read_test(const struct ttcp_message *m, const struct ttcp_options *server,
                        struct ttcp_grant *out, char *why, size_t why_len);
/* The options of the server's side of one stream: transmit = 1 when the
 * server sends on it. */
void ttcp_wire_side(const struct ttcp_grant *g, int transmit, struct ttcp_options *out);

/* `ready`: what was granted, and the data connections' token. */
void ttcp_wire_ready(struct ttcp_frame *f, const struct ttcp_grant *g, const char *token);
/* The client applies a `ready`: the limits the server set. 0 or -1. */
int ttcp_wire_read_ready(const struct ttcp_message *m, struct ttcp_options *client,
                         char *token, char *why, size_t why_len);

/* `result`: one stream's facts from one end (stream 0: the client sends on
 * it, 1: the server does). */
void ttcp_wire_result(struct ttcp_frame *f, int stream, const struct ttcp_result *r);
int ttcp_wire_read_result(const struct ttcp_message *m, int *stream, struct ttcp_result *r,
                          char *why, size_t why_len);

/* `interval`: one closed interval of a stream, from its receiving end. */
void ttcp_wire_interval(struct ttcp_frame *f, int stream, const struct ttcp_interval *in);
int ttcp_wire_read_interval(const struct ttcp_message *m, int *stream,
                            struct ttcp_interval *in, char *why, size_t why_len);

/* -C --traceroute: the server's trace back to its client (wire_trace.c):
 * `trace` (whom), a `hop` a hop, `trace_end` (failed: the trace could not
 * be made at all). */
void ttcp_wire_trace(struct ttcp_frame *f, const struct ttcp_trace *t);
int ttcp_wire_read_trace(const struct ttcp_message *m, struct ttcp_trace *t, char *why,
                         size_t why_len);
void ttcp_wire_hop(struct ttcp_frame *f, const struct ttcp_hop *h);
int ttcp_wire_read_hop(const struct ttcp_message *m, struct ttcp_hop *h, char *why,
                       size_t why_len);
void ttcp_wire_trace_end(struct ttcp_frame *f, const struct ttcp_trace *t, int failed);
int ttcp_wire_read_trace_end(const struct ttcp_message *m, struct ttcp_trace *t, int *failed,
                             char *why, size_t why_len);

/* -C host1 host2 (wire_third.c): host1's answers to the client that asked
 * it for a test to host2 (docs/PROTOCOL.md, "Third-party tests"); struct
 * ttcp_third is remote/outcome.h's. */
/* `third_party_ready`: the test is taken, to this address, with these limits. */
void ttcp_wire_third_ready(struct ttcp_frame *f, const struct ttcp_grant *g,
                           const struct ttcp_third *t);
int ttcp_wire_read_third_ready(const struct ttcp_message *m, struct ttcp_options *client,
                               struct ttcp_third *t, char *why, size_t why_len);
/* `third_party_done`: how host1's own conversation with host2 went
 * (problem: an enum ttcp_client_problem, 0 when it completed; its failure
 * code and operation; text: its words, printable). */
void ttcp_wire_third_done(struct ttcp_frame *f, int problem, const struct ttcp_failure *failure,
                          const char *text);
int ttcp_wire_read_third_done(const struct ttcp_message *m, int *problem,
                              struct ttcp_failure *failure, char *text, size_t text_len,
                              char *why, size_t why_len);
/* `at` on an interval or result host1 passes on (after ttcp_wire_interval
 * or ttcp_wire_result): whose end of its test to host2, far = 0 its own
 * (at=client), 1 host2's (at=server). */
void ttcp_wire_add_at(struct ttcp_frame *f, int far);
int ttcp_wire_read_at(const struct ttcp_message *m, int *far, char *why, size_t why_len);

/* A token is TTCP_TOKEN_HEX lowercase hex digits. */
int ttcp_wire_token_ok(const char *token);

#endif
