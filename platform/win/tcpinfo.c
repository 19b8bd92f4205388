/* What Windows tells of a TCP connection: its statistics and the bytes sent
 * but not yet acknowledged, both from SIO_TCP_INFO.
 *
 * The build targets Windows 7; SIO_TCP_INFO's declarations (Windows 10
 * 1703; its version 1, 1809) are wanted here only, for their types (no
 * call of a later Windows: WSAIoctl is Windows 7's), and the ioctl is
 * tried at run time. */
#undef _WIN32_WINNT /* (the build's 0x0601: windows.h wants all three to agree) */
#undef WINVER
#define _WIN32_WINNT 0x0A00
#define WINVER 0x0A00
#define NTDDI_VERSION 0x0A000006 /* NTDDI_WIN10_RS5: TCP_INFO_v1's declaration */

#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>

#include "ttcp/platform.h"

/* SIO_TCP_INFO: Windows 10 1703 and later; elsewhere, and under Wine, the
 * answer is "unsupported". Version 0 or 1 (1809 and later: the sender's
 * limits); v1 begins with v0's fields, in the same places. */
static int query_tcp_info(tt_socket s, DWORD version, void *info, DWORD len)
{
    DWORD got = 0;
    if (WSAIoctl((SOCKET)s, SIO_TCP_INFO, &version, sizeof version, info, len, &got, NULL,
                 NULL) != 0)
        return TT_E_UNSUPPORTED;
    return 0;
}

int64_t tt_unacked_bytes(tt_socket s)
{
    TCP_INFO_v0 info;
    int rc = query_tcp_info(s, 0, &info, sizeof info);
    return rc != 0 ? rc : (int64_t)info.BytesInFlight;
}

/* Version 1's "send limited" times (ms): by the receiver's window, by the
 * congestion window, by the sender itself. The last is the application's
 * and the send buffer's together, so the send buffer's share is absent
 * here and its time counts as the application's (outside busy). */
static void take_v1(const TCP_INFO_v1 *info, struct tt_tcp_info *out)
{
    out->busy_us = ((uint64_t)info->SndLimTimeRwin + info->SndLimTimeCwnd) * 1000u;
    out->rwnd_limited_us = (uint64_t)info->SndLimTimeRwin * 1000u;
    out->have |= TT_TCPI_BUSY | TT_TCPI_RWND_LIMITED;
}

int tt_tcp_info(tt_socket s, struct tt_tcp_info *out)
{
    TCP_INFO_v1 info;
    int v1 = 1, rc;
    memset(out, 0, sizeof *out);
    memset(&info, 0, sizeof info);
    rc = query_tcp_info(s, 1, &info, sizeof info);
    if (rc != 0) {
        v1 = 0;
        rc = query_tcp_info(s, 0, &info, sizeof(TCP_INFO_v0));
    }
    if (rc != 0)
        return rc;
    out->mss = info.Mss;
    out->snd_wnd = info.SndWnd;
    out->rcv_wnd = info.RcvWnd;
    out->cwnd = info.Cwnd;
    out->srtt_us = info.RttUs;
    out->retransmits = info.FastRetrans + info.TimeoutEpisodes;
    out->min_rtt_us = info.MinRttUs;
    out->bytes_sent = info.BytesOut;
    out->bytes_retrans = info.BytesRetrans;
    out->have = TT_TCPI_MIN_RTT | TT_TCPI_BYTES_SENT | TT_TCPI_BYTES_RETRANS;
    if (v1)
        take_v1(&info, out);
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
