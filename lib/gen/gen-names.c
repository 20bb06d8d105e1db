/* SPDX-License-Identifier: MIT */
/* gen-names.c - the names and events of cgw_generate()'s profiles: names
 * shaped like real ones (blanks, "::", "<...>", "(", UTF-8), each unique
 * by its index, and Callgrind's event names with their usual shares. */
#include <stdio.h>

#include "gen.h"

static const char *const known_events[CGWG_KNOWN_EVENTS] = {
    "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim",
};
/* Per mille of Ir that each event costs on average, as in real runs. */
const unsigned cgwg_event_share[CGWG_KNOWN_EVENTS] = { 1000, 300, 150, 2, 10, 5, 1,
                                                       2,    1,   180, 9, 6, 2 };

void cgwg_event_name(unsigned event, char *out, size_t size)
{
    if (event < CGWG_KNOWN_EVENTS)
        snprintf(out, size, "%s", known_events[event]);
    else
        snprintf(out, size, "Ev%u", event + 1);
}

/* Names with spaces, "::", "<...>", "(" and UTF-8, each unique by index. */
void cgwg_function_name(char *out, size_t size, uint32_t func)
{
    static const char *const forms[] = {
        "%s_%u",
        "ns%u::Widget<int>::update(double) const",
        "std::vector<std::pair<int, char const*>, std::allocator<void>>::push_back_%u(int&&)",
        "parse_größe_%u",
        "計算_%u",
        "operator new[](unsigned long) [clone .part.%u]",
        "core::ptr::drop_in_place<alloc::vec::Vec<u8>>::h%08x",
        "Engine::tick(float)::{lambda(int)#%u}::operator()(int) const",
    };
    static const char *const verbs[] = { "read", "write", "hash", "sort", "scan", "emit" };
    if (func == 0) {
        snprintf(out, size, "main");
        return;
    }
    unsigned form = func % (unsigned)(sizeof forms / sizeof *forms);
    if (form == 0)
        snprintf(out, size, forms[0], verbs[func / 8 % 6], func);
    else
        snprintf(out, size, forms[form], func);
}

void cgwg_file_name(char *out, size_t size, uint32_t file)
{
    static const char *const forms[] = {
        "src/module%u.c", "src/engine/render_%u.cpp", "include/ns/vector_%u.hpp",
        "/usr/src/debug/my project/file %u.cc", "src/ünïcode_%u.c",
    };
    snprintf(out, size, forms[file % 5], file);
}

void cgwg_object_name(char *out, size_t size, uint32_t object)
{
    if (object == 0)
        snprintf(out, size, "/usr/bin/cggen-program");
    else
        snprintf(out, size, "/usr/lib/x86_64-linux-gnu/libpart%u.so.%u", object, 1 + object % 3);
}
