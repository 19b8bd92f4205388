/* nuttcp's messages on its control connection, pure (no socket): what
 * Debian's nuttcp 6.1.2 sends and reads, as strace showed it (docs/COMPAT.md,
 * "Against a nuttcp server"), and what 7.x and 8.x add. Both ends use it:
 * ttcp -C --nuttcp (test.c) builds the client's lines and reads the
 * server's; ttcp -S's nuttcp end reads the client's and builds its own.
 *
 * The conversation, one line each, '\n' ended:
 *   client: HELO nuttcp v6.1.2          server: HELO nuttcp v6.1.2
 *   client: buflen = 65536, nbuf = ..., ..., nodelay = 0   (the parameters)
 *   server: OK v6.1.2                   (or: KO, message lines, KO)
 * then the data (test.c), then the server's stdout and stderr on the same
 * connection: its interval lines (the receiver's, with interval > 0), "DONE"
 * (a receiving server, before its figures), its "nuttcp-r:" or "nuttcp-t:"
 * figures (total, CPU, retrans, rusage), until it closes the connection.
 * Every number read is bounded; a line is at most TTCP_NUTTCP_LINE_MAX. */
#ifndef TTCP_PEERS_NUTTCP_WIRE_H
#define TTCP_PEERS_NUTTCP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define TTCP_NUTTCP_LINE_MAX 4096        /* one line, its '\n' included */
#define TTCP_NUTTCP_STREAMS_MAX 128      /* nstream: 1 to this */
#define TTCP_NUTTCP_PORT_MIN 1024        /* the data ports: port .. port + nstream - 1 */
#define TTCP_NUTTCP_BUFLEN_MAX (64u << 20) /* buflen: 1 byte to 64 MiB */
#define TTCP_NUTTCP_WIN_MAX (1u << 30)   /* win (bytes): 0 (the system's) to 1 GiB */
#define TTCP_NUTTCP_TIMEOUT_MAX 8640000.0 /* timeout, interval: seconds, 100 days at most */
#define TTCP_NUTTCP_NBUF_FOREVER 2147483647ull /* nbuf: send until the timeout */
#define TTCP_NUTTCP_RATE_NONE 4294967295ull    /* rate (Kbit/s): no limit, as 6.1.2 says it */
#define TTCP_NUTTCP_FORMAT_DEFAULT 2048u       /* format: what 6.1.2's client sends unasked */
#define TTCP_NUTTCP_FORMAT_PARSE 64u           /* format bit of -fparse: key=value lines */

struct ttcp_nuttcp_version {
    unsigned major, minor, delta; /* each 0..999 */
};

/* The version ttcp speaks as: Debian's, whose line every later server reads. */
#define TTCP_NUTTCP_SPOKEN {6u, 1u, 2u}

/* "HELO nuttcp v6.1.2\n" into buf; its length, or 0 when it does not fit. */
size_t ttcp_nuttcp_helo(const struct ttcp_nuttcp_version *v, char *buf, size_t len);
/* A HELO line ('\n' or not): 0 and its version, or -1 with why. */
int ttcp_nuttcp_read_helo(const char *line, struct ttcp_nuttcp_version *v, char *why,
                          size_t why_len);

/* The parameter line. Fields 6.1.2 sends, in its order; a reader takes
 * them in any order, ignores names it does not know (later versions add
 * more) and needs the first eleven (buflen .. vers). */
struct ttcp_nuttcp_params {
    uint64_t buflen;      /* bytes a write or read */
    uint64_t nbuf;        /* buffers to send (all streams together); FOREVER: timeout ends it */
    uint64_t win;         /* socket buffer, bytes (0: the system's) */
    unsigned nstream;     /* streams, each its own connection (or UDP socket) */
    uint64_t rate_kbps;   /* the transmitter's rate, Kbit/s (RATE_NONE: no limit) */
    unsigned port;        /* the first data port */
    int trans;            /* 1: the client transmits (the server receives) */
    int braindead;        /* -wb: both windows */
    double timeout_s;     /* transmit this long (0: until nbuf) */
    int udp;
    struct ttcp_nuttcp_version vers; /* the client's */
    double interval_s;    /* the receiver's interval lines (0: none) */
    int reverse;          /* -F: the data connection opened the other way */
    unsigned format;      /* output format bits (-f...) */
    int traceroute, irate;
    int thirdparty;       /* the line names a third party (the text is not kept) */
    unsigned multicast;   /* TTL, 0: unicast */
    unsigned datamss;     /* -M, 0: the system's */
    unsigned tos;         /* hex on the wire, 0..255 */
    int nbuf_bytes, rate_pps, nodelay;
};

/* The client's defaults: 6.1.2's, as it sends them without options. */
void ttcp_nuttcp_params_init(struct ttcp_nuttcp_params *p);
/* The line into buf, '\n' ended; its length, or 0 when it does not fit. */
size_t ttcp_nuttcp_params_line(const struct ttcp_nuttcp_params *p, char *buf, size_t len);
/* Reads a line (at most TTCP_NUTTCP_LINE_MAX): 0, or -1 with why (a field
 * missing, out of its bounds, or the data ports past 65535). */
