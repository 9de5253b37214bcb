/* dates.c - calendar dates as tco's files write them (YYYY-MM-DD), as days since 1970-01-01 (dates.h). */
#include "read/dates.h"

#include <stdio.h>

#include "base/text.h"

/* ---- dates (proleptic Gregorian; H. Hinnant's days_from_civil) ---------------- */

static int32_t days_from_civil(int y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int32_t)(era * 146097 + (int)doe - 719468);
}

bool tco_date_check(const char *text, int32_t *days, char *why, size_t why_size)
{
    static const char *const months[] = {"January", "February", "March",     "April",   "May",      "June",
                                         "July",    "August",   "September", "October", "November", "December"};
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    /* YYYY-MM-DD and nothing after it, read left to right (never past the string's end). */
#define DIGIT_AT(i) ((unsigned)(text[i] - '0') < 10)
    bool form = DIGIT_AT(0) && DIGIT_AT(1) && DIGIT_AT(2) && DIGIT_AT(3) && text[4] == '-' && DIGIT_AT(5) &&
                DIGIT_AT(6) && text[7] == '-' && DIGIT_AT(8) && DIGIT_AT(9) && text[10] == '\0';
#undef DIGIT_AT
    if (!form) {
        if (why)
            snprintf(why, why_size, "expected a date as YYYY-MM-DD, found '%s'", TCO_SHOWN(text));
        return false;
    }
    /* Ten characters, digits but the two '-': the fields read digit by digit. */
    int y = ((text[0] - '0') * 10 + (text[1] - '0')) * 100 + (text[2] - '0') * 10 + (text[3] - '0');
    int m = (text[5] - '0') * 10 + (text[6] - '0'), d = (text[8] - '0') * 10 + (text[9] - '0');
    if (y < 1900) {
        if (why)
            snprintf(why, why_size, "expected a date from 1900-01-01 on, found '%s'", text);
        return false;
    }
    if (m < 1 || m > 12) {
        if (why)
            snprintf(why, why_size, "no such day: '%s' names month %02d (months are 01 to 12)", text, m);
        return false;
    }
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int dim = mdays[m - 1] + (m == 2 && leap);
    if (d < 1 || d > dim) {
        if (why)
            snprintf(why, why_size, "no such day: '%s' (%s %d has %d days)", text, months[m - 1], y, dim);
        return false;
    }
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    return true;
}

bool tco_parse_date(const char *text, int32_t *days)
{
    return tco_date_check(text, days, NULL, 0);
}

void tco_format_date(int32_t days, char out[16])
{
    /* civil_from_days */
    int32_t z = days + 719468;
    const int32_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int y = (int)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    snprintf(out, 16, "%04d-%02d-%02d", (y + (m <= 2)) % 10000, (int)(m % 100), (int)(d % 100));
}
