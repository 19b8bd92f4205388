/* The only interface between the portable core and the operating system.
 *
 * Implemented once per OS family (platform/posix, platform/win) and once as a
 * scripted fake for the unit tests (tests/fake). Small, synchronous and
 * blocking. Functions that can fail return a non-negative value on success
 * and a negative TT_E_* code (include/ttcp/error.h) on failure; the native
 * error number is then available from tt_last_error() until the next call.
 * A call that blocks (connect, accept, send, recv, reading stdin) returns
 * TT_E_INTR soon after a Ctrl+C that tt_interrupted() has not yet reported
 * to the core, on every system (also one that came just before the call).
 * A call begun after tt_interrupted() said yes waits as ever, so what must
 * still happen after Ctrl+C can (the UDP end markers go out; "Press Enter to
 * close." waits): the core looks at tt_interrupted() before it starts a
 * wait it would not want, a retry of a part-done send included. (POSIX
 * sockets: a signal just before the system call is the one gap left.)
 */
#ifndef TTCP_PLATFORM_H
#define TTCP_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "ttcp/error.h"

/* Wide enough for a POSIX descriptor and for a Winsock SOCKET. */
typedef int64_t tt_socket;
#define TT_NO_SOCKET ((tt_socket)-1)

enum tt_family { TT_FAMILY_ANY = 0, TT_FAMILY_V4 = 4, TT_FAMILY_V6 = 6 };

/* An opaque socket address (sockaddr_storage-sized). */
struct tt_addr {
    int family; /* enum tt_family of the address itself */
    uint32_t len;
    union {
        unsigned char bytes[128];
        uint64_t align_;
    } storage;
};

#define TT_MAX_ADDRS 8

/* The addresses a host name resolved to, in the resolver's order. */
struct tt_addr_list {
    int count;
    struct tt_addr addr[TT_MAX_ADDRS];
};

enum tt_sockopt {
    TT_OPT_SNDBUF,     /* value: bytes */
    TT_OPT_RCVBUF,     /* value: bytes */
    TT_OPT_NODELAY,    /* value: 0/1 (TCP_NODELAY) */
    TT_OPT_DEBUG,      /* value: 0/1 (SO_DEBUG) */
    TT_OPT_REUSEADDR,  /* value: 0/1; the platform picks the safe meaning */
    TT_OPT_SHARE_PORT, /* value: 1: UDP sockets of this process share a port; a
                        * connected one gets its peer's datagrams (SO_REUSEADDR) */
    TT_OPT_RCVTIMEO_MS, /* value: milliseconds, 0 = block forever */
    TT_OPT_SNDTIMEO_MS, /* value: milliseconds: a send that waits longer
                         * returns what went, or TT_E_AGAIN; a connect
                         * that waits longer fails with TT_E_TIMEDOUT */
    TT_OPT_QUICKACK,   /* value: 1 = acknowledge at once (delayed ACK off);
                        * Linux forgets it after a receive: set it again */
    TT_OPT_TIMESTAMPS, /* value: 1 = the kernel stamps each datagram's arrival */
    TT_OPT_RCVLOWAT,   /* value: bytes: a TCP receive returns once this many are
                        * waiting (or at the end, a signal, a timeout); fewer
                        * wake-ups. TT_E_UNSUPPORTED where the OS ignores it */
    TT_OPT_MAXSEG,     /* value: bytes: the largest TCP segment this end sends and
                        * announces (TCP_MAXSEG, before connect or listen);
                        * TT_E_UNSUPPORTED where a program cannot set it */
    TT_OPT_TOS,        /* value: 0-255, the IPv4 TOS byte or the IPv6 traffic
                        * class, by the socket's family; TT_E_UNSUPPORTED where
                        * the OS does not let a program mark its packets */
    TT_OPT_DONTFRAG,   /* value: 1 = no packet of this socket is ever fragmented, here or
                        * on the way (IPv4's DF bit; a datagram larger than the path MTU
                        * fails with TT_E_MSGSIZE instead); a dual-stack socket gets it
                        * for both families */
    TT_OPT_PATH_MTU    /* tt_getopt only: the path MTU to a connected socket's peer as the
                        * OS knows it now (bytes, IP header included; what ICMP taught it
                        * or the route's); TT_E_UNSUPPORTED where the OS does not tell */
};

