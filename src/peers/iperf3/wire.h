/* iperf3's protocol (esnet/iperf 3.x; facts in shared/peers.md section 12):
 * its messages both ways, pure: no sockets, no clocks. Every number a peer
 * sends is bounded here, JSON goes through cJSON, a length field is
 * refused at 0 and past the caller's bound. The client end (test.c) and
 * the server end (serve.c) both speak through this file:
 *
 *   client                                   server
 *   cookie (37 bytes)                  ->
 *                                      <-    PARAM_EXCHANGE
 *   length + parameters JSON           ->    (ttcp_iperf3_params_parse)
 *                                      <-    CREATE_STREAMS
 *   N data connections, each: cookie   ->    (UDP: "9876" <- "6789")
 *                                      <-    TEST_START, TEST_RUNNING
 *   ... data ...; TEST_END             ->
 *                                      <-    EXCHANGE_RESULTS
 *   length + client's results JSON     ->
 *                                      <-    length + server's results JSON
 *                                      <-    DISPLAY_RESULTS
 *   IPERF_DONE                         ->
 *
 * A busy server answers a control connection with ACCESS_DENIED alone; a
 * failing one with SERVER_ERROR and two 4-byte big-endian integers (its
 * i_errno and errno: ttcp_iperf3_error_*). */
#ifndef TTCP_PEERS_IPERF3_WIRE_H
#define TTCP_PEERS_IPERF3_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Limits (iperf.h) and the bounds of our own reads. */
#define TTCP_IPERF3_PORT_DEFAULT 5201
#define TTCP_IPERF3_COOKIE_LEN 37 /* 36 characters and a NUL */
#define TTCP_IPERF3_MAX_STREAMS 128
#define TTCP_IPERF3_MAX_BLOCK (1u << 20)    /* TCP -l */
#define TTCP_IPERF3_UDP_MIN_BLOCK 16u       /* UDP -l: the header must fit */
#define TTCP_IPERF3_UDP_MAX_BLOCK 65507u
#define TTCP_IPERF3_MAX_TIME 86400u         /* seconds */
#define TTCP_IPERF3_MAX_OMIT 600u           /* seconds */
#define TTCP_IPERF3_MAX_NUM (1ull << 53)    /* bytes or blocks: exact in a JSON number */
#define TTCP_IPERF3_MAX_BANDWIDTH (1ull << 53) /* bits/s */
#define TTCP_IPERF3_MAX_WINDOW (1u << 30)   /* bytes */
#define TTCP_IPERF3_PARAMS_MAX 8192u        /* a parameters message, bytes */
#define TTCP_IPERF3_RESULTS_MAX 65536u      /* a results message, bytes */
#define TTCP_IPERF3_NAME_MAX 64             /* congestion, client_version (with the NUL) */
#define TTCP_IPERF3_TITLE_MAX 128

/* The state bytes on the control connection (one signed char). */
enum ttcp_iperf3_state {
    TTCP_IPERF3_TEST_START = 1,
    TTCP_IPERF3_TEST_RUNNING = 2,
    TTCP_IPERF3_TEST_END = 4,
    TTCP_IPERF3_PARAM_EXCHANGE = 9,
    TTCP_IPERF3_CREATE_STREAMS = 10,
    TTCP_IPERF3_SERVER_TERMINATE = 11,
    TTCP_IPERF3_CLIENT_TERMINATE = 12,
    TTCP_IPERF3_EXCHANGE_RESULTS = 13,
    TTCP_IPERF3_DISPLAY_RESULTS = 14,
    TTCP_IPERF3_IPERF_START = 15,
    TTCP_IPERF3_IPERF_DONE = 16,
    TTCP_IPERF3_ACCESS_DENIED = -1,
    TTCP_IPERF3_SERVER_ERROR = -2
};

