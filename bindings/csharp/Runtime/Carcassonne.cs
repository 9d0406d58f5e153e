// P/Invoke binding of the carcassonne C ABI (include/carcassonne.h), in the shape a Unity
// project uses: [DllImport("carcassonne")], blittable structs laid out exactly like the C
// ones, a SafeHandle that frees the game, and exceptions that carry the status and the
// library's detailed message. Put libcarcassonne.so / carcassonne.dll / libcarcassonne.dylib
// where the runtime finds native plugins (the package's Plugins/ folder in Unity, see
// Plugins/README.md; LD_LIBRARY_PATH or the program's folder elsewhere). The usage guide is
// README.md beside this folder. The enums, CarcSupply and the symbol bits are generated from
// the header by tools/gen_csharp.py (between the GENERATED lines); the other constants are
// checked against it by tests/csharp/CheckEnums.cs.
//
// Ownership: a Game (a Bot) owns its native handle and frees it when disposed or finalized. Every
// buffer passed to the library is a managed array pinned for the duration of the call;
// strings returned by the library are copied into managed strings.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Carcassonne
{
    // BEGIN GENERATED TYPES: tools/gen_csharp.py writes them from include/carcassonne.h; do not edit.

    /// <summary>The result of every `carc_*` call that can fail. The numbers are stable: a value keeps its meaning in every later version of the ABI, and new values are only ever appended. (CarcStatus)</summary>
    public enum Status : uint
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>A pointer argument that must not be NULL was NULL.</summary>
        NullArgument = 1,
        /// <summary>The game configuration was rejected (bad JSON, unknown key, value out of range).</summary>
        InvalidConfig = 2,
        /// <summary>The action is well formed but not legal in the current state; the game is unchanged.</summary>
        IllegalAction = 3,
        /// <summary>The caller's buffer is too small; the needed size was written to the size out-parameter and nothing else was written.</summary>
        BufferTooSmall = 4,
        /// <summary>The game record could not be read (bad JSON, missing or malformed field).</summary>
        BadRecord = 5,
        /// <summary>The game record was read but the engine does not reproduce it (an action it lists is illegal, or the scores it lists differ).</summary>
        RecordMismatch = 6,
        /// <summary>The game is over: no action can be applied.</summary>
        GameOver = 7,
        /// <summary>The engine panicked inside the call. The game handle, if any, is poisoned.</summary>
        Panic = 8,
        /// <summary>The game handle was poisoned by an earlier panic; only `carc_game_free` and `carc_game_last_error` may be used with it.</summary>
        HandlePoisoned = 9,
        /// <summary>An argument is out of range or malformed (a player seat, an enum value, a field of an action, a string that is not UTF-8).</summary>
        InvalidArgument = 10,
        /// <summary>The handle is not a live handle of the kind the function takes: it was freed already, never came from the library, or is of the other kind (a bot passed as a game). Nothing was done.</summary>
        InvalidHandle = 11,
    }

    /// <summary>What the game waits for (`carc_game_phase`). Stable numbers. (CarcPhase)</summary>
    public enum Phase : uint
    {
        /// <summary>Place the abbey instead of drawing, or pass and draw (AM1), also the end-of-game abbey round (AM4). Name: `abbey`.</summary>
        Abbey = 0,
        /// <summary>Explicit chance: the tile drawn. Name: `draw`.</summary>
        Draw = 1,
        /// <summary>Place the drawn tile. Name: `place_tile`.</summary>
        PlaceTile = 2,
        /// <summary>Deploy a figure, move the fairy, use the princess, take the abbot back, or pass. Name: `deploy`.</summary>
        Deploy = 3,
        /// <summary>One step of the dragon's flight. Name: `dragon_flight`.</summary>
        DragonFlight = 4,
        /// <summary>Move a wagon after scoring, or pass. Name: `wagon_move`.</summary>
        WagonMove = 5,
        /// <summary>The game is over. Name: `game_over`.</summary>
        GameOver = 6,
        /// <summary>Move a figure out of the City of Carcassonne onto a feature, or pass (CC4 before the turn's scoring, CC6 before final scoring). Name: `leave_quarter`.</summary>
        LeaveQuarter = 7,
        /// <summary>Put a figure into a quarter of the City of Carcassonne, or pass (CC3). Name: `enter_quarter`.</summary>
        EnterQuarter = 8,
        /// <summary>Move the count to another quarter, or pass (CC3). Name: `move_count`.</summary>
        MoveCount = 9,
        /// <summary>Turn a just completed two-tile city into a castle, or pass (CA1). Name: `castle`.</summary>
        Castle = 10,
        /// <summary>Pick a tile of the bazaar's offer and open the bidding (BZ2). Name: `bazaar_select`.</summary>
        BazaarSelect = 11,
        /// <summary>Raise the bid on the picked bazaar tile, or pass (BZ2). Name: `bazaar_bid`.</summary>
        BazaarBid = 12,
        /// <summary>Buy the outbid tile or sell it to the highest bidder (BZ3). Name: `bazaar_buy_or_sell`.</summary>
        BazaarBuyOrSell = 13,
        /// <summary>Take a figure in reach of the tower just raised prisoner, or pass (TW3). Name: `capture`.</summary>
        Capture = 14,
        /// <summary>Pick which of his figures the capturer gets back in a prisoner exchange (TW4). Name: `exchange_prisoner`.</summary>
        ExchangePrisoner = 15,
        /// <summary>Grow the flock of the shepherd whose field the turn's tile extended, or herd it into the fold (HS2). Name: `flock`.</summary>
        Flock = 16,
        /// <summary>Explicit chance: the token drawn from the bag for a shepherd (HS1, HS2). Name: `draw_token`.</summary>
        DrawToken = 17,
    }

    /// <summary>What a `CarcAction` does (its `kind` field); the record format's action types, one to one. A field the kind does not have is ignored; an absent feature is `CARC_NO_FEATURE`. Stable numbers. (CarcActionKind)</summary>
    public enum ActionKind : byte
    {
        /// <summary>Place the drawn tile at `(x, y)` turned `rot` clockwise quarter turns (B4); `bridge` is `(x, y, axis)` of the bridge a placement legal only with one brings (BR2, axis `NS` or `WE`), else absent. Name: `place_tile`.</summary>
        PlaceTile = 0,
        /// <summary>Place the abbey tile into the hole at `(x, y)` instead of drawing (AM1). Name: `place_abbey`.</summary>
        PlaceAbbey = 1,
        /// <summary>Put a `figure` (follower, abbot, mayor, wagon) from the supply on `feature` of the tile at `(x, y)` (B6), or a follower on top of the tower `feature` of any tile (TW2). Name: `deploy`.</summary>
        Deploy = 2,
        /// <summary>Put the barn on `corner` (NW, NE, SE, SW) of the tile just placed (AM6). Name: `deploy_barn`.</summary>
        DeployBarn = 3,
        /// <summary>Move the fairy next to the player's figure on `feature` at `(x, y)` (PD15); `feature` is absent under the on-tile fairy rule. Name: `move_fairy`.</summary>
        MoveFairy = 4,
        /// <summary>Remove the knight on `feature` at `(x, y)` with the princess (PD9). Name: `princess`.</summary>
        Princess = 5,
        /// <summary>Take the abbot on `feature` at `(x, y)` back and score it (A3). Name: `return_abbot`.</summary>
        ReturnAbbot = 6,
        /// <summary>Do nothing: deploy nothing, decline the abbey, the princess or a wagon move, or discard a drawn tile that fits only with a bridge (BR2). Name: `pass`.</summary>
        Pass = 7,
        /// <summary>One step of the dragon onto the tile at `(x, y)` (PD5). Name: `move_dragon`.</summary>
        MoveDragon = 8,
        /// <summary>Move the wagon onto `feature` of the tile at `(x, y)` after scoring (AM11). Name: `move_wagon`.</summary>
        MoveWagon = 9,
        /// <summary>The chance outcome: the tile drawn (explicit-chance mode). Name: `draw`.</summary>
        Draw = 10,
        /// <summary>Move `figure` out of `quarter` of the City of Carcassonne onto `feature` of the tile at `(x, y)` (any part of the feature names it); `step` is `before-scoring` (CC4) or `final` (CC6). Name: `leave_quarter`.</summary>
        LeaveQuarter = 11,
        /// <summary>Decline a move of the City of Carcassonne: `step` `before-scoring` or `final` (moving figures out, CC4, CC6), `deploy` (putting one in, CC3), `count` (moving the count, CC3). Name: `quarter_pass`.</summary>
        QuarterPass = 12,
        /// <summary>Put `figure` from the supply into `quarter` of the City of Carcassonne (CC3). Name: `deploy_quarter`.</summary>
        DeployQuarter = 13,
        /// <summary>Move the count to `quarter` (CC3). Name: `move_count`.</summary>
        MoveCount = 14,
        /// <summary>Put a bridge from the supply on the tile at `(x, y)` along `axis` (`NS` or `WE`) after placing the tile (BR1). Name: `place_bridge`.</summary>
        PlaceBridge = 15,
        /// <summary>Turn the two-tile city just completed at `feature` of the tile at `(x, y)` into a castle instead of having it scored (CA1). Name: `build_castle`.</summary>
        BuildCastle = 16,
        /// <summary>Decline to build a castle (CA1). Name: `castle_pass`.</summary>
        CastlePass = 17,
        /// <summary>Pick `tile` of the bazaar's offer and open the bidding at `bid` points (BZ2). Name: `bazaar_select`.</summary>
        BazaarSelect = 18,
        /// <summary>Raise the bid on the picked bazaar tile to `bid` points (BZ2). Name: `bazaar_bid`.</summary>
        BazaarBid = 19,
        /// <summary>Do not raise the bid (BZ2). Name: `bazaar_pass`.</summary>
        BazaarPass = 20,
        /// <summary>The selector buys the outbid tile or sells it to the highest bidder: `choice` `buy` or `sell` (BZ3). Name: `bazaar_buy_or_sell`.</summary>
        BazaarBuyOrSell = 21,
        /// <summary>Put a tower piece from the supply on the tower of the tile at `(x, y)`, a foundation or a tower without a figure on top, instead of deploying (TW2). Name: `place_tower_piece`.</summary>
        PlaceTowerPiece = 22,
        /// <summary>Right after a tower piece, take the `figure` on `feature` of the tile at `(x, y)` prisoner: a tile in the tower's row or column at most its height away (TW3); an own figure goes back to the supply. Name: `capture`.</summary>
        Capture = 23,
        /// <summary>Decline to take a prisoner after a tower piece (TW3). Name: `capture_pass`.</summary>
        CapturePass = 24,
        /// <summary>At a capture of a figure of a player who holds prisoners of the capturer of several kinds, the capturer takes back his `figure` in the exchange (TW4). Name: `exchange_prisoner`.</summary>
        ExchangePrisoner = 25,
        /// <summary>Pay 3 points to `prisoner_of` and take back one of the player's `figure`s that `prisoner_of` holds prisoner: once per turn, before placing the tile or before the figure action (TW5). Name: `pay_ransom`.</summary>
        PayRansom = 26,
        /// <summary>The turn player's tile extended the field of his shepherd on `feature` at `(x, y)`: `choice` `grow` (a token is drawn from the bag) or `herd` (the field's flocks score) (HS2). Name: `flock`.</summary>
        Flock = 27,
        /// <summary>The chance outcome: the token drawn from the bag for a shepherd (HS1, HS2; explicit-chance mode). Name: `draw_token`.</summary>
        DrawToken = 28,
    }

    /// <summary>A kind of figure (the `figure` field of a `CarcAction` and of a `CarcBoardFigure`). Stable numbers. (CarcFigure)</summary>
    public enum Figure : byte
    {
        /// <summary>An ordinary follower (meeple). Name: `follower`.</summary>
        Follower = 0,
        /// <summary>The abbot (A1). Name: `abbot`.</summary>
        Abbot = 1,
        /// <summary>The mayor (AM5). Name: `mayor`.</summary>
        Mayor = 2,
        /// <summary>The wagon (AM10). Name: `wagon`.</summary>
        Wagon = 3,
        /// <summary>The barn (AM6). Name: `barn`.</summary>
        Barn = 4,
        /// <summary>The big follower (IC1): a follower that counts as two in every majority. Name: `big-follower`.</summary>
        BigFollower = 5,
        /// <summary>The builder (TB3): on a road or city beside its owner's follower; no follower, no majority, earns a second turn (TB4). Name: `builder`.</summary>
        Builder = 6,
        /// <summary>The pig (TB5): on a field beside its owner's farmer; no follower, no majority, adds a point per city to its owner's field scoring. Name: `pig`.</summary>
        Pig = 7,
        /// <summary>The shepherd (HS1): on a field, with its flock of sheep; no follower, no majority. Name: `shepherd`.</summary>
        Shepherd = 8,
    }

    /// <summary>Barn corners, board frame (the `corner` field of a `CarcAction`). Stable numbers. (CarcCorner)</summary>
    public enum Corner : byte
    {
        /// <summary>North-west. Name: `NW`.</summary>
        NW = 0,
        /// <summary>North-east. Name: `NE`.</summary>
        NE = 1,
        /// <summary>South-east. Name: `SE`.</summary>
        SE = 2,
        /// <summary>South-west. Name: `SW`.</summary>
        SW = 3,
    }

    /// <summary>A quarter of the City of Carcassonne (the `quarter` field of a `CarcAction`). Stable numbers. (CarcQuarter)</summary>
    public enum Quarter : byte
    {
        /// <summary>Cities. Name: `castle`.</summary>
        Castle = 0,
        /// <summary>Roads. Name: `blacksmith`.</summary>
        Blacksmith = 1,
        /// <summary>Monasteries and shrines. Name: `cathedral`.</summary>
        Cathedral = 2,
        /// <summary>Fields. Name: `market`.</summary>
        Market = 3,
    }

    /// <summary>When a player acts on the City of Carcassonne (the `step` field of a `CarcAction`). Stable numbers. (CarcQuarterStep)</summary>
    public enum QuarterStep : byte
    {
        /// <summary>Before the turn's completed features score (CC4). Name: `before-scoring`.</summary>
        BeforeScoring = 0,
        /// <summary>Putting a figure into a quarter (CC3). Name: `deploy`.</summary>
        Deploy = 1,
        /// <summary>Before final scoring (CC6). Name: `final`.</summary>
        Final = 2,
        /// <summary>Moving the count (CC3). Name: `count`.</summary>
        Count = 3,
    }

    /// <summary>The direction of a bridge, board frame (the `axis` field of a `CarcAction`). Stable numbers. (CarcAxis)</summary>
    public enum Axis : byte
    {
        /// <summary>From the north side to the south side. Name: `NS`.</summary>
        NS = 0,
        /// <summary>From the west side to the east side. Name: `WE`.</summary>
        WE = 1,
    }

    /// <summary>What the player who picked an outbid bazaar tile does (the `choice` field of a `CarcAction`). Stable numbers. (CarcBazaarChoice)</summary>
    public enum BazaarChoice : byte
    {
        /// <summary>Take the tile and pay the highest bid to its bidder. Name: `buy`.</summary>
        Buy = 0,
        /// <summary>Let the highest bidder take it, for his bid paid to the player who picked it. Name: `sell`.</summary>
        Sell = 1,
    }

    /// <summary>The turn player's choice for his shepherd's flock (the `choice` field of a `CarcAction` of kind `FLOCK`). Stable numbers. (CarcFlockChoice)</summary>
    public enum FlockChoice : byte
    {
        /// <summary>Draw a token: a sheep joins the flock, a wolf ends every flock of the field. Name: `grow`.</summary>
        Grow = 0,
        /// <summary>Into the fold: every shepherd owner of the field scores its sheep. Name: `herd`.</summary>
        Herd = 1,
    }

    /// <summary>A token of the sheep bag (the `token` field of a `CarcAction` of kind `DRAW_TOKEN`). Stable numbers. (CarcSheepToken)</summary>
    public enum SheepToken : byte
    {
        /// <summary>One sheep. Name: `sheep-1`.</summary>
        Sheep1 = 0,
        /// <summary>Two sheep. Name: `sheep-2`.</summary>
        Sheep2 = 1,
        /// <summary>Three sheep. Name: `sheep-3`.</summary>
        Sheep3 = 2,
        /// <summary>Four sheep. Name: `sheep-4`.</summary>
        Sheep4 = 3,
        /// <summary>The wolf. Name: `wolf`.</summary>
        Wolf = 4,
    }

    /// <summary>How tile draws are decided (`chance` of a configuration; argument of `carc_game_from_record`). (CarcChance)</summary>
    public enum Chance : uint
    {
        /// <summary>The engine draws from its seeded generator.</summary>
        Sampled = 0,
        /// <summary>The caller applies the draws (`carc_game_chance_outcomes`, `carc_game_apply_draw`).</summary>
        Explicit = 1,
    }

    /// <summary>Which blocks of a layout (argument of `carc_game_layout_block` and its companions). (CarcLayoutPart)</summary>
    public enum LayoutPart : uint
    {
        /// <summary>The global blocks (`float` globals of `carc_game_observe`).</summary>
        Globals = 0,
        /// <summary>The blocks of flat action ids.</summary>
        Ids = 1,
    }

    /// <summary>What a `CarcEvent` reports (its `kind` field). Stable numbers. (CarcEventKind)</summary>
    public enum EventKind : byte
    {
        /// <summary>`player` scored `points` (`score_kind` says why).</summary>
        Score = 0,
        /// <summary>A figure of `player` left the board for its supply (`cause` says why).</summary>
        FigureReturned = 1,
    }

    /// <summary>Why points were scored (`score_kind` of a `CarcEvent`). Stable numbers. (CarcScoreKind)</summary>
    public enum ScoreKind : byte
    {
        /// <summary>A completed city (B12). Name: `city`.</summary>
        City = 0,
        /// <summary>A completed road. Name: `road`.</summary>
        Road = 1,
        /// <summary>A completed monastery or abbey. Name: `monastery`.</summary>
        Monastery = 2,
        /// <summary>A completed garden (A2). Name: `garden`.</summary>
        Garden = 3,
        /// <summary>A monastery or garden scored when the abbot is taken back (A3). Name: `abbot-return`.</summary>
        AbbotReturn = 4,
        /// <summary>The fairy's start-of-turn point (PD16b). Name: `fairy.turn`.</summary>
        FairyTurn = 5,
        /// <summary>The fairy's bonus when its follower's feature scores (PD16c). Name: `fairy.completed`.</summary>
        FairyScored = 6,
        /// <summary>A field scored when a barn is placed (AM7). Name: `field.barn-placed`.</summary>
        BarnPlaced = 7,
        /// <summary>A field scored when it joins a barn's field (AM8). Name: `field.barn-connected`.</summary>
        BarnConnected = 8,
        /// <summary>End of game: an incomplete city, road, monastery or garden (B15). Name: `incomplete`.</summary>
        Incomplete = 9,
        /// <summary>End of game: farmers (B16). Name: `farmers`.</summary>
        Farmers = 10,
        /// <summary>End of game: a barn (AM9). Name: `barn`.</summary>
        Barn = 11,
        /// <summary>A completed shrine (CU1). Name: `shrine`.</summary>
        Shrine = 12,
        /// <summary>End of game: the King's completed cities (KR3). Name: `king`.</summary>
        King = 13,
        /// <summary>End of game: the Robber Baron's completed roads (KR3). Name: `robber-baron`.</summary>
        RobberBaron = 14,
        /// <summary>A castle scored the feature completed in its neighbourhood (CA3). Name: `castle`.</summary>
        Castle = 15,
        /// <summary>Points paid or received for a bazaar tile the selector bought (BZ3). Name: `bazaar-buy`.</summary>
        BazaarBuy = 16,
        /// <summary>Points paid or received for a bazaar tile the selector sold (BZ3). Name: `bazaar-sell`.</summary>
        BazaarSell = 17,
        /// <summary>A ransom paid for a prisoner: −3 (TW5). Name: `ransompaid.payment`.</summary>
        RansomPaid = 18,
        /// <summary>A ransom received for a prisoner: +3 (TW5). Name: `ransompaid.income`.</summary>
        RansomReceived = 19,
        /// <summary>End of game: the most tokens of a kind of trade goods, 10 (TB2). Name: `goods`.</summary>
        Goods = 20,
        /// <summary>A flock herded into the fold, or scored in a closed field: the sheep of every flock of the field, to each shepherd's owner (HS2). Name: `flock`.</summary>
        Flock = 21,
    }

    /// <summary>Why a figure left the board (`cause` of a `CarcEvent`). Stable numbers. (CarcReturnCause)</summary>
    public enum ReturnCause : byte
    {
        /// <summary>Its feature was completed and scored during play (B14); a wagon may then move on (AM11). Name: `scored`.</summary>
        Scored = 0,
        /// <summary>Final scoring: incomplete features (B15), farmers (B16), farmers of a barn's field (AM9), figures left on completed features. Name: `final-scoring`.</summary>
        FinalScoring = 1,
        /// <summary>Removed with the princess (PD9). Name: `princess`.</summary>
        Princess = 2,
        /// <summary>Eaten by the dragon (PD7). Name: `dragon`.</summary>
        Dragon = 3,
        /// <summary>The abbot taken back (A3). Name: `abbot-taken`.</summary>
        AbbotTaken = 4,
        /// <summary>On a monastery or shrine that lost a challenge (CU3). Name: `challenged`.</summary>
        Challenged = 5,
        /// <summary>Taken prisoner by a tower (TW3): held by the capturer, or back in its owner's supply when the capturer took his own figure or the capture was exchanged (TW4). Name: `captured`.</summary>
        Captured = 6,
        /// <summary>A builder or pig whose owner has no figure left beside it in its feature: its follower was removed, eaten or captured (TB6). Name: `unaccompanied`.</summary>
        Unaccompanied = 7,
        /// <summary>A shepherd sent home by a wolf drawn from the bag (HS1, HS2). Name: `wolf`.</summary>
        Wolf = 8,
    }

    /// <summary>The kind of a feature (`carc_tile_feature_geometry`, events, parts). Stable numbers. (CarcFeatureKind)</summary>
    public enum FeatureKind : byte
    {
        /// <summary>A city (knights). Name: `city`.</summary>
        City = 0,
        /// <summary>A road (thieves). Name: `road`.</summary>
        Road = 1,
        /// <summary>A field (farmers). Name: `field`.</summary>
        Field = 2,
        /// <summary>A monastery, or the abbey (monks). Name: `monastery`.</summary>
        Monastery = 3,
        /// <summary>A garden (abbot only, A1). Name: `garden`.</summary>
        Garden = 4,
        /// <summary>A river (no figure, R3). Name: `river`.</summary>
        River = 5,
        /// <summary>A shrine (the Cult, CU1): scores like a monastery; a follower on it is a heretic. Name: `shrine`.</summary>
        Shrine = 6,
        /// <summary>A tower foundation (the Tower, TW1): tower pieces are stacked on it and a follower may stand on top; it joins no other feature and never scores. Name: `tower`.</summary>
        Tower = 7,
    }

    /// <summary>Where a road or river that leaves its tile on one side ends on the tile (`road_end` of a `CarcFeatureGeometry`). Stable numbers. (CarcRoadEnd)</summary>
    public enum RoadEnd : byte
    {
        /// <summary>Not a road or river.</summary>
        None = 0,
        /// <summary>It crosses the tile (two sides).</summary>
        Through = 1,
        /// <summary>At a junction or crossing.</summary>
        Junction = 2,
        /// <summary>At the monastery `road_end_feature`.</summary>
        Monastery = 3,
        /// <summary>At the gate of the city `road_end_feature`.</summary>
        CityGate = 4,
        /// <summary>At a river spring.</summary>
        Spring = 5,
        /// <summary>In a lake.</summary>
        Lake = 6,
        /// <summary>At a volcano.</summary>
        Volcano = 7,
        /// <summary>A dead end (a small house).</summary>
        DeadEnd = 8,
        /// <summary>At a bazaar.</summary>
        Bazaar = 9,
        /// <summary>At the walls of the City of Carcassonne (the Count).</summary>
        Carcassonne = 10,
        /// <summary>At a tower (the Tower).</summary>
        Tower = 11,
    }

    /// <summary>What the values of a column of the expansions' state are, and how a `CarcStateRow` writes them (`kind` of a `CarcStateColumn`): a seat number; an integer; 0 or 1; a board square's x or y; a local feature index of the tile at the row's square; a `CarcQuarter`, a `CarcFigure`, a tile kind index, a `CarcAxis`. `CARC_STATE_ABSENT` when a value of an optional column is absent. Stable numbers. (CarcStateKind)</summary>
    public enum StateKind : byte
    {
        /// <summary>A seat, 0 to the number of players − 1. Name: `seat`.</summary>
        Seat = 0,
        /// <summary>An integer: a count of pieces, tiles or steps, points, a bid, a place. Name: `int`.</summary>
        Int = 1,
        /// <summary>Yes (1) or no (0). Name: `flag`.</summary>
        Flag = 2,
        /// <summary>A board column, growing east. Name: `x`.</summary>
        X = 3,
        /// <summary>A board row, growing south. Name: `y`.</summary>
        Y = 4,
        /// <summary>A feature of the tile at the row's square: its local index in the tile's catalogue list (the index after them is the tile's bridge). Name: `feature`.</summary>
        Feature = 5,
        /// <summary>A quarter of the City of Carcassonne (`castle`, `blacksmith`, `cathedral`, `market`). Name: `quarter`.</summary>
        Quarter = 6,
        /// <summary>A figure kind (`follower`, `abbot`, `mayor`, `wagon`, `barn`, `big-follower`). Name: `figure`.</summary>
        Figure = 7,
        /// <summary>A tile kind (its catalogue id). Name: `tile`.</summary>
        Tile = 8,
        /// <summary>The direction of a bridge (`NS`, `WE`). Name: `axis`.</summary>
        Axis = 9,
    }

    /// <summary>How many rows a table of the expansions' state has in a game where its expansion is in play (`rows` of a `CarcStateTable`). Stable numbers. (CarcStateRows)</summary>
    public enum StateRows : byte
    {
        /// <summary>Exactly one. Name: `one`.</summary>
        One = 0,
        /// <summary>None or one (the dragon is on the board or not). Name: `optional`.</summary>
        Optional = 1,
        /// <summary>One per seat, in seat order; the first column is the seat. Name: `per-seat`.</summary>
        PerSeat = 2,
        /// <summary>Any number. Name: `many`.</summary>
        Many = 3,
    }

    /// <summary>A player's holdings (10 bytes, blittable; `carc_game_supply`): figures not on the board, and tiles of the expansions not yet placed. (CarcSupply)</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcSupply
    {
        /// <summary>Followers (B1: 7).</summary>
        public byte Follower;
        /// <summary>Abbots (A1: 0 or 1).</summary>
        public byte Abbot;
        /// <summary>Mayors (Abbey &amp; Mayor).</summary>
        public byte Mayor;
        /// <summary>Wagons (Abbey &amp; Mayor).</summary>
        public byte Wagon;
        /// <summary>Barns (Abbey &amp; Mayor).</summary>
        public byte Barn;
        /// <summary>Abbey tiles (Abbey &amp; Mayor).</summary>
        public byte Abbey;
        /// <summary>Big followers (Inns &amp; Cathedrals: 1).</summary>
        public byte BigFollower;
        /// <summary>Builders (Traders &amp; Builders: 1).</summary>
        public byte Builder;
        /// <summary>Pigs (Traders &amp; Builders: 1).</summary>
        public byte Pig;
        /// <summary>Shepherds (Hills &amp; Sheep: 1).</summary>
        public byte Shepherd;
    }

    // END GENERATED TYPES

    /// <summary>One decision (CarcAction, 32 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcAction
    {
        public byte Kind;
        public byte Rot;
        public byte Figure;
        public byte Feature;
        public byte Corner;
        public byte Quarter;
        public ushort Tile;
        public int X;
        public int Y;
        public byte Step;
        public byte Axis;
        public byte Choice;
        public byte HasBridge;
        public ushort Bid;
        /// <summary>PayRansom: the seat holding the prisoner (prisoner_of, TW5).</summary>
        public byte Seat;
        /// <summary>DrawToken: the token drawn from the sheep bag (a CarcSheepToken, HS1, HS2).</summary>
        public byte Token;
        public int BridgeX;
        public int BridgeY;

        public ActionKind ActionKind { get { return (ActionKind)Kind; } }

        public override string ToString()
        {
            return string.Format("{0}(x={1}, y={2}, rot={3}, figure={4}, feature={5}, corner={6}, tile={7})",
                (ActionKind)Kind, X, Y, Rot, Figure, Feature, Corner, Tile);
        }
    }

    /// <summary>A possible draw in explicit-chance mode (CarcChanceOutcome, 16 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcChanceOutcome
    {
        public double Probability;
        public ushort Tile;
        /// <summary>1 for a token of the sheep bag (HS1, HS2; apply it as a DrawToken action), 0 for a tile draw.</summary>
        public byte IsToken;
        /// <summary>A token: its CarcSheepToken (0 for a tile draw).</summary>
        public byte Token;
        public uint Reserved32;
    }

    /// <summary>A tile on the board (CarcPlacedTile, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcPlacedTile
    {
        public int X;
        public int Y;
        public ushort Kind;
        public byte Rot;
        public byte Reserved;
    }

    /// <summary>A figure on the board (CarcBoardFigure, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcBoardFigure
    {
        public int X;
        public int Y;
        public byte Owner;
        public byte Figure;
        public byte Feature;
        public byte Reserved;
    }

    /// <summary>The dragon (CarcDragon, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcDragon
    {
        public int X;
        public int Y;
        public byte OnBoard;
        public byte InFlight;
        public byte FlightSteps;
        public byte Reserved;
    }

    /// <summary>The fairy (CarcFairy, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcFairy
    {
        public int X;
        public int Y;
        public byte OnBoard;
        public byte Attached;
        public byte Owner;
        public byte Feature;
    }

    /// <summary>A tower with its height and the figure on top (CarcTower, 12 bytes; the Tower,
    /// TW1, TW2). TopOwner and TopFigure are 255 for an open tower.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcTower
    {
        public int X;
        public int Y;
        public byte Feature;
        public byte Height;
        public byte TopOwner;
        public byte TopFigure;
    }

    /// <summary>Shapes of observations and flat ids (CarcObservationSizes, 28 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcObservationSizes
    {
        public uint Window;
        public uint Planes;
        public uint PlanesLen;
        public uint GlobalsLen;
        public uint Actions;
        public uint Slots;
        public uint Channels;
    }

    /// <summary>A global block or a block of flat ids of a game's layout (CarcLayoutBlock, 32
    /// bytes). Shape0..Shape2 are the entries per index for the first Rank indices (1 past
    /// them), flattened row-major: entry (i, j) of a 2-index block is at Start + Shape1·i + j.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcLayoutBlock
    {
        public IntPtr Name;
        public uint Start;
        public uint Len;
        public uint Rank;
        public uint Shape0;
        public uint Shape1;
        public uint Shape2;
    }

    /// <summary>A block of a game's layout, with its name and shape (see Game.LayoutBlocks).</summary>
    public sealed class LayoutBlock
    {
        public string Name;
        public uint Start;
        public uint Len;
        /// <summary>Entries per index (Rank of them), row-major.</summary>
        public uint[] Shape;
    }

    /// <summary>What a legal-move mask covered (CarcMaskInfo, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcMaskInfo
    {
        public uint Legal;
        public uint Offered;
        public uint OutsideWindow;
    }

    /// <summary>What carc_mcts_search found and the buffer sizes it needs (CarcSearchInfo,
    /// 40 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcSearchInfo
    {
        /// <summary>Legal actions L (the length of the shares).</summary>
        public uint Legal;
        /// <summary>Flat ids A (the length of the policy).</summary>
        public uint Actions;
        /// <summary>Players P (the length of the values).</summary>
        public uint Players;
        public uint Iterations;
        /// <summary>The most visited action, an index into LegalActions().</summary>
        public uint Best;
        /// <summary>The deciding seat.</summary>
        public uint Player;
        /// <summary>The deciding seat's mean reward, 0..1.</summary>
        public double Value;
        /// <summary>The share of the visits that went to actions with a flat id.</summary>
        public double PolicyCoverage;
    }

    /// <summary>A score or a figure returned (CarcEvent, 28 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcEvent
    {
        public uint Turn;
        public int Points;
        public int X;
        public int Y;
        public uint Parts;
        public byte Kind;
        public byte Player;
        public byte ScoreKind;
        public byte Feature;
        public byte FeatureKind;
        public byte Figure;
        public byte Cause;
        public byte HasPlace;

        public EventKind EventKind { get { return (EventKind)Kind; } }
    }

    /// <summary>One part of a scored feature (CarcFeaturePart, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcFeaturePart
    {
        public int X;
        public int Y;
        public byte Feature;
        public byte FeatureKind;
        public ushort Reserved;
    }

    /// <summary>One feature of a tile kind as drawn (CarcFeatureGeometry, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcFeatureGeometry
    {
        public ushort Segments;
        public ushort AdjacentCities;
        public byte Kind;
        public byte Pennants;
        public byte Corners;
        public byte Sides;
        public byte Flags;
        public byte RoadEnd;
        public byte RoadEndFeature;
        public byte Reserved;
    }

    /// <summary>The pending focus of a two-step flat decision (CarcFocus, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcFocus
    {
        public int X;
        public int Y;
        public byte Pending;
        public byte Reserved8;
        public ushort Reserved16;
    }

    /// <summary>The board square of window cell (0, 0) (CarcWindowOrigin, 8 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcWindowOrigin
    {
        public int X;
        public int Y;
    }

    /// <summary>A table of the expansions' state as the library describes it (CarcStateTable,
    /// 32 bytes on 64-bit platforms); read through StateSchema.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcStateTable
    {
        public IntPtr Name;
        public IntPtr Expansion;
        public IntPtr Doc;
        public uint Columns;
        public byte Rows;
        public byte Reserved8;
        public ushort Reserved16;
    }

    /// <summary>A column of a table of the expansions' state (CarcStateColumn, 24 bytes on 64-bit
    /// platforms); read through StateSchema.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcStateColumn
    {
        public IntPtr Name;
        public IntPtr Doc;
        public byte Kind;
        public byte Optional;
        public ushort Reserved16;
        public uint Reserved32;
    }

    /// <summary>One column of a table of the expansions' state: its name, what it holds, the
    /// kind of its values and whether a value may be absent (Native.StateAbsent).</summary>
    public sealed class StateColumn
    {
        public string Name;
        public string Doc;
        public StateKind Kind;
        public bool Optional;
    }

    /// <summary>One table of the expansions' state (`count`, `castles`, `bazaar_offer`, ...):
    /// its index in the library, name, expansion (the set's name), documentation, how many
    /// rows it has and its columns. docs/expansion-state.md lists every table.</summary>
    public sealed class StateTable
    {
        public uint Index;
        public string Name;
        public string Expansion;
        public string Doc;
        public StateRows Rows;
        public StateColumn[] Columns;

        /// <summary>The position of column `name`; throws ArgumentException for a name the
        /// table does not have.</summary>
        public int ColumnIndex(string name)
        {
            for (int i = 0; i < Columns.Length; i++)
            {
                if (Columns[i].Name == name) return i;
            }
            throw new ArgumentException("table " + Name + " has no column " + name);
        }
    }

    /// <summary>The tables of the expansions' state of the library, read once from the C ABI
    /// (carc_state_table_count, carc_state_table, carc_state_column).</summary>
    public static class StateSchema
    {
        static StateTable[] tables;

        /// <summary>Every table, in the library's index order.</summary>
        public static StateTable[] Tables
        {
            get
            {
                if (tables == null) tables = Read();
                return tables;
            }
        }

        /// <summary>The table named `name`; throws ArgumentException for an unknown name.</summary>
        public static StateTable Table(string name)
        {
            foreach (StateTable t in Tables)
            {
                if (t.Name == name) return t;
            }
            throw new ArgumentException(name + " is not a table of the expansions' state");
        }

        static StateTable[] Read()
        {
            uint count;
            Native.Check(Native.carc_state_table_count(out count));
            StateTable[] all = new StateTable[count];
            for (uint i = 0; i < count; i++)
            {
                CarcStateTable t;
                Native.Check(Native.carc_state_table(i, out t));
                StateColumn[] columns = new StateColumn[t.Columns];
                for (uint c = 0; c < t.Columns; c++)
                {
                    CarcStateColumn col;
                    Native.Check(Native.carc_state_column(i, c, out col));
                    columns[c] = new StateColumn
                    {
                        Name = Native.FromUtf8(col.Name),
                        Doc = Native.FromUtf8(col.Doc),
                        Kind = (StateKind)col.Kind,
                        Optional = col.Optional != 0,
                    };
                }
                all[i] = new StateTable
                {
                    Index = i,
                    Name = Native.FromUtf8(t.Name),
                    Expansion = Native.FromUtf8(t.Expansion),
                    Doc = Native.FromUtf8(t.Doc),
                    Rows = (StateRows)t.Rows,
                    Columns = columns,
                };
            }
            return all;
        }
    }

    /// <summary>One row of a table of the expansions' state: one value per column, written as
    /// the column's StateKind says (seats and integers as they are, flags 0 or 1, enums by
    /// their numbers, tiles by kind index), Native.StateAbsent when absent.</summary>
    public sealed class StateRow
    {
        public StateTable Table;
        public int[] Values;

        /// <summary>The value of column `name`.</summary>
        public int this[string name] { get { return Values[Table.ColumnIndex(name)]; } }

        /// <summary>Whether column `name` holds no value.</summary>
        public bool IsAbsent(string name)
        {
            return this[name] == Native.StateAbsent;
        }
    }

    /// <summary>The visible state of a game's expansions (Game.ExpansionState): the rows of the
    /// tables of the expansions in play, each table's rows together, in index order.</summary>
    public sealed class ExpansionState
    {
        public StateRow[] Rows;
        /// <summary>Whether each table (by index) is in play.</summary>
        public bool[] TablesInPlay;

        /// <summary>Whether table `name` is in play (its expansion is).</summary>
        public bool InPlay(string name)
        {
            return TablesInPlay[StateSchema.Table(name).Index];
        }

        /// <summary>The rows of table `name` (none when it is not in play).</summary>
        public StateRow[] RowsOf(string name)
        {
            StateTable table = StateSchema.Table(name);
            return Array.FindAll(Rows, r => r.Table == table);
        }

        /// <summary>The first row of table `name` (the row of a table of one row), or null.</summary>
        public StateRow Row(string name)
        {
            StateRow[] rows = RowsOf(name);
            return rows.Length > 0 ? rows[0] : null;
        }
    }

    /// <summary>A failed call: the status and the library's detailed message.</summary>
    public class CarcassonneException : Exception
    {
        public readonly Status Status;

        public CarcassonneException(Status status, string message) : base(message)
        {
            Status = status;
        }
    }

    /// <summary>The native game handle; released with carc_game_free.</summary>
    public sealed class GameHandle : SafeHandle
    {
        public GameHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.carc_game_free(handle);
            return true;
        }
    }

    /// <summary>The native bot handle; released with carc_bot_free.</summary>
    public sealed class BotHandle : SafeHandle
    {
        public BotHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.carc_bot_free(handle);
            return true;
        }
    }

    /// <summary>The raw entry points, one per C function.</summary>
    public static class Native
    {
#if UNITY_IOS && !UNITY_EDITOR
        // iOS links native code statically into the player.
        const string Lib = "__Internal";
#else
        const string Lib = "carcassonne";
#endif

        public const uint NoPlayer = 0xFFFFFFFF;
        public const ushort NoTile = 0xFFFF;
        public const byte NoFeature = 255;
        public const uint NoActionId = 0xFFFFFFFF;
        public const uint NoTurn = 0xFFFFFFFF;
        /// <summary>CarcFeatureGeometry.Flags bits.</summary>
        public const byte FeaturePrincess = 1;
        public const byte FeatureTunnel = 2;
        public const byte FeatureInner = 4;
        public const byte FeatureInn = 8;
        public const byte FeaturePigHerd = 16;
        public const byte FeatureWell = 32;
        public const byte FeatureCathedral = 64;
        /// <summary>CarcTower.TopOwner and TopFigure of an open tower.</summary>
        public const byte NoTop = 255;
        // BEGIN GENERATED CONSTANTS: tools/gen_csharp.py writes them from include/carcassonne.h; do not edit.
        // carc_tile_symbols bits.
        /// <summary>A monastery.</summary>
        public const uint SymbolMonastery = 1;
        /// <summary>A garden (Abbot).</summary>
        public const uint SymbolGarden = 2;
        /// <summary>A river tile.</summary>
        public const uint SymbolRiver = 4;
        /// <summary>A volcano (PD1).</summary>
        public const uint SymbolVolcano = 8;
        /// <summary>The dragon symbol (PD4).</summary>
        public const uint SymbolDragon = 16;
        /// <summary>A magic portal (PD12).</summary>
        public const uint SymbolMagicPortal = 32;
        /// <summary>A princess (PD9).</summary>
        public const uint SymbolPrincess = 64;
        /// <summary>A tunnel (PD18).</summary>
        public const uint SymbolTunnel = 128;
        /// <summary>An inn (IC2).</summary>
        public const uint SymbolInn = 256;
        /// <summary>A pig herd (R5).</summary>
        public const uint SymbolPigHerd = 512;
        /// <summary>A well (decoration of a junction).</summary>
        public const uint SymbolWell = 1024;
        /// <summary>The abbey tile (AM1).</summary>
        public const uint SymbolAbbey = 2048;
        /// <summary>A shrine (the Cult, CU1).</summary>
        public const uint SymbolShrine = 4096;
        /// <summary>A bazaar (BZ1).</summary>
        public const uint SymbolBazaar = 8192;
        /// <summary>The four quarters of the City of Carcassonne (the Count, CC2).</summary>
        public const uint SymbolCountQuarters = 16384;
        /// <summary>A cathedral (IC3).</summary>
        public const uint SymbolCathedral = 32768;
        /// <summary>A tower foundation (TW1).</summary>
        public const uint SymbolTower = 65536;
        /// <summary>Trade goods on a city (TB1; which goods is the city part's).</summary>
        public const uint SymbolGoods = 131072;
        /// <summary>A hill (HS3): a tile goes face down under it; followers on it break ties (HS4).</summary>
        public const uint SymbolHill = 262144;
        /// <summary>A vineyard (HS5): 3 more points to each completed monastery around it.</summary>
        public const uint SymbolVineyard = 524288;
        /// <summary>The library version this binding was written for (see Game.Version).</summary>
        public const uint VersionMajor = 0;
        /// <summary>The library's minor version this binding was written for.</summary>
        public const uint VersionMinor = 1;
        /// <summary>The library's patch version this binding was written for.</summary>
        public const uint VersionPatch = 0;
        /// <summary>The ABI this binding was written for; compare with carc_abi_version().</summary>
        public const uint AbiVersion = 2;
        /// <summary>The observation layout version this binding was written for (the header's CARC_LAYOUT_VERSION); compare with carc_layout_version().</summary>
        public const ulong LayoutVersion = 7357042928877196312;
        // END GENERATED CONSTANTS
        /// <summary>The default side of the observation window.</summary>
        public const uint DefaultWindow = 32;
        /// <summary>Values per row of the expansions' state (CARC_STATE_MAX_COLUMNS).</summary>
        public const uint StateMaxColumns = 8;
        /// <summary>A cell of the expansions' state that holds no value (CARC_STATE_ABSENT).</summary>
        public static readonly int StateAbsent = int.MinValue;

        [DllImport(Lib)] public static extern IntPtr carc_version();
        [DllImport(Lib)] public static extern uint carc_abi_version();
        [DllImport(Lib)] public static extern IntPtr carc_status_message(uint status);
        [DllImport(Lib)] public static extern Status carc_last_error(byte[] buf, uint len, out uint needed);

        [DllImport(Lib)] public static extern Status carc_game_new(byte[] configJson, out GameHandle game);
        [DllImport(Lib)] public static extern void carc_game_free(IntPtr game);
        [DllImport(Lib)] public static extern Status carc_game_clone(GameHandle game, out GameHandle copy);
        [DllImport(Lib)] public static extern Status carc_game_from_record(byte[] recordJson, uint chance, out GameHandle game);
        [DllImport(Lib)] public static extern Status carc_game_from_record_ex(byte[] recordJson, byte[] optionsJson, out GameHandle game);
        [DllImport(Lib)] public static extern Status carc_game_to_record(GameHandle game, byte[] id, byte[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_last_error(GameHandle game, byte[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_is_poisoned(GameHandle game, out byte poisoned);

        [DllImport(Lib)] public static extern Status carc_game_num_players(GameHandle game, out uint players);
        [DllImport(Lib)] public static extern Status carc_game_to_play(GameHandle game, out uint player);
        [DllImport(Lib)] public static extern Status carc_game_turn_player(GameHandle game, out uint player);
        [DllImport(Lib)] public static extern Status carc_game_phase(GameHandle game, out Phase phase);
        [DllImport(Lib)] public static extern Status carc_game_is_terminal(GameHandle game, out byte terminal);
        [DllImport(Lib)] public static extern Status carc_game_scores(GameHandle game, int[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_scores_if_ended_now(GameHandle game, int[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_supply(GameHandle game, uint player, out CarcSupply supply);
        [DllImport(Lib)] public static extern Status carc_game_tile_in_hand(GameHandle game, out ushort tile);
        [DllImport(Lib)] public static extern Status carc_game_tiles_left(GameHandle game, out uint left);
        [DllImport(Lib)] public static extern Status carc_game_remaining_tiles(GameHandle game, byte[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_placed_tiles(GameHandle game, [In, Out] CarcPlacedTile[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_board_figures(GameHandle game, [In, Out] CarcBoardFigure[] buf, uint len, out uint needed);
        [Obsolete("use Game.ExpansionState() and the table dragon")]
        [DllImport(Lib)] public static extern Status carc_game_dragon(GameHandle game, out CarcDragon dragon);
        [Obsolete("use Game.ExpansionState() and the table fairy")]
        [DllImport(Lib)] public static extern Status carc_game_fairy(GameHandle game, out CarcFairy fairy);
        [Obsolete("use Game.ExpansionState() and the table towers")]
        [DllImport(Lib)] public static extern Status carc_game_towers(GameHandle game, [In, Out] CarcTower[] buf, uint len, out uint needed);
        [Obsolete("use Game.ExpansionState() and the table tower_pieces")]
        [DllImport(Lib)] public static extern Status carc_game_tower_pieces(GameHandle game, uint player, out uint pieces);
        [Obsolete("use Game.ExpansionState() and the table prisoners")]
        [DllImport(Lib)] public static extern Status carc_game_prisoners(GameHandle game, uint holder, uint owner, out CarcSupply prisoners);
        [DllImport(Lib)] public static extern Status carc_game_state_hash(GameHandle game, out ulong hash);
        [DllImport(Lib)] public static extern Status carc_game_last_placed(GameHandle game, out CarcPlacedTile tile);

        [DllImport(Lib)] public static extern Status carc_state_table_count(out uint count);
        [DllImport(Lib)] public static extern Status carc_state_table(uint index, out CarcStateTable table);
        [DllImport(Lib)] public static extern Status carc_state_table_index(byte[] name, out uint index);
        [DllImport(Lib)] public static extern Status carc_state_column(uint table, uint index, out CarcStateColumn column);
        [DllImport(Lib)] public static extern Status carc_state_column_index(uint table, byte[] name, out uint index);
        [DllImport(Lib)] public static extern Status carc_game_state_table_in_play(GameHandle game, uint table, out byte inPlay);
        // Each CarcStateRow is 1 + StateMaxColumns int32 values: its table, then its values.
        [DllImport(Lib)] public static extern Status carc_game_expansion_state(GameHandle game, int[] rows, uint len, out uint needed);

        [DllImport(Lib)] public static extern Status carc_game_event_count(GameHandle game, out uint count);
        [DllImport(Lib)] public static extern Status carc_game_events(GameHandle game, uint first, [In, Out] CarcEvent[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_event_parts(GameHandle game, uint index, [In, Out] CarcFeaturePart[] buf, uint len, out uint needed);

        [DllImport(Lib)] public static extern Status carc_game_legal_actions(GameHandle game, [In, Out] CarcAction[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_apply(GameHandle game, ref CarcAction action);
        [DllImport(Lib)] public static extern Status carc_game_is_legal(GameHandle game, ref CarcAction action, out byte legal);
        [DllImport(Lib)] public static extern Status carc_game_chance_outcomes(GameHandle game, [In, Out] CarcChanceOutcome[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_apply_draw(GameHandle game, uint tile);

        [DllImport(Lib)] public static extern Status carc_game_observation_sizes(GameHandle game, out CarcObservationSizes sizes);
        [DllImport(Lib)] public static extern Status carc_game_num_actions(GameHandle game, out uint actions);
        [DllImport(Lib)] public static extern Status carc_game_pending_focus(GameHandle game, out CarcFocus focus);
        [DllImport(Lib)] public static extern Status carc_game_cancel_focus(GameHandle game, out byte cancelled);
        [DllImport(Lib)] public static extern Status carc_game_window_origin(GameHandle game, out CarcWindowOrigin origin);
        [DllImport(Lib)] public static extern Status carc_game_legal_mask(GameHandle game, sbyte[] buf, uint len, out uint needed, out CarcMaskInfo info);
        [DllImport(Lib)] public static extern Status carc_game_apply_flat(GameHandle game, uint id, out byte completed);
        [DllImport(Lib)] public static extern Status carc_game_action_to_flat(GameHandle game, ref CarcAction action, out uint first, out uint second);
        [DllImport(Lib)] public static extern Status carc_game_observe(GameHandle game, uint player, byte[] planes, uint planesLen, out uint planesNeeded, float[] globals, uint globalsLen, out uint globalsNeeded);
        [DllImport(Lib)] public static extern Status carc_mcts_search(GameHandle game, uint iterations, ulong seed, [Out] float[] shares, uint sharesLen, [Out] float[] policy, uint policyLen, [Out] double[] values, uint valuesLen, out CarcSearchInfo info);

        [DllImport(Lib)] public static extern ulong carc_layout_version();
        [DllImport(Lib)] public static extern Status carc_game_plane_name(GameHandle game, uint index, out IntPtr name);
        [DllImport(Lib)] public static extern Status carc_game_layout_block_count(GameHandle game, LayoutPart part, out uint count);
        [DllImport(Lib)] public static extern Status carc_game_layout_block(GameHandle game, LayoutPart part, uint index, out CarcLayoutBlock block);
        [DllImport(Lib)] public static extern Status carc_game_layout_index_name(GameHandle game, LayoutPart part, uint index, uint dim, out IntPtr name);
        [DllImport(Lib)] public static extern Status carc_game_layout_label(GameHandle game, LayoutPart part, uint index, uint dim, uint entry, out IntPtr label);

        [DllImport(Lib)] public static extern Status carc_game_render_text(GameHandle game, byte[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_render_svg(GameHandle game, byte[] buf, uint len, out uint needed);

        [DllImport(Lib)] public static extern Status carc_bot_new(byte[] spec, ulong seed, out BotHandle bot);
        [DllImport(Lib)] public static extern void carc_bot_free(IntPtr bot);
        [DllImport(Lib)] public static extern Status carc_bot_choose(BotHandle bot, GameHandle game, out CarcAction action);
        [DllImport(Lib)] public static extern Status carc_bot_spec(BotHandle bot, byte[] buf, uint len, out uint needed);

        [DllImport(Lib)] public static extern Status carc_tile_kind_count(out uint count);
        [DllImport(Lib)] public static extern Status carc_tile_kind_id(uint index, out IntPtr id);
        [DllImport(Lib)] public static extern Status carc_tile_kind_index(byte[] id, out ushort index);
        [DllImport(Lib)] public static extern Status carc_tile_feature_count(uint kind, out uint count);
        [DllImport(Lib)] public static extern Status carc_tile_feature_id(uint kind, uint feature, out IntPtr id);
        [DllImport(Lib)] public static extern Status carc_tile_feature_geometry(uint kind, uint feature, uint rot, out CarcFeatureGeometry geometry);
        [DllImport(Lib)] public static extern Status carc_tile_symbols(uint kind, out uint symbols);

        /// <summary>A NUL-terminated UTF-8 string for the library.</summary>
        public static byte[] Utf8(string text)
        {
            return Encoding.UTF8.GetBytes(text + "\0");
        }

        /// <summary>Copies a NUL-terminated UTF-8 string owned by the library.</summary>
        public static string FromUtf8(IntPtr ptr)
        {
            if (ptr == IntPtr.Zero) return null;
            int len = 0;
            while (Marshal.ReadByte(ptr, len) != 0) len++;
            byte[] bytes = new byte[len];
            Marshal.Copy(ptr, bytes, 0, len);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>The static text of a status.</summary>
        public static string Message(Status status)
        {
            return FromUtf8(carc_status_message((uint)status));
        }

        /// <summary>The detailed message of the calling thread's last failure.</summary>
        public static string LastError()
        {
            uint needed;
            carc_last_error(null, 0, out needed);
            byte[] buf = new byte[needed];
            if (carc_last_error(buf, needed, out needed) != Status.Ok) return "";
            return Encoding.UTF8.GetString(buf, 0, (int)needed - 1);
        }

        /// <summary>Throws for any status but Ok, with the detailed message.</summary>
        public static void Check(Status status)
        {
            if (status != Status.Ok) throw new CarcassonneException(status, LastError());
        }
    }

    /// <summary>A game in progress. Not thread-safe: use one Game from one thread at a time.</summary>
    public sealed class Game : IDisposable
    {
        readonly GameHandle handle;
        CarcAction[] actions = new CarcAction[256];

        Game(GameHandle handle)
        {
            this.handle = handle;
        }

        /// <summary>The library version ("MAJOR.MINOR.PATCH").</summary>
        public static string Version { get { return Native.FromUtf8(Native.carc_version()); } }

        /// <summary>A new game from a JSON configuration (see docs/c-api.md).</summary>
        public static Game Create(string configJson)
        {
            GameHandle h;
            Native.Check(Native.carc_game_new(Native.Utf8(configJson), out h));
            return new Game(h);
        }

        /// <summary>A game loaded from a record (JSON), replayed and checked.</summary>
        public static Game FromRecord(string recordJson, Chance chance)
        {
            GameHandle h;
            Native.Check(Native.carc_game_from_record(Native.Utf8(recordJson), (uint)chance, out h));
            return new Game(h);
        }

        /// <summary>A game loaded from a record and resumed exactly: the saved generator
        /// state (same draws), chance mode, window and pending focus. `optionsJson` (or
        /// null) may override "chance" and "window" and choose the observation "preset"
        /// (records do not save it).</summary>
        public static Game FromRecordEx(string recordJson, string optionsJson)
        {
            GameHandle h;
            byte[] options = optionsJson == null ? null : Native.Utf8(optionsJson);
            Native.Check(Native.carc_game_from_record_ex(Native.Utf8(recordJson), options, out h));
            return new Game(h);
        }

        /// <summary>An independent copy.</summary>
        public Game Clone()
        {
            GameHandle h;
            Native.Check(Native.carc_game_clone(handle, out h));
            return new Game(h);
        }

        public void Dispose()
        {
            handle.Dispose();
        }

        public GameHandle Handle { get { return handle; } }

        public uint NumPlayers
        {
            get { uint n; Native.Check(Native.carc_game_num_players(handle, out n)); return n; }
        }

        /// <summary>The deciding seat, or Native.NoPlayer.</summary>
        public uint ToPlay
        {
            get { uint p; Native.Check(Native.carc_game_to_play(handle, out p)); return p; }
        }

        public Phase Phase
        {
            get { Phase p; Native.Check(Native.carc_game_phase(handle, out p)); return p; }
        }

        public bool IsTerminal
        {
            get { byte t; Native.Check(Native.carc_game_is_terminal(handle, out t)); return t != 0; }
        }

        public ulong StateHash
        {
            get { ulong h; Native.Check(Native.carc_game_state_hash(handle, out h)); return h; }
        }

        public int[] Scores()
        {
            return SeatScores(Native.carc_game_scores);
        }

        /// <summary>Each seat's score if the game ended now: the points so far plus the final
        /// scoring of what is on the board, read on a copy (`carc_game_scores_if_ended_now`).</summary>
        public int[] ScoresIfEndedNow()
        {
            return SeatScores(Native.carc_game_scores_if_ended_now);
        }

        delegate Status ScoresQuery(GameHandle game, int[] buf, uint len, out uint needed);

        /// <summary>A score per seat from `query`: the count asked first, then the scores.</summary>
        int[] SeatScores(ScoresQuery query)
        {
            uint n;
            Native.Check(query(handle, null, 0, out n));
            int[] scores = new int[n];
            Native.Check(query(handle, scores, n, out n));
            return scores;
        }

        public CarcSupply Supply(uint player)
        {
            CarcSupply s;
            Native.Check(Native.carc_game_supply(handle, player, out s));
            return s;
        }

        /// <summary>The visible state of the expansions in play (the count and the quarters,
        /// bridges, castles, the bazaar, the titles, the dragon, the fairy, ...): the rows of
        /// their tables, read through the schema (StateSchema), so that a new expansion's
        /// tables need no new code here.</summary>
        public ExpansionState ExpansionState()
        {
            uint n;
            Native.Check(Native.carc_game_expansion_state(handle, null, 0, out n));
            int width = 1 + (int)Native.StateMaxColumns;
            int[] cells = new int[n * width];
            Native.Check(Native.carc_game_expansion_state(handle, cells, n, out n));
            StateTable[] tables = StateSchema.Tables;
            StateRow[] rows = new StateRow[n];
            for (int r = 0; r < n; r++)
            {
                StateTable table = tables[cells[r * width]];
                int[] values = new int[table.Columns.Length];
                Array.Copy(cells, r * width + 1, values, 0, values.Length);
                rows[r] = new StateRow { Table = table, Values = values };
            }
            bool[] inPlay = new bool[tables.Length];
            for (uint t = 0; t < tables.Length; t++)
            {
                byte flag;
                Native.Check(Native.carc_game_state_table_in_play(handle, t, out flag));
                inPlay[t] = flag != 0;
            }
            return new ExpansionState { Rows = rows, TablesInPlay = inPlay };
        }

        public CarcPlacedTile[] PlacedTiles()
        {
            uint n;
            Native.Check(Native.carc_game_placed_tiles(handle, null, 0, out n));
            CarcPlacedTile[] tiles = new CarcPlacedTile[n];
            Native.Check(Native.carc_game_placed_tiles(handle, tiles, n, out n));
            return tiles;
        }

        public CarcBoardFigure[] BoardFigures()
        {
            uint n;
            Native.Check(Native.carc_game_board_figures(handle, null, 0, out n));
            CarcBoardFigure[] figures = new CarcBoardFigure[n];
            Native.Check(Native.carc_game_board_figures(handle, figures, n, out n));
            return figures;
        }

        /// <summary>Every tower foundation on the board with its height and top figure (TW1, TW2):
        /// the rows of the state table `towers`. Deprecated: read ExpansionState().RowsOf("towers");
        /// this method reads that table and will be removed in a later release.</summary>
        [Obsolete("use ExpansionState().RowsOf(\"towers\")")]
        public CarcTower[] Towers()
        {
            StateRow[] rows = ExpansionState().RowsOf("towers");
            CarcTower[] towers = new CarcTower[rows.Length];
            for (int i = 0; i < rows.Length; i++)
            {
                StateRow r = rows[i];
                towers[i] = new CarcTower
                {
                    X = r["x"],
                    Y = r["y"],
                    Feature = (byte)r["feature"],
                    Height = (byte)r["height"],
                    TopOwner = r.IsAbsent("top_owner") ? Native.NoTop : (byte)r["top_owner"],
                    TopFigure = r.IsAbsent("top_figure") ? Native.NoTop : (byte)r["top_figure"],
                };
            }
            return towers;
        }

        /// <summary>Tower pieces the seat has left (TW1; 0 without the Tower): its row of the state
        /// table `tower_pieces`. A seat outside the game is a CarcassonneException (InvalidArgument).
        /// Deprecated: read ExpansionState().RowsOf("tower_pieces"); this method reads that table
        /// and will be removed in a later release.</summary>
        [Obsolete("use ExpansionState().RowsOf(\"tower_pieces\")")]
        public uint TowerPieces(uint player)
        {
            CheckSeat(player, "player");
            foreach (StateRow r in ExpansionState().RowsOf("tower_pieces"))
                if (r["seat"] == (int)player) return (uint)r["pieces"];
            return 0;
        }

        /// <summary>The figures of `owner` that `holder` holds prisoner, by kind (TW4): the rows of
        /// the state table `prisoners` for them. A seat outside the game is a
        /// CarcassonneException (InvalidArgument). Deprecated: read ExpansionState().RowsOf("prisoners");
        /// this method reads that table and will be removed in a later release.</summary>
        [Obsolete("use ExpansionState().RowsOf(\"prisoners\")")]
        public CarcSupply Prisoners(uint holder, uint owner)
        {
            CheckSeat(holder, "holder");
            CheckSeat(owner, "owner");
            CarcSupply s = new CarcSupply();
            foreach (StateRow r in ExpansionState().RowsOf("prisoners"))
            {
                if (r["holder"] != (int)holder || r["owner"] != (int)owner) continue;
                byte n = (byte)r["count"];
                switch ((Figure)r["figure"])
                {
                    case Figure.Follower: s.Follower = n; break;
                    case Figure.BigFollower: s.BigFollower = n; break;
                    case Figure.Abbot: s.Abbot = n; break;
                    case Figure.Mayor: s.Mayor = n; break;
                    case Figure.Wagon: s.Wagon = n; break;
                    case Figure.Barn: s.Barn = n; break;
                }
            }
            return s;
        }

        void CheckSeat(uint seat, string name)
        {
            uint players = NumPlayers;
            if (seat >= players)
                throw new CarcassonneException(Status.InvalidArgument,
                    name + " " + seat + " is not a seat of this " + players + "-player game");
        }

        /// <summary>The tile placed last (the start tile before any placement).</summary>
        public CarcPlacedTile LastPlaced()
        {
            CarcPlacedTile t;
            Native.Check(Native.carc_game_last_placed(handle, out t));
            return t;
        }

        /// <summary>The number of events so far (a client's cursor counts up to it).</summary>
        public uint EventCount
        {
            get { uint n; Native.Check(Native.carc_game_event_count(handle, out n)); return n; }
        }

        /// <summary>The events numbered `first` and later, in order.</summary>
        public CarcEvent[] Events(uint first)
        {
            uint n;
            Native.Check(Native.carc_game_events(handle, first, null, 0, out n));
            CarcEvent[] list = new CarcEvent[n];
            Native.Check(Native.carc_game_events(handle, first, list, n, out n));
            return list;
        }

        /// <summary>The parts of the feature that score event `index` was for.</summary>
        public CarcFeaturePart[] EventParts(uint index)
        {
            uint n;
            Native.Check(Native.carc_game_event_parts(handle, index, null, 0, out n));
            CarcFeaturePart[] list = new CarcFeaturePart[n];
            Native.Check(Native.carc_game_event_parts(handle, index, list, n, out n));
            return list;
        }

        /// <summary>The focus tile a CELL id picked (Pending = 0 when none).</summary>
        public CarcFocus PendingFocus()
        {
            CarcFocus f;
            Native.Check(Native.carc_game_pending_focus(handle, out f));
            return f;
        }

        /// <summary>Takes the CELL id back; true when a focus was pending.</summary>
        public bool CancelFocus()
        {
            byte cancelled;
            Native.Check(Native.carc_game_cancel_focus(handle, out cancelled));
            return cancelled != 0;
        }

        /// <summary>The board square of window cell (0, 0).</summary>
        public CarcWindowOrigin WindowOrigin()
        {
            CarcWindowOrigin o;
            Native.Check(Native.carc_game_window_origin(handle, out o));
            return o;
        }

        /// <summary>The legal actions; the returned array is reused by the next call.</summary>
        public ArraySegment<CarcAction> LegalActions()
        {
            uint n;
            Status s = Native.carc_game_legal_actions(handle, actions, (uint)actions.Length, out n);
            if (s == Status.BufferTooSmall)
            {
                actions = new CarcAction[n];
                s = Native.carc_game_legal_actions(handle, actions, n, out n);
            }
            Native.Check(s);
            return new ArraySegment<CarcAction>(actions, 0, (int)n);
        }

        public void Apply(CarcAction action)
        {
            Native.Check(Native.carc_game_apply(handle, ref action));
        }

        /// <summary>Applies an action and returns the status instead of throwing.</summary>
        public Status TryApply(CarcAction action)
        {
            return Native.carc_game_apply(handle, ref action);
        }

        public CarcChanceOutcome[] ChanceOutcomes()
        {
            uint n;
            Native.Check(Native.carc_game_chance_outcomes(handle, null, 0, out n));
            CarcChanceOutcome[] list = new CarcChanceOutcome[n];
            Native.Check(Native.carc_game_chance_outcomes(handle, list, n, out n));
            return list;
        }

        public void ApplyDraw(ushort tile)
        {
            Native.Check(Native.carc_game_apply_draw(handle, tile));
        }

        public CarcObservationSizes ObservationSizes()
        {
            CarcObservationSizes s;
            Native.Check(Native.carc_game_observation_sizes(handle, out s));
            return s;
        }

        /// <summary>Writes the legal-move mask into `mask` (length ObservationSizes().Actions).</summary>
        public CarcMaskInfo LegalMask(sbyte[] mask)
        {
            uint n;
            CarcMaskInfo info;
            Native.Check(Native.carc_game_legal_mask(handle, mask, (uint)mask.Length, out n, out info));
            return info;
        }

        /// <summary>Takes a flat id; true when it completed an action.</summary>
        public bool ApplyFlat(uint id)
        {
            byte completed;
            Native.Check(Native.carc_game_apply_flat(handle, id, out completed));
            return completed != 0;
        }

        public void Observe(uint player, byte[] planes, float[] globals)
        {
            uint np, ng;
            Native.Check(Native.carc_game_observe(handle, player, planes, (uint)planes.Length, out np,
                globals, (uint)globals.Length, out ng));
        }

        /// <summary>The built-in search's view of the current decision (carc_mcts_search):
        /// each legal action's share of `iterations` iterations (`shares`, length
        /// LegalActions().Count), the same shares over the flat ids of the current step
        /// (`policy`, length ObservationSizes().Actions, or null) and each seat's value in 0..1
        /// (`values`, length NumPlayers, or null). Reproducible from `seed`.</summary>
        public CarcSearchInfo MctsSearch(uint iterations, ulong seed, float[] shares, float[] policy, double[] values)
        {
            CarcSearchInfo info;
            Native.Check(Native.carc_mcts_search(handle, iterations, seed, shares, (uint)shares.Length,
                policy, policy == null ? 0u : (uint)policy.Length,
                values, values == null ? 0u : (uint)values.Length, out info));
            return info;
        }

        /// <summary>The observation layout version of the library (a hash of the observation
        /// schema; compare with Native.LayoutVersion).</summary>
        public static ulong LayoutVersion { get { return Native.carc_layout_version(); } }

        /// <summary>The name of plane `index` of this game's observations (`city.N`, ...).</summary>
        public string PlaneName(uint index)
        {
            IntPtr name;
            Native.Check(Native.carc_game_plane_name(handle, index, out name));
            return Native.FromUtf8(name);
        }

        /// <summary>The global blocks or blocks of ids of this game's layout, in order.</summary>
        public LayoutBlock[] LayoutBlocks(LayoutPart part)
        {
            uint n;
            Native.Check(Native.carc_game_layout_block_count(handle, part, out n));
            LayoutBlock[] blocks = new LayoutBlock[n];
            for (uint i = 0; i < n; i++)
            {
                CarcLayoutBlock b;
                Native.Check(Native.carc_game_layout_block(handle, part, i, out b));
                uint[] all = new uint[] { b.Shape0, b.Shape1, b.Shape2 };
                uint[] shape = new uint[b.Rank];
                Array.Copy(all, shape, (int)b.Rank);
                blocks[i] = new LayoutBlock { Name = Native.FromUtf8(b.Name), Start = b.Start, Len = b.Len, Shape = shape };
            }
            return blocks;
        }

        /// <summary>What index `dim` of block `index` of `part` stands for (`relative seat`, ...).</summary>
        public string LayoutIndexName(LayoutPart part, uint index, uint dim)
        {
            IntPtr name;
            Native.Check(Native.carc_game_layout_index_name(handle, part, index, dim, out name));
            return Native.FromUtf8(name);
        }

        /// <summary>The label of entry `entry` of index `dim` of block `index` of `part` (`rel1`,
        /// `wagon`, `BASE-D`, ...).</summary>
        public string LayoutLabel(LayoutPart part, uint index, uint dim, uint entry)
        {
            IntPtr label;
            Native.Check(Native.carc_game_layout_label(handle, part, index, dim, entry, out label));
            return Native.FromUtf8(label);
        }

        public string ToRecord(string id)
        {
            uint n;
            byte[] idBytes = Native.Utf8(id);
            Native.Check(Native.carc_game_to_record(handle, idBytes, null, 0, out n));
            byte[] buf = new byte[n];
            Native.Check(Native.carc_game_to_record(handle, idBytes, buf, n, out n));
            return Encoding.UTF8.GetString(buf, 0, (int)n - 1);
        }

        public string RenderSvg()
        {
            uint n;
            Native.Check(Native.carc_game_render_svg(handle, null, 0, out n));
            byte[] buf = new byte[n];
            Native.Check(Native.carc_game_render_svg(handle, buf, n, out n));
            return Encoding.UTF8.GetString(buf, 0, (int)n - 1);
        }

        /// <summary>The detailed message of the last failed call on this game.</summary>
        public string LastError()
        {
            uint n;
            Native.carc_game_last_error(handle, null, 0, out n);
            byte[] buf = new byte[n];
            if (Native.carc_game_last_error(handle, buf, n, out n) != Status.Ok) return "";
            return Encoding.UTF8.GetString(buf, 0, (int)n - 1);
        }

        /// <summary>The catalogue id of a tile kind (e.g. "BASE-D").</summary>
        public static string TileKindId(uint index)
        {
            IntPtr p;
            Native.Check(Native.carc_tile_kind_id(index, out p));
            return Native.FromUtf8(p);
        }

        /// <summary>The tile kind index of a catalogue id.</summary>
        public static ushort TileKindIndex(string id)
        {
            ushort k;
            Native.Check(Native.carc_tile_kind_index(Native.Utf8(id), out k));
            return k;
        }

        /// <summary>The number of features of a tile kind.</summary>
        public static uint FeatureCount(uint kind)
        {
            uint n;
            Native.Check(Native.carc_tile_feature_count(kind, out n));
            return n;
        }

        /// <summary>A feature of a tile kind turned by `rot` quarter turns, as drawn.</summary>
        public static CarcFeatureGeometry FeatureGeometry(uint kind, uint feature, uint rot)
        {
            CarcFeatureGeometry g;
            Native.Check(Native.carc_tile_feature_geometry(kind, feature, rot, out g));
            return g;
        }

        /// <summary>The symbols of a tile kind (CARC_SYMBOL_* bits).</summary>
        public static uint TileSymbols(uint kind)
        {
            uint s;
            Native.Check(Native.carc_tile_symbols(kind, out s));
            return s;
        }
    }

    /// <summary>A built-in player ("random", "greedy", "mcts:2000", "mcts:100ms", "net",
    /// "net:search=50", ...; see docs/c-api.md) with its own random sequence. Not thread-safe: use one Bot from one
    /// thread at a time. An MCTS bot's Choose takes its whole budget.</summary>
    public sealed class Bot : IDisposable
    {
        readonly BotHandle handle;

        Bot(BotHandle handle)
        {
            this.handle = handle;
        }

        /// <summary>A bot from its spec; the same seed gives the same choices.</summary>
        public static Bot Create(string spec, ulong seed)
        {
            BotHandle h;
            Native.Check(Native.carc_bot_new(Native.Utf8(spec), seed, out h));
            return new Bot(h);
        }

        public void Dispose()
        {
            handle.Dispose();
        }

        /// <summary>The action the bot chooses for the player who decides now; the game is
        /// not changed.</summary>
        public CarcAction Choose(Game game)
        {
            CarcAction action;
            Native.Check(Native.carc_bot_choose(handle, game.Handle, out action));
            return action;
        }

        /// <summary>The bot's spec, with every setting that differs from its default.</summary>
        public string Spec
        {
            get
            {
                uint n;
                Native.Check(Native.carc_bot_spec(handle, null, 0, out n));
                byte[] buf = new byte[n];
                Native.Check(Native.carc_bot_spec(handle, buf, n, out n));
                return Encoding.UTF8.GetString(buf, 0, (int)n - 1);
            }
        }
    }
}