/* One datagram of a batch. */
struct tt_datagram {
    unsigned char *buf;
    size_t len;         /* send: its length; receive: what came (cap + 1: cut short) */
    int64_t arrived_ns; /* receive: arrival, on a clock the same for every datagram
                         * of a socket (the kernel's stamp where it offers one) */
    struct tt_addr from; /* receive: its sender (address and port) */
};
#define TT_BATCH_MAX 64

/* What the OS tells about a TCP connection; absent fields stay 0. The
 * fields after retransmits exist on some systems only (Linux 4.10 and
 * later, Windows 10 1903's SIO_TCP_INFO version 1): `have` says which the
 * OS gave (TT_TCPI_*), so that a 0 is never taken for a measurement. */
struct tt_tcp_info {
    uint32_t mss;         /* sender's maximum segment size, bytes */
    uint32_t snd_wnd;     /* the peer's advertised window, bytes */
    uint32_t rcv_wnd;     /* our receive window (space advertised), bytes */
    uint32_t cwnd;        /* congestion window, bytes */
    uint32_t srtt_us;     /* smoothed round-trip time */
    uint32_t rttvar_us;   /* its variation */
    uint64_t retransmits; /* segments sent again, whole connection */
    uint32_t min_rtt_us;  /* the smallest RTT seen (TT_TCPI_MIN_RTT) */
    uint64_t delivery_rate; /* bytes/s, the last delivery-rate sample (TT_TCPI_DELIVERY_RATE) */
    /* time with data to send or unacknowledged, and the parts of it the
     * peer's window and the own send buffer held the sender back; the rest
     * of busy is the network's (the congestion window, data in flight) */
    uint64_t busy_us;           /* TT_TCPI_BUSY */
    uint64_t rwnd_limited_us;   /* TT_TCPI_RWND_LIMITED */
    uint64_t sndbuf_limited_us; /* TT_TCPI_SNDBUF_LIMITED */
    uint64_t bytes_sent;    /* bytes sent, the retransmitted among them (TT_TCPI_BYTES_SENT) */
    uint64_t bytes_retrans; /* bytes sent again (TT_TCPI_BYTES_RETRANS) */
    unsigned have;          /* TT_TCPI_*: the fields above the OS gave */
};
#define TT_TCPI_MIN_RTT 0x01u
#define TT_TCPI_DELIVERY_RATE 0x02u
#define TT_TCPI_BUSY 0x04u
#define TT_TCPI_RWND_LIMITED 0x08u
#define TT_TCPI_SNDBUF_LIMITED 0x10u
#define TT_TCPI_BYTES_SENT 0x20u
#define TT_TCPI_BYTES_RETRANS 0x40u
#define TT_TCPI_ALL 0x7fu

/* Process CPU accounting, as much as the OS offers; absent fields stay 0. */
struct tt_cpu {
    int64_t user_ns;
    int64_t sys_ns;
    int64_t maxrss_kib;   /* peak resident set, KiB (absolute) */
    int64_t minflt;       /* page reclaims */
    int64_t majflt;       /* page faults needing I/O */
    int64_t nvcsw;        /* voluntary context switches */
    int64_t nivcsw;       /* involuntary context switches */
    int64_t ixrss;        /* integral shared text size */
    int64_t idrss_isrss;  /* integral unshared data + stack size */
    /* time runnable but waiting for a CPU on the run queue (other work):
     * ran + waited near the elapsed time is a CPU-bound end. Linux's
     * schedstat, the process's main thread or the calling thread; wait_given
     * 0 where the OS does not say. Whether a CPU quota's throttled time
     * counts here too depends on the kernel (6.18: yes, a busy loop held to
     * 20 % of a core ran 20 % and waited 80 %; earlier kernels dequeue the
     * throttled group and may not): it is read apart, in throttled_ns. */
    int64_t wait_ns;
    int wait_given;
    /* time a CPU quota held the control group back (a cgroup's cpu.max, or
     * v1's cpu.cfs_quota_us), cumulative: Linux's cpu.stat of the cpu
     * cgroup the process (the calling thread, for tt_thread_cpu_times) is
     * in, its cpu.stat.local where the kernel has one (a parent's quota
     * counted too). The group's, not the thread's: the kernel sums it over
     * the CPUs where the group had work held, so a group busy on several
     * cores can count more than the elapsed time. throttle_given 0 where the
     * OS does not say (no cpu controller, not Linux, Windows) */
    int64_t throttled_ns;
    int throttle_given;
    /* the tightest CPU quota of that group and its parents, in millionths of
     * a core (200000: 20 % of one); 0: none set, or not known */
    int64_t quota_ppm;
};

