/* Path MTU probes without privileges on Linux: a UDP socket connected to
 * port 33434 of the destination (where nobody listens) with
 * IP_PMTUDISC_DO, so that no packet of it is fragmented, here or on the
 * way, and IP_RECVERR, so that the ICMP answers come back on its error
 * queue: "fragmentation needed" (IPv6: "packet too big") from a router,
 * with the MTU of its next link, or "port unreachable" from the
 * destination, which the probe then reached whole. The kernel learns the
 * first as the route's path MTU, which IP_MTU reads. */
#include <errno.h>
#include <time.h> /* (before linux/errqueue.h, which needs struct timespec) */
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

#define PROBE_PORT 33434   /* traceroute's customary first port: nobody listens */
#define LARGEST 65535      /* an IP packet's length field */
#define UDP_HEADER 8
#define TAG_LEN 8          /* "tm" + the probe's number: which probe an answer quotes */

struct tt_mtu_prober {
    int fd;
    int v6;
    unsigned serial;       /* probes sent */
    unsigned char *buf;    /* LARGEST bytes: a probe's payload */
};

/* An IPv4 address a dual-stack socket saw as ::ffff:a.b.c.d, as IPv4 again. */
static void unmapped(const struct tt_addr *a, struct sockaddr_storage *out, socklen_t *len)
{
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a->storage.bytes;
    memset(out, 0, sizeof *out);
    if (in6->sin6_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
        struct sockaddr_in *in = (struct sockaddr_in *)out;
        in->sin_family = AF_INET;
        memcpy(&in->sin_addr, &in6->sin6_addr.s6_addr[12], 4);
        *len = sizeof *in;
    } else {
        memcpy(out, a->storage.bytes, a->len < sizeof *out ? a->len : sizeof *out);
        *len = (socklen_t)a->len;
    }
    if (out->ss_family == AF_INET6)
        ((struct sockaddr_in6 *)out)->sin6_port = htons(PROBE_PORT);
    else
        ((struct sockaddr_in *)out)->sin_port = htons(PROBE_PORT);
}

static int kernel_mtu(const struct tt_mtu_prober *p)
{
    int mtu = 0;
    socklen_t len = sizeof mtu;
    if (getsockopt(p->fd, p->v6 ? IPPROTO_IPV6 : IPPROTO_IP, p->v6 ? IPV6_MTU : IP_MTU, &mtu,
                   &len) != 0)
        return 0;
    return mtu > LARGEST ? LARGEST : mtu;
}

