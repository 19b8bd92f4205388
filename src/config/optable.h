/* The option table: one row per option. It drives the parser (options.c)
 * and generates the usage text (usage.c), so the two cannot drift apart. */
#ifndef TTCP_OPTABLE_H
#define TTCP_OPTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"

enum ttcp_optkind {
    OPTK_SET,     /* store `value` in an int field */
    OPTK_TOGGLE,  /* flip an int field (classic -s) */
    OPTK_NUMBER,  /* bounded unsigned number into a uint64_t field */
    OPTK_UNIT,    /* -f letter */
    OPTK_SECONDS, /* decimal seconds into an int64_t nanosecond field */
    OPTK_RATE,    /* SI bit rate into a uint64_t field */
    OPTK_PACE,    /* -R RATE[/BURST] */
    OPTK_PATTERN, /* --pattern classic|random|zeros */
    OPTK_TEXT,    /* a string (a file name) into a const char * field */
    OPTK_ALLOW,   /* --allow: one more prefix (checked by the server) */
    OPTK_CPUS     /* --cpu: a list of CPU numbers */
};

enum ttcp_optsection {
    OPTS_COMMON,   /* "Common options:" */
    OPTS_TRANSMIT, /* "Options specific to -t:" */
    OPTS_RECEIVE,  /* "Options specific to -r:" */
    OPTS_EXTRA,    /* "Extensions:" */
    OPTS_SERVER,   /* "Server and client:" */
    OPTS_HIDDEN    /* -t, -r: shown in the synopsis lines instead */
};

struct ttcp_optdef {
    char letter;           /* short option, or 0 */
    const char *long_name; /* long option without "--", or NULL */
    enum ttcp_optkind kind;
    size_t offset;         /* field in struct ttcp_options */
    int value;             /* OPTK_SET */
    enum ttcp_suffix suffix;
    uint64_t min, max;     /* OPTK_NUMBER; nanoseconds for OPTK_SECONDS */
    enum ttcp_optsection section;
    const char *synopsis;  /* "-l ##" as the usage text shows it */
    const char *help;      /* may hold "\n\t\t" continuation lines */
};

const struct ttcp_optdef *ttcp_optable(size_t *count);
/* The row of a short option letter, or of a long name (len bytes of name,
 * without "--"); NULL when there is none. */
const struct ttcp_optdef *ttcp_optable_letter(char c);
const struct ttcp_optdef *ttcp_optable_long(const char *name, size_t len);

#endif