int ttcp_nuttcp_read_params(const char *line, struct ttcp_nuttcp_params *p, char *why,
                            size_t why_len);

/* The server's answer: "OK v6.1.2\n", or "KO\n" then message lines then "KO\n". */
size_t ttcp_nuttcp_ok(const struct ttcp_nuttcp_version *v, char *buf, size_t len);
#define TTCP_NUTTCP_KO "KO\n"
enum ttcp_nuttcp_answer { TTCP_NUTTCP_ANSWER_OK, TTCP_NUTTCP_ANSWER_KO,
                          TTCP_NUTTCP_ANSWER_TEXT };
/* OK (and its version, 0.0.0 when it has none), KO, or a message line. */
enum ttcp_nuttcp_answer ttcp_nuttcp_read_answer(const char *line, struct ttcp_nuttcp_version *v);

/* The lines a server sends after the data (wire_result.c). */
enum ttcp_nuttcp_line {
    TTCP_NUTTCP_LINE_OTHER,    /* words nuttcp prints beside the figures */
    TTCP_NUTTCP_LINE_TOTAL,    /* nuttcp-r: 162.0000 MB in 1.00 real seconds = ... Mbps */
    TTCP_NUTTCP_LINE_CPU,      /* nuttcp-r: 162.0000 MB in 0.09 CPU seconds = ... */
    TTCP_NUTTCP_LINE_RETRANS,  /* nuttcp-t: retrans = 0 */
    TTCP_NUTTCP_LINE_RUSAGE,   /* nuttcp-r: 0.0user 0.0sys 0:01real 8% ... */
    TTCP_NUTTCP_LINE_INTERVAL, /*    93.7500 MB /   0.50 sec = 1572.2351 Mbps  0 retrans */
    TTCP_NUTTCP_LINE_DONE,     /* DONE */
    TTCP_NUTTCP_LINE_ERROR     /* nuttcp-r: Error: ... (its words in report.error) */
};

/* What a server's lines told; each line read fills its own fields. */
struct ttcp_nuttcp_report {
    unsigned have;        /* 1u << enum ttcp_nuttcp_line, for each read */
    char side;            /* 't' or 'r': whose figures (the last total's) */
    double megabytes;     /* MiB (2^20 bytes), 4 decimals on the wire */
    double real_s, cpu_s; /* the total's, the CPU line's */
    double user_s, sys_s; /* the rusage line's */
    unsigned cpu_pct;     /* the rusage line's "8%" */
    uint64_t retrans;
    /* the last interval line: its figures, and UDP's drops (drops_valid) */
    double iv_megabytes, iv_seconds, iv_mbps;
    uint64_t iv_retrans, iv_drops, iv_packets;
    int iv_retrans_valid, iv_drops_valid;
    char error[160];      /* an Error line's words, printable */
};

/* Reads one line (with or without its '\n') into r; what it was. */
enum ttcp_nuttcp_line ttcp_nuttcp_read_line(const char *line, struct ttcp_nuttcp_report *r);
/* MiB as nuttcp prints them -> bytes (the nearest; 4 decimals of MiB are
 * 104.9 bytes apart, so a count not a multiple of 64 KiB is approximate). */
uint64_t ttcp_nuttcp_bytes(double megabytes);

/* A server's lines, as 6.1.2 prints them (side 't' or 'r'): parse 0 in its
 * usual words, parse 1 as key=value pairs, what a client started with
 * -fparse asks for (TTCP_NUTTCP_FORMAT_PARSE) and reads back; each returns
 * its length, or 0 when it does not fit. */
size_t ttcp_nuttcp_total_line(int parse, char side, uint64_t bytes, double real_s, char *buf,
                              size_t len);
size_t ttcp_nuttcp_cpu_line(int parse, char side, uint64_t bytes, double cpu_s, char *buf,
                            size_t len);
size_t ttcp_nuttcp_retrans_line(int parse, uint64_t retrans, char *buf, size_t len);
size_t ttcp_nuttcp_rusage_line(int parse, char side, double user_s, double sys_s, double real_s,
                               unsigned cpu_pct, char *buf, size_t len);
/* An interval: TCP with retrans (udp 0), or UDP's drops of packets. */
size_t ttcp_nuttcp_interval_line(int parse, uint64_t bytes, double seconds, int udp,
                                 uint64_t retrans, uint64_t drops, uint64_t packets, char *buf,
                                 size_t len);
#define TTCP_NUTTCP_DONE "DONE\n"

/* Makes a peer's words one printable ASCII line: every byte outside ' '
 * to '~' becomes '?' (for a reason or an error line quoted in a message). */
void ttcp_nuttcp_printable(char *text);

#endif
