/* Traceroute on Windows without privileges: ICMP echo requests with a
 * rising TTL through iphlpapi.dll (IcmpSendEcho2, Icmp6SendEcho2), the
 * reply naming the router whose TTL ran out, or the destination. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <iphlpapi.h>
#include <icmpapi.h>

#include "ttcp/platform.h"
#include "win.h"

#define REQUEST_LEN 32

/* ICMPV6_ECHO_REPLY as the Windows SDK lays it out (its address packed to
 * single bytes); mingw-w64's headers lack it. */
#pragma pack(push, 1)
struct v6_reply_address {
    USHORT port;
    ULONG flowinfo;
    USHORT addr[8];
    ULONG scope_id;
};
#pragma pack(pop)
struct v6_reply {
    struct v6_reply_address address;
    ULONG status;
    unsigned int round_trip_ms;
};
#define REPLY_LEN (sizeof(struct v6_reply) + sizeof(ICMP_ECHO_REPLY) + REQUEST_LEN + 64)

struct tt_tracer {
    HANDLE icmp;
    int v6;
    struct tt_addr dest;
};

static void set_v4(struct tt_addr *a, IPAddr ip)
{
    struct sockaddr_in *in = (struct sockaddr_in *)a->storage.bytes;
    memset(a, 0, sizeof *a);
    a->family = TT_FAMILY_V4;
    a->len = sizeof *in;
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = ip;
}

