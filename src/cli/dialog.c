/* The IOS dialog. Each answer is checked with the same bounds as the
 * command line (the option table); a bad answer says why and asks again,
 * an empty one takes the value in brackets. */
#include "cli/dialog.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "config/optable.h"

#define ANSWER_MAX 256

struct asker {
    const struct ttcp_dialog_io *io;
    char answer[ANSWER_MAX];
};

/* Writes "prompt [shown]: " and reads the answer, trimmed. */
static int ask(struct asker *a, const char *prompt, const char *shown)
{
    char text[160];
    size_t start = 0, end;
    if (shown != NULL)
        snprintf(text, sizeof text, "%s [%s]: ", prompt, shown);
    else
        snprintf(text, sizeof text, "%s: ", prompt);
    a->io->write(a->io->ctx, text);
    if (a->io->read_line(a->io->ctx, a->answer, sizeof a->answer) != 0)
        return -1;
    end = strlen(a->answer);
    while (start < end && isspace((unsigned char)a->answer[start]))
        start++;
    while (end > start && isspace((unsigned char)a->answer[end - 1]))
        end--;
    memmove(a->answer, a->answer + start, end - start);
    a->answer[end - start] = '\0';
    return 0;
}

/* Words are taken in any case (IOS does); numbers and names are not words. */
static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

static void complain(struct asker *a, const char *why)
{
    char text[256];
    snprintf(text, sizeof text, "%% %s", why);
    ttcp_text_printable(text); /* it may quote the answer */
    strncat(text, "\n", sizeof text - strlen(text) - 1);
    a->io->write(a->io->ctx, text);
}

/* A word the answer abbreviates (IOS takes "t", "tr", "trans", ...). */
static int abbreviates(const char *answer, const char *word)
{
    size_t n = strlen(answer);
    return n > 0 && n <= strlen(word) && strncmp(answer, word, n) == 0;
}

static int ask_choice(struct asker *a, const char *prompt, const char *yes_word,
                      const char *no_word, int *value)
{
    char why[96];
    for (;;) {
        if (ask(a, prompt, *value ? yes_word : no_word) != 0)
            return -1;
        lower(a->answer);
        if (a->answer[0] == '\0')
            return 0;
        if (abbreviates(a->answer, yes_word) || abbreviates(a->answer, no_word)) {
            *value = abbreviates(a->answer, yes_word);
            return 0;
        }
        snprintf(why, sizeof why, "answer %s or %s", yes_word, no_word);
        complain(a, why);
    }
}

static int ask_yes_no(struct asker *a, const char *prompt, int *value)
{
    int yes = *value;
    char first;
    for (;;) {
        if (ask(a, prompt, yes ? "y" : "n") != 0)
            return -1;
        lower(a->answer);
        first = (char)tolower((unsigned char)a->answer[0]);
        if (first == '\0' || ((first == 'y' || first == 'n') &&
                              (abbreviates(a->answer, "yes") || abbreviates(a->answer, "no")))) {
            *value = first == '\0' ? yes : first == 'y';
            return 0;
        }
        complain(a, "answer y or n");
    }
}

/* A number within the bounds the option table gives `letter` (or a long
 * option), at most max_extra when that is tighter. */
static int ask_number(struct asker *a, const char *prompt, const char *option,
                      uint64_t max_extra, uint64_t *value)
{
    const struct ttcp_optdef *d = option[1] == '\0' ? ttcp_optable_letter(option[0])
                                                   : ttcp_optable_long(option, strlen(option));
    char shown[32], why[160];
    uint64_t parsed;

    for (;;) {
        snprintf(shown, sizeof shown, "%llu", (unsigned long long)*value);
        if (ask(a, prompt, shown) != 0)
            return -1;
        if (a->answer[0] == '\0')
            return 0;
        if (ttcp_parse_u64(a->answer, d->suffix, d->min, d->max < max_extra ? d->max : max_extra,
                           &parsed, why, sizeof why) == 0) {
            *value = parsed;
            return 0;
        }
        complain(a, why);
    }
}

