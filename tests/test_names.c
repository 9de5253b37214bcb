/* test_names.c - engine/base/names.c: SipHash-2-4 against the paper's test vector, fingerprints, names that
 * hash alike in any ASCII case, and the name index. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "suites.h"

/* SipHash-2-4 with the key 00 01 .. 0f over the 15 bytes 00 01 .. 0e is a129ca6149be45e5
 * (Aumasson and Bernstein 2012, appendix A; the reference implementation's vectors.h, entry 15). */
static void test_siphash_paper_vector(void)
{
    const uint64_t key[2] = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
    tco_hash h;
    tco_hash_begin(&h, key);
    for (unsigned char c = 0; c < 15; c++)
        tco_hash_byte(&h, c);
    CU_ASSERT_EQUAL(tco_hash_end(&h), 0xa129ca6149be45e5ULL);
    /* The empty message: 726fdb47dd0e0e31 (entry 0). */
    tco_hash_begin(&h, key);
    CU_ASSERT_EQUAL(tco_hash_end(&h), 0x726fdb47dd0e0e31ULL);
}

static void test_lower_feeds_lower_case(void)
{
    const uint64_t key[2] = {1, 2};
    tco_hash a, b;
    tco_hash_begin(&a, key);
    tco_hash_lower(&a, "Card_Price:D-M", 14); /* 14 bytes: one block of 8 and 6 more */
    tco_hash_begin(&b, key);
    for (const char *p = "card_price:d-m"; *p; p++)
        tco_hash_byte(&b, (unsigned char)*p);
    CU_ASSERT_EQUAL(tco_hash_end(&a), tco_hash_end(&b));
    CU_ASSERT_EQUAL(tco_hash_name(key, "ELECTRICITY_PRICE"), tco_hash_name(key, "electricity_price"));
    CU_ASSERT_NOT_EQUAL(tco_hash_name(key, "electricity_price"), tco_hash_name(key, "electricity_prices"));
}

static void test_fingerprint_is_fixed(void)
{
    const char *t = "[scenario]\ncards = 32\n";
    uint64_t f = tco_fingerprint(t, strlen(t));
    CU_ASSERT_EQUAL(f, tco_fingerprint(t, strlen(t)));
    CU_ASSERT_NOT_EQUAL(f, tco_fingerprint("[scenario]\ncards = 33\n", strlen(t)));
    tco_hash h; /* fed in pieces: the same */
    tco_fingerprint_begin(&h);
    for (size_t i = 0; t[i]; i++)
        tco_hash_byte(&h, (unsigned char)t[i]);
    CU_ASSERT_EQUAL(tco_hash_end(&h), f);
}

static void test_name_index(void)
{
    static char names[1000][8];
    tco_name_index ix = {0};
    for (size_t i = 0; i < 1000; i++) {
        snprintf(names[i], sizeof names[i], "n%zu", i);
        bool added = false;
        size_t *slot = tco_name_index_put(&ix, names[i], &added);
        CU_ASSERT_PTR_NOT_NULL_FATAL(slot);
        CU_ASSERT_TRUE(added);
        CU_ASSERT_EQUAL(*slot, SIZE_MAX); /* a new key's value */
        *slot = i;
    }
    CU_ASSERT_EQUAL(ix.n, 1000);
    CU_ASSERT_TRUE(ix.cap >= 2000 && (ix.cap & (ix.cap - 1)) == 0); /* at most half full, a power of two */
    size_t v = 0;
    CU_ASSERT_TRUE(tco_name_index_get(&ix, "n737", &v));
    CU_ASSERT_EQUAL(v, 737);
    CU_ASSERT_TRUE(tco_name_index_get(&ix, "N500", &v)); /* names compare in any ASCII case */
    CU_ASSERT_EQUAL(v, 500);
    CU_ASSERT_FALSE(tco_name_index_get(&ix, "n1000", &v));
    bool added = true;
    size_t *slot = tco_name_index_put(&ix, "N42", &added);
    CU_ASSERT_PTR_NOT_NULL_FATAL(slot);
    CU_ASSERT_FALSE(added);
    CU_ASSERT_EQUAL(*slot, 42);
    tco_name_index_free(&ix);
    CU_ASSERT_EQUAL(ix.n, 0);
    CU_ASSERT_FALSE(tco_name_index_get(&ix, "n1", NULL));
}

