// Checks the C# binding's enums and constants against the C header, so that the hand-written
// binding (bindings/csharp/Runtime/Carcassonne.cs) cannot drift from the generated
// include/carcassonne.h:
//   * every `enum CarcX` of the header has a C# enum `Carcassonne.X` with the same underlying
//     type and exactly the same members and values (CARC_X_NULL_ARGUMENT = NullArgument;
//     names compare without underscores and case);
//   * the binding has no enum the header lacks;
//   * every `#define CARC_Y value` has a constant `Native.Y` with the same value, and
//     every public constant of `Native` has its macro.
// Usage: mono CheckEnums.exe include/carcassonne.h    (run by tests/c/run.sh)
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using Carcassonne;

static class CheckEnums
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
            Console.Error.WriteLine("mismatch: " + what);
        }
    }

    // CarcActionKind -> CARC_ACTION_KIND_
    static string VariantPrefix(string cName)
    {
        return Regex.Replace(cName, "(?<=[a-z0-9])([A-Z])", "_$1").ToUpperInvariant() + "_";
    }

    // NULL_ARGUMENT and NullArgument -> NULLARGUMENT
    static string Key(string name)
    {
        return name.Replace("_", "").ToUpperInvariant();
    }

    static readonly Dictionary<string, Type> CTypes = new Dictionary<string, Type>
    {
        { "uint8_t", typeof(byte) }, { "int8_t", typeof(sbyte) },
        { "uint16_t", typeof(ushort) }, { "int16_t", typeof(short) },
        { "uint32_t", typeof(uint) }, { "int32_t", typeof(int) },
        { "uint64_t", typeof(ulong) }, { "int64_t", typeof(long) },
    };

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: CheckEnums.exe <path to carcassonne.h>");
            return 2;
        }
        string header = File.ReadAllText(args[0]);
        // Comments out, then preprocessor conditionals (the typed-enum `#if` around
        // `: uint32_t` stays as plain C++ syntax).
        string code = Regex.Replace(header, @"/\*.*?\*/", " ", RegexOptions.Singleline);
        code = Regex.Replace(code, @"//[^\n]*", "");
        var defines = new Dictionary<string, ulong>();
        foreach (Match m in Regex.Matches(code, @"^\s*#define\s+CARC_(\w+)\s+(\d+)(?:u|ull)?\s*$", RegexOptions.Multiline))
        {
            defines[m.Groups[1].Value] = ulong.Parse(m.Groups[2].Value);
        }
        code = Regex.Replace(code, @"^\s*#[^\n]*$", "", RegexOptions.Multiline);

        Assembly binding = typeof(Game).Assembly;
        var csharpEnums = binding.GetTypes()
            .Where(t => t.IsEnum && t.IsPublic && t.Namespace == "Carcassonne")
            .ToDictionary(t => t.Name);
        var seen = new HashSet<string>();

        MatchCollection enums = Regex.Matches(code, @"enum\s+Carc(\w+)\s*:\s*(\w+)\s*\{([^}]*)\}");
        Check(enums.Count > 0, "the header declares typed enums");
        foreach (Match e in enums)
        {
            string cName = "Carc" + e.Groups[1].Value;
            string name = e.Groups[1].Value;
            Type cs;
            if (!csharpEnums.TryGetValue(name, out cs))
            {
                Check(false, cName + " has no C# enum Carcassonne." + name);
                continue;
            }
            seen.Add(name);
            Type expected;
            Check(CTypes.TryGetValue(e.Groups[2].Value, out expected) && Enum.GetUnderlyingType(cs) == expected,
                cName + " is " + e.Groups[2].Value + ", C# " + name + " is " + Enum.GetUnderlyingType(cs).Name);

            string prefix = VariantPrefix(cName);
            var cMembers = new Dictionary<string, ulong>();
            var cNames = new Dictionary<string, string>();
            foreach (Match v in Regex.Matches(e.Groups[3].Value, @"(\w+)\s*=\s*(\d+)"))
            {
                string variant = v.Groups[1].Value;
                Check(variant.StartsWith(prefix), variant + " starts with " + prefix);
                string key = Key(variant.Substring(Math.Min(prefix.Length, variant.Length)));
                cMembers[key] = ulong.Parse(v.Groups[2].Value);
                cNames[key] = variant;
            }
            Check(cMembers.Count > 0, cName + " has members");
            var csMembers = new Dictionary<string, ulong>();
            foreach (string member in Enum.GetNames(cs))
            {
                csMembers[Key(member)] = Convert.ToUInt64(Enum.Parse(cs, member));
            }
            foreach (var kv in cMembers)
            {
                ulong value;
                if (!csMembers.TryGetValue(kv.Key, out value))
                    Check(false, cName + ": " + cNames[kv.Key] + " = " + kv.Value + " is missing from C# " + name);
                else
                    Check(value == kv.Value, cName + ": " + cNames[kv.Key] + " is " + kv.Value + " in C, " + value + " in C#");
            }
            foreach (var kv in csMembers)
            {
                Check(cMembers.ContainsKey(kv.Key), "C# " + name + "." + kv.Key + " = " + kv.Value + " has no " + prefix + " variant in the header");
            }
        }
        foreach (string name in csharpEnums.Keys)
        {
            Check(seen.Contains(name), "C# enum " + name + " has no enum Carc" + name + " in the header");
        }

        // Constants: every macro but the include guard, both ways.
        var constants = typeof(Native).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.IsLiteral)
            .ToDictionary(f => Key(f.Name), f => f);
        Check(defines.Count > 0, "the header defines CARC_ macros");
        foreach (var kv in defines)
        {
            FieldInfo field;
            if (!constants.TryGetValue(Key(kv.Key), out field))
                Check(false, "CARC_" + kv.Key + " = " + kv.Value + " has no constant Native." + kv.Key);
            else
                Check(Convert.ToUInt64(field.GetRawConstantValue()) == kv.Value,
                    "CARC_" + kv.Key + " is " + kv.Value + " in C, Native." + field.Name + " is " + field.GetRawConstantValue());
        }
        foreach (var kv in constants)
        {
            Check(defines.Keys.Any(d => Key(d) == kv.Key), "Native." + kv.Value.Name + " has no CARC_ macro in the header");
        }

        Console.WriteLine("header check: {0} enums, {1} macros; {2} passed, {3} failed",
            enums.Count, defines.Count, passed, failed);
        return failed == 0 ? 0 : 1;
    }
}
