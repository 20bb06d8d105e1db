/* SPDX-License-Identifier: MIT */
/* test-prof-env: libcgwprof where the program runs: setuid (the
 * environment is not trusted), stripped with a separate debug file
 * (names from it), and loading and unloading plugins (the names of an
 * unloaded one kept). */
#include <errno.h>
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

/* Run program (prof-subject or a copy) in dir with args (up to two),
 * as user uid unless it is (uid_t)-1, with $CGWPROF_OUT set to out
 * unless it is NULL; its stderr into err.  A symlink
 * callgrind.out.<pid> to plant is made first, in the child, when plant
 * is not NULL.  Returns the child's pid; *status its wait status. */
static pid_t run_in(const char *dir, uid_t uid, const char *program, const char *out,
                    const char *plant, const char *err, const char *arg1, const char *arg2,
                    int *status)
{
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        char link[600];
        snprintf(link, sizeof link, "%s/callgrind.out.%ld", dir, (long)getpid());
        if (out != NULL)
            setenv("CGWPROF_OUT", out, 1);
        else
            unsetenv("CGWPROF_OUT");
        if ((uid != (uid_t)-1 && (setgid((gid_t)uid) != 0 || setuid(uid) != 0)) ||
            (plant != NULL && symlink(plant, link) != 0) || chdir(dir) != 0 ||
            freopen("/dev/null", "w", stdout) == NULL || freopen(err, "w", stderr) == NULL)
            _exit(126);
        execl(program, program, arg1, arg2, (char *)NULL);
        _exit(127);
    }
    CHECK(waitpid(pid, status, 0) == pid);
    return pid;
}

/* How often text occurs in the file at path. */
static int occurrences(const char *path, const char *text)
{
    char *all = cgwt_read_file(path, NULL);
    CHECK(all != NULL);
    int n = 0;
    for (const char *p = all; (p = strstr(p, text)) != NULL; p += strlen(text))
        n++;
    free(all);
    return n;
}

static void expect_untouched(const char *victim, const char *text)
{
    char *now = cgwt_read_file(victim, NULL);
    CHECK(now != NULL);
    CHECK_STR(now, text);
    free(now);
}

#define SECURE_NOTE "a setuid or setgid program writes no profile to a default path"

/* A folder of its own for the setuid runs, where the user nobody may
 * enter and write: under /tmp, not under $TMPDIR or the build, either
 * of which may sit in a folder only its owner can enter (/root, a
 * mktemp -d folder).  Returns 0 with its path in own and the folder
 * the program runs in (mode 0777) in dir, or -1 when nobody cannot
 * reach it (why printed). */