/* --- process ------------------------------------------------------------ */
int tt_init(void);          /* sockets, SIGPIPE off, interrupt handler */
void tt_cleanup(void);
int tt_interrupted(void);   /* non-zero once Ctrl+C / SIGINT / SIGTERM came (and from
                             * then on, blocking calls wait as ever: see above) */
int tt_last_error(void);    /* native error number of the last failure */
/* Native text for a failure: code is the TT_E_* value, native the number
 * from tt_last_error(). Writes into buf and returns it, or returns NULL when
 * there is no native error to describe. */
const char *tt_error_text(int code, int native, char *buf, size_t len);
/* "Linux 6.1 x86_64, POSIX sockets": for --version and bug reports. */
const char *tt_platform_name(char *buf, size_t len);
/* Non-zero where a command line may use DOS-style switches (/?, /h):
 * Windows. */
int tt_slash_switches(void);

/* --- time and CPU ------------------------------------------------------- */
int64_t tt_now_ns(void);    /* monotonic clock */
/* The local date and time to the millisecond, "2026-12-02 01:20:33.123"
 * (--timestamps); the text's length, 0 when the clock cannot be read. */
size_t tt_wall_text(char *buf, size_t len);
int tt_cpu_times(struct tt_cpu *out);
/* The calling thread's CPU time (memory and faults stay the process's):
 * a server's or client's tests run side by side, each on its own thread. */
int tt_thread_cpu_times(struct tt_cpu *out);
void tt_sleep_ns(int64_t ns);

/* --- console ------------------------------------------------------------ */
enum tt_stream { TT_STDIN, TT_STDOUT };
/* The stream carries bytes untranslated (Windows: no CR LF, no 0x1A end). */
int tt_stdio_binary(enum tt_stream stream);
/* Non-zero when stdin is an interactive console (a terminal window). */
int tt_stdin_is_console(void);
/* Non-zero when the console window was opened for this process alone and
 * closes when it ends (Windows: a program started from Explorer); 0 for a
 * program typed into a terminal or a cmd window, and on POSIX. */
int tt_console_is_own(void);
/* 0 = EOF; TT_E_INTR soon after a Ctrl+C (see the top of this file). */
int64_t tt_stdin_read(void *buf, size_t len);
int64_t tt_stdout_write(const void *buf, size_t len);  /* writes all */
/* --logfile: stderr, and stdout too when with_stdout, go on to the end of
 * the file at path (made if need be, 0644); 0, or TT_E_*. */
int tt_output_append(const char *path, int with_stdout);

/* --- memory ------------------------------------------------------------- */
void *tt_page_alloc(size_t len); /* page-aligned, zeroed; NULL on failure */
void tt_page_free(void *p, size_t len);

/* --- network ------------------------------------------------------------ */
int tt_resolve(const char *host, uint16_t port, int family, int udp,
               struct tt_addr_list *out);
/* The wildcard address of a family (V6 is dual-stack where possible). */
int tt_addr_any(int family, uint16_t port, struct tt_addr *out);
/* An address a library hands over as the system's own (a struct sockaddr
 * of AF_INET or AF_INET6, as libmicrohttpd gives a connection's client):
 * 0, or TT_E_INVAL for another family or NULL. */
int tt_addr_from_native(const void *sockaddr, struct tt_addr *out);
/* Numeric text of an address; IPv4-mapped IPv6 prints as plain IPv4. */
const char *tt_addr_text(const struct tt_addr *a, char *buf, size_t len);
/* The address's IP in network order: 4 bytes (IPv4, and IPv4-mapped IPv6)
 * or 16 (IPv6); returns that length, 0 for another family. */
int tt_addr_ip(const struct tt_addr *a, unsigned char out[16]);
/* The address's port (0 when it has none). */
uint16_t tt_addr_port(const struct tt_addr *a);
/* Sets the address's port (an IPv4 or IPv6 address; others stay as they are). */
void tt_addr_set_port(struct tt_addr *a, uint16_t port);
/* A numeric IPv4 or IPv6 address (never a name: no lookup), as tt_addr_ip. */
int tt_ip_parse(const char *text, unsigned char out[16]);

