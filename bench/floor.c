/* SPDX-License-Identifier: MIT */
/* floor: the least a reader of a Callgrind file must do, to measure
 * readers against: map the file, parse every number of every cost line
 * (a line that starts with a digit, '+', '-' or '*': decimal, 0x hex, a
 * relative step or '*'), with no check of anything, and skip every other
 * line.  Prints the sum of the numbers, so that no work is optimised away.
 *
 *   floor FILE */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The number at *p (its sign or '*' skipped), *p moved past it. */
static uint64_t number(const char **p)
{
    const char *c = *p;
    uint64_t v = 0;
    if (*c == '+' || *c == '-' || *c == '*')
        c++;
    if (c[0] == '0' && c[1] == 'x') {
        for (c += 2;; c++) {
            unsigned d = (unsigned)*c - '0', h = ((unsigned)*c | 32) - 'a';
            if (d < 10)
                v = v * 16 + d;
            else if (h < 6)
                v = v * 16 + h + 10;
            else
                break;
        }
    } else {
        while ((unsigned)*c - '0' < 10)
            v = v * 10 + (unsigned)(*c++ - '0');
    }
    *p = c;
    return v;
}

int main(int argc, char **argv)
{
    struct stat st;
    int fd = argc == 2 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        fprintf(stderr, "usage: floor FILE (a file that is not empty)\n");
        return 2;
    }
    const char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return 2;
    const char *end = p + st.st_size;
    while (end > p && end[-1] != '\n') /* a last line without its '\n' is not read */
        end--;
    uint64_t sum = 0, numbers = 0;
    while (p < end) {
        char c = *p;
        if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
            /* numbers one blank apart up to the '\n' (which stops them) */
            for (;;) {
                sum += number(&p);
                numbers++;
                if (*p != ' ')
                    break;
                p++;
            }
            while (*p != '\n') /* anything else: skipped */
                p++;
            p++;
        } else {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl + 1;
        }
    }
    printf("%llu numbers, sum %llu\n", (unsigned long long)numbers, (unsigned long long)sum);
    return 0;
}
