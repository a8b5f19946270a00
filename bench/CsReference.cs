// Every call a C# compiler resolved, read back from the assembly it built: the reference `language_calls.py` measures
// Trident's C# call edges against (`bench/cs_reference.py` builds the project with Mono's `mcs -debug` and runs this).
//
// For each method body of the assembly, each `call`, `callvirt` and `newobj` instruction names the method the compiler
// bound (the declared one: an interface's or a base's for a virtual call, as Trident links it before `dispatch`), and
// the symbol file (`.mdb`) gives the source line of the instruction. Written as JSON lines for the Python side:
// {"caller": [type, method, file, line], "callee": [type, method], "site": [file, line]} and, per method,
// {"defined": [type, method, file, first line, last line]}. A type is its simple name (a nested type's own name, no
// generic arity); a compiler-made method or type (a lambda `<Run>m__0`, an iterator `<Run>c__Iterator0`) is the
// method it was written in.
//
//     mcs -r:Mono.CompilerServices.SymbolWriter.dll bench/CsReference.cs -out:CsReference.exe
//     mono CsReference.exe PROJECT.dll OUT.jsonl

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Text;
using Mono.CompilerServices.SymbolWriter;

class CsReference
{
    static readonly Dictionary<short, OpCode> Codes = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null))
        .ToDictionary(c => c.Value);

    static void Main(string[] args)
    {
        var assembly = Assembly.LoadFrom(args[0]);
        MonoSymbolFile symbols = null;
        try { symbols = MonoSymbolFile.ReadSymbolFile(args[0] + ".mdb"); } catch (Exception) { }
        Type[] types;
        try { types = assembly.GetTypes(); }
        catch (ReflectionTypeLoadException e) { types = e.Types.Where(t => t != null).ToArray(); }
        Overrides = OverridesOf(types);
        using (var output = new StreamWriter(args[1], false, new UTF8Encoding(false)))
        {
            foreach (var type in types)
            {
                const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance
                    | BindingFlags.Static | BindingFlags.DeclaredOnly;
                var bodies = type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all));
                foreach (var method in bodies)
                {
                    try { Read(method, assembly, symbols, output); }
                    catch (Exception e) { Console.Error.WriteLine("skipped " + type.Name + "." + method.Name + ": " + e.Message); }
                }
            }
        }
    }

    static void Read(MethodBase method, Assembly assembly, MonoSymbolFile symbols, StreamWriter output)
    {
        var body = method.GetMethodBody();
        if (body == null) return;
        var il = body.GetILAsByteArray();
        var lines = Lines(method, symbols);
        var caller = Written(method);
        if (lines.Count > 0)
        {
            var file = lines.Values.First().Item1;
            var rows = lines.Values.Where(l => l.Item1 == file).Select(l => l.Item2).ToList();
            output.WriteLine("{\"defined\": [" + Q(caller[0]) + ", " + Q(caller[1]) + ", " + Q(file) + ", "
                + rows.Min() + ", " + rows.Max() + "]}");
        }
        var typeArguments = method.DeclaringType.IsGenericType ? method.DeclaringType.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        int at = 0;
        while (at < il.Length)
        {
            int start = at;
            short value = il[at] == 0xFE ? (short)(0xFE00 | il[at + 1]) : il[at];
            at += il[at] == 0xFE ? 2 : 1;
            OpCode code;
            if (!Codes.TryGetValue(value, out code)) break;
            int size = OperandSize(code, il, at);
            bool calls = code == OpCodes.Call || code == OpCodes.Callvirt || code == OpCodes.Newobj;
            if (calls)
            {
                MethodBase callee = null;
                try { callee = method.Module.ResolveMethod(BitConverter.ToInt32(il, at), typeArguments, methodArguments); }
                catch (Exception) { }
                if (callee != null && callee.DeclaringType != null && callee.DeclaringType.Assembly == assembly)
                {
                    var written = Written(callee);
                    Tuple<string, int> site = Site(lines, start);
                    List<MethodBase> overriding;
                    Overrides.TryGetValue(callee, out overriding);
                    var others = (overriding ?? new List<MethodBase>()).Select(Written)
                        .Select(w => "[" + Q(w[0]) + ", " + Q(w[1]) + "]");
                    output.WriteLine("{\"caller\": [" + Q(caller[0]) + ", " + Q(caller[1]) + "], \"callee\": ["
                        + Q(written[0]) + ", " + Q(written[1]) + ", " + Q(callee.Name) + "], \"site\": ["
                        + Q(site == null ? "" : site.Item1) + ", " + (site == null ? 0 : site.Item2) + "], "
                        + "\"overrides\": [" + string.Join(", ", others) + "]}");
                }
            }
            at += size;
        }
    }

    // A virtual or interface method -> the methods of the assembly that override or implement it: a call the
    // compiler binds to the declaration (C# names the original virtual method, whatever the receiver's type) is
    // also rightly linked to the override of the receiver's declared type.
    static Dictionary<MethodBase, List<MethodBase>> Overrides = new Dictionary<MethodBase, List<MethodBase>>();

    static Dictionary<MethodBase, List<MethodBase>> OverridesOf(Type[] types)
    {
        var found = new Dictionary<MethodBase, List<MethodBase>>();
        Action<MethodBase, MethodBase> add = (root, method) =>
        {
            if (root == method) return;
            List<MethodBase> list;
            if (!found.TryGetValue(root, out list)) found[root] = list = new List<MethodBase>();
            list.Add(method);
        };
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance
            | BindingFlags.DeclaredOnly;
        foreach (var type in types)
        {
            try
            {
                foreach (var method in type.GetMethods(all))
                    if (method.IsVirtual) add(method.GetBaseDefinition(), method);
                if (type.IsInterface) continue;
                foreach (var face in type.GetInterfaces())
                {
                    var map = type.GetInterfaceMap(face);
                    for (int i = 0; i < map.InterfaceMethods.Length; i++)
                        if (map.TargetMethods[i].DeclaringType == type) add(map.InterfaceMethods[i], map.TargetMethods[i]);
                }
            }
            catch (Exception) { }
        }
        return found;
    }

    // The source line of each IL offset the symbol file knows.
    static SortedDictionary<int, Tuple<string, int>> Lines(MethodBase method, MonoSymbolFile symbols)
    {
        var found = new SortedDictionary<int, Tuple<string, int>>();
        if (symbols == null) return found;
        MethodEntry entry = null;
        try { entry = symbols.GetMethodByToken(method.MetadataToken); } catch (Exception) { }
        if (entry == null) return found;
        var table = entry.GetLineNumberTable();
        foreach (var line in table.LineNumbers)
        {
            if (line.Row <= 0 || line.Row == 0xFEEFEE) continue;
            var source = symbols.GetSourceFile(line.File);
            if (source != null && !found.ContainsKey(line.Offset))
                found[line.Offset] = Tuple.Create(source.FileName, line.Row);
        }
        return found;
    }

    static Tuple<string, int> Site(SortedDictionary<int, Tuple<string, int>> lines, int offset)
    {
        Tuple<string, int> last = null;
        foreach (var pair in lines)
        {
            if (pair.Key > offset) break;
            last = pair.Value;
        }
        return last;
    }

    // (type, method) as the source writes them: a nested type's own name, a compiler-made method's source method.
    static string[] Written(MethodBase method)
    {
        var type = method.DeclaringType;
        string name = method.Name;
        if (name.StartsWith("<") && name.IndexOf('>') > 1) name = name.Substring(1, name.IndexOf('>') - 1);
        while (type.Name.StartsWith("<") && type.DeclaringType != null)
        {
            if (type.Name.IndexOf('>') > 1) name = type.Name.Substring(1, type.Name.IndexOf('>') - 1);
            type = type.DeclaringType;
        }
        if (name == ".ctor" || name == ".cctor") name = Simple(type);
        name = name.Substring(name.LastIndexOf('.') + 1);  // an explicit interface implementation
        return new[] { Simple(type), name };
    }

    static string Simple(Type type)
    {
        var name = type.Name;
        int tick = name.IndexOf('`');
        return tick > 0 ? name.Substring(0, tick) : name;
    }

    static int OperandSize(OpCode code, byte[] il, int at)
    {
        switch (code.OperandType)
        {
            case OperandType.InlineNone: return 0;
            case OperandType.ShortInlineBrTarget:
            case OperandType.ShortInlineI:
            case OperandType.ShortInlineVar: return 1;
            case OperandType.InlineVar: return 2;
            case OperandType.InlineI8:
            case OperandType.InlineR: return 8;
            case OperandType.InlineSwitch: return 4 + 4 * BitConverter.ToInt32(il, at);
            default: return 4;
        }
    }

    static string Q(string text)
    {
        var escaped = new StringBuilder("\"");
        foreach (var c in text)
        {
            if (c == '"' || c == '\\') escaped.Append('\\').Append(c);
            else if (c < ' ') escaped.Append("\\u").Append(((int)c).ToString("x4"));
            else escaped.Append(c);
        }
        return escaped.Append('"').ToString();
    }
}
