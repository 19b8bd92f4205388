/* Process and thread CPU accounting (getrusage; Linux's schedstat and cpu
 * cgroup for the time it waited and the time a CPU quota held it) and the
 * platform's name. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "posix.h"
#include "ttcp/platform.h"

static int64_t tv_ns(struct timeval tv)
{
    return (int64_t)tv.tv_sec * 1000000000ll + (int64_t)tv.tv_usec * 1000;
}

/* The run-queue wait of a task, from Linux's schedstat ("ran waited
 * slices", nanoseconds); elsewhere the file is not there: not given. */
static void read_wait(const char *path, struct tt_cpu *out)
{
    long long ran, waited;
    FILE *f = fopen(path, "r");
    out->wait_ns = 0;
    out->wait_given = 0;
    if (!f)
        return;
    if (fscanf(f, "%lld %lld", &ran, &waited) == 2 && waited >= 0) {
        out->wait_ns = waited;
        out->wait_given = 1;
    }
    fclose(f);
}

/* --- a CPU quota's hold: Linux's cpu cgroup -------------------------------
 * The group comes from /proc/<self>/cgroup (cgroup v1's line naming the cpu
 * controller, else v2's "0::"), its directory from the hierarchy's mount in
 * /proc/self/mountinfo, its throttled time from the group's cpu.stat.local
 * or cpu.stat, its quota from cpu.max (v2) or cpu.cfs_quota_us and
 * cpu.cfs_period_us (v1), the group's and its parents'. Elsewhere (no such
 * files, no cpu controller) nothing is given. */

#define CG_MAX_DEPTH 64 /* parents looked at for a quota */

/* Whether a comma-separated list ("rw,cpu,cpuacct") holds word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    while (*list != '\0') {
        size_t len = strcspn(list, ",");
        if (len == n && strncmp(list, word, n) == 0)
            return 1;
        list += len;
        if (*list == ',')
            list++;
    }
    return 0;
}

/* The cpu cgroup of self ("/proc/self" or "/proc/thread-self"): v1's
 * "4:cpu,cpuacct:/a/b" first, else v2's "0::/a/b". 0 with *v2 set, or -1. */
static int cgroup_of(const char *self, char *group, size_t len, int *v2)
{
    char file[64], *line = NULL;
    size_t cap = 0;
    int found = -1;
    FILE *f;
    snprintf(file, sizeof file, "%s/cgroup", self);
    if ((f = fopen(file, "r")) == NULL)
        return -1;
    while (getline(&line, &cap, f) > 0) {
        char *ctl = strchr(line, ':'), *path;
        if (ctl == NULL || (path = strchr(ctl + 1, ':')) == NULL)
            continue;
        *ctl++ = '\0';
        *path++ = '\0';
        path[strcspn(path, "\n")] = '\0';
        if (strlen(path) >= len)
            continue;
        if (has_word(ctl, "cpu")) {
            strcpy(group, path);
            *v2 = 0;
            found = 0;
            break;
        }
        if (*ctl == '\0' && strcmp(line, "0") == 0) { /* v2: used if no v1 line names cpu */
            strcpy(group, path);
            *v2 = 1;
            found = 0;
        }
    }
    free(line);
    fclose(f);
    return found;
}

/* A mountinfo line's root (4th field), mount point (5th), and after "-"
 * the file system type and its options. 0, or -1 for a line not so. */
static int mount_fields(char *line, char **root, char **mnt, char **type, char **super)
{
    char *save = NULL, *tok;
    int i = 0;
    line[strcspn(line, "\n")] = '\0';
    for (tok = strtok_r(line, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save), i++) {
        if (i == 3)
            *root = tok;
        else if (i == 4)
            *mnt = tok;
        else if (i > 5 && strcmp(tok, "-") == 0) {
            *type = strtok_r(NULL, " ", &save);
            (void)strtok_r(NULL, " ", &save); /* the source */
            *super = strtok_r(NULL, " ", &save);
            return *type != NULL && *super != NULL ? 0 : -1;
        }
    }
    return -1;
}

/* The group's path below a mount of root: "" for the root itself, NULL
 * when the group lies outside it. */
static const char *below(const char *root, const char *group)
{
    size_t n = strlen(root);
    if (strcmp(root, "/") == 0)
        return strcmp(group, "/") == 0 ? "" : group;
    if (strncmp(group, root, n) == 0 && (group[n] == '\0' || group[n] == '/'))
        return group + n;
    return NULL;
}

/* The group's directory, under a mount of its hierarchy (v1: a cgroup
 * mount with the cpu controller; v2: cgroup2); *mount_len: the mount
 * point's length in it. 0, or -1. */
