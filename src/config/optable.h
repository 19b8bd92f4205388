/* The option table (optable.c): one row per option. It drives the parser
 * (parse_argv.c), the modes each option belongs to (rules.c) and the usage
 * text (cli/usage.c), so none of them can drift apart. */
#ifndef TTCP_OPTABLE_H
#define TTCP_OPTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "config/options.h"

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
    OPTK_CPUS,    /* --cpu: a list of CPU numbers */
    OPTK_DSCP,    /* --dscp: a code point's number or name -> the TOS byte */
    OPTK_TOS,     /* --tos: 0-255, decimal, 0x hex or 0 octal */
    OPTK_TARGETS  /* --third-party: one more prefix (checked by the server) */
};

enum ttcp_optsection {
    OPTS_COMMON,   /* "Common options:" */
    OPTS_TRANSMIT, /* "Options specific to -t:" */
    OPTS_RECEIVE,  /* "Options specific to -r:" */
    OPTS_EXTRA,    /* "Extensions:" */
    OPTS_SERVER,   /* "Server and client:" */
    OPTS_HIDDEN    /* -t, -r: shown in the synopsis lines instead */
};

/* The modes that take an option (a bit per enum ttcp_mode). An option of
 * the server's or the client's alone is refused, by name, in the others
 * (rules.c: the first such row in the table's order; a row with a "typed"
 * flag, or of kind SET, NUMBER, SECONDS, RATE, TEXT or ALLOW, whose value
 * it can see). */
#define OPTM_CLASSIC (1u << TTCP_MODE_CLASSIC)
#define OPTM_SERVER (1u << TTCP_MODE_SERVER)
#define OPTM_CLIENT (1u << TTCP_MODE_CLIENT)
#define OPTM_ANY (OPTM_CLASSIC | OPTM_SERVER | OPTM_CLIENT)

/* The `given` of a row without an "it was typed" flag. */
#define OPT_NO_GIVEN ((size_t)-1)

struct ttcp_optdef {
    char letter;           /* short option, or 0 */
    const char *long_name; /* long option without "--", or NULL */
    enum ttcp_optkind kind;
    size_t offset;         /* field in struct ttcp_options */
    int value;             /* OPTK_SET */
    enum ttcp_suffix suffix;
    uint64_t min, max;     /* OPTK_NUMBER; nanoseconds for OPTK_SECONDS */
    enum ttcp_optsection section;
    unsigned modes;        /* OPTM_*: the modes that take it */
    size_t given;          /* an int field set to 1 when it is typed, or OPT_NO_GIVEN */
    const char *synopsis;  /* "-l ##" as the usage text shows it */
    const char *help;      /* may hold "\n\t\t" continuation lines */
};

const struct ttcp_optdef *ttcp_optable(size_t *count);
/* The row of a short option letter, or of a long name (len bytes of name,
 * without "--"); NULL when there is none. */
const struct ttcp_optdef *ttcp_optable_letter(char c);
const struct ttcp_optdef *ttcp_optable_long(const char *name, size_t len);
/* The row's name as messages give it: "--max-time", or "-1" for a row
 * without a long name. */
const char *ttcp_optable_name(const struct ttcp_optdef *d, char *buf, size_t len);

#endif
