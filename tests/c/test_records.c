/* The reference games of tests/data, played by an independent engine, loaded through the
 * C API: each record must replay (every action legal, every listed score equal), the
 * loaded game's scores must equal the record's final_scores (read here from the text),
 * and the record the API writes for it must load back to the same scores. Records listed
 * in tests/data/known-divergences.md must be refused as RECORD_MISMATCH.
 *
 * Usage: test_records KNOWN_DIVERGENCES_MD RECORDS.jsonl... */
#include "check.h"

#define MAX_KNOWN 256
static char known[MAX_KNOWN][64];
static size_t known_count = 0;

/* Reads one line of any length; NULL at end of file. The caller frees it. */
static char *read_line(FILE *f) {
    size_t cap = 1024, len = 0;
    char *line = (char *)malloc(cap);
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (len + 1 >= cap) {
            cap *= 2;
            line = (char *)realloc(line, cap);
        }
        line[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        free(line);
        return NULL;
    }
    line[len] = '\0';
    return line;
}

static void load_known(const char *path) {
    FILE *f = fopen(path, "r");
    char *line;
    CHECK(f != NULL);
    if (f == NULL) {
        return;
    }
    while ((line = read_line(f)) != NULL) {
        if (strncmp(line, "- id: ", 6) == 0 && known_count < MAX_KNOWN) {
            size_t n = strcspn(line + 6, " (");
            if (n < sizeof known[0]) {
                memcpy(known[known_count], line + 6, n);
                known[known_count][n] = '\0';
                known_count++;
            }
        }
        free(line);
    }
    fclose(f);
}

static int is_known(const char *id) {
    size_t i;
    for (i = 0; i < known_count; i++) {
        if (strcmp(known[i], id) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Copies the record's "id" into `out`. */
static void record_id(const char *line, char *out, size_t cap) {
    const char *at = strstr(line, "\"id\":\"");
    size_t n = 0;
    out[0] = '\0';
    if (at == NULL) {
        return;
    }
    at += 6;
    while (at[n] != '"' && at[n] != '\0' && n + 1 < cap) {
        n++;
    }
    memcpy(out, at, n);
    out[n] = '\0';
}

/* Reads "final_scores":[a,b,...] from the record text; returns the count. */
static uint32_t final_scores(const char *line, int32_t *out, uint32_t cap) {
    const char *at = strstr(line, "\"final_scores\":[");
    uint32_t n = 0;
    char *end;
    if (at == NULL) {
        return 0;
    }
    at += strlen("\"final_scores\":[");
    while (n < cap && *at != ']') {
        out[n++] = (int32_t)strtol(at, &end, 10);
        at = end;
        if (*at == ',') {
            at++;
        }
    }
    return n;
}

static void check_record(const char *line, long *loaded_ok, long *refused) {
    char id[64];
    int32_t expected[6], got[6], again[6];
    uint32_t n_expected, n = 0, needed = 0, i;
    CarcGame *game = NULL, *reloaded = NULL;
    CarcStatus status;
    char *written;
    record_id(line, id, sizeof id);
    n_expected = final_scores(line, expected, 6);
    status = carc_game_from_record(line, CARC_CHANCE_EXPLICIT, &game);
    if (is_known(id)) {
        EXPECT_STATUS(status, CARC_STATUS_RECORD_MISMATCH);
        CHECK(game == NULL);
        (*refused)++;
        carc_game_free(game);
        return;
    }
    EXPECT_OK(status);
    if (status != CARC_STATUS_OK) {
        fprintf(stderr, "record %s: %s\n", id, last_error_text());
        return;
    }
    (*loaded_ok)++;
    CHECK(n_expected >= 2);
    EXPECT_OK(carc_game_scores(game, got, 6, &n));
    CHECK(n == n_expected);
    for (i = 0; i < n && i < n_expected; i++) {
        CHECK(got[i] == expected[i]);
    }
    EXPECT_OK(carc_game_to_record(game, id, NULL, 0, &needed));
    written = (char *)malloc(needed);
    EXPECT_OK(carc_game_to_record(game, id, written, needed, &n));
    EXPECT_OK(carc_game_from_record(written, CARC_CHANCE_SAMPLED, &reloaded));
    if (reloaded != NULL) {
        EXPECT_OK(carc_game_scores(reloaded, again, 6, &n));
        for (i = 0; i < n && i < n_expected; i++) {
            CHECK(again[i] == expected[i]);
        }
    }
    free(written);
    carc_game_free(reloaded);
    carc_game_free(game);
}

int main(int argc, char **argv) {
    long loaded_ok = 0, refused = 0;
    int a;
    if (argc < 3) {
        fprintf(stderr, "usage: %s KNOWN_DIVERGENCES_MD RECORDS.jsonl...\n", argv[0]);
        return 2;
    }
    load_known(argv[1]);
    CHECK(known_count > 0);
    for (a = 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        char *line;
        CHECK(f != NULL);
        if (f == NULL) {
            continue;
        }
        while ((line = read_line(f)) != NULL) {
            if (line[0] == '{') {
                check_record(line, &loaded_ok, &refused);
            }
            free(line);
        }
        fclose(f);
    }
    CHECK(loaded_ok > 0);
    CHECK(refused == (long)known_count);
    printf("reference games: %ld reproduced, %ld known divergences refused\n", loaded_ok,
           refused);
    return finish("c-records");
}
