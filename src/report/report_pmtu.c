#include "report/report_pmtu.h"

#include "base/text.h"

size_t ttcp_report_pmtu(const char *side, const char *host, const struct ttcp_pmtu *p,
                        char *buf, size_t len)
{
    struct ttcp_text x = {buf, len, 0};
    ttcp_text_add(&x, "ttcp%s: path MTU to %s: %d (found by %d probe%s in %.1f ms", side, host,
                  p->mtu, p->probes, p->probes == 1 ? "" : "s", (double)p->elapsed_ns / 1e6);
    if (p->mtu < p->top)
        ttcp_text_add(&x, "; the route's was %d", p->top);
    if (!p->exact)
        ttcp_text_add(&x, "; at least: %s cut the search short",
                      p->interrupted ? "Ctrl+C" : p->cut_short ? "the 10 s limit"
                                                               : "the count of probes");
    else if (!p->confirmed)
        ttcp_text_add(&x, "; the host did not answer: nothing on the way refused it");
    ttcp_text_add(&x, ")\n");
    return x.used;
}