/* An IPv4 address a dual-stack socket saw as ::ffff:a.b.c.d, as IPv4 again. */
static void unmap(struct tt_addr *a)
{
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a->storage.bytes;
    IPAddr ip;
    if (in6->sin6_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
        return;
    memcpy(&ip, &in6->sin6_addr.s6_addr[12], 4);
    set_v4(a, ip);
}

int tt_tracer_open(const struct tt_addr *dest, struct tt_tracer **out)
{
    struct tt_tracer *t = calloc(1, sizeof *t);
    if (t == NULL)
        return TT_E_NOMEM;
    t->dest = *dest;
    unmap(&t->dest);
    t->v6 = ((const struct sockaddr *)t->dest.storage.bytes)->sa_family == AF_INET6;
    t->icmp = t->v6 ? Icmp6CreateFile() : IcmpCreateFile();
    if (t->icmp == INVALID_HANDLE_VALUE) {
        int rc = tt_win_code((int)GetLastError());
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

static void set_v6(struct tt_addr *a, const struct v6_reply_address *ip)
{
    struct sockaddr_in6 *in = (struct sockaddr_in6 *)a->storage.bytes;
    memset(a, 0, sizeof *a);
    a->family = TT_FAMILY_V6;
    a->len = sizeof *in;
    in->sin6_family = AF_INET6;
    memcpy(&in->sin6_addr, ip->addr, sizeof in->sin6_addr);
    in->sin6_scope_id = ip->scope_id;
}

/* The answer's status: a router's TTL ran out, or the destination answered
 * (echo reply, or unreachable from the destination itself). */
static int answer(ULONG status, int *reached)
{
    if (status == IP_TTL_EXPIRED_TRANSIT || status == IP_TTL_EXPIRED_REASSEM) {
        *reached = 0;
        return 0;
    }
    if (status == IP_REQ_TIMED_OUT)
        return TT_E_AGAIN;
    *reached = 1;
    return 0;
}

int tt_tracer_probe(struct tt_tracer *t, int ttl, int timeout_ms, struct tt_addr *from,
                    int64_t *rtt_ns, int *reached)
{
    unsigned char request[REQUEST_LEN] = "ttcp traceroute probe", reply[REPLY_LEN];
    IP_OPTION_INFORMATION opt;
    int64_t sent = tt_now_ns();
    DWORD n;
    int rc;
    memset(&opt, 0, sizeof opt);
    opt.Ttl = (UCHAR)ttl;
    memset(reply, 0, sizeof reply);
    if (t->v6) {
        struct sockaddr_in6 any, dest;
        memset(&any, 0, sizeof any);
        any.sin6_family = AF_INET6;
        memcpy(&dest, t->dest.storage.bytes, sizeof dest);
        n = Icmp6SendEcho2(t->icmp, NULL, NULL, NULL, &any, &dest, request, sizeof request, &opt,
                           reply, sizeof reply, (DWORD)timeout_ms);
    } else {
        IPAddr dest = ((const struct sockaddr_in *)t->dest.storage.bytes)->sin_addr.s_addr;
        n = IcmpSendEcho2(t->icmp, NULL, NULL, NULL, dest, request, sizeof request, &opt,
                          reply, sizeof reply, (DWORD)timeout_ms);
    }
    *rtt_ns = tt_now_ns() - sent;
    if (n == 0 && GetLastError() == IP_REQ_TIMED_OUT)
        return TT_E_AGAIN;
    if (t->v6) {
        struct v6_reply r;
        memcpy(&r, reply, sizeof r);
        rc = answer(r.status, reached);
        set_v6(from, &r.address);
    } else {
        ICMP_ECHO_REPLY r;
        memcpy(&r, reply, sizeof r);
        rc = answer(r.Status, reached);
        set_v4(from, r.Address);
    }
    if (n == 0 && rc == 0 && !*reached && GetLastError() != IP_TTL_EXPIRED_TRANSIT)
        return tt_win_code((int)GetLastError()); /* the request itself failed */
    return rc;
}

void tt_tracer_close(struct tt_tracer *t)
{
    if (t == NULL)
        return;
    IcmpCloseHandle(t->icmp);
    free(t);
}

/* A reverse lookup on a thread of its own, so that a slow resolver costs
 * the trace no more than the wait asked for; the last of the two to be
 * done with it frees it. */
struct lookup {
    struct tt_addr a;
    char name[NI_MAXHOST];
    int done, rc, refs;
    SRWLOCK lock;
    CONDITION_VARIABLE done_cv;
};

static void drop(struct lookup *l)
{
    int last;
    AcquireSRWLockExclusive(&l->lock);
    last = --l->refs == 0;
    ReleaseSRWLockExclusive(&l->lock);
    if (last)
        free(l);
}

static DWORD WINAPI lookup_main(void *arg)
{
    struct lookup *l = arg;
    int rc = getnameinfo((const struct sockaddr *)l->a.storage.bytes, (socklen_t)l->a.len,
                         l->name, sizeof l->name, NULL, 0, NI_NAMEREQD);
    AcquireSRWLockExclusive(&l->lock);
    l->rc = rc;
    l->done = 1;
    WakeConditionVariable(&l->done_cv);
    ReleaseSRWLockExclusive(&l->lock);
    drop(l);
    return 0;
}

int tt_addr_name(const struct tt_addr *a, char *name, size_t len, int timeout_ms)
{
    struct lookup *l = calloc(1, sizeof *l);
    HANDLE thread;
    int64_t until = tt_now_ns() + (int64_t)timeout_ms * 1000000;
    int rc;
    if (l == NULL)
        return TT_E_NOMEM;
    l->a = *a;
    l->refs = 2;
    InitializeSRWLock(&l->lock);
    InitializeConditionVariable(&l->done_cv);
    thread = CreateThread(NULL, 0, lookup_main, l, 0, NULL);
    if (thread == NULL) {
        free(l);
        return TT_E_NOMEM;
    }
    CloseHandle(thread); /* it ends by itself */
    AcquireSRWLockExclusive(&l->lock);
    while (!l->done) {
        int64_t left = until - tt_now_ns();
        if (left <= 0)
            break;
        SleepConditionVariableSRW(&l->done_cv, &l->lock, (DWORD)(left / 1000000 + 1), 0);
    }
    rc = !l->done ? TT_E_AGAIN : l->rc != 0 ? TT_E_NOHOST : 0;
    if (rc == 0)
        snprintf(name, len, "%s", l->name);
    ReleaseSRWLockExclusive(&l->lock);
    drop(l);
    return rc;
}
