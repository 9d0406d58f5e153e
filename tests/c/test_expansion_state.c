/* A game client's view of the Royal Gift sets through the expansion state query alone:
 * the schema (carc_state_table_count, carc_state_table, carc_state_column, lookups by
 * name) and the rows of a game (carc_game_expansion_state). Random games of every set
 * of the box are played; at every decision the client finds its tables by name and
 * draws the count and the figures in the quarters, the castles, the bridges, the
 * bazaar and the titles from the rows, and checks them against the rules and the rest
 * of the ABI:
 *
 *   - each table in play has the rows its CarcStateRows says, values of their kinds
 *     (seats of the game, quarters, axes, tile kinds, 0 or 1);
 *   - every figure of every seat is in its supply, on the board, or in a quarter of the
 *     City of Carcassonne (B1, CC2, CC3);
 *   - every bridge and castle of every seat is in its supply or on the board (BR1, CA1);
 *   - the bazaar's offer and the bought tiles the seats hold are at most one tile per
 *     player, and its selector and bidder are seats without a tile (BZ1-BZ4);
 *   - the dragon and the fairy rows agree with carc_game_dragon and carc_game_fairy;
 *   - in a game of the Tower, the rows of towers, tower_pieces and prisoners agree with
 *     carc_game_towers, carc_game_tower_pieces and carc_game_prisoners (TW1, TW2, TW4),
 *     the deprecated getters that read them.
 *
 * Decisions are random, but castles are always built (CA1). With 4 games or more, every
 * table of the box shows rows in some game and a title is held. The last game's
 * final state is printed as a client would draw it.
 *
 * Usage: test_expansion_state [games]   (default 6) */
/* It calls the per-set getters kept for one release over the state tables. */
#define CARC_NO_DEPRECATED_WARNINGS
#include "check.h"

#define MAX_ROWS 1024
#define MAX_ACTIONS 8192
static CarcStateRow rows[MAX_ROWS];
static CarcAction actions[MAX_ACTIONS];
static CarcBoardFigure figures[512];

static const char *const ROYAL_GIFT =
    "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\",\"count\","
    "\"king-and-robber\",\"cult\",\"bridges-castles-and-bazaars\"],\"figures\":{\"abbot\":1},"
    "\"seed\":%u}";

/* The tables and columns this client reads, found by name once. */
typedef struct {
    uint32_t count, quarter_figures, castles, bridges, supply, bazaar, offer, held;
    uint32_t king, robber, dragon, fairy;
} Tables;
static Tables T;

static uint32_t table_named(const char *name) {
    uint32_t index = UINT32_MAX;
    EXPECT_OK(carc_state_table_index(name, &index));
    return index;
}

static uint32_t column_named(uint32_t table, const char *name) {
    uint32_t index = UINT32_MAX;
    EXPECT_OK(carc_state_column_index(table, name, &index));
    return index;
}

static int32_t value(const CarcStateRow *row, uint32_t table, const char *column) {
    return row->values[column_named(table, column)];
}

static const char *tile_id(int32_t kind) {
    const char *id = "?";
    if (kind == CARC_STATE_ABSENT) {
        return "-";
    }
    EXPECT_OK(carc_tile_kind_id((uint32_t)kind, &id));
    return id;
}

static const char *const QUARTERS[] = {"castle", "blacksmith", "cathedral", "market"};
static const char *const FIGURES[] = {"follower", "abbot", "mayor", "wagon", "barn"};

/* The schema: every table and column has a name found again by lookup, a documentation
 * and a kind; the Royal Gift tables are there; lookups of unknown names fail. */
