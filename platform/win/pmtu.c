/* Path MTU probes on Windows without privileges: ICMP echo requests with
 * DF set (IP_FLAG_DF, as `ping -f -l SIZE`) through iphlpapi.dll's
 * IcmpSendEcho2: an echo reply says the size went whole, IP_PACKET_TOO_BIG
 * that this host or a router refused it. The MTU the system learnt from a
 * router is not told (learnt 0: the search halves). IPv6 has no DF for an
 * echo request (Icmp6SendEcho2 lets this host fragment it): unsupported.
 * The route's MTU comes from the interface GetBestInterfaceEx picks. */
#include <stdlib.h>
#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <iphlpapi.h>
#include <icmpapi.h>
#include <netioapi.h>

#include "ttcp/platform.h"
#include "win.h"

#define LARGEST 65535
#define HEADERS 28 /* IPv4 and ICMP echo */
#define REPLY_LEN (sizeof(ICMP_ECHO_REPLY) + LARGEST + 64)

struct tt_mtu_prober {
    HANDLE icmp;
    IPAddr dest;
    unsigned char *request, *reply;
};

/* The IPv4 address of dest (also an IPv4-mapped IPv6 one); 0 for IPv6. */
static int v4_of(const struct tt_addr *dest, IPAddr *out)
{
    const struct sockaddr *sa = (const struct sockaddr *)dest->storage.bytes;
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)dest->storage.bytes;
    if (sa->sa_family == AF_INET) {
        *out = ((const struct sockaddr_in *)dest->storage.bytes)->sin_addr.s_addr;
        return 1;
    }
    if (sa->sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
        memcpy(out, &in6->sin6_addr.s6_addr[12], 4);
        return 1;
    }
    return 0;
}

/* The MTU of the interface the route to dest leaves by. */
static int route_mtu(IPAddr dest)
{
    struct sockaddr_in to;
    MIB_IF_ROW2 row;
    DWORD index = 0;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = dest;
    memset(&row, 0, sizeof row);
    if (GetBestInterfaceEx((struct sockaddr *)&to, &index) != NO_ERROR)
        return LARGEST;
    row.InterfaceIndex = index;
    if (GetIfEntry2(&row) != NO_ERROR || row.Mtu == 0)
        return LARGEST;
    return row.Mtu > LARGEST ? LARGEST : (int)row.Mtu; /* loopback: 0xffffffff */
}

int tt_mtu_prober_open(const struct tt_addr *dest, struct tt_mtu_prober **out, int *top)
{
    struct tt_mtu_prober *p;
    IPAddr v4;
    if (!v4_of(dest, &v4))
        return TT_E_UNSUPPORTED;
    p = calloc(1, sizeof *p);
    if (p == NULL || (p->request = calloc(1, LARGEST)) == NULL ||
        (p->reply = calloc(1, REPLY_LEN)) == NULL) {
        if (p != NULL)
            free(p->request);
        free(p);
        return TT_E_NOMEM;
    }
    p->dest = v4;
    p->icmp = IcmpCreateFile();
    if (p->icmp == INVALID_HANDLE_VALUE) {
        int rc = tt_win_code((int)GetLastError());
        free(p->request);
        free(p->reply);
        free(p);
        return rc;
    }
    memcpy(p->request, "ttcp path MTU probe", 19);
    *top = route_mtu(v4);
    *out = p;
    return 0;
}

int tt_mtu_probe(struct tt_mtu_prober *p, int size, int timeout_ms, enum tt_mtu_answer *answer,
                 int *learnt)
{
    IP_OPTION_INFORMATION opt;
    ULONG status;
    DWORD n;
    if (size <= HEADERS || size > LARGEST)
        return TT_E_INVAL;
    if (tt_win_ctrl_c() && !tt_win_ctrl_c_told())
        return TT_E_INTR;
    memset(&opt, 0, sizeof opt);
    opt.Ttl = 128;
    opt.Flags = IP_FLAG_DF;
    n = IcmpSendEcho2(p->icmp, NULL, NULL, NULL, p->dest, p->request, (WORD)(size - HEADERS),
                      &opt, p->reply, REPLY_LEN, (DWORD)timeout_ms);
    status = n > 0 ? ((const ICMP_ECHO_REPLY *)p->reply)->Status : GetLastError();
    *learnt = 0;
    if (status == IP_SUCCESS)
        *answer = TT_MTU_FITS;
    else if (status == IP_PACKET_TOO_BIG)
        *answer = TT_MTU_TOO_BIG;
    else if (status == IP_REQ_TIMED_OUT)
        *answer = TT_MTU_SILENT;
    else if (status == IP_DEST_NET_UNREACHABLE || status == IP_DEST_HOST_UNREACHABLE)
        return TT_E_UNREACH;
    else
        return tt_win_code((int)status);
    return 0;
}

void tt_mtu_prober_close(struct tt_mtu_prober *p)
{
    if (p == NULL)
        return;
    IcmpCloseHandle(p->icmp);
    free(p->request);
    free(p->reply);
    free(p);
}