/* The byte that carries a state, and back: 1 when b is a state above. */
unsigned char ttcp_iperf3_state_byte(enum ttcp_iperf3_state st);
int ttcp_iperf3_state_known(unsigned char b, enum ttcp_iperf3_state *st);
/* "TEST_END", "ACCESS_DENIED", ...; "?" for anything else. */
const char *ttcp_iperf3_state_name(enum ttcp_iperf3_state st);

/* The cookie: 36 characters of "abcdefghijklmnopqrstuvwxyz234567" from 36
 * random bytes (the caller's: tt_random_bytes), then the NUL. */
void ttcp_iperf3_cookie_make(const unsigned char random[36], char cookie[TTCP_IPERF3_COOKIE_LEN]);
/* 1 when the 37 bytes are a cookie as iperf3 makes them. */
int ttcp_iperf3_cookie_valid(const unsigned char cookie[TTCP_IPERF3_COOKIE_LEN]);

/* The 4-byte big-endian length before a JSON message. get: 0, or -1 when
 * it is 0 or more than max (the caller's bound: TTCP_IPERF3_PARAMS_MAX,
 * TTCP_IPERF3_RESULTS_MAX). */
void ttcp_iperf3_length_put(uint32_t len, unsigned char out[4]);
int ttcp_iperf3_length_get(const unsigned char in[4], uint32_t max, uint32_t *len);

/* SERVER_ERROR's two integers after the state byte (i_errno, errno). */
void ttcp_iperf3_error_put(int32_t ierrno, int32_t err, unsigned char out[8]);
void ttcp_iperf3_error_get(const unsigned char in[8], int32_t *ierrno, int32_t *err);

/* The test's settings, as the client's parameters message carries them.
 * 0 means "not given" where iperf3 leaves a key out (num, window, MSS,
 * bandwidth for TCP, TOS...). */
struct ttcp_iperf3_params {
    int udp;                  /* "udp": true; else "tcp": true */
    uint32_t time_s;          /* "time": seconds, <= 86400 (0: -n or blockcount ends it) */
    uint64_t num;             /* "num": bytes in all, 0: none */
    uint64_t blockcount;      /* "blockcount": blocks in all, 0: none */
    uint32_t parallel;        /* "parallel": 1..128 */
    int reverse;              /* "reverse": the server sends */
    int bidirectional;        /* "bidirectional": both send */
    uint32_t len;             /* "len": block size; TCP 1..1 MiB, UDP 16..65507 */
    uint64_t bandwidth;       /* "bandwidth": bits/s, 0: unlimited */
    uint32_t window;          /* "window": socket buffer bytes, 0: the system's */
    uint32_t omit_s;          /* "omit": seconds left out at the start, <= 600 */
    uint32_t mss;             /* "MSS": 0: the system's */
    int nodelay;              /* "nodelay" */
    uint32_t tos;             /* "TOS": 0..255 */
    char congestion[TTCP_IPERF3_NAME_MAX];     /* "congestion": "" none */
    int get_server_output;    /* "get_server_output" */
    int udp_counters_64bit;   /* "udp_counters_64bit": UDP counts are 64-bit */
    char client_version[TTCP_IPERF3_NAME_MAX]; /* "client_version": "" none */
    char title[TTCP_IPERF3_TITLE_MAX];         /* "title": "" none */
};

/* What a parser returns. */
#define TTCP_IPERF3_OK 0
#define TTCP_IPERF3_BAD (-1)  /* malformed or out of bounds: why says which key */
#define TTCP_IPERF3_AUTH (-2) /* "authtoken": a test we cannot authenticate (serve.c:
                               * ACCESS_DENIED, or SERVER_ERROR) */

/* Client: the JSON text of p into buf (cap bytes, NUL-terminated; the
 * length sent is *len, without the NUL). 0, or -1 when it does not fit
 * TTCP_IPERF3_PARAMS_MAX or buf. */
int ttcp_iperf3_params_build(const struct ttcp_iperf3_params *p, char *buf, size_t cap,
                             size_t *len);