/* The socket: DF on every packet, ICMP errors queued, connected. */
static int open_socket(struct tt_mtu_prober *p, const struct tt_addr *dest)
{
    struct sockaddr_storage to;
    socklen_t len;
    int on = 1, v4 = IP_PMTUDISC_DO, v6 = IPV6_PMTUDISC_DO;
    unmapped(dest, &to, &len);
    p->v6 = to.ss_family == AF_INET6;
    p->fd = socket(p->v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
    if (p->fd < 0)
        return tt_posix_fail();
    if ((p->v6 ? setsockopt(p->fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof v6)
               : setsockopt(p->fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof v4)) != 0 ||
        setsockopt(p->fd, p->v6 ? IPPROTO_IPV6 : IPPROTO_IP, p->v6 ? IPV6_RECVERR : IP_RECVERR,
                   &on, sizeof on) != 0 ||
        connect(p->fd, (const struct sockaddr *)&to, len) != 0)
        return tt_posix_fail();
    return 0;
}

int tt_mtu_prober_open(const struct tt_addr *dest, struct tt_mtu_prober **out, int *top)
{
    struct tt_mtu_prober *p = calloc(1, sizeof *p);
    int rc;
    if (p == NULL || (p->buf = calloc(1, LARGEST)) == NULL) {
        free(p);
        return TT_E_NOMEM;
    }
    p->fd = -1;
    rc = open_socket(p, dest);
    if (rc == 0 && (*top = kernel_mtu(p)) == 0)
        rc = tt_posix_fail();
    if (rc != 0) {
        tt_mtu_prober_close(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* One error off the queue: 1 with *err (its errno) and *mtu (what an ICMP
 * "too big" said) when it answers probe tag (or quotes too little to
 * tell), 0 when it answers an earlier probe or the queue is empty. */
static int read_error(struct tt_mtu_prober *p, const unsigned char *tag, int *err, int *mtu)
{
    unsigned char quoted[TAG_LEN];
    char control[512];
    struct iovec iov = {quoted, sizeof quoted};
    struct msghdr msg;
    struct cmsghdr *c;
    ssize_t n;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    n = recvmsg(p->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
    if (n < 0)
        return 0;
    for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        const struct sock_extended_err *e = (const struct sock_extended_err *)CMSG_DATA(c);
        if (!((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
              (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)))
            continue;
        if (tag != NULL && n >= TAG_LEN && memcmp(quoted, tag, TAG_LEN) != 0)
            return 0; /* an earlier probe's answer, come late */
        *err = (int)e->ee_errno;
        *mtu = e->ee_errno == EMSGSIZE ? (int)e->ee_info : 0;
        return 1;
    }
    return 0;
}

/* What earlier probes left: the error queue and the pending error. */
static void drain(struct tt_mtu_prober *p)
{
    int err, mtu, i;
    socklen_t len = sizeof err;
    for (i = 0; i < 64 && read_error(p, NULL, &err, &mtu) == 1; i++)
        continue;
    (void)getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &len);
}

/* An answer's errno as the probe's outcome. */
static int classify(int err, enum tt_mtu_answer *answer)
{
    if (err == EMSGSIZE)
        *answer = TT_MTU_TOO_BIG;
    else if (err == ECONNREFUSED)
        *answer = TT_MTU_FITS; /* port unreachable: the destination had it whole */
    else
        return tt_posix_code(err);
    return 0;
}

/* Waits for probe tag's answer until deadline: 0 with *answer. */
static int await_answer(struct tt_mtu_prober *p, const unsigned char *tag, int64_t deadline,
                        enum tt_mtu_answer *answer)
{
    for (;;) {
        struct pollfd fds = {p->fd, POLLERR, 0};
        int64_t left = deadline - tt_now_ns();
        int rc, err, mtu;
        if (tt_interrupted())
            return TT_E_INTR;
        if (left <= 0) {
            *answer = TT_MTU_SILENT;
            return 0;
        }
        rc = poll(&fds, 1, (int)((left + 999999) / 1000000));
        if (rc < 0 && errno != EINTR)
            return tt_posix_fail();
        if (rc > 0 && read_error(p, tag, &err, &mtu) == 1)
            return classify(err, answer);
    }
}

int tt_mtu_probe(struct tt_mtu_prober *p, int size, int timeout_ms, enum tt_mtu_answer *answer,
                 int *learnt)
{
    int header = (p->v6 ? 40 : 20) + UDP_HEADER, rc;
    unsigned char tag[TAG_LEN] = {'t', 'm'};
    if (size - header < TAG_LEN || size > LARGEST)
        return TT_E_INVAL;
    p->serial++;
    memcpy(tag + 2, &p->serial, sizeof p->serial);
    memcpy(p->buf, tag, TAG_LEN);
    drain(p);
    if (send(p->fd, p->buf, (size_t)(size - header), 0) < 0) {
        rc = errno == EMSGSIZE ? 0 : tt_posix_fail();
        *answer = TT_MTU_TOO_BIG; /* larger than the path MTU this host knows */
        drain(p);
    } else {
        rc = await_answer(p, tag, tt_now_ns() + (int64_t)timeout_ms * 1000000, answer);
    }
    *learnt = kernel_mtu(p);
    return rc;
}

void tt_mtu_prober_close(struct tt_mtu_prober *p)
{
    if (p == NULL)
        return;
    if (p->fd >= 0)
        close(p->fd);
    free(p->buf);
    free(p);
}