static void check_schema(void) {
    uint32_t count = 0, t, c, index;
    EXPECT_OK(carc_state_table_count(&count));
    CHECK(count >= 13 && count <= 64); /* the client's arrays hold 64 tables */
    for (t = 0; t < count; t++) {
        CarcStateTable table;
        EXPECT_OK(carc_state_table(t, &table));
        CHECK(table.name != NULL && table.expansion != NULL && table.doc != NULL);
        CHECK(strlen(table.doc) > 10);
        CHECK(table.columns >= 1 && table.columns <= CARC_STATE_MAX_COLUMNS);
        CHECK(table.rows <= CARC_STATE_ROWS_MANY);
        CHECK(table_named(table.name) == t);
        for (c = 0; c < table.columns; c++) {
            CarcStateColumn column;
            EXPECT_OK(carc_state_column(t, c, &column));
            CHECK(column.kind <= CARC_STATE_KIND_AXIS && column.optional <= 1);
            CHECK(column_named(t, column.name) == c);
        }
        if (table.rows == CARC_STATE_ROWS_PER_SEAT) {
            CarcStateColumn seat;
            EXPECT_OK(carc_state_column(t, 0, &seat));
            CHECK(strcmp(seat.name, "seat") == 0 && seat.kind == CARC_STATE_KIND_SEAT);
        }
    }
    EXPECT_STATUS(carc_state_table_index("no-such-table", &index), CARC_STATUS_INVALID_ARGUMENT);
    EXPECT_STATUS(carc_state_table_index(NULL, &index), CARC_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(carc_state_table(count, NULL), CARC_STATUS_NULL_ARGUMENT);
    {
        CarcStateTable table;
        EXPECT_STATUS(carc_state_table(count, &table), CARC_STATUS_INVALID_ARGUMENT);
    }
    T.count = table_named("count");
    T.quarter_figures = table_named("quarter_figures");
    T.castles = table_named("castles");
    T.bridges = table_named("bridges");
    T.supply = table_named("bridges_castles_supply");
    T.bazaar = table_named("bazaar");
    T.offer = table_named("bazaar_offer");
    T.held = table_named("bazaar_tiles");
    T.king = table_named("king");
    T.robber = table_named("robber_baron");
    T.dragon = table_named("dragon");
    T.fairy = table_named("fairy");
}

static uint32_t read_rows(const CarcGame *game) {
    uint32_t n = 0;
    EXPECT_OK(carc_game_expansion_state(game, NULL, 0, &n));
    CHECK(n <= MAX_ROWS);
    EXPECT_OK(carc_game_expansion_state(game, rows, MAX_ROWS, &n));
    return n;
}

/* Whether `v` is a value of a column of `kind` in a game of `players` seats. */
static int in_range(int32_t v, uint8_t kind, uint32_t players, uint32_t tile_kinds) {
    switch (kind) {
    case CARC_STATE_KIND_SEAT:
        return v >= 0 && (uint32_t)v < players;
    case CARC_STATE_KIND_INT:
        return v >= 0;
    case CARC_STATE_KIND_FLAG:
        return v == 0 || v == 1;
    case CARC_STATE_KIND_FEATURE:
        return v >= 0 && v < 32;
    case CARC_STATE_KIND_QUARTER:
        return v >= 0 && v <= CARC_QUARTER_MARKET;
    case CARC_STATE_KIND_FIGURE:
        return v >= 0 && v <= CARC_FIGURE_BARN;
    case CARC_STATE_KIND_TILE:
        return v >= 0 && (uint32_t)v < tile_kinds;
    case CARC_STATE_KIND_AXIS:
        return v == CARC_AXIS_NS || v == CARC_AXIS_WE;
    default:
        return 1; /* squares */
    }
}

/* What the client counts from the rows. */
typedef struct {
    uint32_t rows_of[64];
    uint32_t in_quarters[6][5]; /* seat, CarcFigure */
    uint32_t bridges_left, castles_left, bridges, castles;
    uint32_t held_tiles, offer_tiles;
} Seen;

/* The rows of one position: kinds, row counts, and the rules' bookkeeping. */
static void check_rows(const CarcGame *game, uint32_t n, uint32_t players, Seen *seen) {
    uint32_t tile_kinds = 0, count = 0, i, c, t;
    EXPECT_OK(carc_tile_kind_count(&tile_kinds));
    EXPECT_OK(carc_state_table_count(&count));
    memset(seen, 0, sizeof *seen);
    for (i = 0; i < n; i++) {
        CarcStateTable table;
        const CarcStateRow *row = &rows[i];
        EXPECT_OK(carc_state_table(row->table, &table));
        CHECK(i == 0 || rows[i - 1].table <= row->table); /* each table's rows together */
        seen->rows_of[row->table]++;
        for (c = 0; c < CARC_STATE_MAX_COLUMNS; c++) {
            if (c >= table.columns) {
                CHECK(row->values[c] == 0);
                continue;
            }
            CarcStateColumn column;
            EXPECT_OK(carc_state_column(row->table, c, &column));
            if (row->values[c] == CARC_STATE_ABSENT) {
                CHECK(column.optional == 1);
            } else if (!in_range(row->values[c], column.kind, players, tile_kinds)) {
                CHECK(!"a value of its column's kind");
                fprintf(stderr, "  %s.%s = %d\n", table.name, column.name, row->values[c]);
            }
        }
        if (row->table == T.quarter_figures) {
            seen->in_quarters[value(row, T.quarter_figures, "owner")]
                             [value(row, T.quarter_figures, "figure")]++;
        } else if (row->table == T.supply) {
            seen->bridges_left += (uint32_t)value(row, T.supply, "bridges");
            seen->castles_left += (uint32_t)value(row, T.supply, "castles");
        } else if (row->table == T.bridges) {
            seen->bridges++;
        } else if (row->table == T.castles) {
            seen->castles++;
        } else if (row->table == T.held && value(row, T.held, "tile") != CARC_STATE_ABSENT) {
            seen->held_tiles++;
        } else if (row->table == T.offer && value(row, T.offer, "tile") != CARC_STATE_ABSENT) {
            seen->offer_tiles++;
        }
    }
    for (t = 0; t < count; t++) {
        CarcStateTable table;
        uint8_t in_play = 9;
        EXPECT_OK(carc_state_table(t, &table));
        EXPECT_OK(carc_game_state_table_in_play(game, t, &in_play));
        /* The tables of the box's sets are in play, no other. */
        CHECK(in_play == (strstr(ROYAL_GIFT, table.expansion) != NULL));
        if (!in_play) {
            /* A table of a set outside the game has no rows. */
            CHECK(seen->rows_of[t] == 0);
            continue;
        }
        switch (table.rows) {
        case CARC_STATE_ROWS_ONE:
            CHECK(seen->rows_of[t] == 1);
            break;
        case CARC_STATE_ROWS_OPTIONAL:
            CHECK(seen->rows_of[t] <= 1);
            break;
        case CARC_STATE_ROWS_PER_SEAT:
            CHECK(seen->rows_of[t] == players);
            break;
        default:
            break;
        }
    }
    /* BZ1: one tile per player at most; BZ3: a tile is in the offer or held. */
    CHECK(seen->rows_of[T.offer] <= players);
    CHECK(seen->offer_tiles + seen->held_tiles <= players);
    /* BZ2: the selector and the bidder hold no bazaar tile yet. */
    for (i = 0; i < n; i++) {
        if (rows[i].table == T.bazaar) {
            int32_t selector = value(&rows[i], T.bazaar, "selector");
            int32_t bidder = value(&rows[i], T.bazaar, "bidder");
            for (t = 0; t < n; t++) {
                if (rows[t].table == T.held && value(&rows[t], T.held, "tile") != CARC_STATE_ABSENT) {
                    int32_t seat = value(&rows[t], T.held, "seat");
                    CHECK(seat != selector && seat != bidder);
                }
            }
        }
    }
}

/* B1, CC2: every figure is in its owner's supply, on the board or in a quarter. */
static void check_figures(const CarcGame *game, uint32_t players, const Seen *seen,
                          const CarcSupply *start) {
    uint32_t n = 0, p, i;
    EXPECT_OK(carc_game_board_figures(game, figures, 512, &n));
    for (p = 0; p < players; p++) {
        CarcSupply s;
        uint32_t board[5] = {0, 0, 0, 0, 0};
        EXPECT_OK(carc_game_supply(game, p, &s));
        for (i = 0; i < n; i++) {
            if (figures[i].owner == p && figures[i].figure <= CARC_FIGURE_BARN) {
                board[figures[i].figure]++;
            }
        }
        CHECK(s.follower + board[0] + seen->in_quarters[p][0] == start->follower);
        CHECK(s.abbot + board[1] + seen->in_quarters[p][1] == start->abbot);
        CHECK(seen->in_quarters[p][CARC_FIGURE_BARN] == 0); /* CC7: never a barn */
    }
}

/* PD2, PD15: the dragon and fairy rows say what carc_game_dragon and carc_game_fairy say. */
static void check_dragon_and_fairy(const CarcGame *game, uint32_t n) {
    CarcDragon dragon;
    CarcFairy fairy;
    uint32_t i, dragon_rows = 0, fairy_rows = 0;
    EXPECT_OK(carc_game_dragon(game, &dragon));
    EXPECT_OK(carc_game_fairy(game, &fairy));
    for (i = 0; i < n; i++) {
        const CarcStateRow *row = &rows[i];
        if (row->table == T.dragon) {
            dragon_rows++;
            CHECK(value(row, T.dragon, "x") == dragon.x && value(row, T.dragon, "y") == dragon.y);
            int32_t steps = value(row, T.dragon, "flight_steps");
            CHECK(dragon.in_flight ? steps == dragon.flight_steps : steps == CARC_STATE_ABSENT);
        } else if (row->table == T.fairy) {
            fairy_rows++;
            CHECK(value(row, T.fairy, "x") == fairy.x && value(row, T.fairy, "y") == fairy.y);
            int32_t owner = value(row, T.fairy, "owner");
            CHECK(fairy.attached ? owner == fairy.owner : owner == CARC_STATE_ABSENT);
        }
    }
    CHECK(dragon_rows == dragon.on_board);
    CHECK(fairy_rows == fairy.on_board);
}

/* TW1, TW2, TW4: in a game of the Tower where tower pieces are put and figures captured,
 * the deprecated getters say what the rows of towers, tower_pieces and prisoners say;
 * towers stand and prisoners are held at some point. */
static void check_tower_game(void) {
    static CarcTower towers[256];
    uint32_t t_towers = table_named("towers"), t_pieces = table_named("tower_pieces");
    uint32_t t_prisoners = table_named("prisoners");
    uint32_t steps, towers_seen = 0, prisoners_seen = 0;
    CarcGame *game = NULL;
    EXPECT_OK(carc_game_new("{\"players\":3,\"sets\":[\"base\",\"tower\"],\"seed\":5}", &game));
    if (game == NULL) {
        return;
    }
    for (steps = 0; steps < 3000; steps++) {
        uint32_t n = read_rows(game), i, k = 0, legal = 0, seat, owner;
        uint8_t terminal = 0;
        uint32_t count = 0;
        EXPECT_OK(carc_game_towers(game, towers, 256, &count));
        for (i = 0; i < n; i++) {
            const CarcStateRow *r = &rows[i];
            if (r->table == t_towers) {
                int32_t top = value(r, t_towers, "top_owner");
                CHECK(k < count);
                if (k < count) {
                    CHECK(towers[k].x == value(r, t_towers, "x") && towers[k].y == value(r, t_towers, "y"));
                    CHECK(towers[k].height == value(r, t_towers, "height"));
                    CHECK(top == CARC_STATE_ABSENT ? towers[k].top_owner == CARC_NO_TOP
                                                   : towers[k].top_owner == top);
                }
                k++;
            } else if (r->table == t_pieces) {
                uint32_t left = 0;
                EXPECT_OK(carc_game_tower_pieces(game, (uint32_t)value(r, t_pieces, "seat"), &left));
                CHECK((int32_t)left == value(r, t_pieces, "pieces"));
            }
        }
        CHECK(k == count);
        towers_seen += count > 0;
        for (seat = 0; seat < 3; seat++) {
            for (owner = 0; owner < 3; owner++) {
                CarcSupply held;
                int32_t followers = 0;
                EXPECT_OK(carc_game_prisoners(game, seat, owner, &held));
                for (i = 0; i < n; i++) {
                    const CarcStateRow *r = &rows[i];
                    if (r->table == t_prisoners && value(r, t_prisoners, "holder") == (int32_t)seat &&
                        value(r, t_prisoners, "owner") == (int32_t)owner &&
                        value(r, t_prisoners, "figure") == CARC_FIGURE_FOLLOWER) {
                        followers += value(r, t_prisoners, "count");
                    }
                }
                CHECK(held.follower == followers);
                prisoners_seen += followers > 0;
            }
        }
        EXPECT_OK(carc_game_is_terminal(game, &terminal));
        if (terminal) {
            break;
        }
        EXPECT_OK(carc_game_legal_actions(game, actions, MAX_ACTIONS, &legal));
        if (legal == 0) {
            CHECK(!"a decision with no legal action");
            break;
        }
        k = 0;
        for (i = 0; i < legal; i++) {
            if (actions[i].kind == CARC_ACTION_KIND_PLACE_TOWER_PIECE ||
                actions[i].kind == CARC_ACTION_KIND_CAPTURE) {
                k = i;
            }
        }
        EXPECT_OK(carc_game_apply(game, &actions[k]));
    }
    CHECK(towers_seen > 0);
    CHECK(prisoners_seen > 0);
    carc_game_free(game);
}

/* The client's picture of the expansions, drawn from the rows alone. */
static void draw(uint32_t n) {
    uint32_t i;
    printf("-- the Royal Gift sets, as the state query gives them\n");
    for (i = 0; i < n; i++) {
        const CarcStateRow *r = &rows[i];
        uint32_t t = r->table;
        if (t == T.count) {
            printf("count: in the %s quarter\n", QUARTERS[value(r, t, "quarter")]);
        } else if (t == T.quarter_figures) {
            printf("  seat %d's %s in the %s quarter\n", value(r, t, "owner"),
                   FIGURES[value(r, t, "figure")], QUARTERS[value(r, t, "quarter")]);
        } else if (t == T.castles) {
            int32_t points = value(r, t, "points");
            printf("castle of seat %d at (%d, %d), feature %d: ", value(r, t, "owner"),
                   value(r, t, "x"), value(r, t, "y"), value(r, t, "feature"));
            if (points == CARC_STATE_ABSENT) {
                printf("waiting\n");
            } else {
                printf("scored %d\n", points);
            }
        } else if (t == T.bridges) {
            printf("bridge at (%d, %d), %s\n", value(r, t, "x"), value(r, t, "y"),
                   value(r, t, "axis") == CARC_AXIS_NS ? "north-south" : "west-east");
        } else if (t == T.supply) {
            printf("seat %d: %d bridges, %d castles left\n", value(r, t, "seat"),
                   value(r, t, "bridges"), value(r, t, "castles"));
        } else if (t == T.bazaar) {
            printf("bazaar of seat %d: seat %d selects; auction of %s\n", value(r, t, "player"),
                   value(r, t, "selector"), tile_id(value(r, t, "tile")));
        } else if (t == T.offer) {
            printf("  offer %d: %s\n", value(r, t, "place"), tile_id(value(r, t, "tile")));
        } else if (t == T.held && value(r, t, "tile") != CARC_STATE_ABSENT) {
            printf("seat %d holds %s from a bazaar\n", value(r, t, "seat"),
                   tile_id(value(r, t, "tile")));
        } else if (t == T.king || t == T.robber) {
            int32_t holder = value(r, t, "holder");
            const char *title = t == T.king ? "King" : "Robber Baron";
            if (holder == CARC_STATE_ABSENT) {
                printf("%s: beside the board\n", title);
            } else {
                printf("%s: seat %d (%d tiles)\n", title, holder, value(r, t, "tiles"));
            }
        }
    }
}

int main(int argc, char **argv) {
    uint32_t games = argc > 1 ? (uint32_t)atoi(argv[1]) : 6, g;
    uint32_t shown[64] = {0};
    uint32_t king_held = 0;
    check_schema();
    check_tower_game();
    for (g = 0; g < games; g++) {
        char config[512];
        CarcGame *game = NULL;
        CarcSupply start;
        TestRng rng = {0x9E3779B97F4A7C15u + g};
        uint32_t players = 0, n = 0, decisions = 0;
        Seen seen;
        snprintf(config, sizeof config, ROYAL_GIFT, 100 + g);
        EXPECT_OK(carc_game_new(config, &game));
        if (game == NULL) {
            break;
        }
        EXPECT_OK(carc_game_num_players(game, &players));
        EXPECT_OK(carc_game_supply(game, 0, &start));
        n = read_rows(game);
        check_rows(game, n, players, &seen);
        /* BR1, CA1: 3 bridges and 3 castles each with 4 players. */
        CHECK(seen.bridges_left == 3 * players && seen.castles_left == 3 * players);
        for (;;) {
            uint8_t terminal = 0;
            uint32_t legal = 0, i;
            n = read_rows(game);
            check_rows(game, n, players, &seen);
            check_figures(game, players, &seen, &start);
            check_dragon_and_fairy(game, n);
            CHECK(seen.bridges_left + seen.bridges == 3 * players);
            CHECK(seen.castles_left + seen.castles == 3 * players);
            for (i = 0; i < n; i++) {
                shown[rows[i].table]++;
                if ((rows[i].table == T.king || rows[i].table == T.robber) &&
                    value(&rows[i], rows[i].table, "holder") != CARC_STATE_ABSENT) {
                    king_held++;
                }
            }
            EXPECT_OK(carc_game_is_terminal(game, &terminal));
            if (terminal) {
                break;
            }
            EXPECT_OK(carc_game_legal_actions(game, actions, MAX_ACTIONS, &legal));
            if (legal == 0) {
                CHECK(!"a decision with no legal action");
                break;
            }
            /* Random decisions, but castles are always built (CA1): more of them score. */
            uint32_t pick = rng_below(&rng, legal);
            for (i = 0; i < legal; i++) {
                if (actions[i].kind == CARC_ACTION_KIND_BUILD_CASTLE) {
                    pick = i;
                }
            }
            EXPECT_OK(carc_game_apply(game, &actions[pick]));
            decisions++;
        }
        CHECK(decisions > 50);
        if (g + 1 == games) {
            draw(n);
        }
        carc_game_free(game);
    }
    if (games >= 4) {
        /* Every table of the box showed rows, a title was held. */
        uint32_t count = 0, t;
        EXPECT_OK(carc_state_table_count(&count));
        for (t = 0; t < count; t++) {
            CarcStateTable table;
            EXPECT_OK(carc_state_table(t, &table));
            if (strstr(ROYAL_GIFT, table.expansion) == NULL) {
                continue;
            }
            if (shown[t] == 0) {
                fprintf(stderr, "no game showed a row of %s\n", table.name);
            }
            CHECK(shown[t] > 0);
        }
        CHECK(king_held > 0);
    }
    return finish("test_expansion_state");
}