/* Server: the client's message (len bytes, not NUL-terminated) into p.
 * Unknown keys are ignored; a known key of the wrong type or out of its
 * bounds is refused. TTCP_IPERF3_OK, _BAD or _AUTH (why: a line). */
int ttcp_iperf3_params_parse(const char *json, size_t len, struct ttcp_iperf3_params *p,
                             char *why, size_t why_len);

/* One stream's figures in a results message. */
struct ttcp_iperf3_stream_result {
    int32_t id;               /* 1, 3, 4, 5, ... (2 is skipped by iperf3) */
    uint64_t bytes;           /* sent (a sender's, less omitted) or received */
    int64_t retransmits;      /* -1: unknown */
    double jitter_s;          /* UDP receiver's, seconds */
    uint64_t errors;          /* UDP: datagrams lost */
    uint64_t omitted_errors;
    uint64_t packets;         /* UDP: datagrams */
    uint64_t omitted_packets;
    double start_time, end_time; /* seconds from the stream's start */
};

struct ttcp_iperf3_results {
    double cpu_total, cpu_user, cpu_system; /* percent of one CPU, 0..100 x CPUs */
    int sender_has_retransmits;  /* 1, 0, or -1 when this end only received */
    char congestion_used[TTCP_IPERF3_NAME_MAX]; /* "" when not said */
    int n;                       /* streams[0..n) */
    struct ttcp_iperf3_stream_result streams[TTCP_IPERF3_MAX_STREAMS];
    /* Optional (the server's, with get_server_output). Build: borrowed text,
     * NULL none; server_output_json is JSON text, embedded as an object.
     * Parse: server_output_text copied (malloc), NULL none; release it. */
    char *server_output_text;
    const char *server_output_json;
};

/* Either end: the JSON text of r into buf, as params_build. 0, or -1 when
 * it does not fit TTCP_IPERF3_RESULTS_MAX or buf. */
int ttcp_iperf3_results_build(const struct ttcp_iperf3_results *r, char *buf, size_t cap,
                              size_t *len);
/* Either end: a peer's results into r (server_output_json is left NULL).
 * Every stream needs id, bytes, retransmits, jitter, errors, packets, as
 * iperf3 requires; at most TTCP_IPERF3_MAX_STREAMS, ids unique. */
int ttcp_iperf3_results_parse(const char *json, size_t len, struct ttcp_iperf3_results *r,
                              char *why, size_t why_len);
void ttcp_iperf3_results_release(struct ttcp_iperf3_results *r);
/* The stream with that id in r, or NULL. */
const struct ttcp_iperf3_stream_result *ttcp_iperf3_results_stream(
    const struct ttcp_iperf3_results *r, int32_t id);

/* The id iperf3 gives its k-th stream (0-based, in the order the data
 * connections were made): 1, 3, 4, 5, ... */
int32_t ttcp_iperf3_stream_id(int k);

/* UDP: the 4 bytes the client's stream socket sends first ("9876"), and
 * the server's answer ("6789"). reply_ok also takes the word of a
 * big-endian 3.x host (the other order) and the old 987654321 in either
 * byte order. */
#define TTCP_IPERF3_UDP_CONNECT "9876"
#define TTCP_IPERF3_UDP_REPLY "6789"
int ttcp_iperf3_udp_connect_ok(const unsigned char *b, size_t len);
int ttcp_iperf3_udp_reply_ok(const unsigned char *b, size_t len);

/* UDP: iperf3's datagram header (sec, usec, then the count, 32- or 64-bit,
 * all big-endian; the count starts at 1). The codec itself is in
 * measure/udpstat.h (the engine stamps and reads it), declared there as
 * ttcp_udp_iperf3_write() / ttcp_udp_iperf3_read(); these are its sizes. */
#define TTCP_IPERF3_UDP_HEADER32 12u
#define TTCP_IPERF3_UDP_HEADER64 16u

#endif
