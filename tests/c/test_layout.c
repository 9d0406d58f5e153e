/* The observation layout through the C ABI, checked against the tables of
 * docs/observations.md as a client written from the documentation reads them:
 *   * the layout version (function and header macro) is the one the document shows;
 *   * every plane's name and index, every global block's name, offset and shape, every
 *     block of ids' name and first id (W = 32) are the document's;
 *   * 2-D global blocks are row-major: the supply of relative seat r and figure f is at
 *     supply + 5·r + f (checked against carc_game_supply), also under a preset whose
 *     block keeps fewer seats and figures;
 *   * the slots and channels of the sizes are the sides of the SLOT block of a preset;
 *   * between the CELL id of a bridge placement (BR2) and its BRIDGE id only the rows
 *     the document lists as following the focus change (legal-placement included);
 *   * a tile that fits only with a bridge is discarded with the PASS id, the last id.
 *
 * Usage: test_layout DOCS/observations.md [games]   (default 3) */
#include "check.h"

#define MAX_LINE 4096
#define MAX_IDS 16384

static int8_t mask[MAX_IDS];
static CarcAction actions[4096];

static CarcGame *new_game(const char *json) {
    CarcGame *game = NULL;
    EXPECT_OK(carc_game_new(json, &game));
    return game;
}

/* The generated part `name` of the document: the lines between its markers. */
static char **part_lines(FILE *doc, const char *name, int *count) {
    char line[MAX_LINE], begin[128], end[128];
    char **lines = NULL;
    int n = 0, inside = 0;
    snprintf(begin, sizeof begin, "<!-- generated: %s -->", name);
    snprintf(end, sizeof end, "<!-- end: %s -->", name);
    rewind(doc);
    while (fgets(line, sizeof line, doc)) {
        line[strcspn(line, "\n")] = 0;
        if (strcmp(line, begin) == 0) {
            inside = 1;
        } else if (strcmp(line, end) == 0) {
            break;
        } else if (inside) {
            lines = (char **)realloc(lines, (size_t)(n + 1) * sizeof *lines);
            lines[n] = (char *)malloc(strlen(line) + 1);
            strcpy(lines[n], line);
            n++;
        }
    }
    *count = n;
    return lines;
}

