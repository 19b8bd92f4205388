/* --pmtu's search: which size to probe next, and what an answer teaches.
 * Invariant: floor-or-less fits, fit < too_big; sizes between are unknown. */
#include "measure/pmtu.h"

void ttcp_pmtu_search_init(struct ttcp_pmtu_search *s, int floor, int top)
{
    s->floor = floor;
    s->top = top;
    s->fit = floor < top ? floor : top;
    s->fit_probed = 0;
    s->fit_confirmed = 0;
    s->too_big = top + 1;
    s->hint = 0;
    s->probes = 0;
}

int ttcp_pmtu_search_exact(const struct ttcp_pmtu_search *s)
{
    return s->too_big - s->fit <= 1;
}

int ttcp_pmtu_search_next(const struct ttcp_pmtu_search *s)
{
    if (s->probes >= TTCP_PMTU_PROBES_MAX)
        return 0;
    if (s->probes == 0)
        return s->top; /* the usual answer: one probe, when it fits */
    if (ttcp_pmtu_search_exact(s))
        return s->fit_probed || s->fit < TTCP_PMTU_LEAST ? 0 : s->fit; /* the floor, once */
    if (s->hint > s->fit && s->hint < s->too_big)
        return s->hint;
    return s->fit + (s->too_big - s->fit) / 2;
}

/* What was taken to fit does not: nothing below too_big is known to. */
static void forget_fit(struct ttcp_pmtu_search *s)
{
    s->fit = TTCP_PMTU_LEAST - 1;
    s->fit_probed = 0;
    s->fit_confirmed = 0;
}

/* The OS says nothing above learnt goes whole: a bound, and the size to try. */
static void take_learnt(struct ttcp_pmtu_search *s, int learnt)
{
    if (learnt < TTCP_PMTU_LEAST || learnt >= s->too_big)
        return;
    s->too_big = learnt + 1;
    if (s->fit >= s->too_big)
        forget_fit(s);
    s->hint = learnt;
}

void ttcp_pmtu_search_answer(struct ttcp_pmtu_search *s, int size, enum ttcp_pmtu_answer answer,
                             int learnt)
{
    s->probes++;
    if (size == s->hint)
        s->hint = 0;
    if (answer == TTCP_PMTU_TOO_BIG && size < s->too_big) {
        s->too_big = size;
        if (s->fit >= size)
            forget_fit(s);
    } else if (answer != TTCP_PMTU_TOO_BIG && size >= s->fit && size < s->too_big) {
        s->fit_confirmed = answer == TTCP_PMTU_FITS || (size == s->fit && s->fit_confirmed);
        s->fit = size;
        s->fit_probed = 1;
    }
    take_learnt(s, learnt);
}
