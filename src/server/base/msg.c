/*
 * msg.c - shared message texts (see msg.h).
 */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

msg *msg_new(size_t len)
{
    msg *m = malloc(sizeof *m + MSG_HEADROOM + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->len = len;
    msg_text(m)[len] = 0;
    return m;
}

msg *msg_copy(const char *text, size_t len)
{
    msg *m = msg_new(len);
    if (m)
        memcpy(msg_text(m), text, len);
    return m;
}

msg *msg_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    msg *m = n < 0 ? NULL : msg_new((size_t)n);
    if (!m)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(msg_text(m), (size_t)n + 1, fmt, ap);
    va_end(ap);
    return m;
}

msg *msg_join(const char *first, ...)
{
    va_list ap;
    size_t len = 0;
    va_start(ap, first);
    for (const char *t = first; t; t = va_arg(ap, const char *))
        len += strlen(t);
    va_end(ap);
    msg *m = msg_new(len);
    if (!m)
        return NULL;
    char *at = msg_text(m);
    va_start(ap, first);
    for (const char *t = first; t; t = va_arg(ap, const char *)) {
        size_t n = strlen(t);
        memcpy(at, t, n);
        at += n;
    }
    va_end(ap);
    return m;
}

msg *msg_ref(msg *m)
{
    m->refs++;
    return m;
}

void msg_unref(msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}
