/* What the kernel tells of a TCP connection: its statistics (Linux's
 * TCP_INFO, read with the kernel's own struct: it has fields glibc's copy
 * lacks, such as the peer's window) and the bytes sent but not yet
 * acknowledged (SIOCOUTQ). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/sockios.h>
#include <linux/tcp.h>
#endif

#include "posix.h"
#include "ttcp/platform.h"

#ifdef __linux__
/* A field is there when the kernel's answer reaches its end: an older
 * kernel's struct is shorter and fills less. */
#define GAVE(len, field) \
    ((len) >= offsetof(struct tcp_info, field) + sizeof(((struct tcp_info *)0)->field))

/* The fields added since Linux 4.6 (the sender's limits, 4.10; the bytes,
 * 4.19), each with its bit in `have`. */
static void take_later_fields(const struct tcp_info *ti, socklen_t len, struct tt_tcp_info *out)
{
    if (GAVE(len, tcpi_min_rtt)) {
        out->min_rtt_us = ti->tcpi_min_rtt;
        out->have |= ti->tcpi_min_rtt != ~0u ? TT_TCPI_MIN_RTT : 0u; /* ~0: no sample yet */
    }
    if (GAVE(len, tcpi_delivery_rate)) {
        out->delivery_rate = ti->tcpi_delivery_rate;
        out->have |= TT_TCPI_DELIVERY_RATE;
    }
    if (GAVE(len, tcpi_sndbuf_limited)) {
        out->busy_us = ti->tcpi_busy_time;
        out->rwnd_limited_us = ti->tcpi_rwnd_limited;
        out->sndbuf_limited_us = ti->tcpi_sndbuf_limited;
        out->have |= TT_TCPI_BUSY | TT_TCPI_RWND_LIMITED | TT_TCPI_SNDBUF_LIMITED;
    }
    if (GAVE(len, tcpi_bytes_sent)) {
        out->bytes_sent = ti->tcpi_bytes_sent;
        out->have |= TT_TCPI_BYTES_SENT;
    }
    if (GAVE(len, tcpi_bytes_retrans)) {
        out->bytes_retrans = ti->tcpi_bytes_retrans;
        out->have |= TT_TCPI_BYTES_RETRANS;
    }
}
#endif

int tt_tcp_info(tt_socket s, struct tt_tcp_info *out)
{
#ifdef __linux__
    struct tcp_info ti;
    socklen_t len = sizeof ti;

    memset(&ti, 0, sizeof ti); /* an older kernel fills less: the rest stays 0 */
    memset(out, 0, sizeof *out);
    if (getsockopt((int)s, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        return tt_posix_fail();
    out->mss = ti.tcpi_snd_mss;
    out->snd_wnd = ti.tcpi_snd_wnd;
    out->rcv_wnd = ti.tcpi_rcv_space;
    out->cwnd = ti.tcpi_snd_cwnd * ti.tcpi_snd_mss; /* segments -> bytes */
    out->srtt_us = ti.tcpi_rtt;
    out->rttvar_us = ti.tcpi_rttvar;
    out->retransmits = ti.tcpi_total_retrans;
    take_later_fields(&ti, len, out);
    return 0;
#else
    (void)s;
    memset(out, 0, sizeof *out);
    return TT_E_UNSUPPORTED;
#endif
}

int64_t tt_unacked_bytes(tt_socket s)
{
#ifdef SIOCOUTQ
    int n = 0;
    if (ioctl((int)s, SIOCOUTQ, &n) != 0)
        return tt_posix_fail();
    return n;
#else
    (void)s;
    return TT_E_UNSUPPORTED;
#endif
}

/* Linux lists what an unprivileged program may choose; root may choose
 * any loaded algorithm (tcp_available_congestion_control). */
int tt_congestion_allowed(char *buf, size_t len)
{
#ifdef TCP_CONGESTION
    FILE *f = fopen(geteuid() == 0 ? "/proc/sys/net/ipv4/tcp_available_congestion_control"
                                   : "/proc/sys/net/ipv4/tcp_allowed_congestion_control", "r");
    size_t n;
    if (len == 0)
        return TT_E_INVAL;
    buf[0] = '\0';
    if (f == NULL)
        return tt_posix_fail();
    n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return 0;
#else
    (void)buf;
    (void)len;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_congestion_set(tt_socket s, const char *name)
{
#ifdef TCP_CONGESTION
    if (setsockopt((int)s, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)strlen(name)) != 0)
        return tt_posix_fail();
    return 0;
#else
    (void)s;
    (void)name;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_congestion_get(tt_socket s, char *buf, size_t len)
{
#ifdef TCP_CONGESTION
    char name[64];
    socklen_t got = sizeof name - 1;
    memset(name, 0, sizeof name);
    if (len == 0)
        return TT_E_INVAL;
    if (getsockopt((int)s, IPPROTO_TCP, TCP_CONGESTION, name, &got) != 0)
        return tt_posix_fail();
    snprintf(buf, len, "%s", name);
    return 0;
#else
    (void)s;
    (void)buf;
    (void)len;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_kernel_pacing(void)
{
#ifdef SO_MAX_PACING_RATE
    return 1;
#else
    return 0;
#endif
}

/* The option is 32 bits wide on every kernel (64 from Linux 4.20 on): the
 * bound of --fq-rate keeps the rate within 32. */
int tt_pacing_set(tt_socket s, uint64_t bytes_per_s)
{
#ifdef SO_MAX_PACING_RATE
    unsigned rate = bytes_per_s > 0xffffffffu ? 0xffffffffu : (unsigned)bytes_per_s;
    if (setsockopt((int)s, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof rate) != 0)
        return tt_posix_fail();
    return 0;
#else
    (void)s;
    (void)bytes_per_s;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_pacing_get(tt_socket s, uint64_t *bytes_per_s)
{
#ifdef SO_MAX_PACING_RATE
    unsigned rate = 0;
    socklen_t len = sizeof rate;
    if (getsockopt((int)s, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, &len) != 0)
        return tt_posix_fail();
    *bytes_per_s = rate;
    return 0;
#else
    (void)s;
    *bytes_per_s = 0;
    return TT_E_UNSUPPORTED;
#endif
}