/* The name index: 5,000 names found case-insensitively, values kept through growth, absent names absent. */
static void test_name_index_5000(void)
{
    static char names[5000][8];
    tco_name_index ix = {0};
    for (int i = 0; i < 5000; i++) {
        snprintf(names[i], sizeof names[i], "T%05d", i);
        bool added = false;
        size_t *v = tco_name_index_put(&ix, names[i], &added);
        CU_ASSERT_FATAL(v != NULL);
        CU_ASSERT(added && *v == SIZE_MAX);
        *v = (size_t)i;
    }
    CU_ASSERT_EQUAL(ix.n, 5000);
    size_t v = 0;
    CU_ASSERT(tco_name_index_get(&ix, "t04999", &v) && v == 4999);
    CU_ASSERT(tco_name_index_get(&ix, "T00000", &v) && v == 0);
    CU_ASSERT(!tco_name_index_get(&ix, "T05000", NULL));
    bool added = true;
    size_t *again = tco_name_index_put(&ix, "t00042", &added);
    CU_ASSERT(again != NULL && !added && *again == 42 && ix.n == 5000);
    tco_name_index_free(&ix);
    CU_ASSERT(!tco_name_index_get(&ix, "T00000", NULL));
}

/* tco_hash_lower() gives what tco_hash_byte() gives fed the same bytes lower-cased, from any offset. */
static void test_hash_lower_is_bytewise(void)
{
    const uint64_t seed[2] = {UINT64_C(0x0123456789abcdef), UINT64_C(0xfedcba9876543210)};
    const char *text = "Input.Card_Price:Formula_With_A_Long_Name_0123456789";
    size_t n = strlen(text);
    int differ = 0;
    for (size_t head = 0; head <= 9; head++)
        for (size_t len = 0; head + len <= n; len++) {
            tco_hash a, b;
            tco_hash_begin(&a, seed);
            tco_hash_begin(&b, seed);
            for (size_t i = 0; i < head; i++) {
                tco_hash_byte(&a, (unsigned char)'x');
                tco_hash_byte(&b, (unsigned char)'x');
            }
            tco_hash_lower(&a, text + head, len);
            for (size_t i = head; i < head + len; i++) {
                char c = text[i];
                tco_hash_byte(&b, (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
            }
            differ += tco_hash_end(&a) != tco_hash_end(&b);
        }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(tco_hash_name(seed, "Card_Price"), tco_hash_name(seed, "card_price"));
}

/* SipHash-2-4 itself: the reference test vectors (key 00 01 .. 0f, message 00 01 .. of each length; the
 * paper's appendix A gives the 15-byte one), fed byte by byte and 8 at a time; tco_fingerprint() is the
 * byte-by-byte fingerprint for every length and alignment. */
static void test_siphash_vectors(void)
{
    const uint64_t key[2] = {UINT64_C(0x0706050403020100), UINT64_C(0x0f0e0d0c0b0a0908)};
    unsigned char msg[64];
    for (int i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    const struct {
        size_t len;
        uint64_t want;
    } vectors[] = {{0, UINT64_C(0x726fdb47dd0e0e31)}, {15, UINT64_C(0xa129ca6149be45e5)}};
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        tco_hash a, b;
        tco_hash_begin(&a, key);
        tco_hash_begin(&b, key);
        for (size_t i = 0; i < vectors[v].len; i++)
            tco_hash_byte(&a, msg[i]);
        tco_hash_lower(&b, (const char *)msg, vectors[v].len); /* no letters among bytes 0..14 */
        CU_ASSERT_EQUAL(tco_hash_end(&a), vectors[v].want);
        CU_ASSERT_EQUAL(tco_hash_end(&b), vectors[v].want);
    }
    const char *text = "[input.Card_Price]\nfrom = card.price\n; a template's bytes, any of them\n\xE7\x94\xB5";
    int differ = 0;
    for (size_t head = 0; head < 8; head++)
        for (size_t len = 0; head + len <= strlen(text); len++) {
            tco_hash h;
            tco_fingerprint_begin(&h);
            for (size_t i = head; i < head + len; i++)
                tco_hash_byte(&h, (unsigned char)text[i]);
            differ += tco_hash_end(&h) != tco_fingerprint(text + head, len);
        }
    CU_ASSERT_EQUAL(differ, 0);
}

CU_ErrorCode register_names_suite(void)
{
    CU_pSuite s = CU_add_suite("names", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "SipHash-2-4: the paper's vectors", test_siphash_paper_vector) ||
        !CU_add_test(s, "lower-cased feeding and names in any case", test_lower_feeds_lower_case) ||
        !CU_add_test(s, "fingerprints: fixed key, in pieces", test_fingerprint_is_fixed) ||
        !CU_add_test(s, "the name index: 1,000 names", test_name_index) ||
        !CU_add_test(s, "the name index: 5,000 names", test_name_index_5000) ||
        !CU_add_test(s, "tco_hash_lower() hashes as tco_hash_byte()", test_hash_lower_is_bytewise) ||
        !CU_add_test(s, "SipHash-2-4 test vectors; tco_fingerprint() bytewise", test_siphash_vectors))
        return CU_get_error();
    return CUE_SUCCESS;
}
