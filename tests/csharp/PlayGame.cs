// Console test of the C# binding: struct layouts, a complete game (structured actions and
// flat ids), a record round trip, explicit chance, observations, error statuses,
// built-in players (an MCTS bot against a greedy one, the learned player "net" through a
// whole game), the observation layout against
// docs/observations.md (its path is the first argument), and the Royal Gift sets read
// from the expansion state query.
// Built with Mono's mcs and run with mono (see tests/c/run.sh).
using System;
using System.Runtime.InteropServices;
using Carcassonne;

static class PlayGame
{
    static int passed;
    static int failed;

    static void Check(bool ok, string what)
    {
        if (ok)
        {
            passed++;
        }
        else
        {
            failed++;
            Console.Error.WriteLine("check failed: " + what);
        }
    }

    static Status StatusOf(Action body)
    {
        try
        {
            body();
            return Status.Ok;
        }
        catch (CarcassonneException e)
        {
            return e.Status;
        }
    }

    static void Layouts()
    {
        Check(Marshal.SizeOf(typeof(CarcAction)) == 32, "CarcAction is 32 bytes");
        Check(Marshal.SizeOf(typeof(CarcChanceOutcome)) == 16, "CarcChanceOutcome is 16 bytes");
        Check(Marshal.SizeOf(typeof(CarcSupply)) == 10, "CarcSupply is 10 bytes");
        Check(Marshal.SizeOf(typeof(CarcPlacedTile)) == 12, "CarcPlacedTile is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcBoardFigure)) == 12, "CarcBoardFigure is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcDragon)) == 12, "CarcDragon is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcFairy)) == 12, "CarcFairy is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcObservationSizes)) == 28, "CarcObservationSizes is 28 bytes");
        Check(Marshal.SizeOf(typeof(CarcMaskInfo)) == 12, "CarcMaskInfo is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcSearchInfo)) == 40, "CarcSearchInfo is 40 bytes");
        Check(Native.carc_abi_version() == Native.AbiVersion, "the library has the binding's ABI version");
        Check(Marshal.SizeOf(typeof(CarcEvent)) == 28, "CarcEvent is 28 bytes");
        Check(Marshal.SizeOf(typeof(CarcFeaturePart)) == 12, "CarcFeaturePart is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcFeatureGeometry)) == 12, "CarcFeatureGeometry is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcFocus)) == 12, "CarcFocus is 12 bytes");
        Check(Marshal.SizeOf(typeof(CarcWindowOrigin)) == 8, "CarcWindowOrigin is 8 bytes");
        Check(Marshal.SizeOf(typeof(CarcStateTable)) == 3 * IntPtr.Size + 8, "CarcStateTable");
        Check(Marshal.SizeOf(typeof(CarcStateColumn)) == 2 * IntPtr.Size + 8, "CarcStateColumn");
        Check(Game.Version.Split('.').Length == 3, "version MAJOR.MINOR.PATCH: " + Game.Version);
        Check(Native.Message(Status.GameOver) == "the game is over", "status message");
        Check(Game.TileKindId(0).Length > 0, "tile kind id");
    }

    static bool SameScores(int[] a, int[] b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
        return true;
    }

    static void PlayToEnd(Game game, Random rng, bool explicitChance)
    {
        CarcObservationSizes sizes = game.ObservationSizes();
        sbyte[] mask = new sbyte[sizes.Actions];
        byte[] planes = new byte[sizes.PlanesLen];
        float[] globals = new float[sizes.GlobalsLen];
        int decisions = 0;
        while (!game.IsTerminal && decisions < 20000)
        {
            if (game.Phase == Phase.Draw || game.Phase == Phase.DrawToken)
            {
                Check(explicitChance, "draws only in explicit mode");
                CarcChanceOutcome[] outcomes = game.ChanceOutcomes();
                double sum = 0;
                foreach (CarcChanceOutcome o in outcomes) sum += o.Probability;
                Check(Math.Abs(sum - 1.0) < 1e-6, "probabilities add up to 1");
                CarcChanceOutcome outcome = outcomes[rng.Next(outcomes.Length)];
                Check((outcome.IsToken == 1) == (game.Phase == Phase.DrawToken), "a token only when one is drawn");
                if (outcome.IsToken == 1)
                {
                    // A token of the sheep bag (HS1, HS2).
                    CarcAction token = new CarcAction();
                    token.Kind = (byte)ActionKind.DrawToken;
                    token.Feature = Native.NoFeature;
                    token.Token = outcome.Token;
                    game.Apply(token);
                }
                else
                {
                    game.ApplyDraw(outcome.Tile);
                }
                continue;
            }
            ArraySegment<CarcAction> legal = game.LegalActions();
            Check(legal.Count > 0, "a decision has legal actions");
            if (decisions % 5 == 0)
            {
                CarcMaskInfo info = game.LegalMask(mask);
                Check(info.Legal == legal.Count, "the mask covers the legal list");
                game.Observe(game.ToPlay, planes, globals);
            }
            if (decisions % 4 == 1)
            {
                // Take an offered flat id (a CELL id may need a SLOT id after it).
                CarcMaskInfo info = game.LegalMask(mask);
                if (info.Offered > 0)
                {
                    bool completed = false;
                    while (!completed)
                    {
                        int id = Array.IndexOf(mask, (sbyte)1);
                        completed = game.ApplyFlat((uint)id);
                        if (!completed) game.LegalMask(mask);
                    }
                    decisions++;
                    continue;
                }
            }
            CarcAction pick = legal.Array[legal.Offset + rng.Next(legal.Count)];
            game.Apply(pick);
            decisions++;
        }
        Check(game.IsTerminal, "the game ends");
        Check(game.Phase == Phase.GameOver, "phase GameOver at the end");
        Check(game.ToPlay == Native.NoPlayer, "nobody to play at the end");
    }

    // A complete game with every set key, played, recorded and replayed.
    static void CompleteGame()
    {
        using (Game game = Game.Create(
            "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\",\"abbey-and-mayor\"," +
            "\"count\",\"king-and-robber\",\"cult\",\"bridges-castles-and-bazaars\"," +
            "\"inns-and-cathedrals\",\"traders-and-builders\",\"tower\",\"hills-and-sheep\"],\"figures\":{\"abbot\":1},\"seed\":99}"))
        {
            PlayToEnd(game, new Random(5), false);
            int[] scores = game.Scores();
            Check(scores.Length == 4, "four scores");
            Check(SameScores(game.ScoresIfEndedNow(), scores), "once the game is over, the scores if it ended now are its scores");
            string record = game.ToRecord("csharp");
            Check(record.Contains("\"id\":\"csharp\""), "record id");
            using (Game loaded = Game.FromRecord(record, Chance.Explicit))
            {
                Check(SameScores(loaded.Scores(), scores), "the record replays to the same scores");
                Check(loaded.PlacedTiles().Length == game.PlacedTiles().Length, "same board");
            }
            Check(game.RenderSvg().StartsWith("<svg"), "SVG");
            CarcAction pass = new CarcAction();
            pass.Kind = (byte)ActionKind.Pass;
            Check(game.TryApply(pass) == Status.GameOver, "no action after the end");
            Check(StatusOf(delegate { game.ApplyFlat(0); }) == Status.GameOver, "no flat id after the end");
        }
    }

    static void ExplicitChance()
    {
        using (Game game = Game.Create(
            "{\"players\":2,\"sets\":[\"base\",\"river2\"],\"chance\":\"explicit\",\"seed\":3}"))
        {
            Check(game.Phase == Phase.Draw, "explicit mode starts with a draw");
            using (Game copy = game.Clone())
            {
                Check(copy.StateHash == game.StateHash, "a clone hashes like its original");
            }
            PlayToEnd(game, new Random(11), true);
        }
        // Hills & Sheep: the tokens of the sheep bag and the tiles under hills are chance
        // outcomes too (HS1, HS3).
        using (Game game = Game.Create(
            "{\"players\":3,\"sets\":[\"base\",\"hills-and-sheep\"],\"chance\":\"explicit\",\"seed\":4}"))
        {
            PlayToEnd(game, new Random(12), true);
        }
    }

    static void Errors()
    {
        try
        {
            Game.Create("{\"players\":9,\"sets\":[\"base\"]}").Dispose();
            Check(false, "9 players are refused");
        }
        catch (CarcassonneException e)
        {
            Check(e.Status == Status.InvalidConfig, "InvalidConfig");
            Check(e.Message.Contains("players"), "the message names the field: " + e.Message);
        }
        Check(StatusOf(delegate { Game.FromRecord("{}", Chance.Sampled).Dispose(); }) == Status.BadRecord,
            "BadRecord");
        using (Game game = Game.Create("{\"players\":2,\"sets\":[\"base\"]}"))
        {
            CarcAction far = new CarcAction();
            far.Kind = (byte)ActionKind.PlaceTile;
            far.X = 77;
            ulong before = game.StateHash;
            Check(game.TryApply(far) == Status.IllegalAction, "IllegalAction");
            Check(game.StateHash == before, "an illegal action changes nothing");
            Check(game.LastError().Contains("x=77"), "the handle's message: " + game.LastError());
            far.Kind = 200;
            Check(game.TryApply(far) == Status.InvalidArgument, "InvalidArgument");
            Check(StatusOf(delegate { game.Supply(5); }) == Status.InvalidArgument, "seat out of range");
            Check(StatusOf(delegate { game.Observe(0, new byte[3], new float[3]); }) == Status.BufferTooSmall,
                "BufferTooSmall");
            Check(game.Supply(1).Follower == 7, "seven followers (B1)");
        }
    }

    /// One decision: a random legal structured action (picked by `pick`).
    static void Step(Game game, int pick)
    {
        ArraySegment<CarcAction> legal = game.LegalActions();
        game.Apply(legal.Array[legal.Offset + pick % legal.Count]);
    }

    /// A sampled game saved in the middle and resumed: same draws, same end.
    static void SaveAndResume()
    {
        foreach (int stop in new int[] { 0, 25, 70 })
        {
            using (Game game = Game.Create(
                "{\"players\":3,\"sets\":[\"base\",\"princess-and-dragon\",\"abbey-and-mayor\"],\"seed\":17,\"window\":9}"))
            {
                Random rng = new Random(stop);
                for (int i = 0; i < stop && !game.IsTerminal; i++) Step(game, rng.Next(1000));
                string saved = game.ToRecord("saved");
                using (Game back = Game.FromRecordEx(saved, null))
                {
                    Check(back.StateHash == game.StateHash, "the resumed game is the saved one");
                    Check(back.ObservationSizes().Window == 9, "the saved window");
                    bool same = true;
                    while (!game.IsTerminal)
                    {
                        int pick = rng.Next(1000);
                        Step(game, pick);
                        Step(back, pick);
                        same = same && back.StateHash == game.StateHash;
                    }
                    Check(same, "the resumed game draws the same tiles");
                    Check(back.IsTerminal, "the resumed game ends with the saved one");
                    Check(back.ToRecord("x") == game.ToRecord("x"), "same record at the end");
                }
                using (Game overridden = Game.FromRecordEx(saved, "{\"window\":5,\"chance\":\"explicit\"}"))
                {
                    Check(overridden.ObservationSizes().Window == 5, "the window asked for");
                }
                Check(StatusOf(delegate { Game.FromRecordEx(saved, "{\"colour\":1}").Dispose(); })
                    == Status.InvalidArgument, "unknown option");
            }
        }
    }

    /// Events read with a cursor add up to the scores; scored features list their parts.
    static void Events()
    {
        using (Game game = Game.Create(
            "{\"players\":4,\"sets\":[\"base\",\"princess-and-dragon\",\"abbey-and-mayor\"],\"figures\":{\"abbot\":1},\"seed\":23}"))
        {
            Random rng = new Random(3);
            uint shown = 0;
            int[] sum = new int[4];
            int returned = 0;
            bool partsOk = true;
            while (!game.IsTerminal)
            {
                Step(game, rng.Next(1000));
                CarcEvent[] events = game.Events(shown);
                for (int i = 0; i < events.Length; i++)
                {
                    CarcEvent e = events[i];
                    if (e.EventKind == EventKind.Score)
                    {
                        sum[e.Player] += e.Points;
                        CarcFeaturePart[] parts = game.EventParts(shown + (uint)i);
                        partsOk = partsOk && parts.Length == e.Parts;
                    }
                    else
                    {
                        returned++;
                        partsOk = partsOk && e.Figure != (byte)Figure.Barn
                            && Enum.IsDefined(typeof(ReturnCause), e.Cause);
                    }
                }
                shown += (uint)events.Length;
            }
            Check(shown == game.EventCount, "the cursor reached the count");
            Check(SameScores(sum, game.Scores()), "events add up to the scores");
            Check(returned > 0, "figures returned");
            Check(partsOk, "parts and causes");
        }
    }

    /// Tile geometry, the last placed tile, a pending focus and its cancelling.
    static void Geometry()
    {
        ushort d = Game.TileKindIndex("BASE-D");
        CarcFeatureGeometry city = Game.FeatureGeometry(d, 0, 0);
        Check(city.Kind == (byte)FeatureKind.City && city.Segments == 0x7, "BASE-D's cap covers N0..N2");
        Check(Game.FeatureGeometry(d, 0, 1).Segments == 0x38, "turned once it covers E0..E2");
        Check(Game.TileSymbols(Game.TileKindIndex("BASE-B")) == Native.SymbolMonastery, "a monastery");
        uint total = 0;
        for (uint f = 0; f < Game.FeatureCount(d); f++) total |= Game.FeatureGeometry(d, f, 0).Segments;
        Check(total == 0xFFF, "every edge third belongs to a feature");
        using (Game game = Game.Create(
            "{\"players\":2,\"sets\":[\"base\",\"princess-and-dragon\"],\"seed\":5,\"window\":11}"))
        {
            Random rng = new Random(9);
            CarcObservationSizes sizes = game.ObservationSizes();
            sbyte[] mask = new sbyte[sizes.Actions];
            bool cancelled = false;
            for (int step = 0; step < 400 && !game.IsTerminal; step++)
            {
                CarcPlacedTile[] tiles = game.PlacedTiles();
                CarcPlacedTile last = game.LastPlaced();
                Check(last.X == tiles[tiles.Length - 1].X && last.Y == tiles[tiles.Length - 1].Y,
                    "the last placed tile");
                CarcWindowOrigin origin = game.WindowOrigin();
                game.LegalMask(mask);
                uint cellBase = 4 * sizes.Window * sizes.Window;
                for (uint id = cellBase; id < cellBase + sizes.Window * sizes.Window; id++)
                {
                    if (mask[id] != 1) continue;
                    if (game.ApplyFlat(id)) break;
                    CarcFocus focus = game.PendingFocus();
                    uint cell = id - cellBase;
                    Check(focus.Pending == 1 && focus.X == origin.X + (int)(cell % sizes.Window)
                        && focus.Y == origin.Y + (int)(cell / sizes.Window), "the focus tile");
                    Check(game.CancelFocus(), "cancelled");
                    Check(game.PendingFocus().Pending == 0, "no focus after cancelling");
                    cancelled = true;
                    break;
                }
                if (!game.IsTerminal) Step(game, rng.Next(1000));
            }
            Check(cancelled, "a focus was cancelled");
        }
    }

    static void Bots()
    {
        using (Game game = Game.Create("{\"players\":2,\"sets\":[\"base\",\"abbey-and-mayor\"],\"seed\":4}"))
        using (Bot mcts = Bot.Create("mcts:20", 1))
        using (Bot greedy = Bot.Create("greedy", 2))
        {
            Check(mcts.Spec == "mcts:20", "the bot's spec: " + mcts.Spec);
            int decisions = 0;
            while (!game.IsTerminal)
            {
                Bot bot = game.ToPlay == 0 ? mcts : greedy;
                CarcAction action = bot.Choose(game);
                Check(game.TryApply(action) == Status.Ok, "a bot's action applies: " + action);
                decisions++;
            }
            Check(decisions > 20, "a whole game of bot decisions");
            Check(StatusOf(delegate { mcts.Choose(game); }) == Status.GameOver, "no choice after the end");
        }
        using (Game a = Game.Create("{\"players\":2,\"sets\":[\"base\"],\"seed\":8}"))
        using (Game b = a.Clone())
        using (Bot x = Bot.Create("mcts:30", 7))
        using (Bot y = Bot.Create("mcts:30", 7))
        {
            CarcAction ax = x.Choose(a), ay = y.Choose(b);
            Check(ax.ToString() == ay.ToString(), "the same seed gives the same choice");
        }
        try
        {
            Bot.Create("mcts:lots", 0).Dispose();
            Check(false, "a bad spec is refused");
        }
        catch (CarcassonneException e)
        {
            Check(e.Status == Status.InvalidArgument, "InvalidArgument for a bad spec");
            Check(e.Message.Contains("lots"), "the message names the budget: " + e.Message);
        }
    }

    static bool IsListed(ArraySegment<CarcAction> legal, CarcAction action)
    {
        for (int i = 0; i < legal.Count; i++)
        {
            if (legal.Array[legal.Offset + i].Equals(action)) return true;
        }
        return false;
    }

    /// The learned player "net" (the network shipped for the 2-player base game) at both
    /// seats of a whole 2-player base game: every action it chooses is one of the legal
    /// list and applies; a 3-player game is refused naming the player count.
    static void NetBot()
    {
        using (Game game = Game.Create("{\"players\":2,\"sets\":[\"base\"],\"seed\":11}"))
        using (Bot net = Bot.Create("net", 5))
        {
            Check(net.Spec == "net", "the learned player's spec: " + net.Spec);
            int decisions = 0, unlisted = 0, refused = 0;
            while (!game.IsTerminal)
            {
                CarcAction action = net.Choose(game);
                if (!IsListed(game.LegalActions(), action)) unlisted++;
                if (game.TryApply(action) != Status.Ok)
                {
                    refused++;
                    break;
                }
                decisions++;
            }
            Check(unlisted == 0, "every action of net is in the legal list (" + unlisted + " not)");
            Check(refused == 0, "every action of net applies");
            Check(game.IsTerminal, "net plays the game to its end");
            // 71 tiles after the start tile, each a placement and a follower decision.
            Check(decisions > 100, "a whole game of net's decisions: " + decisions);
        }
        using (Game three = Game.Create("{\"players\":3,\"sets\":[\"base\"],\"seed\":1}"))
        using (Bot net = Bot.Create("net", 5))
        {
            try
            {
                net.Choose(three);
                Check(false, "net refuses a 3-player game");
            }
            catch (CarcassonneException e)
            {
                Check(e.Status == Status.InvalidArgument, "InvalidArgument for a 3-player game: " + e.Status);
                Check(e.Message.Contains("made for 2 players, this game has 3"), "the message names the players: " + e.Message);
            }
        }
    }

    /// Random Royal Gift games (castles always built, CA1) read through Game.ExpansionState
    /// at every decision: each table of the box in play with the rows its StateRows says;
    /// every follower in its supply, on the board or in a quarter of the City (B1, CC2);
    /// every bridge and castle in a supply or on the board (BR1, CA1); the dragon row where
    /// carc_game_dragon says (PD2). Over the games, the count, the quarters, castles,
    /// bridges, the bazaar and a title holder each show.
    static void RoyalGiftState()
    {
        string[] wanted = { "count", "quarter_figures", "castles", "bridges", "bridges_castles_supply",
            "bazaar", "bazaar_offer", "bazaar_tiles", "king", "robber_baron", "dragon", "fairy" };
        foreach (string name in wanted)
        {
            StateTable t = StateSchema.Table(name);
            Check(StateSchema.Tables[t.Index] == t && t.Doc.Length > 10, "table " + name);
        }
        bool unknown = false;
        try { StateSchema.Table("catapults"); } catch (ArgumentException) { unknown = true; }
        Check(unknown, "an unknown table is an ArgumentException");
        var seen = new System.Collections.Generic.HashSet<string>();
        bool titleHeld = false;
        string royalGift = "{\"players\":4,\"sets\":[\"base\",\"river1\",\"river2\",\"princess-and-dragon\"," +
            "\"count\",\"king-and-robber\",\"cult\",\"bridges-castles-and-bazaars\"]";
        for (int g = 0; g < 4; g++)
        {
            using (Game game = Game.Create(royalGift + ",\"seed\":" + (100 + g) + "}"))
            {
                Random rng = new Random(g);
                while (true)
                {
                    ExpansionState state = game.ExpansionState();
                    foreach (StateTable t in StateSchema.Tables)
                    {
                        StateRow[] rows = state.RowsOf(t.Name);
                        Check(state.InPlay(t.Name) == royalGift.Contains("\"" + t.Expansion + "\""),
                            t.Name + " in play with its set");
                        if (!state.InPlay(t.Name))
                        {
                            Check(rows.Length == 0, t.Name + ": no rows outside the game");
                            continue;
                        }
                        if (t.Rows == StateRows.One) Check(rows.Length == 1, t.Name + ": one row");
                        if (t.Rows == StateRows.Optional) Check(rows.Length <= 1, t.Name + ": at most one row");
                        if (t.Rows == StateRows.PerSeat) Check(rows.Length == 4, t.Name + ": a row per seat");
                        if (rows.Length > 0) seen.Add(t.Name);
                    }
                    int bridges = state.RowsOf("bridges").Length, castles = state.RowsOf("castles").Length;
                    int[] inQuarters = new int[4];
                    foreach (StateRow r in state.RowsOf("quarter_figures"))
                    {
                        Check(r["quarter"] <= (int)Quarter.Market, "a quarter");
                        if (r["figure"] == (int)Figure.Follower) inQuarters[r["owner"]]++;
                    }
                    CarcBoardFigure[] board = game.BoardFigures();
                    foreach (StateRow r in state.RowsOf("bridges_castles_supply"))
                    {
                        bridges += r["bridges"];
                        castles += r["castles"];
                        int seat = r["seat"], onBoard = 0;
                        foreach (CarcBoardFigure f in board)
                            if (f.Owner == seat && f.Figure == (byte)Figure.Follower) onBoard++;
                        Check(game.Supply((uint)seat).Follower + onBoard + inQuarters[seat] == 7,
                            "every follower of seat " + seat + " is somewhere");
                    }
                    Check(bridges == 12 && castles == 12, "every bridge and castle is somewhere");
                    CarcDragon dragon;
#pragma warning disable 618 // carc_game_dragon, kept for one release over the table dragon
                    Native.Check(Native.carc_game_dragon(game.Handle, out dragon));
#pragma warning restore 618
                    StateRow d = state.Row("dragon");
                    Check((d != null) == (dragon.OnBoard == 1), "the dragon row");
                    if (d != null) Check(d["x"] == dragon.X && d["y"] == dragon.Y, "the dragon's square");
                    foreach (string title in new[] { "king", "robber_baron" })
                    {
                        StateRow r = state.Row(title);
                        if (!r.IsAbsent("holder"))
                        {
                            titleHeld = true;
                            Check(r["holder"] < 4 && r["tiles"] >= 2, title + " holder and record");
                        }
                    }
                    if (game.IsTerminal) break;
                    ArraySegment<CarcAction> legal = game.LegalActions();
                    CarcAction pick = legal.Array[legal.Offset + rng.Next(legal.Count)];
                    for (int i = 0; i < legal.Count; i++)
                    {
                        CarcAction a = legal.Array[legal.Offset + i];
                        if (a.ActionKind == ActionKind.BuildCastle) pick = a;
                    }
                    game.Apply(pick);
                }
            }
        }
        foreach (string name in wanted)
        {
            Check(seen.Contains(name), "some game shows a row of " + name);
        }
        Check(titleHeld, "a title was held");
        using (Game base_ = Game.Create("{\"players\":2,\"sets\":[\"base\"]}"))
        {
            ExpansionState none = base_.ExpansionState();
            Check(none.Rows.Length == 0 && !none.InPlay("count"), "no expansion, no rows");
        }
    }

    // The observation layout as a C# client reads it: the version, every plane's name
    // against docs/observations.md (when its path is given), 2-D globals row-major
    // (supply + Shape[1]·seat + figure), and the SLOT block of a preset.
    static void ObservationLayout(string docs)
    {
        Check(Game.LayoutVersion == Native.LayoutVersion, "the library has the binding's layout version");
        using (Game game = Game.Create("{\"players\":3,\"sets\":[\"base\",\"abbey-and-mayor\"],\"preset\":\"compact\"}"))
        {
            CarcObservationSizes sizes = game.ObservationSizes();
            LayoutBlock[] globals = game.LayoutBlocks(LayoutPart.Globals);
            uint total = 0;
            LayoutBlock supply = null;
            uint supplyIndex = 0;
            for (uint i = 0; i < globals.Length; i++)
            {
                Check(globals[i].Start == total, "global blocks follow each other: " + globals[i].Name);
                total += globals[i].Len;
                if (globals[i].Name == "supply") { supply = globals[i]; supplyIndex = i; }
            }
            Check(total == sizes.GlobalsLen, "the global blocks cover the globals");
            Check(supply != null && supply.Shape.Length == 2 && supply.Shape[0] == 3, "supply: 3 seats x figures");
            Check(game.LayoutIndexName(LayoutPart.Globals, supplyIndex, 1) == "figure", "supply's second index is the figure");
            byte[] planes = new byte[sizes.PlanesLen];
            float[] values = new float[sizes.GlobalsLen];
            game.Observe(0, planes, values);
            for (uint r = 0; r < supply.Shape[0]; r++)
            {
                CarcSupply s = game.Supply(r);
                for (uint f = 0; f < supply.Shape[1]; f++)
                {
                    string figure = game.LayoutLabel(LayoutPart.Globals, supplyIndex, 1, f);
                    int want = figure == "follower" ? s.Follower : figure == "mayor" ? s.Mayor
                        : figure == "wagon" ? s.Wagon : figure == "barn" ? s.Barn : s.Abbot;
                    Check(values[supply.Start + supply.Shape[1] * r + f] == want, "supply of seat " + r + ", " + figure);
                }
            }
            LayoutBlock[] ids = game.LayoutBlocks(LayoutPart.Ids);
            LayoutBlock slot = Array.Find(ids, b => b.Name == "slot");
            Check(slot != null && slot.Shape[0] == sizes.Slots && slot.Shape[1] == sizes.Channels, "the sizes' slots and channels are the SLOT block's");
            Check(ids[ids.Length - 1].Name == "pass" && ids[ids.Length - 1].Start == sizes.Actions - 1, "PASS is the last id");
        }
        using (Game full = Game.Create("{\"players\":2,\"sets\":[\"base\"]}"))
        {
            CarcObservationSizes sizes = full.ObservationSizes();
            Check(sizes.Slots == 19 && sizes.Channels == 20, "19 slots x 20 channels in the full encoding (docs/observations.md)");
            if (docs == null) return;
            string text = System.IO.File.ReadAllText(docs);
            Check(text.Contains("**Layout version `" + Game.LayoutVersion.ToString("x16") + "`**"), "the documented layout version");
            int rows = 0;
            foreach (System.Text.RegularExpressions.Match m in System.Text.RegularExpressions.Regex.Matches(
                text, @"^\| (\d+) \| `([^`]+)` \| [a-z-]+ \|", System.Text.RegularExpressions.RegexOptions.Multiline))
            {
                uint index = uint.Parse(m.Groups[1].Value);
                Check(full.PlaneName(index) == m.Groups[2].Value, "plane " + index + " is " + m.Groups[2].Value);
                rows++;
            }
            Check(rows == sizes.Planes, "the document lists every plane");
        }
    }

    /// <summary>Search targets: the shares of the legal actions and of the offered flat ids
    /// each sum to 1, and the same seed gives the same shares.</summary>
    static void SearchTargets()
    {
        using (Game game = Game.Create("{\"players\":2,\"sets\":[\"base\"],\"seed\":8}"))
        {
            int legal = game.LegalActions().Count;
            CarcObservationSizes sizes = game.ObservationSizes();
            float[] shares = new float[legal], again = new float[legal];
            float[] policy = new float[sizes.Actions];
            double[] values = new double[game.NumPlayers];
            CarcSearchInfo info = game.MctsSearch(100, 5, shares, policy, values);
            Check(info.Iterations == 100 && info.Legal == legal, "the search's budget and sizes");
            double sum = 0, offered = 0;
            foreach (float s in shares) sum += s;
            sbyte[] mask = new sbyte[sizes.Actions];
            game.LegalMask(mask);
            for (int i = 0; i < policy.Length; i++) if (mask[i] == 1) offered += policy[i];
            Check(Math.Abs(sum - 1) < 1e-5 && Math.Abs(offered - 1) < 1e-5, "shares sum to 1");
            Check(Math.Abs(values[info.Player] - info.Value) < 1e-9, "the deciding seat's value");
            game.MctsSearch(100, 5, again, null, null);
            bool same = true;
            for (int i = 0; i < legal; i++) same &= shares[i] == again[i];
            Check(same, "the same seed gives the same shares");
            bool refused = false;
            try { game.MctsSearch(0, 5, shares, null, null); }
            catch (CarcassonneException) { refused = true; }
            Check(refused, "a budget of 0 iterations is refused");
        }
    }

    /// The per-set getters kept for one release over the state tables: Game.Towers,
    /// Game.TowerPieces, Game.Prisoners and the five P/Invoke declarations carry [Obsolete]
    /// naming what replaces them, and in a game of the Tower whose towers stand and whose
    /// prisoners are held (TW1, TW2, TW4) the wrappers say what the tables and the C getters say.
    static void DeprecatedGetters()
    {
        foreach (string m in new[] { "Towers", "TowerPieces", "Prisoners" })
        {
            var attrs = typeof(Game).GetMethod(m).GetCustomAttributes(typeof(ObsoleteAttribute), false);
            Check(attrs.Length == 1 && ((ObsoleteAttribute)attrs[0]).Message.Contains("ExpansionState()"),
                "Game." + m + " is obsolete, naming ExpansionState()");
        }
        foreach (string f in new[] { "dragon", "fairy", "towers", "tower_pieces", "prisoners" })
        {
            var attrs = typeof(Native).GetMethod("carc_game_" + f).GetCustomAttributes(typeof(ObsoleteAttribute), false);
            Check(attrs.Length == 1 && ((ObsoleteAttribute)attrs[0]).Message.Contains("the table " + f),
                "Native.carc_game_" + f + " is obsolete, naming its table");
        }
        bool towersStood = false, prisonersHeld = false;
        using (Game game = Game.Create("{\"players\":3,\"sets\":[\"base\",\"tower\"],\"seed\":5}"))
        {
            while (true)
            {
                ExpansionState state = game.ExpansionState();
#pragma warning disable 618 // the deprecated getters are what this test checks
                CarcTower[] towers = game.Towers();
                uint n;
                Native.Check(Native.carc_game_towers(game.Handle, null, 0, out n));
                CarcTower[] native = new CarcTower[n];
                Native.Check(Native.carc_game_towers(game.Handle, native, n, out n));
                StateRow[] rows = state.RowsOf("towers");
                Check(towers.Length == rows.Length && native.Length == rows.Length, "a tower per row");
                for (int i = 0; i < rows.Length; i++)
                {
                    StateRow r = rows[i];
                    int topOwner = r.IsAbsent("top_owner") ? Native.NoTop : r["top_owner"];
                    Check(towers[i].X == r["x"] && towers[i].Y == r["y"] && towers[i].Height == r["height"]
                        && towers[i].Feature == r["feature"] && towers[i].TopOwner == topOwner,
                        "tower " + i + " as its row says");
                    Check(towers[i].Equals(native[i]), "tower " + i + " as carc_game_towers says");
                }
                towersStood |= rows.Length > 0;
                StateRow[] pieces = state.RowsOf("tower_pieces");
                StateRow[] held = state.RowsOf("prisoners");
                prisonersHeld |= held.Length > 0;
                for (uint seat = 0; seat < 3; seat++)
                {
                    Check(game.TowerPieces(seat) == (uint)pieces[seat]["pieces"], "tower pieces of seat " + seat);
                    for (uint owner = 0; owner < 3; owner++)
                    {
                        CarcSupply s = game.Prisoners(seat, owner), c;
                        Native.Check(Native.carc_game_prisoners(game.Handle, seat, owner, out c));
                        int count = 0;
                        foreach (StateRow r in held)
                            if (r["holder"] == (int)seat && r["owner"] == (int)owner && r["figure"] == (int)Figure.Follower)
                                count += r["count"];
                        Check(s.Follower == count && s.Equals(c), "prisoners of " + owner + " held by " + seat);
                    }
                }
#pragma warning restore 618
                if (game.IsTerminal) break;
                ArraySegment<CarcAction> legal = game.LegalActions();
                CarcAction pick = legal.Array[legal.Offset];
                for (int i = 0; i < legal.Count; i++)
                {
                    CarcAction a = legal.Array[legal.Offset + i];
                    if (a.ActionKind == ActionKind.PlaceTowerPiece || a.ActionKind == ActionKind.Capture) pick = a;
                }
                game.Apply(pick);
            }
#pragma warning disable 618
            bool refused = false;
            try { game.TowerPieces(3); }
            catch (CarcassonneException e) { refused = e.Status == Status.InvalidArgument; }
            Check(refused, "a seat outside the game is refused");
#pragma warning restore 618
        }
        Check(towersStood && prisonersHeld, "towers stood and prisoners were held");
    }

    static int Main(string[] args)
    {
        ObservationLayout(args.Length > 0 ? args[0] : null);
        Layouts();
        CompleteGame();
        ExplicitChance();
        Errors();
        SaveAndResume();
        Events();
        Geometry();
        Bots();
        NetBot();
        SearchTargets();
        RoyalGiftState();
        DeprecatedGetters();
        // Handles left to the finalizer are released too.
        Game.Create("{\"players\":3,\"sets\":[\"base\"]}");
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Console.WriteLine("csharp: " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
