/*
 * reason.c - the reason of a refusal into the caller's buffer (reason.h).
 */
#include "reason.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ax_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* The length of the well-formed UTF-8 character at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_char_length(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int len = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
              : s[0] >= 0xe0 && s[0] <= 0xef ? 3
              : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                             : 0;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (s[0] == 0xe0)
        lo = 0xa0;
    else if (s[0] == 0xed)
        hi = 0x9f;
    else if (s[0] == 0xf0)
        lo = 0x90;
    else if (s[0] == 0xf4)
        hi = 0x8f;
    for (int k = 1; k < len; k++) {
        unsigned b = s[k];
        if (k == 1 ? b < lo || b > hi : (b & 0xc0) != 0x80)
            return 0;
    }
    return len;
}

void ax_json_error_text(const json_error_t *e, char *out, size_t size)
{
    const unsigned char *in = (const unsigned char *)e->text;
    size_t n = 0;
    while (*in && n + 5 < size) {
        int len = utf8_char_length(in);
        if (len <= 0) {
            out[n++] = '?';
            in++;
            continue;
        }
        memcpy(out + n, in, (size_t)len);
        n += (size_t)len;
        in += len;
    }
    out[n] = 0;
}
