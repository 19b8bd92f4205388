/* The options of one run, parsed and validated from argv. */
#ifndef TTCP_OPTIONS_H
#define TTCP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/rate.h"
#include "measure/payload.h"

enum ttcp_action { TTCP_ACTION_RUN, TTCP_ACTION_HELP, TTCP_ACTION_VERSION };
/* What the run is: a classic side (-t, -r), a server (-S) or its client (-C). */
enum ttcp_mode { TTCP_MODE_CLASSIC, TTCP_MODE_SERVER, TTCP_MODE_CLIENT };
/* -C: which way the data goes, from the client's side. */
enum ttcp_direction { TTCP_DIR_SEND, TTCP_DIR_RECEIVE, TTCP_DIR_BIDIR };
/* -C: the tool the far end runs, and so the protocol spoken to it
 * (ttcp's own, or another tool's: src/peers/<tool>/, cli/peers.c's table). */
enum ttcp_far_end { TTCP_FAR_TTCP, TTCP_FAR_IPERF3, TTCP_FAR_NUTTCP, TTCP_FAR_IPERF2,
                    TTCP_FAR_ENDS };
/* What a UDP test's datagrams look like on the wire (engine/udp.h): ttcp's
 * (1.12's 4-byte markers, ttcp's header in sink mode), or nuttcp's
 * ("BOD0"/"BOD1" start, "EOD0".."EOD4" end, the running byte count at
 * offset 24), set by the nuttcp conversations, never by an option. */
enum ttcp_udp_dialect { TTCP_UDP_TTCP = 0, TTCP_UDP_NUTTCP };

/* Classic rev 1.12 defaults. */
#define TTCP_DEFAULT_BUFLEN 8192u
#define TTCP_DEFAULT_NBUF 2048u
#define TTCP_DEFAULT_ALIGN 16384u
#define TTCP_DEFAULT_PORT 5001u
#define TTCP_IPERF3_PORT 5201u      /* iperf3's own port: -S serves its clients there */
#define TTCP_NUTTCP_PORT 5000u      /* nuttcp's control port: -S answers its clients there */
#define TTCP_IPERF2_UDP_BUFLEN 1470u /* iperf2's -u -l: what its server sends from, too */
#define TTCP_UDP_MIN_BUFLEN 5u      /* "send more than the sentinel size" */
#define TTCP_UDP_MAX_BUFLEN 65507u  /* largest IPv4 UDP payload */
#define TTCP_DEFAULT_IDLE_NS (30ll * 1000000000ll)
#define TTCP_CLIENT_DEFAULT_NS (10ll * 1000000000ll) /* -C without -n or --time */
#define TTCP_LATENCY_PERIOD_NS 100000000ll /* --latency without --latency-interval */
#define TTCP_LATENCY_IDLE_NS 2000000000ll  /* -C --latency without --latency-idle */
#define TTCP_DEFAULT_MAX_CLIENTS 4u
#define TTCP_ALLOW_MAX 16      /* --allow prefixes */
#define TTCP_STREAMS_MAX 128   /* -P */
#define TTCP_CPU_MAX 128       /* --cpu entries */
#define TTCP_CPU_HIGHEST 1023  /* the highest CPU number --cpu takes */
#define TTCP_PLOT_PERIOD_NS 1000000000ll /* --plot without -i: intervals of 1 s, */
#define TTCP_PLOT_POINTS 20              /* or --time / 20 when that is shorter */
#define TTCP_PLOT_PATH_MAX 1024          /* --plot's file name, in bytes */
#define TTCP_TITLE_MAX 128               /* --title, in bytes */

#define TTCP_UDP_IPERF3_32 1 /* udp_iperf3: 32-bit counts */
#define TTCP_UDP_IPERF3_64 2 /* udp_iperf3: 64-bit counts (udp_counters_64bit) */