static void free_lines(char **lines, int n) {
    int i;
    for (i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

/* The text between the first pair of backquotes of `cell` into `out`. */
static int quoted(const char *cell, char *out, size_t size) {
    const char *a = strchr(cell, '`'), *b;
    size_t len;
    if (!a) return 0;
    b = strchr(a + 1, '`');
    if (!b) return 0;
    len = (size_t)(b - a - 1);
    if (len + 1 > size) return 0;
    memmove(out, a + 1, len); /* `out` may be `cell` itself */
    out[len] = 0;
    return 1;
}

/* Cell `k` (0-based) of a table row `| a | b | ... |` into `out`. */
static int cell(const char *row, int k, char *out, size_t size) {
    const char *p = row;
    int i;
    size_t len;
    const char *end;
    for (i = 0; i <= k; i++) {
        p = strchr(p, '|');
        if (!p) return 0;
        p++;
    }
    end = strchr(p, '|');
    if (!end) return 0;
    while (*p == ' ') p++;
    len = (size_t)(end - p);
    while (len > 0 && p[len - 1] == ' ') len--;
    if (len + 1 > size) return 0;
    memcpy(out, p, len);
    out[len] = 0;
    return 1;
}

static const char *plane_name(const CarcGame *game, uint32_t i) {
    const char *name = "";
    EXPECT_OK(carc_game_plane_name(game, i, &name));
    return name;
}

static uint32_t block_count(const CarcGame *game, CarcLayoutPart part) {
    uint32_t n = 0;
    EXPECT_OK(carc_game_layout_block_count(game, part, &n));
    return n;
}

static CarcLayoutBlock block_at(const CarcGame *game, CarcLayoutPart part, uint32_t i) {
    CarcLayoutBlock b;
    memset(&b, 0, sizeof b);
    EXPECT_OK(carc_game_layout_block(game, part, i, &b));
    return b;
}

/* The block named `name` of `part`, or -1. */
static int find_block(const CarcGame *game, CarcLayoutPart part, const char *name,
                      CarcLayoutBlock *out) {
    uint32_t i, n = block_count(game, part);
    for (i = 0; i < n; i++) {
        *out = block_at(game, part, i);
        if (strcmp(out->name, name) == 0) return (int)i;
    }
    return -1;
}

static void check_version(FILE *doc) {
    int n, i, found = 0;
    char **lines = part_lines(doc, "sizes", &n);
    char want[64];
    snprintf(want, sizeof want, "**Layout version `%016llx`**",
             (unsigned long long)carc_layout_version());
    CHECK(carc_layout_version() == CARC_LAYOUT_VERSION);
    for (i = 0; i < n; i++) {
        if (strstr(lines[i], want)) found = 1;
    }
    CHECK(found);
    free_lines(lines, n);
}

/* Every plane of the full layout is the document's row of the same index. */
static void check_planes(FILE *doc, const CarcGame *game, uint32_t planes) {
    int n, i;
    uint32_t rows = 0;
    char **lines = part_lines(doc, "planes", &n);
    for (i = 2; i < n; i++) {
        char index[32], name[128];
        unsigned long k;
        if (!cell(lines[i], 0, index, sizeof index) || !cell(lines[i], 1, name, sizeof name)) {
            CHECK(!"a plane row");
            continue;
        }
        k = strtoul(index, NULL, 10);
        CHECK(k == rows);
        if (quoted(name, name, sizeof name)) CHECK(strcmp(plane_name(game, (uint32_t)k), name) == 0);
        rows++;
    }
    CHECK(rows == planes);
    free_lines(lines, n);
}

/* Every global block: name, offset, length and shape ("6 × 5 (relative seat × figure)"). */
static void check_globals(FILE *doc, const CarcGame *game, uint32_t globals_len) {
    int n, i;
    uint32_t blocks = block_count(game, CARC_LAYOUT_PART_GLOBALS), k = 0, total = 0;
    char **lines = part_lines(doc, "globals", &n);
    for (i = 2; i < n; i++, k++) {
        char range[64], name[128], shape[256];
        unsigned long start, end;
        uint32_t dims[3] = {1, 1, 1}, rank = 0, d;
        const char *p;
        CarcLayoutBlock b;
        if (!cell(lines[i], 0, range, sizeof range) || !cell(lines[i], 1, name, sizeof name) ||
            !cell(lines[i], 2, shape, sizeof shape) || !quoted(name, name, sizeof name)) {
            CHECK(!"a global row");
            continue;
        }
        start = strtoul(range, NULL, 10);
        p = strstr(range, "..");
        end = p ? strtoul(p + 2, NULL, 10) : start + 1;
        if (k >= blocks) {
            CHECK(!"as many blocks as rows");
            break;
        }
        b = block_at(game, CARC_LAYOUT_PART_GLOBALS, k);
        CHECK(strcmp(b.name, name) == 0);
        CHECK(b.start == start);
        CHECK(b.len == end - start);
        /* The shape: numbers separated by " × " before the parenthesis; "1" is rank 0. */
        if (strcmp(shape, "1") != 0) {
            p = shape;
            while (rank < 3) {
                dims[rank++] = (uint32_t)strtoul(p, (char **)&p, 10);
                if (strncmp(p, " \xc3\x97 ", 4) != 0) break; /* " × " in UTF-8 */
                p += 4;
            }
        }
        CHECK(b.rank == rank);
        for (d = 0; d < rank; d++) CHECK(b.shape[d] == dims[d]);
        total += b.len;
    }
    CHECK(k == blocks);
    CHECK(total == globals_len);
    free_lines(lines, n);
}

/* The id blocks: names (the document writes them in capitals) and first ids at W = 32. */
static void check_ids(FILE *doc, const CarcGame *game, uint32_t actions_len) {
    int n, i;
    uint32_t blocks = block_count(game, CARC_LAYOUT_PART_IDS), k = 0;
    char **lines = part_lines(doc, "ids", &n);
    for (i = 2; i < n && k < blocks; i++, k++) {
        char name[64], first[128];
        const char *p;
        size_t j;
        unsigned long start;
        CarcLayoutBlock b = block_at(game, CARC_LAYOUT_PART_IDS, k);
        if (!cell(lines[i], 0, name, sizeof name) || !quoted(name, name, sizeof name) ||
            !cell(lines[i], 1, first, sizeof first)) {
            CHECK(!"an id row");
            continue;
        }
        for (j = 0; name[j]; j++) name[j] = (char)(name[j] - 'A' + 'a');
        CHECK(strcmp(b.name, name) == 0);
        p = strchr(first, '(');
        start = p ? strtoul(p + 1, NULL, 10) : strtoul(first, NULL, 10);
        CHECK(b.start == start);
    }
    CHECK(k == blocks && i == n);
    {
        CarcLayoutBlock pass = block_at(game, CARC_LAYOUT_PART_IDS, blocks - 1);
        CHECK(strcmp(pass.name, "pass") == 0 && pass.start == actions_len - 1 && pass.rank == 0);
    }
    free_lines(lines, n);
}

/* A client reads the supply of each seat at supply + shape[1]·r + f, with the labels
 * naming the figures the block keeps. */
static void check_supply(const char *json) {
    CarcGame *game = new_game(json);
    CarcObservationSizes sizes;
    CarcLayoutBlock supply;
    uint32_t players = 0, pn = 0, gn = 0, seat, r, f;
    uint8_t *planes;
    float *globals;
    int index;
    EXPECT_OK(carc_game_observation_sizes(game, &sizes));
    EXPECT_OK(carc_game_num_players(game, &players));
    planes = (uint8_t *)malloc(sizes.planes_len);
    globals = (float *)malloc(sizeof(float) * sizes.globals_len);
    index = find_block(game, CARC_LAYOUT_PART_GLOBALS, "supply", &supply);
    CHECK(index >= 0 && supply.rank == 2);
    CHECK(supply.shape[0] == players || (strstr(json, "preset") == NULL && supply.shape[0] == 6));
    EXPECT_OK(carc_game_observe(game, 1, planes, sizes.planes_len, &pn, globals,
                                sizes.globals_len, &gn));
    for (r = 0; index >= 0 && r < supply.shape[0]; r++) {
        CarcSupply s;
        memset(&s, 0, sizeof s); /* seats past the players are padding: 0 */
        seat = (1 + r) % players; /* relative seat r of player 1 */
        if (r < players) EXPECT_OK(carc_game_supply(game, seat, &s));
        for (f = 0; f < supply.shape[1]; f++) {
            const char *label = "";
            uint8_t want = 255;
            EXPECT_OK(carc_game_layout_label(game, CARC_LAYOUT_PART_GLOBALS, (uint32_t)index, 1, f,
                                             &label));
            if (strcmp(label, "follower") == 0) want = s.follower;
            if (strcmp(label, "abbot") == 0) want = s.abbot;
            if (strcmp(label, "mayor") == 0) want = s.mayor;
            if (strcmp(label, "wagon") == 0) want = s.wagon;
            if (strcmp(label, "barn") == 0) want = s.barn;
            if (strcmp(label, "big-follower") == 0) want = s.big_follower;
            if (strcmp(label, "builder") == 0) want = s.builder;
            if (strcmp(label, "pig") == 0) want = s.pig;
            if (strcmp(label, "shepherd") == 0) want = s.shepherd;
            CHECK(globals[supply.start + supply.shape[1] * r + f] == (float)want);
        }
    }
    free(planes);
    free(globals);
    carc_game_free(game);
}

/* The slots and channels of the sizes are the sides of the SLOT block. */
static void check_slots(const char *json, uint32_t want_slots, uint32_t want_channels) {
    CarcGame *game = new_game(json);
    CarcObservationSizes sizes;
    CarcLayoutBlock slot;
    int index;
    EXPECT_OK(carc_game_observation_sizes(game, &sizes));
    index = find_block(game, CARC_LAYOUT_PART_IDS, "slot", &slot);
    CHECK(index >= 0);
    CHECK(slot.rank == 2 && slot.shape[0] == sizes.slots && slot.shape[1] == sizes.channels);
    if (want_slots) CHECK(sizes.slots == want_slots);
    if (want_channels) CHECK(sizes.channels == want_channels);
    if (index >= 0) {
        const char *label = "";
        EXPECT_OK(carc_game_layout_index_name(game, CARC_LAYOUT_PART_IDS, (uint32_t)index, 1, &label));
        CHECK(strcmp(label, "channel") == 0);
        EXPECT_OK(carc_game_layout_label(game, CARC_LAYOUT_PART_IDS, (uint32_t)index, 1, 0, &label));
        CHECK(strcmp(label, "follower") == 0);
    }
    carc_game_free(game);
}

/* Whether plane `p` or global `g` follows the focus (the document's list). */
static int focus_plane(const CarcGame *game, uint32_t p) {
    return strcmp(plane_name(game, p), "focus") == 0;
}

static int focus_global(const CarcGame *game, uint32_t g) {
    static const char *names[] = {"focus-pending", "focus-rotation", "focus-in-window", "focus-tile"};
    uint32_t i, n = block_count(game, CARC_LAYOUT_PART_GLOBALS);
    size_t k;
    for (i = 0; i < n; i++) {
        CarcLayoutBlock b = block_at(game, CARC_LAYOUT_PART_GLOBALS, i);
        if (g >= b.start && g < b.start + b.len) {
            for (k = 0; k < sizeof names / sizeof *names; k++)
                if (strcmp(b.name, names[k]) == 0) return 1;
            return 0;
        }
    }
    return 0;
}

/* Plays Bridges, Castles & Bazaars games by flat ids, preferring CELL ids; checks every
 * two-step placement and the discard of a tile that fits only with a bridge. */
static void check_bridge_steps(int games, long *pending_seen, long *discards_seen) {
    int g;
    for (g = 0; g < games; g++) {
        char json[256];
        CarcGame *game;
        CarcObservationSizes sizes;
        CarcLayoutBlock cell_block;
        uint8_t *p1, *p2;
        float *g1, *g2;
        uint32_t pn = 0, gn = 0, needed = 0, w2, turn = 0;
        TestRng rng;
        rng.state = 0x9e3779b97f4a7c15ULL + (uint64_t)g;
        snprintf(json, sizeof json,
                 "{\"players\":%d,\"sets\":[\"base\",\"bridges-castles-and-bazaars\"],\"seed\":%d,"
                 "\"window\":20}",
                 2 + g % 3, 100 + g);
        game = new_game(json);
        EXPECT_OK(carc_game_observation_sizes(game, &sizes));
        w2 = sizes.window * sizes.window;
        p1 = (uint8_t *)malloc(sizes.planes_len);
        p2 = (uint8_t *)malloc(sizes.planes_len);
        g1 = (float *)malloc(sizeof(float) * sizes.globals_len);
        g2 = (float *)malloc(sizeof(float) * sizes.globals_len);
        find_block(game, CARC_LAYOUT_PART_IDS, "cell", &cell_block);
        for (;;) {
            uint8_t over = 0, completed = 1;
            CarcMaskInfo info;
            CarcPhase phase;
            uint32_t to_play = 0, i, count = 0, offered = 0, cells = 0, pick, seen = 0;
            int want_cell;
            EXPECT_OK(carc_game_is_terminal(game, &over));
            if (over || turn++ > 4000) break;
            EXPECT_OK(carc_game_phase(game, &phase));
            EXPECT_OK(carc_game_to_play(game, &to_play));
            EXPECT_OK(carc_game_legal_mask(game, mask, MAX_IDS, &needed, &info));
            if (phase == CARC_PHASE_PLACE_TILE) {
                EXPECT_OK(carc_game_legal_actions(game, actions, 4096, &count));
                for (i = 0; i < count; i++) {
                    if (actions[i].kind == CARC_ACTION_KIND_PASS) {
                        uint32_t first = 0, second = 0;
                        EXPECT_OK(carc_game_action_to_flat(game, &actions[i], &first, &second));
                        CHECK(first == sizes.actions - 1 && second == CARC_NO_ACTION_ID);
                        CHECK(mask[sizes.actions - 1] == 1);
                        (*discards_seen)++;
                    }
                }
            }
            if (info.offered == 0) {
                EXPECT_OK(carc_game_legal_actions(game, actions, 4096, &count));
                EXPECT_OK(carc_game_apply(game, &actions[0]));
                continue;
            }
            for (i = 0; i < needed; i++) {
                if (mask[i] != 1) continue;
                offered++;
                if (i >= cell_block.start && i < cell_block.start + cell_block.len) cells++;
            }
            want_cell = cells > 0 && rng_below(&rng, 2) == 0;
            pick = rng_below(&rng, want_cell ? cells : offered);
            for (i = 0; i < needed; i++) {
                int is_cell = i >= cell_block.start && i < cell_block.start + cell_block.len;
                if (mask[i] != 1 || (want_cell && !is_cell)) continue;
                if (seen++ == pick) break;
            }
            EXPECT_OK(carc_game_observe(game, to_play, p1, sizes.planes_len, &pn, g1,
                                        sizes.globals_len, &gn));
            EXPECT_OK(carc_game_apply_flat(game, i, &completed));
            if (!completed && phase == CARC_PHASE_PLACE_TILE) {
                uint32_t p, k;
                (*pending_seen)++;
                EXPECT_OK(carc_game_observe(game, to_play, p2, sizes.planes_len, &pn, g2,
                                            sizes.globals_len, &gn));
                for (p = 0; p < sizes.planes; p++) {
                    if (focus_plane(game, p)) continue;
                    CHECK(memcmp(p1 + p * w2, p2 + p * w2, w2) == 0);
                }
                for (k = 0; k < sizes.globals_len; k++) {
                    if (!focus_global(game, k)) CHECK(g1[k] == g2[k]);
                }
            }
        }
        free(p1);
        free(p2);
        free(g1);
        free(g2);
        carc_game_free(game);
    }
}

/* Plays 2-player Bridges, Castles & Bazaars games with random legal actions until the
 * tile in hand fits only with a bridge (BR2: PASS is legal while placing), then checks
 * that its discard is the PASS id, the last id, offered by the mask. */
static void check_bridge_only_discard(void) {
    int g;
    for (g = 0; g < 2000; g++) {
        char json[256];
        CarcGame *game;
        TestRng rng;
        int steps;
        rng.state = 0x2545f4914f6cdd1dULL ^ (uint64_t)(g + 1) * 0x9e3779b97f4a7c15ULL;
        snprintf(json, sizeof json,
                 "{\"players\":2,\"sets\":[\"base\",\"bridges-castles-and-bazaars\"],"
                 "\"seed\":%d}",
                 g);
        game = new_game(json);
        for (steps = 0; steps < 4000; steps++) {
            uint8_t over = 0;
            uint32_t count = 0, i, needed = 0;
            CarcPhase phase;
            EXPECT_OK(carc_game_is_terminal(game, &over));
            if (over) break;
            EXPECT_OK(carc_game_phase(game, &phase));
            EXPECT_OK(carc_game_legal_actions(game, actions, 4096, &count));
            for (i = 0; phase == CARC_PHASE_PLACE_TILE && i < count; i++) {
                if (actions[i].kind == CARC_ACTION_KIND_PASS) {
                    CarcObservationSizes sizes;
                    CarcMaskInfo info;
                    uint32_t first = 0, second = 0;
                    uint8_t completed = 0;
                    EXPECT_OK(carc_game_observation_sizes(game, &sizes));
                    EXPECT_OK(carc_game_action_to_flat(game, &actions[i], &first, &second));
                    CHECK(first == sizes.actions - 1 && second == CARC_NO_ACTION_ID);
                    EXPECT_OK(carc_game_legal_mask(game, mask, MAX_IDS, &needed, &info));
                    CHECK(mask[sizes.actions - 1] == 1);
                    EXPECT_OK(carc_game_apply_flat(game, sizes.actions - 1, &completed));
                    CHECK(completed == 1);
                    printf("a tile that fits only with a bridge in game %d, discarded with id %u\n",
                           g, (unsigned)first);
                    carc_game_free(game);
                    return;
                }
            }
            EXPECT_OK(carc_game_apply(game, &actions[rng_below(&rng, count)]));
        }
        carc_game_free(game);
    }
    CHECK(!"a tile that fits only with a bridge in 2000 games");
}

int main(int argc, char **argv) {
    FILE *doc;
    CarcGame *full;
    CarcObservationSizes sizes;
    long pending = 0, discards = 0;
    int games = argc > 2 ? atoi(argv[2]) : 3;
    if (argc < 2) {
        fprintf(stderr, "usage: test_layout DOCS/observations.md [games]\n");
        return 2;
    }
    doc = fopen(argv[1], "r");
    if (!doc) {
        perror(argv[1]);
        return 2;
    }
    full = new_game("{\"players\":2,\"sets\":[\"base\"]}");
    EXPECT_OK(carc_game_observation_sizes(full, &sizes));
    CHECK(sizes.window == 32 && sizes.slots == 19 && sizes.channels == 20);
    check_version(doc);
    check_planes(doc, full, sizes.planes);
    check_globals(doc, full, sizes.globals_len);
    check_ids(doc, full, sizes.actions);
    carc_game_free(full);
    fclose(doc);

    check_supply("{\"players\":3,\"sets\":[\"base\",\"abbey-and-mayor\"]}");
    check_supply("{\"players\":3,\"sets\":[\"base\",\"abbey-and-mayor\"],\"preset\":\"compact\"}");
    check_slots("{\"players\":2,\"sets\":[\"base\"],\"preset\":\"in-play\"}", 0, 1);
    check_slots("{\"players\":4,\"sets\":[\"base\",\"count\"],\"preset\":\"compact\"}", 0, 0);
    check_slots("{\"players\":2,\"sets\":[\"base\"]}", 19, 20);

    check_bridge_only_discard();
    check_bridge_steps(games, &pending, &discards);
    printf("bridge placements picked by their square: %ld (with %ld more bridge-only tiles)\n",
           pending, discards);
    CHECK(pending > 0);
    return finish("test_layout");
}
