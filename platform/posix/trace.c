/* Traceroute without privileges on Linux: a UDP socket with IP_RECVERR (or
 * IPV6_RECVERR) sends each probe with the hop limit asked for, to a port
 * above 33434 nobody listens on; the ICMP error that comes back (time
 * exceeded from a router, port unreachable from the destination) is read
 * from the socket's error queue, with the address of who sent it. */
#include <errno.h>
#include <time.h> /* (before linux/errqueue.h, which needs struct timespec) */
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

#define PROBE_PORT 33434 /* traceroute's customary first port */

struct tt_tracer {
    int fd;
    int v6;
    struct tt_addr dest;
    int probes;          /* sent so far: each to a port of its own */
};

/* An IPv4 address a dual-stack socket saw as ::ffff:a.b.c.d, as IPv4 again:
 * the probes' TTL and their ICMP answers are IPv4's. */
static void unmap(struct tt_addr *a)
{
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a->storage.bytes;
    struct sockaddr_in in;
    if (in6->sin6_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
        return;
    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = in6->sin6_port;
    memcpy(&in.sin_addr, &in6->sin6_addr.s6_addr[12], 4);
    memset(a, 0, sizeof *a);
    a->family = TT_FAMILY_V4;
    a->len = sizeof in;
    memcpy(a->storage.bytes, &in, sizeof in);
}

int tt_tracer_open(const struct tt_addr *dest, struct tt_tracer **out)
{
    struct tt_tracer *t = calloc(1, sizeof *t);
    int on = 1, rc;
    if (t == NULL)
        return TT_E_NOMEM;
    t->dest = *dest;
    unmap(&t->dest);
    t->v6 = ((const struct sockaddr *)t->dest.storage.bytes)->sa_family == AF_INET6;
    t->fd = socket(t->v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
    if (t->fd < 0 || setsockopt(t->fd, t->v6 ? IPPROTO_IPV6 : IPPROTO_IP,
                                t->v6 ? IPV6_RECVERR : IP_RECVERR, &on, sizeof on) != 0) {
        rc = tt_posix_fail();
        if (t->fd >= 0)
            close(t->fd);
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

static void set_port(struct tt_addr *a, int v6, uint16_t port)
{
    if (v6)
        ((struct sockaddr_in6 *)a->storage.bytes)->sin6_port = htons(port);
    else
        ((struct sockaddr_in *)a->storage.bytes)->sin_port = htons(port);
}

/* The port a queued error's probe went to (msg_name: its destination). */
static uint16_t port_of(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
    return ntohs(((const struct sockaddr_in *)a)->sin_port);
}

/* Reads one error off the queue: 1 with from and reached filled when it is
 * the ICMP answer to the probe sent to port, 0 when it is something else
 * (an answer to an earlier probe that came too late), < 0 on failure. */
static int read_error(struct tt_tracer *t, uint16_t port, struct tt_addr *from, int *reached)
{
    char data[64], control[512];
    struct sockaddr_storage name;
    struct iovec iov = {data, sizeof data};
    struct msghdr msg;
    struct cmsghdr *c;
    memset(&msg, 0, sizeof msg);
    msg.msg_name = &name;
    msg.msg_namelen = sizeof name;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    if (recvmsg(t->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
        return errno == EAGAIN ? 0 : tt_posix_fail();
    if (port_of(&name) != port)
        return 0;
    for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        const struct sock_extended_err *e = (const struct sock_extended_err *)CMSG_DATA(c);
        const struct sockaddr *offender;
        if (!((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
              (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)))
            continue;
        if (e->ee_origin != SO_EE_ORIGIN_ICMP && e->ee_origin != SO_EE_ORIGIN_ICMP6)
            continue;
        offender = SO_EE_OFFENDER(e);
        memset(from, 0, sizeof *from);
        from->family = offender->sa_family == AF_INET6 ? TT_FAMILY_V6 : TT_FAMILY_V4;
        from->len = offender->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                    : sizeof(struct sockaddr_in);
        memcpy(from->storage.bytes, offender, from->len);
        /* time exceeded: a router on the way; anything else (port unreachable
         * above all): the end of the path */
        *reached = !(e->ee_origin == SO_EE_ORIGIN_ICMP ? e->ee_type == 11 : e->ee_type == 3);
        return 1;
    }
    return 0;
}

int tt_tracer_probe(struct tt_tracer *t, int ttl, int timeout_ms, struct tt_addr *from,
                    int64_t *rtt_ns, int *reached)
{
    struct tt_addr to = t->dest;
    int64_t sent, deadline;
    char probe[32] = "ttcp traceroute probe";
    if (setsockopt(t->fd, t->v6 ? IPPROTO_IPV6 : IPPROTO_IP,
                   t->v6 ? IPV6_UNICAST_HOPS : IP_TTL, &ttl, sizeof ttl) != 0)
        return tt_posix_fail();
    uint16_t port = (uint16_t)(PROBE_PORT + t->probes++ % 1000);
    set_port(&to, t->v6, port);
    sent = tt_now_ns();
    if (sendto(t->fd, probe, sizeof probe, 0, (const struct sockaddr *)to.storage.bytes,
               (socklen_t)to.len) < 0 && errno != EHOSTUNREACH && errno != ECONNREFUSED)
        return tt_posix_fail(); /* an error of an earlier probe may surface here: not ours */
    deadline = sent + (int64_t)timeout_ms * 1000000;
    for (;;) {
        struct pollfd p = {t->fd, POLLERR, 0};
        int64_t left = deadline - tt_now_ns(), rc;
        if (left <= 0 || tt_interrupted())
            return tt_interrupted() ? TT_E_INTR : TT_E_AGAIN;
        rc = poll(&p, 1, (int)((left + 999999) / 1000000));
        if (rc < 0 && errno != EINTR)
            return tt_posix_fail();
        if (rc <= 0)
            continue;
        rc = read_error(t, port, from, reached);
        if (rc < 0)
            return (int)rc;
        if (rc == 1) {
            *rtt_ns = tt_now_ns() - sent;
            return 0;
        }
    }
}

void tt_tracer_close(struct tt_tracer *t)
{
    if (t == NULL)
        return;
    close(t->fd);
    free(t);
}

/* A reverse lookup on a thread of its own, so that a slow resolver costs
 * the trace no more than the wait asked for; the last of the two to be
 * done with it frees it. */
struct lookup {
    struct tt_addr a;
    char name[NI_MAXHOST];
    int done, rc, refs;
    pthread_mutex_t m;
    pthread_cond_t c;
};

static void drop(struct lookup *l)
{
    int last;
    pthread_mutex_lock(&l->m);
    last = --l->refs == 0;
    pthread_mutex_unlock(&l->m);
    if (last) {
        pthread_mutex_destroy(&l->m);
        pthread_cond_destroy(&l->c);
        free(l);
    }
}

static void *lookup_main(void *arg)
{
    struct lookup *l = arg;
    int rc = getnameinfo((const struct sockaddr *)l->a.storage.bytes, (socklen_t)l->a.len,
                         l->name, sizeof l->name, NULL, 0, NI_NAMEREQD);
    pthread_mutex_lock(&l->m);
    l->rc = rc;
    l->done = 1;
    pthread_cond_signal(&l->c);
    pthread_mutex_unlock(&l->m);
    drop(l);
    return NULL;
}

int tt_addr_name(const struct tt_addr *a, char *name, size_t len, int timeout_ms)
{
    struct lookup *l = calloc(1, sizeof *l);
    struct timespec until;
    pthread_t id;
    int rc;
    if (l == NULL)
        return TT_E_NOMEM;
    l->a = *a;
    l->refs = 2;
    pthread_mutex_init(&l->m, NULL);
    pthread_cond_init(&l->c, NULL);
    if (pthread_create(&id, NULL, lookup_main, l) != 0) {
        l->refs = 1;
        drop(l);
        return TT_E_NOMEM;
    }
    pthread_detach(id);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&l->m);
    while (!l->done && pthread_cond_timedwait(&l->c, &l->m, &until) == 0)
        continue;
    rc = !l->done ? TT_E_AGAIN : l->rc != 0 ? TT_E_NOHOST : 0;
    if (rc == 0)
        snprintf(name, len, "%s", l->name);
    pthread_mutex_unlock(&l->m);
    drop(l);
    return rc;
}
