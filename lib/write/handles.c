/* SPDX-License-Identifier: MIT */
/* handles.c - names registered once (cgw_intern, cgw_intern_function)
 * and the calls that take their handles instead of strings (cgw_call_h
 * is in body.c, which inlines its lines as cgw_call's).  A handle is
 * a table entry with what makes it checkable: bits 0-31 the entry (index
 * + 1), 32-33 the table (+ 1), 34-47 the part (modulo 2^14), 48-63 the
 * writer's tag (a serial of the process, never 0).  So a handle of
 * another writer, part or kind is refused instead of naming some other
 * entry, and the check (cgwp_handle() in write.h) is one compare of the
 * upper half and one of the entry against the table's size. */
#include "write.h"


/* Writers opened one after another get different tags: a handle passed
 * to the wrong one of two open writers is always caught (for 65,535
 * writers in a row). */
uint16_t cgwp_next_tag(void)
{
    static unsigned serial;
#if defined(__GNUC__)
    unsigned tag = __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED);
#else
    unsigned tag = ++serial;
#endif
    return (uint16_t)(tag % 0xffffu + 1);
}

static cgw_name_id make(const cgw_writer *w, int kind, uint32_t entry)
{
    cgw_name_id id;
    id.bits = cgwp_handle_upper(w, kind) | entry;
    return id;
}

static const int states = CGWP_ST_HEADER | CGWP_ST_PART_HEADER | CGWP_ST_BODY;

cgw_name_id cgw_intern(cgw_writer *w, cgw_name_kind kind, const char *name)
{
    static const cgw_name_id none = { 0 };
    uint32_t entry = 0;
    cgw_status st = cgwp_enter(w, "cgw_intern", states);
    if (st == CGW_OK && kind != CGW_NAME_OBJECT && kind != CGW_NAME_FILE)
        st = cgwp_fail(w, CGW_EINVAL, "kind %d is neither CGW_NAME_OBJECT nor CGW_NAME_FILE",
                       (int)kind);
    int table = kind == CGW_NAME_OBJECT ? CGWP_OB : CGWP_FL;
    if (st == CGW_OK)
        st = cgwp_intern(w, table, table == CGWP_OB ? "object name" : "file name", name, 0, 0,
                         &entry);
    return st == CGW_OK ? make(w, table, entry) : none;
}

cgw_name_id cgw_intern_function(cgw_writer *w, cgw_name_id object, cgw_name_id file,
                                const char *name)
{
    static const cgw_name_id none = { 0 };
    uint32_t ob, fl, fn = 0;
    cgw_status st = cgwp_enter(w, "cgw_intern_function", states);
    if (st == CGW_OK)
        st = cgwp_handle(w, object, CGWP_OB, "the object", 1, &ob);
    if (st == CGW_OK)
        st = cgwp_handle(w, file, CGWP_FL, "the file", 1, &fl);
    if (st == CGW_OK && fl == 0)
        st = cgwp_unknown_file(w, &fl);
    if (st == CGW_OK)
        st = cgwp_intern(w, CGWP_FN, "function name", name, ob, fl, &fn);
    return st == CGW_OK ? make(w, CGWP_FN, fn) : none;
}

cgw_status cgw_function_h(cgw_writer *w, cgw_name_id fn)
{
    uint32_t entry;
    cgw_status st = cgwp_enter(w, "cgw_function_h", states);
    if (st == CGW_OK)
        st = cgwp_handle(w, fn, CGWP_FN, "the function", 0, &entry);
    if (st == CGW_OK)
        st = cgwp_enter_body(w, "cgw_function_h");
    if (st != CGW_OK)
        return st;
    const cgwp_name *name = &w->tables[CGWP_FN].names[entry - 1];
    return cgwp_open_function(w, name->scope_ob, name->scope_fl, entry);
}

cgw_status cgw_inline_file_h(cgw_writer *w, cgw_name_id file)
{
    uint32_t fl;
    cgw_status st = cgwp_enter_function(w, "cgw_inline_file_h");
    if (st == CGW_OK)
        st = cgwp_handle(w, file, CGWP_FL, "the file", 0, &fl);
    if (st != CGW_OK)
        return st;
    return cgwp_switch_file(w, fl);
}