struct ttcp_options {
    int action;      /* enum ttcp_action */
    int transmit;    /* -t: 1, -r: 0 (the default, as in 1.12) */
    int udp;         /* -u */
    int sinkmode;    /* -s toggles it */
    int verbose;     /* -v */
    int sodebug;     /* -d */
    int nodelay;     /* -D */
    int fullblocks;  /* -B */
    int touch;       /* -T */
    int family;      /* enum tt_family: -4, -6, or any */
    uint64_t buflen;      /* -l */
    uint64_t nbuf;        /* -n */
    uint64_t port;        /* -p */
    int port_given;       /* -p was typed (else -C --iperf3 and --nuttcp take their tool's) */
    int far_end;          /* -C: enum ttcp_far_end, by --iperf3, --nuttcp, --iperf2 */
    /* -S: the other tools' own ports (0: not served) and whether they were
     * typed; their options come with the first tool the server serves */
    uint64_t iperf3_port;
    int iperf3_port_given;
    uint64_t nuttcp_port;
    int nuttcp_port_given;
    int peers_keyless;    /* -S --key-file: other tools' clients served all the same */
    uint64_t bufalign;    /* -A */
    uint64_t bufoffset;   /* -O */
    uint64_t sockbufsize; /* -b, 0 = leave the system's size */
    enum ttcp_unit unit;  /* -f */
    int64_t idle_timeout_ns; /* --idle-timeout */
    const char *host;     /* as typed, for the header */
    /* Cisco IOS and PCATTCP habits */
    int dialog;           /* -I: settings asked as IOS's ttcp does */
    int continuous;       /* -c: PCATTCP's continuous mode */
    int half_close;       /* --half-close: the receiver answers with data */
    uint64_t back_buflen; /* half close: buffer length the other way (0: -l) */
    uint64_t rcvwnd;      /* --rcvwnd: SO_RCVBUF before listen/connect, 0 = system */
    int no_delayed_ack;   /* --no-delayed-ack */
    int tcp_info;         /* --tcp-info: TCP statistics at the end */
    uint64_t mss;         /* --mss: TCP_MAXSEG before connect/listen, 0 = system */
    uint64_t tos;         /* --tos, --dscp: the IPv4 TOS byte / IPv6 traffic class */
    int tos_given;        /* --tos or --dscp typed (0 is a mark too) */
    const char *congestion; /* --congestion: the TCP congestion control algorithm */
    const char *bind;     /* --bind: the local address (a receiver or server: the only one) */
    uint64_t cport;       /* --cport: -t's, or -C's first data, local port; 0 = the OS's */
    /* measurement beyond ttcp */
    int64_t interval_ns;  /* -i: interval reports, 0 = none */
    int64_t duration_ns;  /* --time: transmit this long instead of -n */
    int64_t omit_ns;      /* --omit: the first so long is left out of the figures */
    uint64_t pace_bps;    /* -R: pacing rate, bits per second, 0 = none */
    uint64_t pace_burst;  /* -R RATE/BURST: buffers sent back to back at most */
    uint64_t fq_rate_bps; /* --fq-rate: the kernel's pacing of the sender, bits/s; 0 = none */
    uint64_t link_bps;    /* --link-rate: the link's nominal rate */
    int analyze;          /* --analyze: the findings after the figures (TCP) */
    uint64_t mtu;         /* --mtu: the path MTU for RFC 6349's figures (0: measured) */
    const char *framing;  /* --framing ethernet|ppp|BYTES, as typed */
    uint64_t framing_bytes; /* ... settled: each frame's bytes beyond the IP packet */
    int latency;          /* --latency: round trips idle and under load, the grade */
    int64_t latency_interval_ns; /* --latency-interval: the probes' spacing (settled: 0.1 s) */
    int64_t latency_idle_ns;     /* --latency-idle: the idle probing before the data
                                  * (-C; settled: 2 s) */
    int latency_idle_given;
    enum ttcp_payload pattern; /* --pattern */
    int pattern_given;    /* --pattern was typed */
    int verify;           /* --verify: check the received stream */
    uint64_t seed;        /* --seed: the random pattern's seed */
    int seed_given;
    int compression;      /* --compression: the test twice, classic then random pattern */
    int json;             /* --json: one JSON document on stdout at the end */
    int json_stream;      /* --json-stream: JSON events on stdout as the test runs (and --json) */
    const char *logfile;  /* --logfile: what ttcp prints is appended to it */
    int timestamps;       /* --timestamps: the date and time before each line of text */
    const char *title;    /* --title: before each line of text, and in the JSON */
    const char *plot;     /* --plot: the SVG file the test is drawn into, at the end */
    int quiet_intervals;  /* intervals taken for --plot alone (no -i): never printed */
    int unit_given;       /* -f was typed (else a plot shows SI bit rates) */
    int no_udp_stats;     /* --no-udp-stats: plain classic datagrams */
    int udp_dialect;      /* enum ttcp_udp_dialect: whose markers and header */
    int udp_iperf3;       /* -C --iperf3 -u: iperf3's datagram header in place of ours, no
                           * markers (TTCP_UDP_IPERF3_32 or _64); 0: ours */
    int discard;          /* --discard: -r -s drops bytes in the kernel, uncopied */
    int check_only;       /* --check: the options are checked, no test is run */
    int side_given;       /* -t or -r was typed */
    int nbuf_given;       /* -n was typed */
    int buflen_given;     /* -l was typed (else -C --iperf2 -u takes iperf2's 1470) */
    /* server and client (docs/PROTOCOL.md) */
    int mode;             /* enum ttcp_mode */
    int bidir;            /* -C --bidir: both ways at once */
    int once;             /* -S -1: serve one test, then exit */
    uint64_t max_clients; /* -S: tests at once, 0 = TTCP_DEFAULT_MAX_CLIENTS */
    uint64_t max_streams; /* -S: a test's streams each way, 0 = TTCP_STREAMS_MAX */
    uint64_t max_ttl;     /* -S: the highest multicast hop limit a client may ask for, 0 = 1 */
    int64_t max_time_ns;  /* -S: the longest test, 0 = no limit */
    uint64_t max_rate_bps; /* -S: the fastest test, 0 = no limit */
    const char *allow[TTCP_ALLOW_MAX]; /* -S --allow: who may connect (none: anyone) */
    int allow_count;
    const char *key_file; /* -S, -C: the pre-shared key's file */
    int inetd;            /* -S --inetd: serve the one connection on stdin, then exit */
    int daemon;           /* -S --daemon: in the background (POSIX) */
    const char *pidfile;  /* -S --pidfile: the server's process id, while it serves */
    /* -S --web [ADDRESS:]PORT: the browser's test over HTTP (web/), beside the server's ports */
    const char *web;      /* as typed */
    char web_host[256];   /* its address, settled by the rules ("": every address) */
    uint64_t web_port;    /* its port */
    /* -C host1 host2: host1's server runs the test to host2 (a third party's) */
    const char *target;   /* host2[:port] as typed */
    char target_host[256]; /* its host, settled by the rules */
    uint64_t target_port; /* its port (-p when none is typed) */
    const char *third_party[TTCP_ALLOW_MAX]; /* -S --third-party: the targets it may test */
    int third_party_count;
    int64_t limit_ns;     /* a server's cap on one test's data phase, 0 = none */
    int64_t start_timeout_ns; /* UDP receiver of a -S/-C test: the test must begin by then */
    int thread_cpu;       /* -S, -C: CPU time is the test's thread's, not the process's */
    int share_port;       /* -S: the UDP port is shared with the tests' own sockets */
    uint64_t streams;     /* -P: streams side by side, each its own connection (1: one) */
    /* UDP multicast: -t sends to group (the host, or -g) with hop limit
     * mcast_ttl (0: the OS's, 1); -r -g joins it, from source alone with --source */
    const char *group;    /* -g, or a -t's multicast host: a numeric group address */
    uint64_t mcast_ttl;   /* -m */
    const char *source;   /* --source */
    const char *interface; /* --interface: a name, an index or an IPv4 address */
    int traceroute;       /* --traceroute: the path first (alone with a host: only the path) */
    int dont_fragment;    /* --dont-fragment: DF on the test's sockets, no fragments anywhere */
    int pmtu;             /* --pmtu: the path MTU first (alone with a host: only that) */
    int cpus[TTCP_CPU_MAX]; /* --cpu: stream i's thread runs on cpus[i % cpu_count] */
    int cpu_count;
    /* One of -P's streams (ttcp_options_stream()): its number, 1.., and its
     * tag in output lines, "-t[2]"; 0: the test as a whole. */
    int stream_number;
    int pin_cpu;          /* this test's thread runs on CPU pin_cpu - 1 (0: where the OS puts it) */
    char stream_side[32];
    int side_named;       /* stream_side names another tool's end (ttcp_options_name_tool) */
};

