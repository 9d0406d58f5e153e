// P/Invoke binding of the carcassonne C ABI (include/carcassonne.h), in the shape a Unity
// project uses: [DllImport("carcassonne")], blittable structs laid out exactly like the C
// ones, a SafeHandle that frees the game, and exceptions that carry the status and the
// library's detailed message. Put libcarcassonne.so / carcassonne.dll / libcarcassonne.dylib
// where the runtime finds native plugins (the package's Plugins/ folder in Unity, see
// Plugins/README.md; LD_LIBRARY_PATH or the program's folder elsewhere). The usage guide is
// README.md beside this folder. The enums and constants are checked against the header by
// tests/csharp/CheckEnums.cs.
//
// Ownership: a Game (a Bot) owns its native handle and frees it when disposed or finalized. Every
// buffer passed to the library is a managed array pinned for the duration of the call;
// strings returned by the library are copied into managed strings.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Carcassonne
{
    /// <summary>Status codes of the C ABI (CarcStatus), with stable numbers.</summary>
    public enum Status : uint
    {
        Ok = 0,
        NullArgument = 1,
        InvalidConfig = 2,
        IllegalAction = 3,
        BufferTooSmall = 4,
        BadRecord = 5,
        RecordMismatch = 6,
        GameOver = 7,
        Panic = 8,
        HandlePoisoned = 9,
        InvalidArgument = 10,
    }

    /// <summary>What the game waits for (CarcPhase).</summary>
    public enum Phase : uint
    {
        Abbey = 0,
        Draw = 1,
        PlaceTile = 2,
        Deploy = 3,
        DragonFlight = 4,
        WagonMove = 5,
        GameOver = 6,
        LeaveQuarter = 7,
        EnterQuarter = 8,
        MoveCount = 9,
        Castle = 10,
        BazaarSelect = 11,
        BazaarBid = 12,
        BazaarBuyOrSell = 13,
    }

    /// <summary>How tile draws are decided (CarcChance).</summary>
    public enum Chance : uint
    {
        Sampled = 0,
        Explicit = 1,
    }

    /// <summary>The kind of a structured action (CarcActionKind).</summary>
    public enum ActionKind : byte
    {
        PlaceTile = 0,
        PlaceAbbey = 1,
        Deploy = 2,
        DeployBarn = 3,
        MoveFairy = 4,
        Princess = 5,
        ReturnAbbot = 6,
        Pass = 7,
        MoveDragon = 8,
        MoveWagon = 9,
        Draw = 10,
        LeaveQuarter = 11,
        QuarterPass = 12,
        DeployQuarter = 13,
        MoveCount = 14,
        PlaceBridge = 15,
        BuildCastle = 16,
        CastlePass = 17,
        BazaarSelect = 18,
        BazaarBid = 19,
        BazaarPass = 20,
        BazaarBuyOrSell = 21,
    }

    /// <summary>A figure kind (CarcFigure).</summary>
    public enum Figure : byte
    {
        Follower = 0,
        Abbot = 1,
        Mayor = 2,
        Wagon = 3,
        Barn = 4,
    }

    /// <summary>A corner of a tile, for barns (CarcCorner).</summary>
    public enum Corner : byte
    {
        NW = 0,
        NE = 1,
        SE = 2,
        SW = 3,
    }

    /// <summary>A quarter of the City of Carcassonne (CarcQuarter).</summary>
    public enum Quarter : byte
    {
        Castle = 0,
        Blacksmith = 1,
        Cathedral = 2,
        Market = 3,
    }

    /// <summary>When a player acts on the City of Carcassonne (CarcQuarterStep).</summary>
    public enum QuarterStep : byte
    {
        BeforeScoring = 0,
        Deploy = 1,
        Final = 2,
        Count = 3,
    }

    /// <summary>A bridge's direction, board frame (CarcAxis).</summary>
    public enum Axis : byte
    {
        NS = 0,
        WE = 1,
    }

    /// <summary>Buy or sell an outbid bazaar tile (CarcBazaarChoice).</summary>
    public enum BazaarChoice : byte
    {
        Buy = 0,
        Sell = 1,
    }

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
        public ushort Reserved;
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
        public ushort Reserved16;
        public uint Reserved32;
    }

    /// <summary>A player's supply (CarcSupply, 6 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcSupply
    {
        public byte Follower;
        public byte Abbot;
        public byte Mayor;
        public byte Wagon;
        public byte Barn;
        public byte Abbey;
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

    /// <summary>What a legal-move mask covered (CarcMaskInfo, 12 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CarcMaskInfo
    {
        public uint Legal;
        public uint Offered;
        public uint OutsideWindow;
    }

    /// <summary>What a CarcEvent reports (CarcEventKind).</summary>
    public enum EventKind : byte
    {
        Score = 0,
        FigureReturned = 1,
    }

    /// <summary>Why points were scored (CarcScoreKind).</summary>
    public enum ScoreKind : byte
    {
        City = 0,
        Road = 1,
        Monastery = 2,
        Garden = 3,
        AbbotReturn = 4,
        FairyTurn = 5,
        FairyScored = 6,
        BarnPlaced = 7,
        BarnConnected = 8,
        Incomplete = 9,
        Farmers = 10,
        Barn = 11,
        Shrine = 12,
        King = 13,
        RobberBaron = 14,
        Castle = 15,
        BazaarBuy = 16,
        BazaarSell = 17,
    }

    /// <summary>Why a figure left the board (CarcReturnCause).</summary>
    public enum ReturnCause : byte
    {
        Scored = 0,
        FinalScoring = 1,
        Princess = 2,
        Dragon = 3,
        AbbotTaken = 4,
        Challenged = 5,
    }

    /// <summary>The kind of a feature (CarcFeatureKind).</summary>
    public enum FeatureKind : byte
    {
        City = 0,
        Road = 1,
        Field = 2,
        Monastery = 3,
        Garden = 4,
        River = 5,
        Shrine = 6,
    }

    /// <summary>Where a road or river ends on its tile (CarcRoadEnd).</summary>
    public enum RoadEnd : byte
    {
        None = 0,
        Through = 1,
        Junction = 2,
        Monastery = 3,
        CityGate = 4,
        Spring = 5,
        Lake = 6,
        Volcano = 7,
        DeadEnd = 8,
        Bazaar = 9,
        Carcassonne = 10,
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
        /// <summary>carc_tile_symbols bits.</summary>
        public const uint SymbolMonastery = 1;
        public const uint SymbolGarden = 2;
        public const uint SymbolRiver = 4;
        public const uint SymbolVolcano = 8;
        public const uint SymbolDragon = 16;
        public const uint SymbolMagicPortal = 32;
        public const uint SymbolPrincess = 64;
        public const uint SymbolTunnel = 128;
        public const uint SymbolInn = 256;
        public const uint SymbolPigHerd = 512;
        public const uint SymbolWell = 1024;
        public const uint SymbolAbbey = 2048;
        public const uint SymbolShrine = 4096;
        public const uint SymbolBazaar = 8192;
        public const uint SymbolCountQuarters = 16384;
        /// <summary>The default side of the observation window.</summary>
        public const uint DefaultWindow = 32;
        /// <summary>The library version this binding was written for (see Game.Version).</summary>
        public const uint VersionMajor = 0;
        public const uint VersionMinor = 1;
        public const uint VersionPatch = 0;
        /// <summary>The ABI this binding was written for; compare with carc_abi_version().</summary>
        public const uint AbiVersion = 2;

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
        [DllImport(Lib)] public static extern Status carc_game_supply(GameHandle game, uint player, out CarcSupply supply);
        [DllImport(Lib)] public static extern Status carc_game_tile_in_hand(GameHandle game, out ushort tile);
        [DllImport(Lib)] public static extern Status carc_game_tiles_left(GameHandle game, out uint left);
        [DllImport(Lib)] public static extern Status carc_game_remaining_tiles(GameHandle game, byte[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_placed_tiles(GameHandle game, [In, Out] CarcPlacedTile[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_board_figures(GameHandle game, [In, Out] CarcBoardFigure[] buf, uint len, out uint needed);
        [DllImport(Lib)] public static extern Status carc_game_dragon(GameHandle game, out CarcDragon dragon);
        [DllImport(Lib)] public static extern Status carc_game_fairy(GameHandle game, out CarcFairy fairy);
        [DllImport(Lib)] public static extern Status carc_game_state_hash(GameHandle game, out ulong hash);
        [DllImport(Lib)] public static extern Status carc_game_last_placed(GameHandle game, out CarcPlacedTile tile);

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
            uint n;
            Native.Check(Native.carc_game_scores(handle, null, 0, out n));
            int[] scores = new int[n];
            Native.Check(Native.carc_game_scores(handle, scores, n, out n));
            return scores;
        }

        public CarcSupply Supply(uint player)
        {
            CarcSupply s;
            Native.Check(Native.carc_game_supply(handle, player, out s));
            return s;
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

    /// <summary>A built-in player ("random", "greedy", "mcts:2000", "mcts:100ms", ...; see
    /// docs/c-api.md) with its own random sequence. Not thread-safe: use one Bot from one
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
