/* SPDX-License-Identifier: MIT */
/* test-prof-env: libcgwprof where the program runs: setuid (the
 * environment is not trusted), stripped with a separate debug file
 * (names from it), and loading and unloading plugins (the names of an
 * unloaded one kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proftest.h"

/* Run the stripped copy of prof-subject named name (in the test's
 * folder): its functions are named all the same, with their file when
 * built with libdw. */
static void run_stripped(const char *name)
{
    char copy[512], path[600];
    snprintf(copy, sizeof copy, "%s/%s", cgwt_tmpdir(), name);
    snprintf(path, sizeof path, "%s.out", copy);
    cgwt_subject_path = copy;
    cgwt_run_subject(path, "/dev/null", "graph", NULL);
    cgwt_subject_path = NULL;
    profile prof;
    cgwt_load_profile(path, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "main", "outer", 3 },
                        { "inner", "spin", 6 },
                        { "main", "ns::thing(int)", 1 });
    const char *dw = getenv("CGW_HAVE_LIBDW");
    if (dw != NULL && strcmp(dw, "yes") == 0) {
        const char *file = cgwt_fn_named(p, "outer")->file;
        size_t n = strlen(file);
        CHECK(n > 15 && strcmp(file + n - 15, "/prof-subject.c") == 0);
    }
}

/* Stripped copies of prof-subject, their symbols in a separate debug
 * file: one that .gnu_debuglink names (beside it), one found by build ID
 * under $CGWPROF_DEBUGDIR/.build-id. */
static void test_debug_file(void)
{
    if (system("command -v objcopy >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1") != 0) {
        printf("debug file: skipped (no objcopy or readelf)\n");
        return;
    }
    const char *tmp = cgwt_tmpdir();
    char cmd[4096], root[512];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && cp '%s' ps && objcopy --only-keep-debug ps ps.debug && "
             "objcopy --strip-all --add-gnu-debuglink=ps.debug ps linked && "
             "objcopy --strip-all ps by-id && chmod +x linked by-id && "
             "! nm linked 2>/dev/null | grep -q outer && "
             "id=$(readelf -n ps | sed -n 's/.*Build ID: *//p') && [ -n \"$id\" ] && "
             "d=root/.build-id/$(echo $id | cut -c1-2) && mkdir -p $d && "
             "cp ps.debug $d/$(echo $id | cut -c3-).debug",
             tmp, getenv("CGW_PROF_SUBJECT"));
    CHECK(system(cmd) == 0);
    run_stripped("linked");
    snprintf(root, sizeof root, "%s/root", tmp);
    setenv("CGWPROF_DEBUGDIR", root, 1);
    run_stripped("by-id");
    unsetenv("CGWPROF_DEBUGDIR");
    printf("debug file: stripped programs named from their .gnu_debuglink and build-ID files\n");
}

/* Calls into a plugin that dlclose() unloaded keep its names, though
 * another plugin may be loaded at its address later; a dlclose() that
 * leaves it loaded (a second handle) changes nothing. */
static void test_dlclose(void)
{
    const char *dir = getenv("CGW_PROF_PLUGINS");
    char plugin[4096], out[512], path[512];
    snprintf(plugin, sizeof plugin, "%s/libprofplug-a.so", dir != NULL ? dir : ".");
    if (dir == NULL || access(plugin, R_OK) != 0) {
        printf("dlclose: skipped (no shared plugins: a static build)\n");
        return;
    }
    snprintf(out, sizeof out, "%s/dlclose.stdout", cgwt_tmpdir());
    snprintf(path, sizeof path, "%s/dlclose.out", cgwt_tmpdir());
    cgwt_run_subject(path, out, "dlclose", dir);
    size_t len;
    char *where = cgwt_read_file(out, &len);
    CHECK(where != NULL);
    profile prof;
    cgwt_load_profile(path, &prof);
    part *p = &prof.parts[0];
    CGWT_CHECK_CALLS(p, { "call_plugin", "plug_a_entry", 7 },
                        { "plug_a_entry", "plug_a_work", 7 },
                        { "call_plugin", "plug_b_entry", 7 },
                        { "plug_b_entry", "plug_b_work", 7 });
    CHECK(strstr(cgwt_fn_named(p, "plug_a_work")->object, "libprofplug-a.so") != NULL);
    CHECK(strstr(cgwt_fn_named(p, "plug_b_work")->object, "libprofplug-b.so") != NULL);
    cgwt_check_times(p);
    printf("dlclose: the unloaded plugin's calls keep its names (the next one loaded %s)\n",
           strncmp(where, "same", 4) == 0 ? "at the same address" : "elsewhere");
    free(where);
}

/* A copy of prof-subject at copy, setuid to uid (and setgid). */
static void setuid_copy(const char *copy, uid_t uid)
{
    size_t len;
    char *bin = cgwt_read_file(getenv("CGW_PROF_SUBJECT"), &len);
    CHECK(bin != NULL);
    FILE *f = fopen(copy, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(bin, 1, len, f) == len);
    CHECK(fclose(f) == 0);
    free(bin);
    CHECK(chown(copy, uid, (gid_t)uid) == 0);
    CHECK(chmod(copy, 06755) == 0); /* after chown(), which clears the bits */
}

/* A setuid program: CGWPROF_OUT, which whoever runs it chooses, is
 * ignored; the profile goes to callgrind.out.<pid> in its folder,
 * written by its effective user.  Making a program setuid to another
 * user takes root. */
static void test_setuid(void)
{
    const uid_t nobody = 65534;
    if (geteuid() != 0) {
        printf("setuid: skipped (it takes root to make a copy setuid to another user)\n");
        return;
    }
#ifdef __SANITIZE_ADDRESS__
    /* it cannot stop a setuid process's threads, nor read its
     * environment to be told not to */
    printf("setuid: skipped (an ASan build: its leak check fails in a setuid process)\n");
    return;
#endif
    char dir[512], copy[600], steered[600], def[600];
    snprintf(dir, sizeof dir, "%s/setuid", cgwt_tmpdir());
    CHECK(chmod(cgwt_tmpdir(), 0711) == 0); /* the effective user passes through */
    CHECK(mkdir(dir, 0777) == 0 && chmod(dir, 0777) == 0);
    snprintf(copy, sizeof copy, "%s/prof-subject", dir);
    snprintf(steered, sizeof steered, "%s/steered.out", dir);
    setuid_copy(copy, nobody);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("CGWPROF_OUT", steered, 1);
        if (chdir(dir) != 0 || freopen("/dev/null", "w", stdout) == NULL)
            _exit(126);
        execl(copy, copy, "graph", (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(access(steered, F_OK) != 0);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    struct stat st;
    CHECK(stat(def, &st) == 0);
    CHECK_U64(st.st_uid, nobody);
    profile prof;
    cgwt_load_profile(def, &prof);
    CHECK_U64(cgwt_calls(&prof.parts[0], "main", "outer"), 3);
    printf("setuid: CGWPROF_OUT ignored, the profile in the program's folder\n");
}

int main(void)
{
    test_debug_file();
    test_dlclose();
    test_setuid();
    return 0;
}
