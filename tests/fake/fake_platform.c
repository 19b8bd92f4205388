/* The scripted platform: see fake_platform.h. */
#include "fake_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fake_platform fake;

#define FAKE_SOCKET_LISTEN 3
#define FAKE_SOCKET_DATA 4

void fake_reset(void)
{
    memset(&fake, 0, sizeof fake);
    fake.clock_ns = 1000000000ll;
    fake.clock_tick_ns = 1000000; /* 1 ms per clock read */
    fake.stdin_piece = 4096;
}

void fake_push(struct fake_script *s, int64_t result)
{
    s->step[s->count].result = result;
    s->step[s->count].interrupt = 0;
    s->step[s->count].sender = 0;
    s->count++;
}

void fake_push_from(struct fake_script *s, int64_t result, int sender)
{
    fake_push(s, result);
    s->step[s->count - 1].sender = sender;
}

void fake_push_interrupt(struct fake_script *s, int64_t result)
{
    fake_push(s, result);
    s->step[s->count - 1].interrupt = 1;
}

/* The next step's result, or `none` when the script is used up. */
static int64_t next_step(struct fake_script *s, int64_t none)
{
    struct fake_step *st;
    if (s->next >= s->count)
        return none;
    st = &s->step[s->next++];
    if (st->interrupt)
        fake.interrupted = 1;
    if (st->result < 0)
        fake.last_error = (int)-st->result;
    return st->result;
}

static int fail_with(int rc)
{
    if (rc < 0)
        fake.last_error = -rc;
    return rc;
}

/* --- process, time, CPU, console, memory -------------------------------- */
int tt_init(void) { return 0; }
void tt_cleanup(void) {}
int tt_interrupted(void) { return fake.interrupted; }
int tt_last_error(void) { return fake.last_error; }

const char *tt_error_text(int code, int native, char *buf, size_t len)
{
    (void)native;
    strncpy(buf, ttcp_strerror(code), len - 1);
    buf[len - 1] = '\0';
    return buf;
}

const char *tt_platform_name(char *buf, size_t len)
{
    strncpy(buf, "fake", len);
    return buf;
}

int64_t tt_now_ns(void)
{
    fake.clock_ns += fake.clock_tick_ns;
    return fake.clock_ns;
}

int tt_cpu_times(struct tt_cpu *out)
{
    memset(out, 0, sizeof *out);
    out->user_ns = fake.clock_ns / 4; /* a quarter of the wall clock */
    out->throttle_given = fake.throttle_given;
    out->throttled_ns = fake.throttle_given ? fake.clock_ns / 1000 * fake.throttle_per_mille : 0;
    out->quota_ppm = fake.quota_ppm;
    return 0;
}

int tt_thread_cpu_times(struct tt_cpu *out)
{
    return tt_cpu_times(out); /* one thread in the fake */
}

void tt_sleep_ns(int64_t ns)
{
    fake.sleep_calls++;
    fake.clock_ns += ns;
}

int tt_stdin_is_console(void) { return 0; }
int tt_console_is_own(void) { return 0; }
int tt_slash_switches(void) { return 0; }
int tt_quickack_sticky(void) { return fake.quickack_sticky; }

int tt_stdio_binary(enum tt_stream stream)
{
    (void)stream;
    return 0;
}

int64_t tt_stdin_read(void *buf, size_t len)
{
    size_t n = fake.stdin_len - fake.stdin_pos;
    if (n > len)
        n = len;
    if (n > fake.stdin_piece)
        n = fake.stdin_piece;
    memcpy(buf, fake.stdin_data + fake.stdin_pos, n);
    fake.stdin_pos += n;
    return (int64_t)n;
}

int64_t tt_stdout_write(const void *buf, size_t len)
{
    if (fake.out_len + len > FAKE_MAX_BYTES)
        return fail_with(TT_E_IO);
    memcpy(fake.out + fake.out_len, buf, len);
    fake.out_len += len;
    if (fake.out_write_count < FAKE_MAX_STEPS)
        fake.out_writes[fake.out_write_count++] = len;
    return (int64_t)len;
}

void *tt_page_alloc(size_t len) { return calloc(1, len); }
void tt_page_free(void *p, size_t len)
{
    (void)len;
    free(p);
}