int tt_socket_open(int family, int udp, tt_socket *out);
int tt_setopt(tt_socket s, enum tt_sockopt opt, int value);
/* Non-zero where TT_OPT_QUICKACK stays set; 0 where the OS forgets it
 * after each receive (Linux) and it must be set again. */
int tt_quickack_sticky(void);
/* Reads SO_SNDBUF / SO_RCVBUF (bytes, as the OS reports them), TT_OPT_TOS and
 * TT_OPT_PATH_MTU. */
int tt_getopt(tt_socket s, enum tt_sockopt opt, int *value);
/* TT_E_UNSUPPORTED where the OS offers no TCP statistics. */
int tt_tcp_info(tt_socket s, struct tt_tcp_info *out);
/* The congestion control algorithms a program may choose here, as the OS
 * lists them (Linux: tcp_allowed_congestion_control, space-separated), into
 * buf; TT_E_UNSUPPORTED where a program cannot choose one. */
int tt_congestion_allowed(char *buf, size_t len);
/* A TCP socket's congestion control algorithm: set (before connect or
 * listen; an accepted connection inherits the listener's), and read back
 * (the one the connection uses). TT_E_UNSUPPORTED where the OS has no choice. */
int tt_congestion_set(tt_socket s, const char *name);
int tt_congestion_get(tt_socket s, char *buf, size_t len);
/* --fq-rate: the kernel paces the socket's packets to bytes_per_s (Linux's
 * SO_MAX_PACING_RATE: TCP paces itself, UDP needs the fq qdisc), and reads
 * it back. Non-zero from tt_kernel_pacing() where the OS has it; else the
 * calls return TT_E_UNSUPPORTED. */
int tt_kernel_pacing(void);
int tt_pacing_set(tt_socket s, uint64_t bytes_per_s);
int tt_pacing_get(tt_socket s, uint64_t *bytes_per_s);
int tt_bind(tt_socket s, const struct tt_addr *a);
/* backlog 0: classic ttcp's 5 */
int tt_listen(tt_socket s, int backlog);
int tt_accept(tt_socket s, tt_socket *out, struct tt_addr *peer);
/* The address and port a socket is bound to (getsockname). */
int tt_local_addr(tt_socket s, struct tt_addr *out);
int tt_connect(tt_socket s, const struct tt_addr *a);
/* Send/receive return the byte count; recv returns 0 at orderly EOF. */
int64_t tt_send(tt_socket s, const void *buf, size_t len);
int64_t tt_recv(tt_socket s, void *buf, size_t len);
/* Takes up to len bytes from the stream without copying them anywhere
 * (MSG_TRUNC on Linux); TT_E_UNSUPPORTED where the OS cannot. */
int64_t tt_recv_discard(tt_socket s, void *buf, size_t len);
/* to NULL: a connected socket's peer. */
int64_t tt_sendto(tt_socket s, const void *buf, size_t len,
                  const struct tt_addr *to);
int64_t tt_recvfrom(tt_socket s, void *buf, size_t len, struct tt_addr *from);
/* Batches (sendmmsg/recvmmsg where the OS has them): one call for many
 * datagrams. Send returns how many went (at least 1) or a negative code for
 * the first. Receive waits for one datagram (as tt_recvfrom), then takes
 * what else is queued, up to count, each into a buffer of cap bytes. */
int tt_sendto_batch(tt_socket s, const struct tt_datagram *d, int count,
                    const struct tt_addr *to);
int tt_recvfrom_batch(tt_socket s, struct tt_datagram *d, int count, size_t cap);
/* 1 when readable, 0 on timeout, negative on error. */
int tt_wait_readable(tt_socket s, int timeout_ms);
int tt_shutdown_send(tt_socket s);
/* Both ways, from another thread too: a blocked send fails at once and a
 * blocked receive returns 0 (the test is over): on POSIX after what is
 * still queued, which Winsock drops (read it first), within 0.1 s there. */
int tt_shutdown_both(tt_socket s);
/* Bytes sent but not yet acknowledged by the peer; TT_E_UNSUPPORTED where
 * the OS cannot tell. */
int64_t tt_unacked_bytes(tt_socket s);
void tt_close(tt_socket s);
/* Up to len bytes already queued on a stream, left in place for the next
 * recv; never waits: TT_E_AGAIN when nothing has come yet, 0 at EOF. */