/* -C: the direction asked for. */
enum ttcp_direction ttcp_options_direction(const struct ttcp_options *opts);

/* Any option beyond 1.12 and the IOS/PCATTCP habits that asks for more
 * than the classic lines: then the extra summary lines are printed. */
int ttcp_options_extended(const struct ttcp_options *opts);

/* The buffer length of the half-close direction. */
uint64_t ttcp_options_back_buflen(const struct ttcp_options *opts);

/* Fills opts from argv and validates them. Returns 0, or -1 with a one-line
 * reason (starting with the option concerned, without the "ttcp: " prefix)
 * in why. With -I the rules wait: the dialog changes the options, and then
 * ttcp_options_validate() checks what it made. */
int ttcp_options_parse(struct ttcp_options *opts, int argc, char **argv, unsigned flags,
                       char *why, size_t why_len);
/* flags: the command-line habits of the system ttcp runs on. */
#define TTCP_PARSE_SLASH_SWITCHES 1u /* /h and /help ask for help; /word is a mistake (Windows) */

/* The rules between options, on the final options whatever set them
 * (argv, the dialog, later a server's request): one validation for all.
 * May complete them (UDP's smallest buffer). 0, or -1 with a reason. */
int ttcp_options_validate(struct ttcp_options *opts, char *why, size_t why_len);

/* "-t" or "-r": the side's tag in every output line (ttcp-t:, ttcp-r:);
 * a stream's is "-t[2]" (ttcp-t[2]:). */
const char *ttcp_options_side(const struct ttcp_options *opts);
/* Makes opts those of stream number (1..): its lines are tagged with it. */
void ttcp_options_stream(struct ttcp_options *opts, int number);
/* Makes opts those of another tool's end (its figures as that tool's
 * results said): "-r(iperf3)", "-r[2](iperf3)" after ttcp_options_stream. */
void ttcp_options_name_tool(struct ttcp_options *opts, const char *tool);

/* The family of a numeric multicast address (4: IPv4, 16: IPv6), 0 when
 * text is not one. */
int ttcp_options_multicast(const char *text);

/* 1 when text can be a third party's target host (-C host1 host2): 1 to
 * 253 of letters, digits, '.', '-', '_' and ':' (a name, or a numeric IPv4
 * or IPv6 address); nothing else, so no scope, port or path rides in it. */
int ttcp_options_target_ok(const char *text);
#define TTCP_CLIENT_DEFAULT_GROUP "239.255.80.1" /* -C -r -m without -g */

/* The usage text, generated from the option table; program is the name
 * the user typed it by ("ttcp", "ttcpw"). */
size_t ttcp_usage(const char *program, char *buf, size_t len);

#endif
