/* SPDX-License-Identifier: MIT */
/* demo.c - the program that ./quickstart demo profiles with libcgwprof.
 * It counts the words of a generated text in a hash table, sorts them by
 * count with qsort() and with a recursive merge sort, and prints the
 * most frequent.  Build it with -finstrument-functions and link
 * libcgwprof; nothing in it knows about the profiler:
 *
 *   cc -g -finstrument-functions demo.c $(pkg-config --cflags --libs libcgwprof)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4096

typedef struct word {
    char text[16];
    unsigned count;
    struct word *next;
} word;

static word *buckets[NBUCKETS];
static word *words[NBUCKETS * 4];
static size_t nwords;

/* A text of n words drawn from a small vocabulary, skewed like prose. */
static char *make_text(unsigned n)
{
    static const char *syllables[] = { "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo" };
    char *text = malloc((size_t)n * 8 + 1), *p = text;
    unsigned seed = 12345;
    for (unsigned i = 0; text != NULL && i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned len = 1 + (seed >> 16) % 4;
        for (unsigned k = 0; k < len; k++)
            p += sprintf(p, "%s", syllables[(seed >> (4 + 3 * k)) % 8]);
        *p++ = ' ';
    }
    if (text != NULL)
        *p = '\0';
    return text;
}

static unsigned hash_word(const char *s, size_t len)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void count_word(const char *s, size_t len)
{
    if (len >= sizeof words[0]->text)
        len = sizeof words[0]->text - 1;
    unsigned h = hash_word(s, len) % NBUCKETS;
    for (word *w = buckets[h]; w != NULL; w = w->next) {
        if (strncmp(w->text, s, len) == 0 && w->text[len] == '\0') {
            w->count++;
            return;
        }
    }
    word *w = calloc(1, sizeof *w);
    if (w == NULL || nwords == sizeof words / sizeof words[0]) {
        free(w);
        return;
    }
    memcpy(w->text, s, len);
    w->count = 1;
    w->next = buckets[h];
    buckets[h] = words[nwords++] = w;
}

static void count_words(const char *text)
{
    while (*text != '\0') {
        size_t len = strcspn(text, " ");
        if (len > 0)
            count_word(text, len);
        text += len + (text[len] == ' ');
    }
}

static int by_count(const void *a, const void *b)
{
    const word *x = *(word *const *)a, *y = *(word *const *)b;
    return x->count != y->count ? (x->count < y->count) - (x->count > y->count)
                                : strcmp(x->text, y->text);
}

static void merge(word **a, size_t n, size_t mid, word **tmp)
{
    size_t i = 0, j = mid, k = 0;
    while (i < mid && j < n)
        tmp[k++] = by_count(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

static void merge_sort(word **a, size_t n, word **tmp)
{
    if (n < 2)
        return;
    merge_sort(a, n / 2, tmp);
    merge_sort(a + n / 2, n - n / 2, tmp);
    merge(a, n, n / 2, tmp);
}

static void free_words(void)
{
    for (size_t i = 0; i < nwords; i++)
        free(words[i]);
}

int main(void)
{
    char *text = make_text(200000);
    if (text == NULL)
        return 1;
    count_words(text);
    free(text);
    word **copy = malloc(nwords * sizeof *copy), **tmp = malloc(nwords * sizeof *tmp);
    if (copy == NULL || tmp == NULL)
        return 1;
    memcpy(copy, words, nwords * sizeof *copy);
    qsort(words, nwords, sizeof *words, by_count);
    merge_sort(copy, nwords, tmp);
    for (size_t i = 0; i < nwords; i++)
        if (copy[i] != words[i])
            return 1; /* both sorts agree */
    printf("%zu distinct words; the most frequent:", nwords);
    for (size_t i = 0; i < 5 && i < nwords; i++)
        printf(" %s (%u)", words[i]->text, words[i]->count);
    printf("\n");
    free(copy);
    free(tmp);
    free_words();
    return 0;
}