int64_t tt_recv_peek(tt_socket s, void *buf, size_t len);
/* Waits until one of count sockets can be read (or timeout_ms passes) and
 * sets ready[i] to 1 for each that can; returns how many, 0 on timeout. */
int tt_poll_readable(const tt_socket *s, int count, int timeout_ms, unsigned char *ready);
#define TT_POLL_MAX 1024 /* the most sockets one tt_poll_readable() takes */

/* --- multicast (UDP) ------------------------------------------------------ */
/* ifname names an interface: its name ("eth0"), its index ("3"), or one of
 * its IPv4 addresses; NULL: the one the routing table picks. */
/* A sender's datagrams of family to groups: hop limit ttl, out of ifname,
 * looped back to this host's own members too. */
int tt_mcast_sender(tt_socket s, int family, int ttl, const char *ifname);
/* The hop limit s sends multicast with, as the OS reports it. */
int tt_mcast_ttl(tt_socket s, int family, int *ttl);
/* Joins group (its port ignored) on ifname; from source alone when source is
 * not NULL (source-specific). The socket gets its own groups' datagrams
 * only; closing it leaves them. */
int tt_mcast_join(tt_socket s, const struct tt_addr *group, const struct tt_addr *source,
                  const char *ifname);

/* --- traceroute ----------------------------------------------------------- */
/* Probes toward one address with a rising hop limit, without privileges
 * where the OS allows (Linux: UDP probes, the ICMP errors read back with
 * IP_RECVERR; Windows: IcmpSendEcho2 / Icmp6SendEcho2). */
struct tt_tracer;
int tt_tracer_open(const struct tt_addr *dest, struct tt_tracer **out);
/* One probe with hop limit ttl, waiting at most timeout_ms: 0 with from
 * (who answered), rtt_ns, and reached = 1 when the destination itself did;
 * TT_E_AGAIN when no answer came in time; another code when it cannot be
 * sent. */
int tt_tracer_probe(struct tt_tracer *t, int ttl, int timeout_ms, struct tt_addr *from,
                    int64_t *rtt_ns, int *reached);
void tt_tracer_close(struct tt_tracer *t);
/* The name of address a (a reverse lookup), when the system finds one
 * within timeout_ms: 0 with name filled; TT_E_AGAIN when none came in
 * time (the lookup finishes on a thread of its own, and is dropped);
 * another code when there is none. */
int tt_addr_name(const struct tt_addr *a, char *name, size_t len, int timeout_ms);

/* --- path MTU -------------------------------------------------------------- */
/* Probes toward one address with packets no router may fragment, to learn
 * the largest that goes whole; no privileges needed (Linux: a connected UDP
 * socket to port 33434 with IP_PMTUDISC_DO, the ICMP answers read back with
 * IP_RECVERR, the MTU the kernel learnt read with IP_MTU; Windows: ICMP echo
 * requests with IP_FLAG_DF through IcmpSendEcho2, IPv4 only: TT_E_UNSUPPORTED
 * for IPv6). Sizes are whole IP packets, the IP header included. */
enum tt_mtu_answer {
    TT_MTU_FITS,    /* the destination answered it (port unreachable, echo reply) */
    TT_MTU_SILENT,  /* nothing came back in time, and nothing refused it */
    TT_MTU_TOO_BIG  /* this host or a router on the way refused it as too big */
};
struct tt_mtu_prober;
/* *top: the largest packet the way out takes (the route's or the
 * interface's MTU, at most 65535). */
int tt_mtu_prober_open(const struct tt_addr *dest, struct tt_mtu_prober **out, int *top);
/* One probe of size bytes, waiting at most timeout_ms for its answer: 0
 * with *answer and *learnt (the path MTU the OS knows now; 0: it does not
 * tell); TT_E_INTR soon after a Ctrl+C; another code when it cannot be sent
 * or the path refused it for another reason (unreachable). */
int tt_mtu_probe(struct tt_mtu_prober *p, int size, int timeout_ms, enum tt_mtu_answer *answer,
                 int *learnt);
void tt_mtu_prober_close(struct tt_mtu_prober *p);