static int cgroup_dir(const char *group, int v2, char *dir, size_t len, size_t *mount_len)
{
    char *line = NULL, *root = NULL, *mnt = NULL, *type = NULL, *super = NULL;
    size_t cap = 0;
    int rc = -1;
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (f == NULL)
        return -1;
    while (rc != 0 && getline(&line, &cap, f) > 0) {
        const char *rel;
        int n;
        if (mount_fields(line, &root, &mnt, &type, &super) != 0 ||
            (v2 ? strcmp(type, "cgroup2") != 0
                : strcmp(type, "cgroup") != 0 || !has_word(super, "cpu")) ||
            strchr(mnt, '\\') != NULL || (rel = below(root, group)) == NULL)
            continue; /* (a mount point with escaped characters is not followed) */
        n = snprintf(dir, len, "%s%s", mnt, rel);
        if (n > 0 && (size_t)n < len) {
            *mount_len = strlen(mnt);
            rc = 0;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* The group's throttled time: cpu.stat.local (the group's own count,
 * whichever quota held it) where the kernel has it, else cpu.stat; v1
 * counts nanoseconds (throttled_time), v2 microseconds (throttled_usec). */
static int read_throttled(const char *dir, int64_t *ns)
{
    static const char *const files[] = {"cpu.stat.local", "cpu.stat"};
    char path[PATH_MAX + 32], key[64];
    long long v;
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        int found = 0;
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if ((f = fopen(path, "r")) == NULL)
            continue;
        while (!found && fscanf(f, "%63s %lld", key, &v) == 2) {
            if (strcmp(key, "throttled_time") == 0 && v >= 0) {
                *ns = v;
                found = 1;
            } else if (strcmp(key, "throttled_usec") == 0 && v >= 0 && v < INT64_MAX / 1000) {
                *ns = v * 1000;
                found = 1;
            }
        }
        fclose(f);
        if (found)
            return 0;
    }
    return -1;
}

/* The first number of dir/name (-1 when there is none). */
static long long first_number(const char *dir, const char *name)
{
    char path[PATH_MAX + 32];
    long long v = -1;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    if (fscanf(f, "%lld", &v) != 1) /* (v2's "max": no number, no quota) */
        v = -1;
    fclose(f);
    return v;
}

/* One group's quota in millionths of a core; 0: none. v2's cpu.max is
 * "QUOTA PERIOD" or "max PERIOD", v1's quota -1 for none. */
static int64_t group_quota_ppm(const char *dir, int v2)
{
    long long quota, period;
    char path[PATH_MAX + 32];
    FILE *f;
    if (v2) {
        snprintf(path, sizeof path, "%s/cpu.max", dir);
        if ((f = fopen(path, "r")) == NULL)
            return 0;
        if (fscanf(f, "%lld %lld", &quota, &period) != 2)
            quota = period = -1;
        fclose(f);
    } else {
        quota = first_number(dir, "cpu.cfs_quota_us");
        period = first_number(dir, "cpu.cfs_period_us");
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return (int64_t)((double)quota * 1e6 / (double)period);
}

/* The tightest quota of the group and its parents up to the mount. */
static int64_t quota_ppm(char *dir, size_t mount_len, int v2)
{
    int64_t best = 0;
    int depth;
    for (depth = 0; depth < CG_MAX_DEPTH; depth++) {
        int64_t q = group_quota_ppm(dir, v2);
        char *slash = strrchr(dir, '/');
        if (q > 0 && (best == 0 || q < best))
            best = q;
        if (slash == NULL || (size_t)(slash - dir) < mount_len)
            break;
        *slash = '\0';
    }
    return best;
}

static void read_throttle(const char *self, struct tt_cpu *out)
{
    char group[PATH_MAX], dir[PATH_MAX];
    size_t mount_len = 0;
    int v2 = 0;
    out->throttled_ns = 0;
    out->throttle_given = 0;
    out->quota_ppm = 0;
    if (cgroup_of(self, group, sizeof group, &v2) != 0 ||
        cgroup_dir(group, v2, dir, sizeof dir, &mount_len) != 0 ||
        read_throttled(dir, &out->throttled_ns) != 0)
        return;
    out->throttle_given = 1;
    out->quota_ppm = quota_ppm(dir, mount_len, v2);
}

/* The process's getrusage figures (memory and faults, for a thread too). */
static int process_usage(struct tt_cpu *out)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return tt_posix_fail();
    out->user_ns = tv_ns(ru.ru_utime);
    out->sys_ns = tv_ns(ru.ru_stime);
#ifdef __APPLE__
    out->maxrss_kib = ru.ru_maxrss / 1024; /* bytes there, KiB elsewhere */
#else
    out->maxrss_kib = ru.ru_maxrss;
#endif
    out->minflt = ru.ru_minflt;
    out->majflt = ru.ru_majflt;
    out->nvcsw = ru.ru_nvcsw;
    out->nivcsw = ru.ru_nivcsw;
    out->ixrss = ru.ru_ixrss;
    out->idrss_isrss = ru.ru_idrss + ru.ru_isrss;
    return 0;
}

int tt_cpu_times(struct tt_cpu *out)
{
    int rc = process_usage(out);
    if (rc != 0)
        return rc;
    read_wait("/proc/self/schedstat", out);
    read_throttle("/proc/self", out);
    return 0;
}

int tt_thread_cpu_times(struct tt_cpu *out)
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    int rc = process_usage(out); /* maxrss and the like: the process's */
    if (rc != 0 || getrusage(RUSAGE_THREAD, &ru) != 0)
        return rc != 0 ? rc : tt_posix_fail();
    out->user_ns = tv_ns(ru.ru_utime);
    out->sys_ns = tv_ns(ru.ru_stime);
    out->nvcsw = ru.ru_nvcsw;
    out->nivcsw = ru.ru_nivcsw;
#else
    struct timespec ts; /* user and system together: counted as user */
    int rc = process_usage(out);
    if (rc != 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return rc != 0 ? rc : tt_posix_fail();
    out->user_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
    out->sys_ns = 0;
#endif
    read_wait("/proc/thread-self/schedstat", out);
    read_throttle("/proc/thread-self", out);
    return 0;
}

const char *tt_platform_name(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) != 0)
        snprintf(buf, len, "POSIX sockets");
    else
        snprintf(buf, len, "%s %s %s, POSIX sockets", u.sysname, u.release, u.machine);
    return buf;
}
