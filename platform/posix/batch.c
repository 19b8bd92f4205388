/* Datagram batches with Linux's sendmmsg/recvmmsg: one system call for up
 * to TT_BATCH_MAX datagrams (other systems use common/batch_one.c). Arrival
 * times come from the kernel's SO_TIMESTAMPNS stamp when the socket asked
 * for it, else from the clock at return: one clock for every datagram of a
 * socket. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "posix.h"
#include "ttcp/platform.h"

static int64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* SO_TIMESTAMPNS's clock */
    return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

#define CONTROL_LEN 64 /* room for one SCM_TIMESTAMPNS */

static void prepare(struct mmsghdr *m, struct iovec *iov, unsigned char *control,
                    unsigned char *buf, size_t len, const struct tt_addr *to,
                    struct tt_addr *from)
{
    memset(m, 0, sizeof *m);
    iov->iov_base = buf;
    iov->iov_len = len;
    m->msg_hdr.msg_iov = iov;
    m->msg_hdr.msg_iovlen = 1;
    if (to != NULL) {
        m->msg_hdr.msg_name = (void *)to->storage.bytes;
        m->msg_hdr.msg_namelen = to->len;
    }
    if (from != NULL) {
        m->msg_hdr.msg_name = from->storage.bytes;
        m->msg_hdr.msg_namelen = sizeof from->storage.bytes;
    }
    if (control != NULL) {
        m->msg_hdr.msg_control = control;
        m->msg_hdr.msg_controllen = CONTROL_LEN;
    }
}

int tt_sendto_batch(tt_socket s, const struct tt_datagram *d, int count, const struct tt_addr *to)
{
    struct mmsghdr m[TT_BATCH_MAX];
    struct iovec iov[TT_BATCH_MAX];
    int i, n;
    if (count > TT_BATCH_MAX)
        count = TT_BATCH_MAX;
    for (i = 0; i < count; i++)
        prepare(&m[i], &iov[i], NULL, d[i].buf, d[i].len, to, NULL);
    n = sendmmsg((int)s, m, (unsigned)count, 0);
    return n < 0 ? tt_posix_fail() : n;
}

static int64_t stamp_of(struct msghdr *h, int64_t fallback)
{
    struct cmsghdr *c;
    for (c = CMSG_FIRSTHDR(h); c != NULL; c = CMSG_NXTHDR(h, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(c), sizeof ts);
            return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
        }
    return fallback;
}

int tt_recvfrom_batch(tt_socket s, struct tt_datagram *d, int count, size_t cap)
{
    struct mmsghdr m[TT_BATCH_MAX];
    struct iovec iov[TT_BATCH_MAX];
    unsigned char control[TT_BATCH_MAX][CONTROL_LEN];
    int64_t now;
    int i, n;
    if (count > TT_BATCH_MAX)
        count = TT_BATCH_MAX;
    for (i = 0; i < count; i++)
        prepare(&m[i], &iov[i], control[i], d[i].buf, cap, NULL, &d[i].from);
    n = recvmmsg((int)s, m, (unsigned)count, MSG_WAITFORONE, NULL);
    if (n < 0)
        return tt_posix_fail();
    now = wall_ns();
    for (i = 0; i < n; i++) {
        d[i].len = (m[i].msg_hdr.msg_flags & MSG_TRUNC) ? cap + 1 : m[i].msg_len;
        d[i].arrived_ns = stamp_of(&m[i].msg_hdr, now);
        tt_posix_sender(&d[i].from, m[i].msg_hdr.msg_namelen);
    }
    return n;
}