static int nobody_folder(char *own, size_t own_size, char *dir, size_t dir_size, uid_t nobody)
{
    snprintf(own, own_size, "/tmp/cgwt-setuid-XXXXXX");
    if (mkdtemp(own) == NULL || chmod(own, 0711) != 0) {
        printf("setuid: skipped (no folder of its own under /tmp: %s)\n", strerror(errno));
        return -1;
    }
    snprintf(dir, dir_size, "%s/run", own);
    CHECK(mkdir(dir, 0777) == 0 && chmod(dir, 0777) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        _exit(setgid((gid_t)nobody) == 0 && setuid(nobody) == 0 &&
                      access(dir, W_OK | X_OK) == 0 ? 0 : 1);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    printf("setuid: skipped (the user nobody cannot write %s)\n", dir);
    rmdir(dir);
    rmdir(own);
    return -1;
}

/* A setuid program: CGWPROF_OUT, which whoever runs it chooses, is
 * ignored, and no profile goes to the default path either (the user who
 * runs it chose the folder): it says so once.  cgwprof_dump() with a
 * path of its own still writes one, as its effective user.  And the
 * attack: an unprivileged user plants callgrind.out.<pid> as a symlink
 * to a root-owned file and runs a setuid-root program; the file stays
 * as it was.  The program is a copy setuid to root, run by the user
 * nobody: its dynamic loader runs as root, so it loads libcgwprof from
 * the build wherever that is (a copy setuid to nobody cannot when a
 * folder above the build is closed to others, as /root is).  Making a
 * program setuid takes root. */
static void test_setuid(void)
{
    const uid_t nobody = 65534;
    if (geteuid() != 0) {
        printf("setuid: skipped (it takes root to make a copy setuid to root)\n");
        return;
    }
#ifdef __SANITIZE_ADDRESS__
    /* it cannot stop a setuid process's threads, nor read its
     * environment to be told not to */
    printf("setuid: skipped (an ASan build: its leak check fails in a setuid process)\n");
    return;
#endif
    char own[512], dir[600], copy[700], steered[700], def[700], err[700], mine[700];
    if (nobody_folder(own, sizeof own, dir, sizeof dir, nobody) != 0)
        return;
    snprintf(copy, sizeof copy, "%s/prof-subject", dir);
    snprintf(steered, sizeof steered, "%s/steered.out", dir);
    snprintf(err, sizeof err, "%s/stderr", dir); /* where nobody may write */
    setuid_copy(copy, 0);
    int status;
    pid_t pid = run_in(dir, nobody, copy, steered, NULL, err, "graph", NULL, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(access(steered, F_OK) != 0);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    CHECK(access(def, F_OK) != 0);
    CHECK(occurrences(err, SECURE_NOTE) == 1);

    /* the program asks for a profile at a path of its own: written as
     * its effective user, root, not as nobody, who ran it */
    snprintf(mine, sizeof mine, "%s/asked.out", dir);
    pid = run_in(dir, nobody, copy, steered, NULL, err, "dump", mine, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    CHECK(stat(mine, &st) == 0);
    CHECK_U64(st.st_uid, 0);
    profile prof;
    cgwt_load_profile(mine, &prof);
    CHECK_U64(cgwt_calls(&prof.parts[0], "main", "outer"), 1);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    CHECK(access(def, F_OK) != 0 && access(steered, F_OK) != 0);

    /* the attack, by an unprivileged user on a setuid-root program */
    char victim[600];
    snprintf(victim, sizeof victim, "%s/root-only", cgwt_tmpdir());
    FILE *f = fopen(victim, "w");
    CHECK(f != NULL && fputs("root's\n", f) >= 0 && fclose(f) == 0);
    CHECK(chmod(victim, 0600) == 0);
    pid = run_in(dir, nobody, copy, victim, victim, err, "graph", NULL, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    expect_untouched(victim, "root's\n");
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    CHECK(lstat(def, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(occurrences(err, SECURE_NOTE) == 1);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf '%s'", own);
    CHECK(system(rm) == 0);
    printf("setuid: no default profile (said once), CGWPROF_OUT ignored, cgwprof_dump(path) "
           "written as root, a planted symlink to a root file not followed\n");
}

/* The default path, which nobody chose: a symlink or a file that is
 * there already is left alone (and said), and the program's own earlier
 * dump there is replaced. */
static void test_default_path(void)
{
    char dir[512], victim[600], def[600], err[600];
    snprintf(dir, sizeof dir, "%s/default", cgwt_tmpdir());
    CHECK(mkdir(dir, 0700) == 0);
    snprintf(victim, sizeof victim, "%s/victim", cgwt_tmpdir());
    snprintf(err, sizeof err, "%s/stderr", cgwt_tmpdir());
    FILE *f = fopen(victim, "w");
    CHECK(f != NULL && fputs("mine\n", f) >= 0 && fclose(f) == 0);
    const char *subject = getenv("CGW_PROF_SUBJECT");
    int status;
    pid_t pid = run_in(dir, (uid_t)-1, subject, NULL, victim, err, "graph", NULL, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    expect_untouched(victim, "mine\n");
    CHECK(occurrences(err, "a symlink is there, not written by this process") == 1);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    CHECK(unlink(def) == 0);

    /* dumped to the default path mid-run, then again at exit */
    pid = run_in(dir, (uid_t)-1, subject, NULL, NULL, err, "dump", "default", &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(occurrences(err, "libcgwprof") == 0);
    snprintf(def, sizeof def, "%s/callgrind.out.%ld", dir, (long)pid);
    profile prof;
    cgwt_load_profile(def, &prof);
    CHECK_U64(cgwt_calls(&prof.parts[0], "main", "outer"), 2);
    CHECK(unlink(def) == 0);
    printf("default path: a planted symlink left alone, the program's own dump replaced\n");
}

int main(void)
{
    test_debug_file();
    test_dlclose();
    test_setuid();
    test_default_path();
    return 0;
}
