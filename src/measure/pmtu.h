/* --pmtu: the path MTU found by probes that may not be fragmented, as a
 * search over sizes (pure: the probes are someone else's) and its answer. */
#ifndef TTCP_PMTU_H
#define TTCP_PMTU_H

#include <stdint.h>

#define TTCP_PMTU_PROBES_MAX 16     /* a search sends at most this many probes */
#define TTCP_PMTU_PROBE_MS 500      /* each waits at most this long for its answer */
#define TTCP_PMTU_LIMIT_NS (10ll * 1000000000ll) /* the whole search, at most */
#define TTCP_PMTU_FLOOR_V4 576      /* what every IPv4 host takes whole: assumed to fit */
#define TTCP_PMTU_FLOOR_V6 1280     /* IPv6's least link MTU */
#define TTCP_PMTU_LEAST 68          /* IPv4's least MTU: below it no answer is believed */

/* What one probe of a size told (tt_mtu_answer's values). */
enum ttcp_pmtu_answer { TTCP_PMTU_FITS, TTCP_PMTU_SILENT, TTCP_PMTU_TOO_BIG };

/* A binary search between a floor taken to fit and the way out's MTU,
 * helped by what the OS learnt (an ICMP "too big" names the next link's
 * MTU): the next size to try is that, or the middle of what is unknown. */
struct ttcp_pmtu_search {
    int floor, top;
    int fit;           /* the largest size known (or taken) to go whole */
    int fit_probed;    /* ... and a probe of it went out (else: the floor, taken) */
    int fit_confirmed; /* ... and the destination answered it */
    int too_big;       /* the smallest size known not to (top + 1 at first) */
    int hint;          /* the OS's learnt MTU, to try next (0: none) */
    int probes;
};

void ttcp_pmtu_search_init(struct ttcp_pmtu_search *s, int floor, int top);
/* The next size to probe; 0 when the search has its answer (or has
 * used TTCP_PMTU_PROBES_MAX probes). */
int ttcp_pmtu_search_next(const struct ttcp_pmtu_search *s);
/* What the probe of size told; learnt: the path MTU the OS knows after it
 * (0: it does not tell). */
void ttcp_pmtu_search_answer(struct ttcp_pmtu_search *s, int size, enum ttcp_pmtu_answer answer,
                             int learnt);
/* Whether the search closed on its answer (fit + 1 is known too big). */
int ttcp_pmtu_search_exact(const struct ttcp_pmtu_search *s);

/* The answer, for the figures and the report. */
struct ttcp_pmtu {
    int found;         /* a search ran to its end (mtu holds its answer) */
    int mtu;           /* bytes, the IP header included: the largest packet that went whole */
    int exact;         /* the next size up was refused (else a limit cut it: at least mtu) */
    int confirmed;     /* the destination answered a probe of mtu bytes (else: nothing refused it) */
    int top;           /* what the OS knew of the path before the probes (the route's
                        * MTU, or one it learnt earlier): where the search began */
    int probes;
    int64_t elapsed_ns;
    int cut_short;     /* the time limit or Ctrl+C ended it */
    int interrupted;   /* ... Ctrl+C did */
};

#endif