/* --- network --------------------------------------------------------------- */
int tt_resolve(const char *host, uint16_t port, int family, int udp, struct tt_addr_list *out)
{
    (void)host; (void)port; (void)udp;
    if (fake.resolve_rc != 0)
        return fail_with(fake.resolve_rc);
    memset(out, 0, sizeof *out);
    out->count = 1;
    out->addr[0].family = family == TT_FAMILY_V6 ? TT_FAMILY_V6 : TT_FAMILY_V4;
    if (fake.resolve_families != NULL && fake.resolve_families[0] != '\0') {
        const char *f;
        for (out->count = 0, f = fake.resolve_families; *f && out->count < TT_MAX_ADDRS; f++)
            out->addr[out->count++].family = *f == '6' ? TT_FAMILY_V6 : TT_FAMILY_V4;
    }
    return 0;
}

int tt_addr_any(int family, uint16_t port, struct tt_addr *out)
{
    (void)port;
    memset(out, 0, sizeof *out);
    out->family = family;
    return 0;
}

int tt_addr_from_native(const void *sockaddr, struct tt_addr *out)
{
    memset(out, 0, sizeof *out);
    if (sockaddr == NULL)
        return TT_E_INVAL;
    out->family = TT_FAMILY_V4;
    return 0;
}

const char *tt_addr_text(const struct tt_addr *a, char *buf, size_t len)
{
    const unsigned char *b = a->storage.bytes;
    if (a->len == 4) /* the fake tracer's hops: the address's bytes themselves */
        snprintf(buf, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
    else
        snprintf(buf, len, "192.0.2.1");
    return buf;
}

/* ... and no port. */
uint16_t tt_addr_port(const struct tt_addr *a)
{
    (void)a;
    return 0;
}

void tt_addr_set_port(struct tt_addr *a, uint16_t port)
{
    (void)a;
    (void)port;
}

/* The fake's addresses have no bytes: only their family. */
int tt_addr_ip(const struct tt_addr *a, unsigned char out[16])
{
    memset(out, 0, 16);
    return a->family == TT_FAMILY_V6 ? 16 : 4;
}

int tt_socket_open(int family, int udp, tt_socket *out)
{
    (void)family; (void)udp;
    fake.sockets_opened++;
    *out = FAKE_SOCKET_LISTEN;
    return 0;
}

int tt_setopt(tt_socket s, enum tt_sockopt opt, int value)
{
    (void)s;
    if (opt == TT_OPT_QUICKACK)
        fake.quickack_calls++;
    if (opt == TT_OPT_RCVBUF)
        fake.rcvbuf_set = value;
    if (opt == TT_OPT_RCVLOWAT)
        fake.rcvlowat_set = value;
    return 0;
}

int tt_getopt(tt_socket s, enum tt_sockopt opt, int *value)
{
    (void)s;
    if (opt == TT_OPT_PATH_MTU) /* what a router's ICMP taught the system */
        *value = fake.pmtu_path ? fake.pmtu_path : 1500;
    else
        *value = opt == TT_OPT_TOS ? 0 : 131072;
    return 0;
}

/* A scripted host that lets a program choose cubic or reno, and uses cubic. */
int tt_congestion_allowed(char *buf, size_t len)
{
    snprintf(buf, len, "cubic reno");
    return 0;
}

int tt_congestion_set(tt_socket s, const char *name)
{
    (void)s;
    (void)name;
    return 0;
}

int tt_congestion_get(tt_socket s, char *buf, size_t len)
{
    (void)s;
    snprintf(buf, len, "cubic");
    return 0;
}

int tt_tcp_info(tt_socket s, struct tt_tcp_info *out)
{
    (void)s;
    memset(out, 0, sizeof *out);
    out->mss = 1460;
    out->snd_wnd = 4128;
    out->rcv_wnd = 4128;
    out->srtt_us = 2500;
    return 0;
}

int tt_bind(tt_socket s, const struct tt_addr *a)
{
    (void)s; (void)a;
    return fail_with(fake.bind_rc);
}

int tt_listen(tt_socket s, int backlog)
{
    (void)s;
    (void)backlog;
    return 0;
}

int tt_accept(tt_socket s, tt_socket *out, struct tt_addr *peer)
{
    (void)s;
    memset(peer, 0, sizeof *peer);
    *out = FAKE_SOCKET_DATA;
    if (fake.max_accepts > 0 && ++fake.accepts > fake.max_accepts) {
        fake.interrupted = 1;
        return fail_with(TT_E_INTR);
    }
    return fail_with(fake.accept_rc);
}

int tt_local_addr(tt_socket s, struct tt_addr *out)
{
    (void)s;
    memset(out, 0, sizeof *out);
    return TT_E_UNSUPPORTED;
}

int tt_connect(tt_socket s, const struct tt_addr *a)
{
    (void)s;
    if (fake.connects < 8)
        fake.connect_families[fake.connects] = a->family;
    fake.connects++;
    if (fake.connect_refused_family != 0 && a->family == fake.connect_refused_family)
        return fail_with(TT_E_CONNREFUSED);
    return fail_with(fake.connect_rc);
}

static int64_t take_send(const void *buf, size_t len)
{
    int64_t n = next_step(&fake.tx, (int64_t)len);
    if (n > (int64_t)len)
        n = (int64_t)len;
    if (n > 0 && fake.sent_len + (size_t)n <= FAKE_MAX_BYTES) {
        memcpy(fake.sent + fake.sent_len, buf, (size_t)n);
        fake.sent_len += (size_t)n;
    }
    return n;
}

int64_t tt_send(tt_socket s, const void *buf, size_t len)
{
    (void)s;
    return take_send(buf, len);
}

int64_t tt_sendto(tt_socket s, const void *buf, size_t len, const struct tt_addr *to)
{
    int64_t n;
    (void)s; (void)to;
    n = take_send(buf, len);
    if (n >= 0 && fake.datagrams < FAKE_MAX_STEPS)
        fake.datagram_len[fake.datagrams++] = len;
    return n;
}

/* Delivers a scripted count of bytes: a running counter, so tests can check
 * what reached stdout. A result above len is a datagram longer than len. */
static int64_t give_recv(void *buf, size_t len, int64_t none)
{
    int64_t n = next_step(&fake.rx, none);
    size_t i, copy = n > (int64_t)len ? len : (size_t)(n > 0 ? n : 0);
    for (i = 0; i < copy; i++)
        ((unsigned char *)buf)[i] = (unsigned char)(i * 7 + 1);
    return n;
}

int64_t tt_recv(tt_socket s, void *buf, size_t len)
{
    int64_t n;
    (void)s;
    n = give_recv(buf, len, 0);
    if (n == 0)
        fake.clock_ns += fake.eof_delay_ns;
    return n;
}

int64_t tt_recvfrom(tt_socket s, void *buf, size_t len, struct tt_addr *from)
{
    int64_t n;
    (void)s;
    if (from != NULL && fake.rx.next < fake.rx.count) {
        memset(from, 0, sizeof *from);
        from->storage.bytes[0] = (unsigned char)fake.rx.step[fake.rx.next].sender;
        from->len = 1;
    }
    n = give_recv(buf, len, TT_E_AGAIN);
    if (n == TT_E_AGAIN)
        fake.clock_ns += 250000000ll; /* a timeout lasts the receive timeout */
    return n;
}

int64_t tt_recv_discard(tt_socket s, void *buf, size_t len)
{
    fake.discard_calls++;
    return tt_recv(s, buf, len);
}

int tt_wait_readable(tt_socket s, int timeout_ms)
{
    (void)s;
    if (fake.peer_never_closes) {
        fake.clock_ns += (int64_t)timeout_ms * 1000000ll;
        return 0;
    }
    return 1;
}

int tt_shutdown_send(tt_socket s)
{
    (void)s;
    fake.shutdown_calls++;
    fake.timer_at_shutdown = fake.clock_ns;
    return 0;
}

int64_t tt_unacked_bytes(tt_socket s)
{
    (void)s;
    return 0;
}

void tt_close(tt_socket s)
{
    (void)s;
    fake.close_calls++;
}

/* Threads, in the fake: fn runs at once, to its end, on the caller's thread
 * (the scripts are one sequence); a mutex has nothing to guard. */
struct tt_thread {
    int unused;
};
struct tt_mutex {
    int unused;
};
static struct tt_thread fake_thread;
static struct tt_mutex fake_mutex;

int tt_thread_start(struct tt_thread **out, void (*fn)(void *), void *arg)
{
    fake.threads_started++;
    fn(arg);
    *out = &fake_thread;
    return 0;
}

void tt_thread_join(struct tt_thread *t) { (void)t; }

int tt_thread_pin(int cpu)
{
    fake.pinned_cpu = cpu;
    return cpu < fake.cpus ? 0 : TT_E_INVAL;
}

int tt_mutex_new(struct tt_mutex **out)
{
    *out = &fake_mutex;
    return 0;
}
void tt_mutex_lock(struct tt_mutex *m) { (void)m; }
void tt_mutex_unlock(struct tt_mutex *m) { (void)m; }
void tt_mutex_free(struct tt_mutex *m) { (void)m; }

/* Numeric addresses, without the OS: dotted IPv4, and IPv6 of hex groups
 * with at most one "::" (no embedded IPv4), enough for the tests. */
static int parse_v4(const char *t, unsigned char out[4])
{
    int i;
    for (i = 0; i < 4; i++) {
        unsigned v = 0, digits = 0;
        while (*t >= '0' && *t <= '9' && digits < 4) {
            v = v * 10 + (unsigned)(*t++ - '0');
            digits++;
        }
        if (digits == 0 || v > 255 || (i < 3 && *t++ != '.'))
            return 0;
        out[i] = (unsigned char)v;
    }
    return *t == '\0' ? 4 : 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int parse_v6(const char *t, unsigned char out[16])
{
    unsigned short g[8];
    int n = 0, gap = -1, i;
    if (t[0] == ':' && t[1] == ':') {
        gap = 0;
        t += 2;
    }
    while (*t != '\0') {
        unsigned v = 0;
        int digits = 0;
        while (hexval(*t) >= 0 && digits < 4) {
            v = v * 16 + (unsigned)hexval(*t++);
            digits++;
        }
        if (digits == 0 || n == 8)
            return 0;
        g[n++] = (unsigned short)v;
        if (*t == ':' && t[1] == ':' && gap < 0) {
            gap = n;
            t += 2;
        } else if (*t == ':' && t[1] != '\0') {
            t++;
        } else if (*t != '\0') {
            return 0;
        }
    }
    if ((gap < 0 && n != 8) || (gap >= 0 && n > 7))
        return 0;
    memset(out, 0, 16);
    for (i = 0; i < n; i++) {
        int at = gap >= 0 && i >= gap ? 8 - (n - i) : i;
        out[2 * at] = (unsigned char)(g[i] >> 8);
        out[2 * at + 1] = (unsigned char)g[i];
    }
    return 16;
}

int tt_ip_parse(const char *text, unsigned char out[16])
{
    return strchr(text, ':') != NULL ? parse_v6(text, out) : parse_v4(text, out);
}

int tt_mcast_sender(tt_socket s, int family, int ttl, const char *ifname)
{
    (void)s, (void)family, (void)ifname;
    fake.mcast_ttl = ttl;
    return 0;
}

int tt_mcast_ttl(tt_socket s, int family, int *ttl)
{
    (void)s, (void)family;
    *ttl = fake.mcast_ttl;
    return 0;
}

int tt_mcast_join(tt_socket s, const struct tt_addr *group, const struct tt_addr *source,
                  const char *ifname)
{
    (void)s, (void)group, (void)source, (void)ifname;
    return 0;
}

/* The tracer: hops 1..trace_hops-1 are routers 192.0.2.TTL, hop trace_hops
 * the destination; hop trace_silent (-1: every hop) never answers. */
struct tt_tracer {
    int unused;
};
static struct tt_tracer fake_tracer;

int tt_tracer_open(const struct tt_addr *dest, struct tt_tracer **out)
{
    (void)dest;
    *out = &fake_tracer;
    return 0;
}

int tt_tracer_probe(struct tt_tracer *t, int ttl, int timeout_ms, struct tt_addr *from,
                    int64_t *rtt_ns, int *reached)
{
    unsigned char ip[4] = {192, 0, 2, 0};
    (void)t, (void)timeout_ms;
    fake.probes++;
    if (ttl == fake.trace_silent || fake.trace_silent < 0) {
        fake.clock_ns += 1000000000ll; /* the probe's whole wait */
        return TT_E_AGAIN;
    }
    ip[3] = (unsigned char)ttl;
    memset(from, 0, sizeof *from);
    from->family = TT_FAMILY_V4;
    from->len = 4;
    memcpy(from->storage.bytes, ip, 4);
    *rtt_ns = 250000 * ttl;
    *reached = ttl >= fake.trace_hops;
    return 0;
}

void tt_tracer_close(struct tt_tracer *t) { (void)t; }

/* The prober: a path of fake.pmtu_path bytes behind a first link of
 * fake.pmtu_top; each probe costs a millisecond. */
struct tt_mtu_prober {
    int unused;
};
static struct tt_mtu_prober fake_prober;

int tt_mtu_prober_open(const struct tt_addr *dest, struct tt_mtu_prober **out, int *top)
{
    (void)dest;
    *top = fake.pmtu_top ? fake.pmtu_top : 1500;
    *out = &fake_prober;
    return 0;
}

int tt_mtu_probe(struct tt_mtu_prober *p, int size, int timeout_ms, enum tt_mtu_answer *answer,
                 int *learnt)
{
    int top = fake.pmtu_top ? fake.pmtu_top : 1500, path = fake.pmtu_path ? fake.pmtu_path : top;
    (void)p, (void)timeout_ms;
    fake.mtu_probes++;
    fake.clock_ns += 1000000;
    *answer = size > path ? TT_MTU_TOO_BIG : TT_MTU_FITS;
    *learnt = fake.pmtu_tells && size > path ? path : 0;
    return 0;
}

void tt_mtu_prober_close(struct tt_mtu_prober *p) { (void)p; }

int tt_addr_name(const struct tt_addr *a, char *name, size_t len, int timeout_ms)
{
    (void)timeout_ms;
    if (fake.trace_names && a->len == 4) {
        snprintf(name, len, "hop%u.example", a->storage.bytes[3]);
        return 0;
    }
    return TT_E_NOHOST;
}

size_t tt_wall_text(char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return 0;
}

int tt_output_append(const char *path, int with_stdout)
{
    (void)path;
    (void)with_stdout;
    return TT_E_UNSUPPORTED;
}

int tt_kernel_pacing(void)
{
    return 0;
}

int tt_pacing_set(tt_socket s, uint64_t bytes_per_s)
{
    (void)s;
    (void)bytes_per_s;
    return TT_E_UNSUPPORTED;
}

int tt_pacing_get(tt_socket s, uint64_t *bytes_per_s)
{
    (void)s;
    *bytes_per_s = 0;
    return TT_E_UNSUPPORTED;
}

/* --- service, handoff: the server's launch habits, not scripted --------- */
int tt_stdin_socket(tt_socket *out, struct tt_addr *peer, int *port)
{
    (void)out;
    (void)peer;
    (void)port;
    return TT_E_UNSUPPORTED;
}

int tt_inherited_sockets(tt_socket *tcp, tt_socket *udp, int *port, const char **why)
{
    (void)why;
    *port = 0;
    *tcp = *udp = TT_NO_SOCKET;
    return 0;
}

int tt_daemon_start(void)
{
    return TT_E_UNSUPPORTED;
}

int tt_daemon_ready(int keep_output)
{
    (void)keep_output;
    return TT_E_UNSUPPORTED;
}

int tt_pidfile_check(const char *path, long *holder)
{
    (void)path;
    (void)holder;
    return 0;
}

int tt_pidfile_write(const char *path)
{
    (void)path;
    return TT_E_UNSUPPORTED;
}

void tt_pidfile_remove(const char *path)
{
    (void)path;
}

int tt_handoff_open(const char *name, struct tt_handoff **out)
{
    (void)name;
    (void)out;
    return TT_E_UNSUPPORTED;
}

int tt_handoff_take(struct tt_handoff *h, tt_socket *s, struct tt_addr *peer, char *words,
                    size_t cap)
{
    (void)h;
    (void)s;
    (void)peer;
    (void)words;
    (void)cap;
    return TT_E_UNSUPPORTED;
}

int tt_handoff_give(const char *name, tt_socket s, const char *words, int timeout_ms)
{
    (void)name;
    (void)s;
    (void)words;
    (void)timeout_ms;
    return TT_E_UNSUPPORTED;
}

void tt_handoff_close(struct tt_handoff *h)
{
    (void)h;
}
