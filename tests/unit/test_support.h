/* Small helpers shared by the unit suites. */
#ifndef TTCP_TEST_SUPPORT_H
#define TTCP_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits a command line on spaces into argv (argv[0] = "ttcp"). */
static inline int split_args(char *line, char **argv, int max)
{
    int argc = 0;
    char *word = strtok(line, " ");
    argv[argc++] = "ttcp";
    while (word != NULL && argc < max - 1) {
        argv[argc++] = word;
        word = strtok(NULL, " ");
    }
    argv[argc] = NULL;
    return argc;
}

/* Reads a fixture file into buf (NUL-terminated); fails the test if absent. */
static inline size_t read_fixture(const char *name, char *buf, size_t len)
{
    char path[512];
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/%s", FIXTURES, name);
    f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "fixture missing: %s\n", path);
        exit(1);
    }
    n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

/* The line of text that starts with prefix and contains needle, copied
 * without its newline into out; returns 0 when there is none. */
static inline int find_line(const char *text, const char *needle, char *out, size_t len)
{
    const char *p = strstr(text, needle), *start, *end;
    if (p == NULL)
        return 0;
    for (start = p; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(p, '\n');
    if (end == NULL)
        end = p + strlen(p);
    snprintf(out, len, "%.*s", (int)(end - start), start);
    return 1;
}

#endif
