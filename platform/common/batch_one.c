/* Datagram batches where the OS has no sendmmsg/recvmmsg: one datagram per
 * call, arrival stamped with the monotonic clock at return. */
#include "ttcp/platform.h"

int tt_sendto_batch(tt_socket s, const struct tt_datagram *d, int count, const struct tt_addr *to)
{
    int64_t n = tt_sendto(s, d[0].buf, d[0].len, to);
    (void)count;
    return n < 0 ? (int)n : 1;
}

int tt_recvfrom_batch(tt_socket s, struct tt_datagram *d, int count, size_t cap)
{
    int64_t n = tt_recvfrom(s, d[0].buf, cap, &d[0].from);
    (void)count;
    if (n < 0)
        return (int)n;
    d[0].len = (size_t)n;
    d[0].arrived_ns = tt_now_ns();
    return 1;
}