/* A host given on the command line is the bracket's value. */
static int ask_target(struct asker *a, const char *given, char *host_buf, size_t host_len)
{
    for (;;) {
        if (ask(a, "Target IP address", given) != 0)
            return -1;
        if (a->answer[0] == '\0' && given != NULL && strlen(given) < host_len) {
            snprintf(host_buf, host_len, "%s", given);
            return 0;
        }
        if (a->answer[0] != '\0' && strlen(a->answer) < host_len) {
            snprintf(host_buf, host_len, "%s", a->answer);
            return 0;
        }
        complain(a, a->answer[0] ? "that name is too long" : "a target is needed");
    }
}

/* rcvwndsize: the system's window unless the answer changes it, so an
 * empty answer leaves the OS free to tune the window. */
static int ask_rcvwnd(struct asker *a, struct ttcp_options *o, int system_rcvwnd)
{
    uint64_t wnd = o->rcvwnd ? o->rcvwnd : (uint64_t)system_rcvwnd;
    if (ask_number(a, "rcvwndsize", "rcvwnd", UINT64_MAX, &wnd) != 0)
        return -1;
    if (wnd != (uint64_t)system_rcvwnd)
        o->rcvwnd = wnd;
    return 0;
}

/* The sizes of each direction: forward first, then, with half close, the
 * other way (IOS adds those prompts only then). */
static int ask_sizes(struct asker *a, struct ttcp_options *o)
{
    const char *fwd = o->transmit ? "send buflen" : "receive buflen";
    const char *back = o->transmit ? "receive buflen" : "send buflen";
    int rc = ask_number(a, fwd, "l", UINT64_MAX, &o->buflen);
    if (rc == 0 && o->transmit)
        rc = ask_number(a, "send nbuf", "n", UINT64_MAX, &o->nbuf);
    if (rc == 0 && o->half_close) {
        o->back_buflen = o->back_buflen ? o->back_buflen : o->buflen;
        rc = ask_number(a, back, "l", UINT64_MAX, &o->back_buflen);
    }
    if (rc == 0 && o->half_close && !o->transmit)
        rc = ask_number(a, "send nbuf", "n", UINT64_MAX, &o->nbuf);
    return rc;
}

static int ask_tcp_details(struct asker *a, struct ttcp_options *o, int system_rcvwnd)
{
    int buffered = !o->nodelay, delayed_ack = !o->no_delayed_ack, rc = 0;
    if (o->transmit || o->half_close)
        rc = ask_yes_no(a, "buffering on writes", &buffered);
    if (rc == 0 && (!o->transmit || o->half_close))
        rc = ask_rcvwnd(a, o, system_rcvwnd);
    if (rc == 0 && (!o->transmit || o->half_close))
        rc = ask_yes_no(a, "delayed ACK", &delayed_ack);
    if (rc == 0)
        rc = ask_yes_no(a, "show tcp information at end", &o->tcp_info);
    o->nodelay = !buffered;
    o->no_delayed_ack = !delayed_ack;
    return rc;
}

/* The offset must stay below the alignment just answered. */
static int ask_offset(struct asker *a, struct ttcp_options *o)
{
    uint64_t max = o->bufalign ? o->bufalign - 1 : 0;
    if (o->bufoffset > max)
        o->bufoffset = 0;
    return ask_number(a, "bufoffset", "O", max, &o->bufoffset);
}

int ttcp_dialog(struct ttcp_options *o, const struct ttcp_dialog_io *io, int system_rcvwnd,
                char *host_buf, size_t host_len)
{
    struct asker a = {io, {0}};
    o->udp = 0; /* IOS's ttcp speaks TCP only */
    o->sinkmode = 1;
    if (ask_choice(&a, "transmit or receive", "transmit", "receive", &o->transmit) != 0 ||
        (o->transmit && ask_target(&a, o->host, host_buf, host_len) != 0) ||
        ask_yes_no(&a, "perform tcp half close", &o->half_close) != 0 ||
        ask_sizes(&a, o) != 0 ||
        ask_number(&a, "bufalign", "A", UINT64_MAX, &o->bufalign) != 0 ||
        ask_offset(&a, o) != 0 ||
        ask_number(&a, "port", "p", UINT64_MAX, &o->port) != 0 ||
        ask_yes_no(&a, "sinkmode", &o->sinkmode) != 0 ||
        ask_tcp_details(&a, o, system_rcvwnd) != 0)
        return -1;
    if (o->transmit)
        o->host = host_buf; /* a receiver keeps a host word it was given: the rules refuse it */
    return 0;
}