/* --- threads (a server's tests run side by side) -------------------------- */
struct tt_thread;
struct tt_mutex;
/* Starts fn(arg) on a new thread; 0 or a negative code. */
int tt_thread_start(struct tt_thread **out, void (*fn)(void *), void *arg);
/* Waits for the thread to end, then frees what tt_thread_start made. */
void tt_thread_join(struct tt_thread *t);
/* Keeps the calling thread on CPU number cpu (0, 1, ...): 0, or a negative
 * code where the OS will not (no such CPU, or not allowed). */
int tt_thread_pin(int cpu);
int tt_mutex_new(struct tt_mutex **out);
void tt_mutex_lock(struct tt_mutex *m);
void tt_mutex_unlock(struct tt_mutex *m);
void tt_mutex_free(struct tt_mutex *m);

/* --- secrets ------------------------------------------------------------- */
/* len bytes from the operating system's secure random source. */
int tt_random_bytes(void *buf, size_t len);
/* HMAC-SHA256 by the OS's or a well-kept library's code (CNG, libsodium);
 * TT_E_UNSUPPORTED in a build without one. */
#define TT_HMAC_LEN 32
int tt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
                   size_t msg_len, unsigned char out[TT_HMAC_LEN]);
/* 1 when no one but the file's owner may read it (POSIX: no group or other
 * bits; Windows: its ACLs are left to the owner, 1), 0 when others may,
 * negative when it cannot be looked at. */
int tt_file_private(const char *path);

/* --- service: how a server is started (POSIX; Windows: TT_E_UNSUPPORTED) --- */
/* inetd's connection: stdin as a connected TCP socket (blocking), with its
 * peer and its local port. TT_E_INVAL when stdin is not one. The socket moves to a descriptor
 * of its own; stdin, stdout, and stderr too when it is a socket (inetd
 * hands its connection on 0, 1 and 2 alike), then go to the null device:
 * nothing printed reaches the peer, and the connection ends at tt_close. */
int tt_stdin_socket(tt_socket *out, struct tt_addr *peer, int *port);
/* systemd's socket activation (LISTEN_PID, LISTEN_FDS: descriptors from
 * 3): the TCP listener and the UDP socket it hands this process, made
 * blocking, the environment cleared, and their port. Returns how many it
 * gave (0: none, each absent one TT_NO_SOCKET); TT_E_INVAL, with *why set, when what it
 * gave is not one TCP listener and at most one UDP socket of one port. */
int tt_inherited_sockets(tt_socket *tcp, tt_socket *udp, int *port, const char **why);
/* --daemon: forks. The parent waits until the child calls
 * tt_daemon_ready() (then exits 0) or ends first (exits 1); it never
 * returns. The child returns 0 in a session of its own, in "/", its stdio
 * kept until it is ready, so a failure to start is still seen. */
int tt_daemon_start(void);
/* The child is serving: stdin to the null device, and stdout and stderr
 * too unless keep_output (they go to --logfile's file), the parent told. */
int tt_daemon_ready(int keep_output);
/* A process id file. check: 0 when path names no running process (absent,
 * unreadable as a pid, or stale), TT_E_ADDRINUSE with *holder when it does;
 * write: this process's id, atomically; remove: only while it holds this
 * process's id. */
int tt_pidfile_check(const char *path, long *holder);
int tt_pidfile_write(const char *path);
void tt_pidfile_remove(const char *path);

/* --- handoff: a socket passed to another process of the same user -------- */
/* ttcp -S --inetd: each connection is a process of its own, so a test's
 * data connections are handed to the process that holds its control
 * connection, by a rendezvous name (Linux: an abstract socket; other
 * POSIX: a socket file under /tmp). Windows: TT_E_UNSUPPORTED. */
struct tt_handoff;
int tt_handoff_open(const char *name, struct tt_handoff **out);
/* One socket handed over, with its words (NUL-terminated, at most cap - 1
 * bytes) and the socket's peer, from a process of this user: 0;
 * TT_E_AGAIN when none waits;
 * other codes for a caller that did not hand a socket (it is dropped). */
int tt_handoff_take(struct tt_handoff *h, tt_socket *s, struct tt_addr *peer, char *words,
                    size_t cap);
/* Hands s (a copy: the caller still closes its own) to the process
 * listening at name, with words; waits at most timeout_ms. */
int tt_handoff_give(const char *name, tt_socket s, const char *words, int timeout_ms);
void tt_handoff_close(struct tt_handoff *h);

#endif
