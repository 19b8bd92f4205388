/* What Windows tells of a TCP connection: its statistics and the bytes sent
 * but not yet acknowledged, both from SIO_TCP_INFO.
 *
 * The build targets Windows 7; SIO_TCP_INFO's declarations (Windows 10
 * 1703) are wanted here only, and the ioctl is tried at run time. */
#define NTDDI_VERSION 0x0A000003 /* NTDDI_WIN10_RS2 */

#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>

#include "ttcp/platform.h"

/* SIO_TCP_INFO: Windows 10 1703 and later; elsewhere, and under Wine, the
 * answer is "unsupported". */
static int query_tcp_info(tt_socket s, TCP_INFO_v0 *info)
{
    DWORD version = 0, got = 0;
    if (WSAIoctl((SOCKET)s, SIO_TCP_INFO, &version, sizeof version, info, sizeof *info, &got,
                 NULL, NULL) != 0)
        return TT_E_UNSUPPORTED;
    return 0;
}

int64_t tt_unacked_bytes(tt_socket s)
{
    TCP_INFO_v0 info;
    int rc = query_tcp_info(s, &info);
    return rc != 0 ? rc : (int64_t)info.BytesInFlight;
}

int tt_tcp_info(tt_socket s, struct tt_tcp_info *out)
{
    TCP_INFO_v0 info;
    int rc = query_tcp_info(s, &info);
    memset(out, 0, sizeof *out);
    if (rc != 0)
        return rc;
    out->mss = info.Mss;
    out->snd_wnd = info.SndWnd;
    out->rcv_wnd = info.RcvWnd;
    out->cwnd = info.Cwnd;
    out->srtt_us = info.RttUs;
    out->retransmits = info.FastRetrans + info.TimeoutEpisodes;
    return 0;
}

/* Windows chooses the congestion control for the whole system (netsh int
 * tcp set supplemental): a program cannot choose it for its connection. */
int tt_congestion_allowed(char *buf, size_t len)
{
    if (len > 0)
        buf[0] = '\0';
    return TT_E_UNSUPPORTED;
}

int tt_congestion_set(tt_socket s, const char *name)
{
    (void)s;
    (void)name;
    return TT_E_UNSUPPORTED;
}

int tt_congestion_get(tt_socket s, char *buf, size_t len)
{
    (void)s;
    if (len > 0)
        buf[0] = '\0';
    return TT_E_UNSUPPORTED;
}

/* Windows has no per-socket kernel pacing a program can ask for. */
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
